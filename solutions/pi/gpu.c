/* gpu.c - pi offloaded with OpenMP target, honest about where it ran.
 *
 * teams distribute spreads the steps over the device's teams (GPU blocks),
 * parallel for over each team's threads; reduction(+:sum) combines them all.
 * map(tofrom: sum) copies the sum in and its result back. Without a device
 * (or an offload compiler) the region runs on the host: that is correct but
 * not a GPU figure, so the loop's first step records omp_is_initial_device()
 * and the harness labels the run "host fallback". threads is ignored: a
 * device picks its own team and thread counts.
 */
#include <omp.h>

#include "pi.h"

double pi_gpu(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    int on_host = 1;
    /* BEGIN SOLUTION */
#pragma omp target teams distribute parallel for reduction(+:sum) \
    map(tofrom: sum) map(tofrom: on_host)
    /* EXERCISE
    // TODO(1.5): offload this loop: omp target teams distribute parallel
    //            for, a reduction on sum, and map(tofrom:) for sum and
    //            on_host so their values come back from the device.
    END SOLUTION */
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
