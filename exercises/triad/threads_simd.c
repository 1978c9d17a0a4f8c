/* threads_simd.c - the triad on every core and every lane.
 *
 * Steps 7.2 and 7.3 together: split the elements between threads and
 * vectorise each thread's share, with threads.c's schedule. (step 7.5)
 */
#include "triad.h"

void triad_threads_simd(double *restrict a, const double *restrict b,
                        const double *restrict c, int64_t n, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    (void)threads;
    // TODO(7.5): omp parallel for simd schedule(static) num_threads(threads).
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
