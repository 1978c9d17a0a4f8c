/* kmeans.h - the k-means variants of this tree: one signature, the ladder.
 *
 * Every variant runs the Lloyd iterations of kernels/kmeans/kmeans_problem.h
 * and must give the reference's labels and, to rounding, its centroids.
 * The harness (tests, bench, runner) finds them through table.c. The
 * helpers below are the parts no rung changes: start, transpose, argmin,
 * mean.
 */
#ifndef SPEEDLAB_KMEANS_H
#define SPEEDLAB_KMEANS_H

#include <stdint.h>
#include <string.h>

#include "kernel.h"
#include "kmeans_problem.h"
#include "tree.h"

/* Each tree gets its own symbol names (see common/tree.h). */
#define kmeans_scalar SL_TREE_SYMBOL(kmeans_scalar)
#define kmeans_simd SL_TREE_SYMBOL(kmeans_simd)
#define kmeans_threads SL_TREE_SYMBOL(kmeans_threads)
#define kmeans_threads_simd SL_TREE_SYMBOL(kmeans_threads_simd)
#define kmeans_gpu SL_TREE_SYMBOL(kmeans_gpu)
#define kmeans_expert SL_TREE_SYMBOL(kmeans_expert)
#define kmeans_cuda SL_TREE_SYMBOL(kmeans_cuda)
#define kmeans_kernel SL_TREE_SYMBOL(kmeans_kernel)

/* The signature kmeans_fn: if a variant drifts from it, this stops the build. */
kmeans_fn kmeans_scalar, kmeans_simd, kmeans_threads, kmeans_threads_simd, kmeans_gpu,
    kmeans_expert;
/* CUDA C for comparison (cuda.cu; built when nvcc is found, run only on a
 * CUDA device). */
kmeans_fn kmeans_cuda;

extern const sl_kernel kmeans_kernel;

#pragma omp declare target
/* The first KMEANS_K points are the first centroids. */
static inline void kmeans_start(const double *x, double *centroids)
{
    memcpy(centroids, x, KMEANS_K * KMEANS_D * sizeof(double));
}

/* The centroids feature by feature (ct[f][c]): the distance loop then
 * reads KMEANS_K neighbours for one feature, one vector's worth at a time. */
static inline void kmeans_transpose(const double *centroids, double *ct)
{
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_D; f++)
            ct[f * KMEANS_K + c] = centroids[c * KMEANS_D + f];
}

/* The nearest centroid: the lowest index among the smallest distances. */
static inline int32_t kmeans_argmin(const double *dist)
{
    int32_t best = 0;
    for (int c = 1; c < KMEANS_K; c++)
        if (dist[c] < dist[best])
            best = c;
    return best;
}
#pragma omp end declare target

/* Each centroid the mean of its points; one with no point keeps its place. */
static inline void kmeans_mean(const double *sums, const int64_t *counts, double *centroids)
{
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_D && counts[c] > 0; f++)
            centroids[c * KMEANS_D + f] = sums[c * KMEANS_D + f] / (double)counts[c];
}

#endif
