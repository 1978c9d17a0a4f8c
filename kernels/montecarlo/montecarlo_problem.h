/* montecarlo_problem.h - Monte Carlo pi: the signature every variant has,
 * how point i is drawn and tested, and the reference check.
 *
 * N points (x, y) in the unit square; a point is inside when
 * x^2 + y^2 < 1, which happens with probability p = pi/4, so
 * pi ~ 4 * inside / N. Point i takes draws 2i and 2i+1 of the
 * counter-based generator (rng.h) as x and y, so it is a pure function of
 * (seed, i): every variant, on any number of lanes, threads or a GPU, must
 * count exactly the same points inside as the reference.
 */
#ifndef SPEEDLAB_MONTECARLO_PROBLEM_H
#define SPEEDLAB_MONTECARLO_PROBLEM_H

#include <stdint.h>

#include "hybrid_problem.h"
#include "kernel.h"
#include "rng.h"

/* An awkward prime near 1e6: every variant is also checked there. */
#define MC_PROBE_SIZE INT64_C(1000003)
/* Beyond 2^53 points the count of points inside is not exact in a double. */
#define MC_MAX_SIZE (INT64_C(1) << 53)
/* Two draws per point: the counter of point i+1's x is point i's plus this. */
#define MC_COUNTER_STEP (2 * SL_RNG_GAMMA)
/* A draw's top 53 bits, in place: what sl_rng_unit keeps (montecarlo_inside). */
#define MC_TOP_53 (~UINT64_C(0x7ff))

/* Every montecarlo variant: draw `samples` points from `seed` on `threads`
 * OpenMP threads (variants without threads ignore it); set *where to where
 * the loop ran; return how many points fell inside the quarter circle. */
typedef int64_t montecarlo_fn(int64_t samples, uint64_t seed, int threads,
                              sl_where *where);

#pragma omp declare target

/* Is the point whose coordinates come from the draws rx and ry inside?
 * The point is x = sl_rng_unit(rx) = a * 2^-53, y = b * 2^-53 with the
 * 53-bit integers a = rx >> 11, b = ry >> 11. The test x^2 + y^2 < 1 is
 * done on integers scaled by a power of two, each exact in a double, so
 * every step is exact and all forms give the same answer for every point
 * (tests/test_rng.c checks both). This skips two multiplies per point.
 *
 * Cleared: A^2 + B^2 < 2^128 on A = a * 2^11, B = b * 2^11, the draws with
 * their low 11 bits cleared. Clearing bits, unlike shifting them out,
 * merges with the mix's last xor into one instruction where the vector
 * unit has a three-input logic op (AVX-512's vpternlogq). */
static inline SL_DEVICE_FN int montecarlo_inside_cleared(uint64_t rx, uint64_t ry)
{
    double a = (double)(rx & MC_TOP_53), b = (double)(ry & MC_TOP_53);
    return a * a + b * b < 0x1.0p128;
}

/* Shifted: a^2 + b^2 < 2^106 on a and b themselves, converted as signed
 * integers. x86-64 converts an unsigned 64-bit integer only with AVX-512;
 * without it GCC tests the top bit and branches, and random draws take
 * the wrong branch half the time (Monte Carlo's scalar rung 4.3x slower on
 * AVX2, Intel Xeon model 167, GCC 12.2). */
static inline SL_DEVICE_FN int montecarlo_inside_shifted(uint64_t rx, uint64_t ry)
{
    double a = (double)(int64_t)(rx >> 11), b = (double)(int64_t)(ry >> 11);
    return a * a + b * b < 0x1.0p106;
}

/* The one every variant calls: cleared wherever unsigned conversion is an
 * instruction (AVX-512, ARM, GPUs); shifted on x86-64 without AVX-512. */
static inline SL_DEVICE_FN int montecarlo_inside(uint64_t rx, uint64_t ry)
{
#if defined(__x86_64__) && !defined(__AVX512F__)
    return montecarlo_inside_shifted(rx, ry);
#else
    return montecarlo_inside_cleared(rx, ry);
#endif
}

#pragma omp end declare target

/* The reference count of points inside: the textbook formula on
 * sl_rng_unit's doubles, sharing no code with the trees' variants beyond
 * rng.h. Cached, so checking many variants costs one computation. */
int64_t montecarlo_reference(int64_t samples, uint64_t seed);

/* The same count for points first .. first + count - 1 only, uncached (one
 * MPI rank's share, lesson 6). */
int64_t montecarlo_reference_range(int64_t first, int64_t count, uint64_t seed);

/* The estimate of pi from `inside` of `samples` points: 4 * inside / N. */
double montecarlo_estimate(int64_t inside, int64_t samples);

/* The standard error of the estimate 4*inside/N: 4*sqrt(p(1-p)/N) with
 * p = pi/4, about 1.642/sqrt(N). */
double montecarlo_sigma(int64_t samples);

/* Call a variant / check an outcome: the problem's run and check, shared
 * with the exhibits. */
int montecarlo_run(const sl_variant *v, const sl_problem *p, sl_outcome *out);
sl_verdict montecarlo_check(const sl_problem *p, const sl_outcome *out);
/* Only the statistical half of the check (|estimate - pi| <= 6 sigma), for
 * exhibits whose generators draw other points than the reference's. */
sl_verdict montecarlo_check_statistics(const sl_problem *p, const sl_outcome *out);
double montecarlo_std_error(const sl_problem *p);

extern const sl_problem_def montecarlo_problem;

/* Lesson 6: one rank's share against the reference (hybrid_problem.h). */
sl_share_ok_fn sl_montecarlo_share_ok;

#endif
