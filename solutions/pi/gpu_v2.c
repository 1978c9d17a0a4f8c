/* gpu_v2.c - lesson 5, stage 2: `target teams distribute`.
 *
 * BEGIN SOLUTION HEADER
 * teams creates a league of teams (on a GPU, thread blocks spread over all
 * multiprocessors); distribute splits the steps among them. Each team runs
 * its share on one thread only, its initial thread, so a GPU is still
 * mostly idle: stage 3 (gpu.c, step 1.5) adds the threads inside each
 * team. The reduction now combines the teams' sums.
 * EXERCISE HEADER
 * Stage 2 (step 5.3): a league of teams, the steps distributed among them.
 * How many threads does each team run its share on, and so how much of a
 * GPU is busy? Whose sums does the reduction now combine?
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "pi.h"

double pi_gpu_v2(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    int on_host = 1;
    /* BEGIN SOLUTION */
#pragma omp target teams distribute reduction(+:sum) map(tofrom: sum, on_host)
    /* EXERCISE
    // TODO(5.3): offload this loop with omp target teams distribute: a
    //            reduction on sum, and map(tofrom:) for sum and on_host.
    END SOLUTION */
    for (int64_t i = 0; i < steps; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    return h * sum;
}
