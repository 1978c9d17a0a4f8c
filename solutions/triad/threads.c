/* threads.c - the triad on every core, and its first touch.
 *
 * BEGIN SOLUTION HEADER
 * The loop is split into one contiguous block per thread
 * (schedule(static)). The set-up splits the arrays' first writes the same
 * way: a page lives in the memory of the socket whose thread first wrote
 * it, so with this set-up each thread streams from its own socket's
 * memory. A serial set-up puts every page on one socket, and the threads
 * of the others fetch across the link (make first-touch measures it).
 * Compiled with the auto-vectoriser off, like scalar.c.
 * EXERCISE HEADER
 * Share the loop between the threads, then make the set-up touch each
 * element from the thread that will compute it. (steps 7.3 and 7.4)
 * END SOLUTION HEADER
 */
#include "triad.h"

void triad_setup_threads(double *a, double *b, double *c, int64_t n, int threads)
{
    /* BEGIN SOLUTION */
#pragma omp parallel for schedule(static) num_threads(threads)
    /* EXERCISE
    (void)threads;
    // TODO(7.4): first touch: the same omp parallel for schedule(static)
    //            num_threads(threads) as the kernel below.
    END SOLUTION */
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
    /* BEGIN SOLUTION */
#pragma omp parallel for schedule(static) num_threads(threads)
    /* EXERCISE
    (void)threads;
    // TODO(7.3): share this loop: omp parallel for schedule(static)
    //            num_threads(threads).
    END SOLUTION */
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}
