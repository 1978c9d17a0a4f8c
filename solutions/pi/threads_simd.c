/* threads_simd.c - pi on every core and every lane: the best CPU variant.
 *
 * BEGIN SOLUTION HEADER
 * One combined construct: the steps are split between threads, and each
 * thread's chunk is vectorised. One reduction clause covers both levels.
 * EXERCISE HEADER
 * Steps 1.2 and 1.3 together: split the steps between threads and
 * vectorise each thread's share. (step 1.4)
 * END SOLUTION HEADER
 */
#include "pi.h"

double pi_threads_simd(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    /* BEGIN SOLUTION */
#pragma omp parallel for simd reduction(+:sum) num_threads(threads)
    /* EXERCISE
    (void)threads;
    // TODO(1.4): combine both: omp parallel for simd, with one reduction
    //            and num_threads(threads).
    END SOLUTION */
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
