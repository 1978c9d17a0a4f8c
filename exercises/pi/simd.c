/* simd.c - pi, one core, several steps per instruction.
 *
 * The scalar loop, to be run several steps per instruction on one core.
 * What stops the compiler from vectorising it as it stands, and what do
 * the lanes' partial results do to the last digits? (step 1.2)
 */
#include "pi.h"

double pi_simd(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    // TODO(1.2): vectorise this loop: add an omp simd pragma, and say that
    //            sum is a reduction so each lane can keep its own sum.
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
