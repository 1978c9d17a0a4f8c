/* gpu_v4.c - lesson 5, stage 4: `target teams distribute parallel for simd`.
 *
 * BEGIN SOLUTION HEADER
 * Stage 3 is gpu.c (step 1.5): teams over the multiprocessors, parallel for
 * over each team's threads. simd adds the innermost level: on the host
 * fallback it asks for vector instructions; on a GPU, compilers map it to
 * the threads of a warp or leave it (a GPU thread is already one lane).
 * We expected little change there; GCC 12 runs a warp of `parallel for` on
 * one thread, so on a GPU it is the largest step of the lesson (lesson 5,
 * step 5.4, has the H100's figures). On the host fallback clang 14 says
 * "loop not vectorized" for this loop (a warning, kept visible but not
 * fatal, cmake/SpeedlabTree.cmake), and GCC 12 makes it slower than stage
 * 3. A clause is a request, not a guarantee.
 * EXERCISE HEADER
 * Stage 4 (step 5.4): the whole combined construct, down to simd. A GPU
 * thread is already one lane: predict what simd changes on a GPU and on
 * the host fallback, then measure both. A clause is a request, not a
 * guarantee.
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "pi.h"

double pi_gpu_v4(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    int on_host = 1;
    /* BEGIN SOLUTION */
#pragma omp target teams distribute parallel for simd reduction(+:sum) \
    map(tofrom: sum, on_host)
    /* EXERCISE
    // TODO(5.4): offload this loop with the whole combined construct, omp
    //            target teams distribute parallel for simd: a reduction on
    //            sum, and map(tofrom:) for sum and on_host.
    END SOLUTION */
    for (int64_t i = 0; i < steps; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    return h * sum;
}
