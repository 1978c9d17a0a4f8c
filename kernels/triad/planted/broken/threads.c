/* triad/planted/broken/threads.c - a plausible wrong triad_threads, for the tests:
 * the elements are split by hand into equal blocks of n / threads, so
 * the last n % threads elements are never computed. Right on one thread
 * and whenever the threads divide n; the exact element-wise check catches
 * it at the awkward probe size. The bench must flag it and exit 3.
 */
#include <omp.h>

#include "triad/triad.h"

void triad_setup_threads(double *a, double *b, double *c, int64_t n, int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++) {
        a[i] = TRIAD_A_BEFORE;
        b[i] = triad_b(i);
        c[i] = triad_c(i);
    }
}

void triad_threads(double *restrict a, const double *restrict b, const double *restrict c,
                   int64_t n, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
#pragma omp parallel num_threads(threads)
    {
        int64_t block = n / omp_get_num_threads();
        int64_t from = block * omp_get_thread_num();
        for (int64_t i = from; i < from + block; i++)
            a[i] = b[i] + TRIAD_SCALAR * c[i];
    }
}
