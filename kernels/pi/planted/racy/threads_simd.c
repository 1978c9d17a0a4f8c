/* pi/planted/racy/threads_simd.c - a shared temporary, on purpose: x is
 * declared before the loop, so all threads write the one x. The race
 * checker must name x and suggest declaring it inside the loop (or
 * private(x)). Built into the "racy" tree with pi_threads_no_reduction.c. */
#include "pi/pi.h"

double pi_threads_simd(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0, x;
#pragma omp parallel for reduction(+:sum) num_threads(threads)
    for (int64_t i = 0; i < steps; i++) {
        x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
