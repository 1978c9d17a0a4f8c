/* simd.c - Monte Carlo pi, one core, eight points per instruction.
 *
 * The generator is a handful of shifts, xors and 64-bit multiplies, which
 * AVX-512 can do on 8 lanes at once. Vectorise the loop so that each lane
 * works on its own points; z is point i's counter, the very number
 * sl_rng_u64(seed, 2i) mixes. The count must match the scalar variant's
 * exactly. (step 4.2)
 */
#include "montecarlo.h"

int64_t montecarlo_simd(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    uint64_t z = sl_rng_counter(seed, 0);
    // TODO(4.2): vectorise this loop: omp simd, a reduction on inside, and
    //            linear(z: MC_COUNTER_STEP) so every lane starts at its
    //            own point's counter.
    for (int64_t i = 0; i < samples; i++) {
        inside += montecarlo_inside(sl_rng_mix(z), sl_rng_mix(z + SL_RNG_GAMMA));
        z += MC_COUNTER_STEP;
    }
    return inside;
}
