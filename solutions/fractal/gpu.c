/* gpu.c - Mandelbrot and Julia offloaded with OpenMP target.
 *
 * BEGIN SOLUTION HEADER
 * collapse(2) makes one iteration space of all width x height pixels, so a
 * GPU has millions of independent threads to spread over its teams. The
 * counts come back with map(from:) (nothing needs to go in); the job goes
 * in with map(to:). Without a device (or an offload compiler) the region
 * runs on the host: correct, but not a GPU figure, so pixel (0, 0) records
 * omp_is_initial_device() and the harness labels the run "host fallback".
 * job->threads is ignored: a device picks its own.
 * EXERCISE HEADER
 * Both loops, to be run on the device (step 2.6). A row has a few thousand
 * pixels and a GPU wants millions of independent threads: how do two loops
 * become one iteration space? Which data only goes in, and which only
 * comes back? Without a device the region runs on the host, so pixel
 * (0, 0) records where it ran and the harness labels the run "host
 * fallback". job->threads is ignored: a device picks its own.
 * END SOLUTION HEADER
 */
#include "fractal.h"

void fractal_gpu(const fractal_job *job, int32_t *counts, sl_where *where)
{
    const fractal_job j = *job;
    const int64_t width = j.width, height = j.height;
    int on_host = 1;
    /* BEGIN SOLUTION */
#pragma omp target teams distribute parallel for collapse(2) \
    map(to: j) map(from: counts[0:width * height]) map(tofrom: on_host)
    /* EXERCISE
    // TODO(2.6): offload both loops as one iteration space over teams
    //            and threads. Map each of job, counts and on_host in the
    //            one direction it needs (or both, if it needs both).
    END SOLUTION */
    for (int64_t y = 0; y < height; y++) {
        for (int64_t x = 0; x < width; x++) {
            if (x == 0 && y == 0)
                on_host = omp_is_initial_device();
            counts[y * width + x] = fractal_pixel(&j, x, y);
        }
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
