/* gpu.c - k-means with its assignment offloaded (lesson 5's pattern).
 *
 * Step 9.6: the assignment on the device: map the points once, the
 * centroids every iteration, and bring the labels back for the update.
 */
#include <omp.h>

#include "kmeans.h"

void kmeans_gpu(const double *restrict x, int64_t n, int32_t *restrict labels,
                double *restrict centroids, int threads, sl_where *where)
{
    (void)threads;
    double ct[KMEANS_D * KMEANS_K];
    int on_host = 1;
    kmeans_start(x, centroids);
    // TODO(9.6): keep the points on the device for every iteration.
    for (int it = 0; it < KMEANS_ITERS; it++) {
        kmeans_transpose(centroids, ct);
        // TODO(9.6): offload this loop, the centroids mapped in.
        for (int64_t i = 0; i < n; i++) {
            if (i == 0)
                on_host = omp_is_initial_device();
            double dist[KMEANS_K] = { 0 };
            for (int f = 0; f < KMEANS_D; f++) {
                const double xf = x[i * KMEANS_D + f];
                for (int c = 0; c < KMEANS_K; c++) {
                    double e = xf - ct[f * KMEANS_K + c];
                    dist[c] += e * e;
                }
            }
            labels[i] = kmeans_argmin(dist);
        }
        // TODO(9.6): the labels come home for the update.
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
#pragma omp simd
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
