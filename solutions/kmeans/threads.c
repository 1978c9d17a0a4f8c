/* threads.c - k-means on threads: the points shared out, the sums reduced.
 *
 * BEGIN SOLUTION HEADER
 * The assignment's points are independent: parallel for. The update adds
 * every point into its cluster's sums, which all threads share: an array
 * reduction, reduction(+: sums[:K*D], counts[:K]), gives each thread its
 * own copy and adds the copies at the end. Without it the threads' updates
 * race and some are lost (a wrong centroid: the check says so); atomics
 * would be right but slow (one per feature per point).
 * Built with the auto-vectoriser off, like scalar.c: this rung adds threads
 * alone.
 * EXERCISE HEADER
 * Step 9.4: share the points of the assignment among the threads; then
 * the update, where every point adds into one of KMEANS_K shared sums.
 * END SOLUTION HEADER
 */
#include "kmeans.h"

void kmeans_threads(const double *restrict x, int64_t n, int32_t *restrict labels,
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
        // TODO(9.4): the points are independent: share them out.
        (void)threads;
        END SOLUTION */
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
        double sums[KMEANS_K * KMEANS_D] = { 0 };
        int64_t counts[KMEANS_K] = { 0 };
        /* BEGIN SOLUTION */
#pragma omp parallel for num_threads(threads) \
    reduction(+: sums[:KMEANS_K * KMEANS_D], counts[:KMEANS_K])
        /* EXERCISE
        // TODO(9.4): every thread would add into the same sums and counts.
        //            Yours to choose: an atomic on every add, or an array
        //            reduction (each thread its own copy). Write both, time
        //            both with make kmeans, keep the faster.
        END SOLUTION */
        for (int64_t i = 0; i < n; i++) {
            counts[labels[i]]++;
            for (int f = 0; f < KMEANS_D; f++)
                sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
        }
        kmeans_mean(sums, counts, centroids);
    }
}
