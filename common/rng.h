/* rng.h - a counter-based random number generator: draw k of a seed is a
 * pure function of (seed, k), so any lane, thread or GPU can compute its
 * own draws without sharing state, and every variant draws the same numbers.
 *
 * The generator is SplitMix64 (G. L. Steele, D. Lea, C. H. Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014; the mixing
 * constants are D. Stafford's "Mix13"). Why this one:
 *  - published quality: its output passes TestU01's BigCrush, and it is
 *    Java's SplittableRandom and the generator Vigna recommends for seeding;
 *  - counter-based by construction: the sequential generator adds a
 *    constant gamma to its state and mixes the state, so draw k is
 *    mix(seed + (k+1)*gamma), computable directly;
 *  - cheap and vectorisable: shifts, xors and two 64-bit multiplies, which
 *    AVX-512 has for 8 lanes at once (vpmullq). Philox4x32-10 (Random123),
 *    the other candidate, ran at under a fifth of the speed under omp simd
 *    on the development machine (0.25e9 against 1.4e9 points/s).
 * Not for cryptography, and its 2^64 period is per seed.
 *
 * tests/test_rng.c checks it against published known answers (the
 * sequential SplitMix64 of Vigna's splitmix64.c, as quoted by Rosetta
 * Code's "Pseudo-random numbers/Splitmix64" task) and with a statistical
 * sanity test.
 */
#ifndef SPEEDLAB_RNG_H
#define SPEEDLAB_RNG_H

#include <stdint.h>

#include "device_fn.h"

/* The Weyl sequence's step, 2^64 / golden ratio, odd: the state visits
 * every 64-bit value once per period. */
#define SL_RNG_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* The helpers are called inside target regions too (gpu variants), and
 * by the CUDA variants (SL_DEVICE_FN). */
#pragma omp declare target

/* SplitMix64's output function: a bijection of 64-bit words whose every
 * output bit depends on every input bit. */
static inline SL_DEVICE_FN uint64_t sl_rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The state before draw k: the counter that draw mixes. */
static inline SL_DEVICE_FN uint64_t sl_rng_counter(uint64_t seed, uint64_t k)
{
    return seed + (k + 1) * SL_RNG_GAMMA;
}

/* Draw k (k = 0, 1, ...) of the generator seeded with seed: exactly the
 * k-th number the sequential SplitMix64 seeded with seed returns. */
static inline SL_DEVICE_FN uint64_t sl_rng_u64(uint64_t seed, uint64_t k)
{
    return sl_rng_mix(sl_rng_counter(seed, k));
}

/* 64 random bits to a double in [0, 1): the top 53 bits times 2^-53.
 * Every one of the 2^53 values is equally likely and exact (no rounding,
 * so no bias towards values that rounding favours), and 1.0 is
 * impossible. Dividing all 64 bits by 2^64 instead would round some
 * draws up to 1.0. */
static inline SL_DEVICE_FN double sl_rng_unit(uint64_t r)
{
    return (double)(r >> 11) * 0x1.0p-53;
}

#pragma omp end declare target

#endif
