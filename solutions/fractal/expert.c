/* expert.c - Mandelbrot and Julia past the lane pool: the expert rung.
 *
 * BEGIN SOLUTION HEADER
 * The limit it attacks: simd.c's pool spends most of a step on
 * bookkeeping (compares, blends, a masked count), keeps its lanes in
 * memory and refills them behind a branch per lane. Here 6 vectors of
 * lanes stay in registers for 16 steps; a lane's "alive" mask (cleared
 * for good at |z|^2 > 4) decides if its count grows. A step is a 7-cycle
 * chain, so 6 chains in flight keep the 4 FP pipes busy. The lanes to
 * serve become one bit mask; the refill visits only those. Exact: an
 * alive lane does the reference's operations in its order, and one that
 * passes max_iter in a block is handed in with max_iter.
 * What it gave up: ISO C. `omp simd` cannot keep several vectors in
 * flight, so it uses GCC/clang vector extensions as wide as the target's
 * and one intrinsic behind a portable loop; other compilers get
 * threads_simd. course/03-julia.md, step 3.5, has the measurements.
 * EXERCISE HEADER
 * Optional, for fast participants: as written this is threads_simd. Make
 * the pool cheaper per step and per refill (step 3.5).
 * END SOLUTION HEADER
 */
#include "fractal.h"

/* BEGIN SOLUTION */
#if defined(__GNUC__)
#include <string.h>
#if defined(__AVX__)
#include <immintrin.h>
#endif

#define EXPERT_BLOCK 16 /* steps between refills */
#define EXPERT_VECTORS 6 /* chains in flight */
#if defined(__AVX512F__)
#define EXPERT_WIDTH 8 /* doubles per vector register */
#elif defined(__AVX__)
#define EXPERT_WIDTH 4
#else
#define EXPERT_WIDTH 2
#endif
#define EXPERT_LANES (EXPERT_VECTORS * EXPERT_WIDTH)

typedef double vdouble __attribute__((vector_size(8 * EXPERT_WIDTH)));
typedef int64_t vlong __attribute__((vector_size(8 * EXPERT_WIDTH)));

/* Bit l for each lane l of m that is all ones: one instruction where the
 * target has one (the loop costs Mandelbrot 10%, measured). */
static inline uint64_t lane_bits(vlong m)
{
#if defined(__AVX512DQ__) && EXPERT_WIDTH == 8
    return _mm512_movepi64_mask((__m512i)m);
#elif EXPERT_WIDTH == 4
    return (uint64_t)_mm256_movemask_pd((__m256d)m);
#else
    uint64_t bits = 0;
    for (int l = 0; l < EXPERT_WIDTH; l++)
        bits |= (uint64_t)(m[l] & ((int64_t)1 << l));
    return bits;
#endif
}

static void expert_row(const fractal_job *job, int64_t j, int32_t *row)
{
    const double y = fractal_y(job, j);
    const int64_t max_iter = job->max_iter;
    _Alignas(64) double zr[EXPERT_LANES], zi[EXPERT_LANES], cr[EXPERT_LANES], ci[EXPERT_LANES];
    _Alignas(64) int64_t n[EXPERT_LANES], alive[EXPERT_LANES];
    int64_t pixel[EXPERT_LANES], next = 0, busy = 0;
    uint64_t serve = ~(uint64_t)0 >> (64 - EXPERT_LANES); /* every lane, at first */

    for (int l = 0; l < EXPERT_LANES; l++)
        zr[l] = zi[l] = cr[l] = ci[l] = 0.0, n[l] = alive[l] = 0, pixel[l] = -1;
    for (;;) {
        /* Hand in and refill only the lanes whose bit is set. */
        for (; serve != 0; serve &= serve - 1) {
            int l = __builtin_ctzll(serve);
            if (pixel[l] >= 0) {
                row[pixel[l]] = (int32_t)(n[l] < max_iter ? n[l] : max_iter);
                busy--;
            }
            pixel[l] = -1, alive[l] = 0;
            if (next < job->width) {
                fractal_start(job, fractal_x(job, next), y, &zr[l], &zi[l], &cr[l], &ci[l]);
                n[l] = 0, alive[l] = -1, pixel[l] = next++;
                busy++;
            }
        }
        if (busy == 0)
            break;
        /* EXPERT_BLOCK steps for every lane, in registers. */
        vdouble vzr[EXPERT_VECTORS], vzi[EXPERT_VECTORS], vcr[EXPERT_VECTORS], vci[EXPERT_VECTORS];
        vlong vn[EXPERT_VECTORS], valive[EXPERT_VECTORS];
        memcpy(vzr, zr, sizeof vzr), memcpy(vzi, zi, sizeof vzi), memcpy(vcr, cr, sizeof vcr);
        memcpy(vci, ci, sizeof vci), memcpy(vn, n, sizeof vn), memcpy(valive, alive, sizeof valive);
        for (int k = 0; k < EXPERT_BLOCK; k++) {
            for (int v = 0; v < EXPERT_VECTORS; v++) {
                vdouble zr2 = vzr[v] * vzr[v], zi2 = vzi[v] * vzi[v];
                valive[v] &= (zr2 + zi2 <= 4.0);
                vn[v] -= valive[v]; /* alive is -1 */
                vzi[v] = (vzr[v] + vzr[v]) * vzi[v] + vci[v];
                vzr[v] = zr2 - zi2 + vcr[v];
            }
        }
        for (int v = 0; v < EXPERT_VECTORS; v++)
            serve |= lane_bits(~valive[v] | (vn[v] >= max_iter)) << (v * EXPERT_WIDTH);
        memcpy(zr, vzr, sizeof vzr), memcpy(zi, vzi, sizeof vzi);
        memcpy(n, vn, sizeof vn), memcpy(alive, valive, sizeof valive);
    }
}
#endif
/* END SOLUTION */

void fractal_expert(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
#pragma omp parallel for schedule(dynamic) num_threads(job->threads)
    for (int64_t j = 0; j < job->height; j++) {
        /* BEGIN SOLUTION */
#if defined(__GNUC__)
        expert_row(job, j, counts + j * job->width);
        continue;
#endif
        /* EXERCISE
        // TODO(3.5): a row faster than your lane pool (step 3.5).
        END SOLUTION */
        fractal_row_simd(job, j, counts + j * job->width);
    }
}
