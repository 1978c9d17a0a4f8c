/* kmeans/planted/broken/threads.c - a k-means with an argmin off by one, on
 * purpose: solutions/kmeans/threads.c whose nearest-centroid search stops
 * one short, so no point is ever labelled with the last centroid. Built
 * into the "broken" tree (tests/CMakeLists.txt): make check must say
 * lesson 9 is WRONG and name this variant. */
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
            int32_t best = 0;
            for (int c = 1; c < KMEANS_K - 1; c++)   /* the bug: the last one is never tried */
                if (dist[c] < dist[best])
                    best = c;
            labels[i] = best;
        }
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
#pragma omp parallel for num_threads(threads) \
    reduction(+: sums[:KMEANS_K * KMEANS_D], counts[:KMEANS_K])
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
}
