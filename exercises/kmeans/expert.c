/* expert.c - k-means past the ladder: the argmin in vectors, and four
 * points per pass over the centroids.
 *
 * perf annotate on threads_simd puts most of its samples on the argmin:
 * 32 scalar compares and conditional moves a point, against 64 vector
 * subtracts and multiply-adds for the distances. Here the argmin runs in
 * vectors too: the smallest distance by a min reduction, then the first
 * centroid at that distance by a min reduction over the indices (the
 * lowest index on a tie, as the reference). And four points share each
 * load of the transposed centroids (register blocking, the way a matrix
 * product reuses what it loads). The distances are threads_simd's, summed
 * in the same order, so labels and centroids are the same.
 */
#include "kmeans.h"

#define BLOCK 4

/* The nearest centroid, in two vector passes. */
static inline int32_t argmin_simd(const double *dist)
{
    double best_d = dist[0];
#pragma omp simd reduction(min: best_d)
    for (int c = 0; c < KMEANS_K; c++)
        best_d = dist[c] < best_d ? dist[c] : best_d;
    int32_t best = KMEANS_K;
#pragma omp simd reduction(min: best)
    for (int c = 0; c < KMEANS_K; c++)
        best = dist[c] == best_d && c < best ? c : best;
    return best;
}

/* The labels of points i .. i+BLOCK-1 (all of them in x). */
static void nearest_block(const double *restrict x, int64_t i, const double *restrict ct,
                          int32_t *restrict labels)
{
    double dist[BLOCK][KMEANS_K] = { { 0 } };
    for (int f = 0; f < KMEANS_D; f++) {
        double xf[BLOCK];
        for (int b = 0; b < BLOCK; b++)
            xf[b] = x[(i + b) * KMEANS_D + f];
#pragma omp simd
        for (int c = 0; c < KMEANS_K; c++) {
            const double cf = ct[f * KMEANS_K + c];
            for (int b = 0; b < BLOCK; b++) {
                double e = xf[b] - cf;
                dist[b][c] += e * e;
            }
        }
    }
    for (int b = 0; b < BLOCK; b++)
        labels[i + b] = argmin_simd(dist[b]);
}

void kmeans_expert(const double *restrict x, int64_t n, int32_t *restrict labels,
                   double *restrict centroids, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    double ct[KMEANS_D * KMEANS_K];
    const int64_t blocks = n / BLOCK;
    kmeans_start(x, centroids);
    for (int it = 0; it < KMEANS_ITERS; it++) {
        kmeans_transpose(centroids, ct);
#pragma omp parallel num_threads(threads)
        {
#pragma omp for nowait
            for (int64_t k = 0; k < blocks; k++)
                nearest_block(x, k * BLOCK, ct, labels);
#pragma omp for
            for (int64_t i = blocks * BLOCK; i < n; i++) {
                double dist[KMEANS_K] = { 0 };
                for (int f = 0; f < KMEANS_D; f++) {
                    const double xf = x[i * KMEANS_D + f];
#pragma omp simd
                    for (int c = 0; c < KMEANS_K; c++) {
                        double e = xf - ct[f * KMEANS_K + c];
                        dist[c] += e * e;
                    }
                }
                labels[i] = argmin_simd(dist);
            }
        }
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
#pragma omp parallel for num_threads(threads) \
    reduction(+: sums[:KMEANS_K * KMEANS_D], counts[:KMEANS_K])
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
#pragma omp simd
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
}
