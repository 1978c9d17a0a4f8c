/* simd.c - the triad on every lane of one core.
 *
 * Vectorise the loop. Predict first: from memory, and in cache. (step 7.2)
 */
#include "triad.h"

void triad_simd(double *restrict a, const double *restrict b, const double *restrict c,
                int64_t n, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    // TODO(7.2): vectorise this loop with omp simd.
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
