/* threads_simd.c - k-means on threads, each with SIMD: both rungs at once.
 *
 * BEGIN SOLUTION HEADER
 * The points shared among the threads (parallel for), the centroids' loop
 * vectorised within each thread (omp simd), and the update an array
 * reduction over the threads with its features' loop vectorised.
 * EXERCISE HEADER
 * Step 9.5: the threads of step 9.4 and the SIMD of step 9.3 together.
 * END SOLUTION HEADER
 */
#include "kmeans.h"

void kmeans_threads_simd(const double *restrict x, int64_t n, int32_t *restrict labels,
                         double *restrict centroids, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    double ct[KMEANS_D * KMEANS_K];
    kmeans_start(x, centroids);
    for (int it = 0; it < KMEANS_ITERS; it++) {
        kmeans_transpose(centroids, ct);
        /* BEGIN SOLUTION */
#pragma omp parallel for num_threads(threads)
        /* EXERCISE
        // TODO(9.5): share the points out (step 9.4)...
        (void)threads;
        END SOLUTION */
        for (int64_t i = 0; i < n; i++) {
            double dist[KMEANS_K] = { 0 };
            for (int f = 0; f < KMEANS_D; f++) {
                const double xf = x[i * KMEANS_D + f];
                /* BEGIN SOLUTION */
#pragma omp simd
                /* EXERCISE
                // TODO(9.5): ...and vectorise the centroids' loop (step 9.3).
                END SOLUTION */
                for (int c = 0; c < KMEANS_K; c++) {
                    double e = xf - ct[f * KMEANS_K + c];
                    dist[c] += e * e;
                }
            }
            labels[i] = kmeans_argmin(dist);
        }
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
        /* BEGIN SOLUTION */
#pragma omp parallel for num_threads(threads) \
    reduction(+: sums[:KMEANS_K * KMEANS_D], counts[:KMEANS_K])
        /* EXERCISE
        // TODO(9.5): the update's array reduction (step 9.4).
        END SOLUTION */
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
#pragma omp simd
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
}
