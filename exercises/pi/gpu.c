/* gpu.c - pi offloaded with OpenMP target, honest about where it ran.
 *
 * The scalar loop, to be run on the device (step 1.5). A GPU has many
 * blocks of many threads: which constructs reach both levels? The device
 * has memory of its own: which values must travel, in which direction?
 * Without a device the region runs on the host, so the loop's first step
 * records where it ran and the harness labels the run "host fallback".
 * threads is ignored: a device picks its own team and thread counts.
 */
#include <omp.h>

#include "pi.h"

double pi_gpu(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    int on_host = 1;
    // TODO(1.5): offload this loop over the device's teams and their
    //            threads, with sum still a reduction. Which values must
    //            come back from the device, and which map says so?
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
