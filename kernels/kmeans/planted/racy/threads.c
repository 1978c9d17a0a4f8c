/* kmeans/planted/racy/threads.c - a racy k-means update, on purpose:
 * solutions/kmeans/threads.c without its array reduction, so every thread
 * adds into the one set of per-cluster sums and counts. Built into the
 * "racy" tree (tests/CMakeLists.txt); e2e.racecheck checks that `make
 * racecheck` names it and suggests the array reduction. */
#include "kmeans/kmeans.h"

void kmeans_threads(const double *restrict x, int64_t n, int32_t *restrict labels,
                    double *restrict centroids, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    double ct[KMEANS_D * KMEANS_K];
    kmeans_start(x, centroids);
    for (int it = 0; it < KMEANS_ITERS; it++) {
        kmeans_transpose(centroids, ct);
#pragma omp parallel for num_threads(threads)
        for (int64_t i = 0; i < n; i++) {
            double dist[KMEANS_K] = { 0 };
            for (int f = 0; f < KMEANS_D; f++)
                for (int c = 0; c < KMEANS_K; c++) {
                    double e = x[i * KMEANS_D + f] - ct[f * KMEANS_K + c];
                    dist[c] += e * e;
                }
            labels[i] = kmeans_argmin(dist);
        }
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
#pragma omp parallel for num_threads(threads)
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
}
