/* threads.c - the triad on every core, and its first touch.
 *
 * Share the loop between the threads, then make the set-up touch each
 * element from the thread that will compute it. (steps 7.3 and 7.4)
 */
#include "triad.h"

void triad_setup_threads(double *a, double *b, double *c, int64_t n, int threads)
{
    (void)threads;
    // TODO(7.4): first touch: the same omp parallel for schedule(static)
    //            num_threads(threads) as the kernel below.
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
    (void)threads;
    // TODO(7.3): share this loop: omp parallel for schedule(static)
    //            num_threads(threads).
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
