/* simd.c - Monte Carlo pi, one core, eight points per instruction.
 *
 * BEGIN SOLUTION HEADER
 * The generator is a handful of shifts, xors and 64-bit multiplies, which
 * AVX-512 does on 8 lanes at once. Two clauses make it fast:
 *  - reduction(+:inside): each lane counts its own points;
 *  - linear(z: MC_COUNTER_STEP): z is point i's counter, seed + (2i+1)*gamma,
 *    the very number sl_rng_u64(seed, 2i) mixes. Written as "z grows by a
 *    fixed step", the compiler gives each lane its own start and adds,
 *    where sl_rng_u64 would multiply i by gamma on every point. The points
 *    are the same ones; the count must match the scalar variant's.
 * EXERCISE HEADER
 * The generator is a handful of shifts, xors and 64-bit multiplies, which
 * AVX-512 can do on 8 lanes at once. Vectorise the loop so that each lane
 * works on its own points; z is point i's counter, the very number
 * sl_rng_u64(seed, 2i) mixes. The count must match the scalar variant's
 * exactly. (step 4.2)
 * END SOLUTION HEADER
 */
#include "montecarlo.h"

int64_t montecarlo_simd(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    uint64_t z = sl_rng_counter(seed, 0);
    /* BEGIN SOLUTION */
#pragma omp simd reduction(+:inside) linear(z: MC_COUNTER_STEP)
    /* EXERCISE
    // TODO(4.2): vectorise this loop: omp simd, a reduction on inside, and
    //            linear(z: MC_COUNTER_STEP) so every lane starts at its
    //            own point's counter.
    END SOLUTION */
    for (int64_t i = 0; i < samples; i++) {
        inside += montecarlo_inside(sl_rng_mix(z), sl_rng_mix(z + SL_RNG_GAMMA));
        z += MC_COUNTER_STEP;
    }
    return inside;
}
