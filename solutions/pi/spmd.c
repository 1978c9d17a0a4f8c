/* spmd.c - pi with threads by hand: one parallel region, and each thread
 * works out its own share from its id (SPMD: single program, multiple data).
 *
 * BEGIN SOLUTION HEADER
 * What parallel for and reduction do for you, written out: each thread
 * takes the steps id, id + n, id + 2n, ... and adds them into its own slot
 * of a shared array; one thread adds the slots after the region. Each slot
 * has a cache line to itself: two threads' sums side by side would share a
 * line, and code that stores to it on every step (step 1.7's exhibit) sends
 * the line back and forth between the cores. The runtime may grant fewer
 * threads than asked, so the region records how many it got.
 * EXERCISE HEADER
 * Step 1.6: share the steps between threads without `for`: one parallel
 * region, in which each thread knows its id and how many there are. Where
 * does each thread keep its sum, and how are the sums added at the end?
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "pi.h"

double pi_spmd(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    /* BEGIN SOLUTION */
    struct slot {
        double sum;
        char pad[64 - sizeof(double)]; /* one 64-byte cache line a slot */
    } partial[threads > 0 ? threads : 1];
    int used = 1;
#pragma omp parallel num_threads(threads)
    {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        if (id == 0)
            used = n;
        partial[id].sum = 0.0;
        for (int64_t i = id; i < steps; i += n) {
            double x = ((double)i + 0.5) * h;
            partial[id].sum += 4.0 / (1.0 + x * x);
        }
    }
    for (int t = 0; t < used; t++)
        sum += partial[t].sum;
    /* EXERCISE
    (void)threads;
    // TODO(1.6): one #pragma omp parallel region; in it each thread takes
    //            its id (omp_get_thread_num) and the thread count
    //            (omp_get_num_threads), sums the steps id, id + n, ... into
    //            its own slot of an array, and after the region one thread
    //            adds the slots.
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    END SOLUTION */
    return h * sum;
}
