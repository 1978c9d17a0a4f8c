/* gpu.c - Monte Carlo pi offloaded with OpenMP target, honest about where
 * it ran.
 *
 * The generator's helpers are declare target (common/rng.h), so the device
 * computes point i's draws from (seed, i) exactly as the host does: the
 * count must match the reference even on a GPU (integer arithmetic, and
 * the inside test has no rounding choices left; see montecarlo_inside).
 *
 * BEGIN SOLUTION HEADER
 * Nothing but the count and where it ran crosses to and from the device.
 * threads is ignored: a device picks its own team and thread counts.
 * simd matters on a GPU: GCC 12 runs each warp of a `parallel for` on one
 * thread and gives simd the warp's 32 (lesson 4, step 4.5, has the H100's
 * figures).
 * EXERCISE HEADER
 * The loop, to be run on the device (step 4.5). What must cross to and
 * from the device, and what need not? A GPU runs threads in warps of 32:
 * does your construct reach them all? threads is ignored: a device picks
 * its own team and thread counts.
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "montecarlo.h"

int64_t montecarlo_gpu(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    (void)threads;
    int64_t inside = 0;
    int on_host = 1;
    /* BEGIN SOLUTION */
#pragma omp target teams distribute parallel for simd reduction(+:inside) \
    map(tofrom: inside) map(tofrom: on_host)
    /* EXERCISE
    // TODO(4.5): offload this loop over teams, their threads and the
    //            warps' lanes, with inside a reduction. Which values must
    //            come back from the device, and which map says so?
    END SOLUTION */
    for (int64_t i = 0; i < samples; i++) {
        /* One point records where the loop ran; only it writes on_host. */
        if (i == 0)
            on_host = omp_is_initial_device();
        uint64_t rx = sl_rng_u64(seed, 2 * (uint64_t)i);
        uint64_t ry = sl_rng_u64(seed, 2 * (uint64_t)i + 1);
        inside += montecarlo_inside(rx, ry);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    return inside;
}
