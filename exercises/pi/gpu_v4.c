/* gpu_v4.c - lesson 5, stage 4: `target teams distribute parallel for simd`.
 *
 * Stage 3 is gpu.c (step 1.5): teams over the multiprocessors, parallel for
 * over each team's threads. simd adds the innermost level: on the host
 * fallback it asks for vector instructions; on a GPU, compilers map it to
 * the threads of a warp or leave it (a GPU thread is already one lane).
 * We expected little change there: on an H100 with GCC 12 it made stage 3
 * 11 times faster (20.7 ms to 1.6-1.9 ms for 4e8 steps), because GCC runs
 * a warp of `parallel for` on one thread. Measure it, on both: on the host
 * fallback, clang 14 says "loop not vectorized" for this loop (a warning,
 * kept visible but not fatal, cmake/SpeedlabTree.cmake), and GCC 12 makes
 * it slower than stage 3. A clause is a request, not a guarantee.
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
