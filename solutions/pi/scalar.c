/* scalar.c - pi, one core, one number at a time: the baseline.
 *
 * Built with the auto-vectoriser off (see CMakeLists.txt), so this is a
 * genuinely scalar loop and every SIMD speedup is measured against it.
 * Notice: the divide in 4/(1+x^2) sits on every step; it is the expensive
 * instruction and, as lesson 1 shows, the one that bounds every variant.
 */
#include "pi.h"

double pi_scalar(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
