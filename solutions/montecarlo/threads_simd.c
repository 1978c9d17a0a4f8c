/* threads_simd.c - Monte Carlo pi on every core and every lane: the best
 * CPU variant.
 *
 * BEGIN SOLUTION HEADER
 * The simd loop with parallel for in front. linear(z: ...) now also tells
 * each thread where its block's counters start (z0 + first_i * step), so
 * the threads need nothing from each other but the final reduction.
 * EXERCISE HEADER
 * Steps 4.2 and 4.3 together: every core and every lane. Each thread's
 * block of points starts at its own counter. (step 4.4)
 * END SOLUTION HEADER
 */
#include "montecarlo.h"

int64_t montecarlo_threads_simd(int64_t samples, uint64_t seed, int threads,
                                sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    uint64_t z = sl_rng_counter(seed, 0);
    /* BEGIN SOLUTION */
#pragma omp parallel for simd reduction(+:inside) linear(z: MC_COUNTER_STEP) \
    num_threads(threads)
    /* EXERCISE
    (void)threads;
    // TODO(4.4): combine both: omp parallel for simd with the reduction,
    //            the linear clause from step 4.2 and num_threads(threads).
    END SOLUTION */
    for (int64_t i = 0; i < samples; i++) {
        inside += montecarlo_inside(sl_rng_mix(z), sl_rng_mix(z + SL_RNG_GAMMA));
        z += MC_COUNTER_STEP;
    }
    return inside;
}
