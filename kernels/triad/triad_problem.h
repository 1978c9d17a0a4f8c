/* triad_problem.h - the STREAM triad, a[i] = b[i] + s * c[i]: the signature
 * every variant has, the arrays' values, and the exact check.
 *
 * The kit's other kernels compute much and move little. The triad reads
 * 16 bytes (b[i], c[i]) and writes 8 (a[i]) for one multiply-add (32 on
 * the memory bus: an ordinary store first reads the line it writes), so
 * past the caches its speed is the memory's, not the core's: lesson 7,
 * the memory wall. Two kernels share the variants: `triad` at a size well past this
 * machine's last-level cache, `triad_cache` at one that fits in a core's
 * L2, for the contrast.
 *
 * The values are chosen so that every result is exact in a double (the
 * gold-value idea of BabelStream): b[i] is an integer below 1024, c[i] a
 * multiple of 1/4 below 128, s = 3, so b[i] + s*c[i] has at most 12
 * significant bits and rounds the same with or without a fused
 * multiply-add. Every element is compared, exactly.
 */
#ifndef SPEEDLAB_TRIAD_PROBLEM_H
#define SPEEDLAB_TRIAD_PROBLEM_H

#include <stdint.h>

#include "kernel.h"

/* C's restrict, which the signatures below promise, is __restrict__ to
 * the C++ that nvcc compiles cuda.cu as. */
#if defined(__cplusplus) && !defined(restrict)
#define restrict __restrict__
#endif

/* The scalar s of a = b + s*c. */
#define TRIAD_SCALAR 3.0
/* What a holds before the first call: no correct element is -1. */
#define TRIAD_A_BEFORE (-1.0)
/* An awkward prime: every variant is also checked there. */
#define TRIAD_PROBE_SIZE INT64_C(1000003)
/* Three arrays of 2^33 doubles are 192 GiB: beyond any node we teach on. */
#define TRIAD_MAX_SIZE (INT64_C(1) << 33)

/* b[i] and c[i]: simple patterns in i, so an element read from the wrong
 * place (a shifted index, a missed remainder) gives a wrong a[i]. */
static inline double triad_b(int64_t i)
{
    return (double)(i & 1023);
}
static inline double triad_c(int64_t i)
{
    return 0.25 * (double)((i * 7) & 511);
}

/* Every triad variant: a[i] = b[i] + TRIAD_SCALAR * c[i] for 0 <= i < n
 * on `threads` OpenMP threads (variants without threads ignore it); set
 * *where to where the loop ran. The arrays were set up by the variant's
 * own triad_setup_fn, outside the clock. */
typedef void triad_fn(double *restrict a, const double *restrict b,
                      const double *restrict c, int64_t n, int threads, sl_where *where);

/* A variant's set-up: a[i] = TRIAD_A_BEFORE, b[i] = triad_b(i),
 * c[i] = triad_c(i), each element first touched by the thread that the
 * variant's loop will give it (a gpu variant then maps the arrays onto the
 * device). And its collect: bring a home (a gpu variant's exit data). */
typedef void triad_setup_fn(double *a, double *b, double *c, int64_t n, int threads);
typedef void triad_collect_fn(double *a, double *b, double *c, int64_t n);

/* The arrays of one problem (sl_outcome.data). */
typedef struct triad_data {
    double *a, *b, *c;
    int64_t n;
    int threads;           /* the set-up's threads, for collect */
} triad_data;

/* The sizes from this machine's caches (common/caches.h): the smallest
 * power of two whose three arrays are at least 4x the last-level cache
 * (and at least 2^22), and the largest whose three arrays fill at most
 * half of one core's L2 (1 MiB assumed when unknown). */
int64_t triad_memory_size(void);
int64_t triad_cache_size(void);

/* The problem's hooks, shared with the exhibits (exhibits/table.c). */
int triad_prepare(const sl_variant *v, const sl_problem *p, sl_outcome *out);
void triad_collect(const sl_variant *v, const sl_problem *p, sl_outcome *out);
void triad_release(sl_outcome *out);
int triad_run(const sl_variant *v, const sl_problem *p, sl_outcome *out);
void triad_tally(const sl_problem *p, sl_outcome *out);
sl_verdict triad_check(const sl_problem *p, const sl_outcome *out);

extern const sl_problem_def triad_problem;
extern const sl_problem_def triad_cache_problem;

#endif
