/* threads_simd.c - the triad on every core and every lane.
 *
 * BEGIN SOLUTION HEADER
 * One combined construct with the same static split as threads.c, so
 * threads.c's first touch serves it too (table.c). From memory this is
 * the best the machine can do: the memory's bandwidth.
 * EXERCISE HEADER
 * Steps 7.2 and 7.3 together: split the elements between threads and
 * vectorise each thread's share, with threads.c's schedule. (step 7.5)
 * END SOLUTION HEADER
 */
#include "triad.h"

void triad_threads_simd(double *restrict a, const double *restrict b,
                        const double *restrict c, int64_t n, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    /* BEGIN SOLUTION */
#pragma omp parallel for simd schedule(static) num_threads(threads)
    /* EXERCISE
    (void)threads;
    // TODO(7.5): omp parallel for simd schedule(static) num_threads(threads).
    END SOLUTION */
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
