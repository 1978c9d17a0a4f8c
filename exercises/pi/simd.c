/* simd.c - pi, one core, several steps per instruction.
 *
 * The scalar loop, in chunks whose steps a pi_counter counts (pi.h),
 * to be run several steps per instruction on one core.
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
    /* Chunks of PI_CHUNK steps, each counted with an int on x86 (pi.h:
     * AVX2 cannot convert a 64-bit counter to doubles in a vector). */
    for (int64_t first = 0; first < steps; first += PI_CHUNK) {
        const int n = pi_chunk(first, steps);
        const double x0 = (double)first + 0.5;
        // TODO(1.2): vectorise this loop: add an omp simd pragma, and say
        //            that sum is a reduction so each lane keeps its own sum.
        for (pi_counter j = 0; j < n; j++) {
            double x = (x0 + j) * h;
            sum += 4.0 / (1.0 + x * x);
        }
    }
    return h * sum;
}
