/* spmd.c - pi with threads by hand: one parallel region, and each thread
 * works out its own share from its id (SPMD: single program, multiple data).
 *
 * Step 1.6: share the steps between threads without `for`: one parallel
 * region, in which each thread knows its id and how many there are. Where
 * does each thread keep its sum, and how are the sums added at the end?
 */
#include <omp.h>

#include "pi.h"

double pi_spmd(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
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
    return h * sum;
}
