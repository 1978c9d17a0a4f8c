/* kmeans_problem.h - k-means (Lloyd's algorithm), the kit's machine-
 * learning kernel: the signature every variant has, the data, and what a
 * right answer is.
 *
 * n points of KMEANS_D features, row-major as a NumPy (n, d) array, drawn
 * from the kit's counter-based generator (common/rng.h) around KMEANS_K
 * well-separated centres: point i belongs to centre i % KMEANS_K. Every
 * call starts from the first KMEANS_K points as centroids and runs
 * KMEANS_ITERS iterations of
 *   - assignment: each point's label is its nearest centroid (squared
 *     Euclidean distance; the lowest index on a tie);
 *   - update: each centroid becomes the mean of its points (one without a
 *     point keeps its place): per-cluster sums, an array reduction.
 * The clusters are far apart next to their spread (centres drawn in
 * [-10, 10]^16, points within 1 of theirs per feature), so no point is
 * near a boundary: every correct variant gives the reference's labels,
 * whatever order it sums in, and centroids that differ by rounding only.
 */
#ifndef SPEEDLAB_KMEANS_PROBLEM_H
#define SPEEDLAB_KMEANS_PROBLEM_H

#include <stdint.h>

#include "kernel.h"
#include "rng.h"

#if defined(__cplusplus) && !defined(restrict)
#define restrict __restrict__
#endif

/* Features per point. Lesson 9's peer builds the kit a second time with
 * -DKMEANS_D=64 to see where a BLAS distance step wins. */
#ifndef KMEANS_D
#define KMEANS_D 16
#endif
#define KMEANS_K 32
#define KMEANS_ITERS 5
/* An awkward prime: every variant is also checked there. */
#define KMEANS_PROBE_SIZE INT64_C(100003)
/* 2^27 points of 16 doubles are 16 GiB. */
#define KMEANS_MAX_SIZE (INT64_C(1) << 27)
/* The generator's seeds: the centres, and each point's offset. */
#define KMEANS_CENTRE_SEED UINT64_C(0x6b6d65616e73)
#define KMEANS_POINT_SEED UINT64_C(0x706f696e7473)

/* Feature f of the centre of cluster c: in [-10, 10). */
static inline double kmeans_centre(int c, int f)
{
    return 20.0 * sl_rng_unit(sl_rng_u64(KMEANS_CENTRE_SEED, (uint64_t)(c * KMEANS_D + f))) - 10.0;
}

/* Feature f of point i: its centre's, plus an offset in [-1, 1). */
static inline double kmeans_point(int64_t i, int f)
{
    double u = sl_rng_unit(sl_rng_u64(KMEANS_POINT_SEED, (uint64_t)i * KMEANS_D + (uint64_t)f));
    return kmeans_centre((int)(i % KMEANS_K), f) + 2.0 * u - 1.0;
}

/* Every k-means variant: KMEANS_ITERS Lloyd iterations over the n points
 * x (n x KMEANS_D, row-major), from centroids = the first KMEANS_K points;
 * on return labels (n) and centroids (KMEANS_K x KMEANS_D, row-major) hold
 * the last iteration's. `threads` OpenMP threads for the threaded variants;
 * *where says where the assignment ran. n >= KMEANS_K. */
typedef void kmeans_fn(const double *restrict x, int64_t n, int32_t *restrict labels,
                       double *restrict centroids, int threads, sl_where *where);

/* One problem's data (sl_outcome.data): made outside the clock. */
typedef struct kmeans_data {
    double *x;
    int32_t *labels;
    double *centroids;
    int64_t n;
} kmeans_data;

extern const sl_problem_def kmeans_problem;

#endif
