/* gpu_v1.c - lesson 5, stage 1: `target` + `parallel for`.
 *
 * The first offload anyone writes: the loop moved to the device and shared
 * among threads (step 5.2). How much of a GPU does one parallel region
 * use? Predict it before you measure, and say which values must come back
 * from the device. Without a device the region runs on the host.
 * threads is ignored: a device picks its own thread count.
 */
#include <omp.h>

#include "pi.h"

double pi_gpu_v1(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    int on_host = 1;
    // TODO(5.2): offload this loop with omp target parallel for: a
    //            reduction on sum, and map(tofrom:) for sum and on_host.
    for (int64_t i = 0; i < steps; i++) {
        /* One step records where the loop ran; only it writes on_host. */
        if (i == 0)
            on_host = omp_is_initial_device();
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    return h * sum;
}
