/* threads_simd.c - pi on every core and every lane: the best CPU variant.
 *
 * Steps 1.2 and 1.3 together: split the chunks between threads and
 * vectorise each chunk's steps. (step 1.4)
 */
#include "pi.h"

double pi_threads_simd(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    (void)threads;
    // TODO(1.4): combine both: threads share the chunks (omp parallel for,
    //            a reduction, num_threads(threads)), lanes the steps of a
    //            chunk (omp simd, a reduction).
    for (int64_t first = 0; first < steps; first += PI_CHUNK) {
        const int n = pi_chunk(first, steps);
        const double x0 = (double)first + 0.5;
        for (pi_counter j = 0; j < n; j++) {
            double x = (x0 + j) * h;
            sum += 4.0 / (1.0 + x * x);
        }
    }
    return h * sum;
}
