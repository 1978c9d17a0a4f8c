/* simd.c - k-means with SIMD: the distance loop over the centroids.
 *
 * Step 9.3: which loop of the assignment has independent iterations and
 * reads neighbouring memory? Vectorise that one.
 */
#include "kmeans.h"

void kmeans_simd(const double *restrict x, int64_t n, int32_t *restrict labels,
                 double *restrict centroids, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    double ct[KMEANS_D * KMEANS_K];
    kmeans_start(x, centroids);
    for (int it = 0; it < KMEANS_ITERS; it++) {
        kmeans_transpose(centroids, ct);
        for (int64_t i = 0; i < n; i++) {
            double dist[KMEANS_K] = { 0 };
            for (int f = 0; f < KMEANS_D; f++) {
                const double xf = x[i * KMEANS_D + f];
                // TODO(9.3): this loop's iterations are independent (each c has
                //            its own dist[c]): vectorise it with omp simd.
                for (int c = 0; c < KMEANS_K; c++) {
                    double e = xf - ct[f * KMEANS_K + c];
                    dist[c] += e * e;
                }
            }
            labels[i] = kmeans_argmin(dist);
        }
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
}
