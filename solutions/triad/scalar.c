/* scalar.c - the triad, one element at a time: the baseline.
 *
 * BEGIN SOLUTION HEADER
 * 2 loads, 1 multiply-add and 1 store per element. Compiled with the
 * auto-vectoriser off, like every scalar.c. The set-up below is the plain
 * loop every one-thread rung uses.
 * EXERCISE HEADER
 * Nothing to do here: read it, then predict how much faster simd.c can be
 * when the arrays come from memory, and when they sit in cache. (step 7.1)
 * END SOLUTION HEADER
 */
#include "triad.h"

void triad_setup_serial(double *a, double *b, double *c, int64_t n, int threads)
{
    (void)threads;
    for (int64_t i = 0; i < n; i++) {
        a[i] = TRIAD_A_BEFORE;
        b[i] = triad_b(i);
        c[i] = triad_c(i);
    }
}

void triad_scalar(double *restrict a, const double *restrict b, const double *restrict c,
                  int64_t n, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
