/* expert.c - pi past the divider: the expert rung, beyond the ladder.
 *
 * Optional, for fast participants: as written this is threads_simd. Make
 * it faster than the divider allows (step 1.8).
 */
#include <omp.h>

#include "pi.h"

#if PI_EXPERT_NATIVE == 1
#include <immintrin.h>
#elif PI_EXPERT_NATIVE == 2
#include <arm_neon.h>
#endif

/* The portable rung it improves on: lesson 1's threads_simd loop. */
static double sum_divide(int64_t first, int64_t last, double h)
{
    double sum = 0.0;
    for (; first < last; first += PI_CHUNK) {
        const int n = pi_chunk(first, last);
        const double x0 = (double)first + 0.5;
#pragma omp simd reduction(+:sum)
        for (pi_counter j = 0; j < n; j++) {
            double x = (x0 + j) * h;
            sum += 4.0 / (1.0 + x * x);
        }
    }
    return sum;
}


double pi_expert(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    /* Each thread takes one contiguous block, as schedule(static) would. */
#pragma omp parallel num_threads(threads) reduction(+:sum)
    {
        int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
        int64_t first = steps * t / n, last = steps * (t + 1) / n;
        // TODO(1.8): the steps below go through the divider. Replace the
        //            divide for as many of them as you can (step 1.8).
        sum += sum_divide(first, last, h);
    }
    return h * sum;
}
