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
 * Checked like every pi variant: tests/e2e.sh runs this exhibit through the
 * runner, which validates it before timing it.
 */
#include <omp.h>
#include <stdlib.h>

#include "false_sharing.h"

/* Bytes per cache line on x86-64 and most ARM cores. */
#define CACHE_LINE 64

double pi_adjacent(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    volatile double *partial = calloc((size_t)threads, sizeof *partial);
    if (partial == NULL)
        return -1.0; /* fails validation: never a speedup */
    int used = 1;
#pragma omp parallel num_threads(threads)
    {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        if (id == 0)
            used = n;
        for (int64_t i = id; i < steps; i += n) {
            double x = ((double)i + 0.5) * h;
            partial[id] += 4.0 / (1.0 + x * x);
        }
    }
    double sum = 0.0;
    for (int t = 0; t < used; t++)
        sum += partial[t];
    free((void *)partial);
    return h * sum;
}

/* One slot per cache line: the same loop, no shared lines. */
typedef struct padded_sum {
    double value;
    char pad[CACHE_LINE - sizeof(double)];
} padded_sum;

double pi_padded(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    volatile padded_sum *partial =
        aligned_alloc(CACHE_LINE, (size_t)threads * sizeof *partial);
    if (partial == NULL)
        return -1.0;
    for (int t = 0; t < threads; t++)
        partial[t].value = 0.0;
    int used = 1;
#pragma omp parallel num_threads(threads)
    {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        if (id == 0)
            used = n;
        for (int64_t i = id; i < steps; i += n) {
            double x = ((double)i + 0.5) * h;
            partial[id].value += 4.0 / (1.0 + x * x);
        }
    }
    double sum = 0.0;
    for (int t = 0; t < used; t++)
        sum += partial[t].value;
    free((void *)partial);
    return h * sum;
}
