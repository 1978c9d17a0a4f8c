/* scalar.c - k-means, one core, one number at a time: the baseline.
 *
 * Built with the auto-vectoriser off (see CMakeLists.txt), so every SIMD
 * speedup is measured against scalar code. Lesson 9's profile puts the
 * time in the assignment: every point against every centroid, KMEANS_D
 * subtracts and multiply-adds each; the update reads each point once.
 */
#include "kmeans.h"

void kmeans_scalar(const double *restrict x, int64_t n, int32_t *restrict labels,
                   double *restrict centroids, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    double ct[KMEANS_D * KMEANS_K];
    kmeans_start(x, centroids);
    for (int it = 0; it < KMEANS_ITERS; it++) {
        kmeans_transpose(centroids, ct);
        /* Assignment: each point to its nearest centroid. */
        for (int64_t i = 0; i < n; i++) {
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
        /* Update: per-cluster sums and counts, then the means. */
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
}
