/* expert.c - Monte Carlo pi, the expert rung: the same generator and the
 * same points, counted as a hand-written AVX-512 loop would.
 *
 * Optional, for fast participants: as written this is threads_simd, one
 * block of points per thread. Beat it with the same points (step 4.7).
 */
#include <omp.h>

#include "montecarlo.h"

#if MC_EXPERT_NATIVE == 1
#include <immintrin.h>
#elif MC_EXPERT_NATIVE == 2
#include <arm_sve.h>
#endif

/* Points [first, last) as in threads_simd, on one thread. */
static int64_t count_portable(int64_t first, int64_t last, uint64_t seed)
{
    int64_t inside = 0;
    uint64_t z = sl_rng_counter(seed, 2 * (uint64_t)first);
#pragma omp simd reduction(+:inside) linear(z: MC_COUNTER_STEP)
    for (int64_t i = first; i < last; i++) {
        inside += montecarlo_inside(sl_rng_mix(z), sl_rng_mix(z + SL_RNG_GAMMA));
        z += MC_COUNTER_STEP;
    }
    return inside;
}


int64_t montecarlo_expert(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
#pragma omp parallel num_threads(threads) reduction(+:inside)
    {
        int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
        int64_t first = samples * t / n, last = samples * (t + 1) / n;
        // TODO(4.7): the points below are counted as threads_simd counts
        //            them. Count as many as you can faster (step 4.7).
        inside += count_portable(first, last, seed);
    }
    return inside;
}
