/* threads.c - Monte Carlo pi on several cores, one point at a time per core.
 *
 * BEGIN SOLUTION HEADER
 * parallel for hands each thread a block of points. There is no generator
 * state to share, lock or seed per thread: a thread computes the draws of
 * its own points from (seed, i), so the count is the same on 1 thread or
 * 64. inside must be a reduction (shared, it is a data race). Compare the
 * exhibit `make shared-rng`, where the generator's state is shared.
 * EXERCISE HEADER
 * Share the points between threads. Each point's draws come from (seed, i)
 * alone: what, if anything, must the threads share? The count must be the
 * same on 1 thread or 64. Compare the exhibit `make shared-rng`. (step 4.3)
 * END SOLUTION HEADER
 */
#include "montecarlo.h"

int64_t montecarlo_threads(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    /* BEGIN SOLUTION */
#pragma omp parallel for reduction(+:inside) num_threads(threads)
    /* EXERCISE
    (void)threads;
    // TODO(4.3): share the points between `threads` threads. What does
    //            inside need, and does the generator need anything?
    END SOLUTION */
    for (int64_t i = 0; i < samples; i++) {
        uint64_t rx = sl_rng_u64(seed, 2 * (uint64_t)i);
        uint64_t ry = sl_rng_u64(seed, 2 * (uint64_t)i + 1);
        inside += montecarlo_inside(rx, ry);
    }
    return inside;
}
