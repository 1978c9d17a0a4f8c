/* probe.c - the machine-ceiling probe's loops (timed by ceiling.c).
 *
 * Each loop runs independent dependency chains of one packed instruction,
 * enough chains to cover the instruction's latency, so the core issues it
 * at its peak rate. Vectors are as wide as the build's SIMD ISA
 * (SPEEDLAB_SIMD_LANES doubles). Built with the kernels' -march flags and
 * -ffp-contract=fast, so a*m + c is one FMA instruction (check with
 * `objdump -d`: vfmadd...pd in probe_fma). Every loop returns a sum of
 * its chains, so no chain can be optimised away.
 */
#include "probe.h"

#include <string.h>

#include "speedlab_config.h"

typedef double vdouble __attribute__((vector_size(8 * SPEEDLAB_SIMD_LANES)));
typedef uint64_t vu64 __attribute__((vector_size(8 * SPEEDLAB_SIMD_LANES)));

/* The first `lanes` lanes of the vector at v, summed; read through
 * memcpy, so one helper serves both widths of a probe. */
static double lanes_sum(const void *v, int lanes)
{
    double s = 0.0;
    for (int i = 0; i < lanes; i++) {
        double x;
        memcpy(&x, (const char *)v + i * sizeof x, sizeof x);
        s += x;
    }
    return s;
}

/* The same for 64-bit integer lanes, each as a double (its top 53 bits). */
static double lanes_sum_u64(const void *v, int lanes)
{
    double s = 0.0;
    for (int i = 0; i < lanes; i++) {
        uint64_t x;
        memcpy(&x, (const char *)v + i * sizeof x, sizeof x);
        s += (double)(x >> 11);
    }
    return s;
}

/* OPAQUE(v): v's value, unknown to the compiler from here on, at no cost
 * (an empty asm that claims to change the register). Integer multiplies
 * and xors may be regrouped, so without it clang 14 unrolls a chain of
 * a *= k eight times into one multiply by k^8, and simplifies the xor
 * chains too: 8x and 3x the real peak (Zen 4). Floating point may not be
 * regrouped, so the FMA and divide chains need none. */
#if defined(__x86_64__) && SPEEDLAB_SIMD_LANES >= 2
#define OPAQUE(v) __asm__("" : "+v"(v))
#elif defined(__aarch64__) && SPEEDLAB_SIMD_LANES == 2
#define OPAQUE(v) __asm__("" : "+w"(v))
#else
/* Elsewhere (SVE wider than NEON too) a compiler may still fold: the
 * probe's ops per cycle, against the clock, would show it. */
#define OPAQUE(v) ((void)0)
#endif

/* a = a * m + c converges to c / (1 - m) = 1: the values stay finite. */
double sl_probe_fma(int64_t reps)
{
    const vdouble m = (vdouble){ 0 } + 0.9999999, c = (vdouble){ 0 } + 1e-7;
    vdouble a0 = m + 0.01, a1 = m + 0.02, a2 = m + 0.03, a3 = m + 0.04;
    vdouble a4 = m + 0.05, a5 = m + 0.06, a6 = m + 0.07, a7 = m + 0.08;
    vdouble a8 = m + 0.09, a9 = m + 0.10, a10 = m + 0.11, a11 = m + 0.12;
    for (int64_t r = 0; r < reps; r++) {
        a0 = a0 * m + c; a1 = a1 * m + c; a2 = a2 * m + c; a3 = a3 * m + c;
        a4 = a4 * m + c; a5 = a5 * m + c; a6 = a6 * m + c; a7 = a7 * m + c;
        a8 = a8 * m + c; a9 = a9 * m + c; a10 = a10 * m + c; a11 = a11 * m + c;
    }
    vdouble s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
    return lanes_sum(&s, SPEEDLAB_SIMD_LANES);
}

/* a = n / a swaps between a and n / a: the values stay finite. One body
 * for two widths: a core's divider may do more lanes a second in
 * narrower vectors (a 2-core Intel Xeon VM with AVX-512: 2.08e9 in
 * 256-bit ones, 1.93e9 in 512-bit ones, so lesson 1's simd loop, which
 * GCC's tuning for that core builds with 256-bit vectors, stood at 108%
 * of the wider one's roof). */
#define DIVIDE_PROBE(name, vec, lanes)                                        \
    double name(int64_t reps)                                                 \
    {                                                                         \
        const vec n = (vec){ 0 } + 1.0000001;                                 \
        vec a0 = n + 0.1, a1 = n + 0.2, a2 = n + 0.3, a3 = n + 0.4;           \
        vec a4 = n + 0.5, a5 = n + 0.6, a6 = n + 0.7, a7 = n + 0.8;           \
        for (int64_t r = 0; r < reps; r++) {                                  \
            a0 = n / a0; a1 = n / a1; a2 = n / a2; a3 = n / a3;               \
            a4 = n / a4; a5 = n / a5; a6 = n / a6; a7 = n / a7;               \
        }                                                                     \
        vec s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;                        \
        return lanes_sum(&s, (lanes));                                        \
    }

typedef double vhalf __attribute__((vector_size(8 * SL_PROBE_HALF_LANES)));

DIVIDE_PROBE(sl_probe_divide, vdouble, SPEEDLAB_SIMD_LANES)
DIVIDE_PROBE(sl_probe_divide_half, vhalf, SL_PROBE_HALF_LANES)

/* Odd multipliers keep every bit alive. */
double sl_probe_mul64(int64_t reps)
{
    const vu64 k = (vu64){ 0 } + UINT64_C(0xbf58476d1ce4e5b9);
    vu64 a0 = k + 1, a1 = k + 3, a2 = k + 5, a3 = k + 7;
    vu64 a4 = k + 9, a5 = k + 11, a6 = k + 13, a7 = k + 15;
    for (int64_t r = 0; r < reps; r++) {
        a0 *= k; a1 *= k; a2 *= k; a3 *= k;
        a4 *= k; a5 *= k; a6 *= k; a7 *= k;
        OPAQUE(a0); OPAQUE(a1); OPAQUE(a2); OPAQUE(a3);
        OPAQUE(a4); OPAQUE(a5); OPAQUE(a6); OPAQUE(a7);
    }
    vu64 s = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
    return lanes_sum_u64(&s, SPEEDLAB_SIMD_LANES);
}

/* The cheapest vector instruction, xor, each chain with its neighbour's
 * value, so that no xor waits more than one xor for its inputs. One body
 * for two widths: a core may issue more narrower instructions a cycle
 * (an Intel Xeon VM with AVX-512: 2 512-bit xors a cycle, 3 256-bit
 * ones; Zen 4: twice as many 256-bit ones), and the report divides a
 * loop's instructions of each width by that width's rate. */
#define VECTOR_PROBE(name, vec, lanes)                                              \
    double name(int64_t reps)                                                       \
    {                                                                               \
        vec a0 = (vec){ 0 } + 1, a1 = a0 + 2, a2 = a0 + 4, a3 = a0 + 8;             \
        vec a4 = a0 + 16, a5 = a0 + 32, a6 = a0 + 64, a7 = a0 + 128;                \
        vec a8 = a0 + 256, a9 = a0 + 512, a10 = a0 + 1024, a11 = a0 + 2048;         \
        for (int64_t r = 0; r < reps; r++) {                                        \
            a0 ^= a1; a1 ^= a2; a2 ^= a3; a3 ^= a4; a4 ^= a5; a5 ^= a6;             \
            a6 ^= a7; a7 ^= a8; a8 ^= a9; a9 ^= a10; a10 ^= a11; a11 ^= a0;         \
            OPAQUE(a0); OPAQUE(a1); OPAQUE(a2); OPAQUE(a3); OPAQUE(a4); OPAQUE(a5); \
            OPAQUE(a6); OPAQUE(a7); OPAQUE(a8); OPAQUE(a9); OPAQUE(a10);            \
            OPAQUE(a11);                                                            \
        }                                                                           \
        vec s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;        \
        return lanes_sum_u64(&s, (lanes));                                          \
    }

typedef uint64_t vu64_half __attribute__((vector_size(8 * SL_PROBE_HALF_LANES)));

VECTOR_PROBE(sl_probe_vector, vu64, SPEEDLAB_SIMD_LANES)
VECTOR_PROBE(sl_probe_vector_half, vu64_half, SL_PROBE_HALF_LANES)

/* Written in assembly: a compiler folds a chain of adds of constants into
 * one. */
double sl_probe_clock(int64_t reps)
{
#if defined(__x86_64__) || defined(__aarch64__)
    /* A register, not an immediate: an Intel Xeon VM (AMX: Sapphire
     * Rapids or later) ran a chain of `add $1` at 9 a cycle ("23.5 GHz"),
     * as if its renamer folded the immediates; adds of a register, and
     * imuls at their 3 cycles, agreed there on 4.16 GHz. */
    uint64_t x = (uint64_t)reps, one = 1;
    for (int64_t r = 0; r < reps; r++) {
#if defined(__x86_64__)
#define SL_ADD4 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
#else
#define SL_ADD4 "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
#endif
        __asm__ volatile(SL_ADD4 SL_ADD4 SL_ADD4 SL_ADD4 SL_ADD4 SL_ADD4 SL_ADD4 SL_ADD4
                         : "+r"(x) : "r"(one));
#undef SL_ADD4
    }
    return (double)x;
#else
    (void)reps;
    return -1.0;
#endif
}
