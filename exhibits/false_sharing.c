/* false_sharing.c - lesson 1's exhibit: per-thread partial sums in adjacent
 * array slots (false sharing) and the padded fix. Run: make false-sharing.
 *
 * Each thread adds into partial[id]. Adjacent doubles share one 64-byte
 * cache line, so every store by one core invalidates the line in the other
 * core's cache: the line ping-pongs and two threads run slower than one.
 * Padding each slot to its own cache line removes the contention.
 *
 * `volatile` makes every step store to memory, as real code must when other
 * threads read the partial sums (progress counters, histograms). Without it
 * GCC -O3 keeps partial[id] in a register and the effect disappears, which
 * is the other half of the lesson: reduction(+:sum) (the threads variant)
 * gives each thread a private sum and never has the problem.
 *
 * Checked like every pi variant: tests/e2e/runner.sh runs this exhibit through the
 * runner, which validates it before timing it.
 */
#include <omp.h>
#include <stdlib.h>

#include "false_sharing.h"

/* Bytes per cache line on x86-64 and most ARM cores. */
#define CACHE_LINE 64

/* pi from per-thread partial sums kept `spacing` doubles apart: 1 puts the
 * threads' sums side by side in one cache line, CACHE_LINE/sizeof(double)
 * gives each its own line. The spacing is the only difference between the
 * two exhibits below, and all of the difference in their times. */
static double pi_partial_sums(int64_t steps, int threads, size_t spacing)
{
    const double h = 1.0 / (double)steps;
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t bytes = (size_t)threads * spacing * sizeof(double);
    bytes = (bytes + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    volatile double *partial = aligned_alloc(CACHE_LINE, bytes);
    if (partial == NULL)
        return -1.0; /* fails validation: never a speedup */
    for (int t = 0; t < threads; t++)
        partial[(size_t)t * spacing] = 0.0;
    int used = 1;
#pragma omp parallel num_threads(threads)
    {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        if (id == 0)
            used = n;
        for (int64_t i = id; i < steps; i += n) {
            double x = ((double)i + 0.5) * h;
            partial[(size_t)id * spacing] += 4.0 / (1.0 + x * x);
        }
    }
    double sum = 0.0;
    for (int t = 0; t < used; t++)
        sum += partial[(size_t)t * spacing];
    free((void *)partial);
    return h * sum;
}

double pi_adjacent(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    return pi_partial_sums(steps, threads, 1);
}

double pi_padded(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    return pi_partial_sums(steps, threads, CACHE_LINE / sizeof(double));
}
