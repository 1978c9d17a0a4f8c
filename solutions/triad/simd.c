/* simd.c - the triad on every lane of one core.
 *
 * BEGIN SOLUTION HEADER
 * One pragma: the loop has no dependence between elements, so omp simd
 * loads, computes and stores a vector at a time. In cache that multiplies
 * the speed; from memory it changes almost nothing, because the core was
 * already waiting for the memory, not computing.
 * EXERCISE HEADER
 * Vectorise the loop. Predict first: from memory, and in cache. (step 7.2)
 * END SOLUTION HEADER
 */
#include "triad.h"

void triad_simd(double *restrict a, const double *restrict b, const double *restrict c,
                int64_t n, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    /* BEGIN SOLUTION */
#pragma omp simd
    /* EXERCISE
    // TODO(7.2): vectorise this loop with omp simd.
    END SOLUTION */
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
