/* gpu_v4.c - lesson 5, stage 4: `target teams distribute parallel for simd`.
 *
 * Stage 4 (step 5.4): the whole combined construct, down to simd. A GPU
 * thread is already one lane: predict what simd changes on a GPU and on
 * the host fallback, then measure both. A clause is a request, not a
 * guarantee.
 */
#include <omp.h>

#include "pi.h"

double pi_gpu_v4(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    int on_host = 1;
    // TODO(5.4): offload this loop with the whole combined construct, omp
    //            target teams distribute parallel for simd: a reduction on
    //            sum, and map(tofrom:) for sum and on_host.
    for (int64_t i = 0; i < steps; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    return h * sum;
}
