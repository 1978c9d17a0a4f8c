/* expert.c - k-means past the ladder: four points per pass over the
 * centroids.
 *
 * threads_simd loads each vector of the transposed centroids for one
 * point's feature and uses it once: one load per subtract and multiply-add.
 * Here four points share each load (register blocking, the way a matrix
 * product reuses what it loads), so the loop is bound by the multiply-adds
 * rather than by loads. The remainder (n not a multiple of 4) goes one
 * point at a time. Labels and centroids are threads_simd's: the same sums
 * per centroid, in the same feature order.
 */
#include "kmeans.h"

#define BLOCK 4

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
        labels[i + b] = kmeans_argmin(dist[b]);
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
                labels[i] = kmeans_argmin(dist);
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
