/* philox.h - Philox4x32-10, the counter-based generator the Monte Carlo
 * lesson draws every point from, and its conversion to doubles in [0, 1).
 *
 * Why Philox: point i is a pure function of (seed, i), so scalar code, SIMD
 * lanes, any number of threads and a GPU all draw exactly the same points;
 * there is no state to share (no race, no lock) and nothing to seed per
 * thread. Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random
 * numbers: as easy as 1, 2, 3", SC'11; the Random123 library) passes
 * TestU01's BigCrush, needs only 32x32->64-bit multiplies, xors and adds
 * (which vectorise and run on GPUs), and has published known-answer
 * vectors, which tests/test_rng.c checks.
 *
 * Everything is static inline and inside `declare target`, so it can be
 * called in `omp simd` loops and in target regions alike.
 */
#ifndef SPEEDLAB_PHILOX_H
#define SPEEDLAB_PHILOX_H

#include <stdint.h>

/* The multipliers and the key increments (Weyl constants: the golden ratio
 * and sqrt(3) - 1 in 32-bit fixed point) of Philox4x32. */
#define SL_PHILOX_M0 UINT32_C(0xD2511F53)
#define SL_PHILOX_M1 UINT32_C(0xCD9E8D57)
#define SL_PHILOX_W0 UINT32_C(0x9E3779B9)
#define SL_PHILOX_W1 UINT32_C(0xBB67AE85)
#define SL_PHILOX_ROUNDS 10

#pragma omp declare target

/* One Philox4x32 round on (c0..c3) with key (k0, k1). */
static inline void sl_philox_round(uint32_t *c0, uint32_t *c1, uint32_t *c2,
                                   uint32_t *c3, uint32_t k0, uint32_t k1)
{
    uint64_t p0 = (uint64_t)SL_PHILOX_M0 * *c0;
    uint64_t p1 = (uint64_t)SL_PHILOX_M1 * *c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ *c1 ^ k0;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ *c3 ^ k1;
    *c1 = (uint32_t)p1;
    *c3 = (uint32_t)p0;
    *c0 = n0;
    *c2 = n2;
}

/* Philox4x32-10: encrypt the counter ctr[0..3] under key[0..1] into
 * out[0..3]. The key is bumped by the Weyl constants between rounds. */
static inline void sl_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
                                    uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int r = 0; r < SL_PHILOX_ROUNDS; r++) {
        if (r > 0) {
            k0 += SL_PHILOX_W0;
            k1 += SL_PHILOX_W1;
        }
        sl_philox_round(&c0, &c1, &c2, &c3, k0, k1);
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* A double in [0, 1) from 64 random bits, without bias: the top 53 bits
 * are an integer in [0, 2^53), and every such integer times 2^-53 is a
 * double, exactly; all 2^53 values are equally likely. */
static inline double sl_u01(uint64_t bits)
{
    return (double)(bits >> 11) * 0x1.0p-53;
}

/* Point i of the stream `seed`: counter (i, 0), key seed; x from the first
 * 64 bits of the output, y from the second. */
static inline void sl_random_point(uint64_t seed, uint64_t i, double *x, double *y)
{
    const uint32_t ctr[4] = { (uint32_t)i, (uint32_t)(i >> 32), 0, 0 };
    const uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    uint32_t out[4];
    sl_philox4x32_10(ctr, key, out);
    *x = sl_u01(((uint64_t)out[1] << 32) | out[0]);
    *y = sl_u01(((uint64_t)out[3] << 32) | out[2]);
}

#pragma omp end declare target

#endif
