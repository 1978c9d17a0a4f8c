/* gpu_shapes.c - the gpu variant's loops in other shapes (step 5.7).
 *
 * gpu.c collapses both loops into one iteration space and leaves the
 * split to the compiler. These ask for a split: the row split (one team
 * per row, its threads and SIMD lanes along the row, no collapse), the
 * compiler's own choice (loop), and CUDA's shape (one pixel per thread,
 * blocks of 256 threads: num_teams and thread_limit). GCC and clang lay
 * each out differently on a GPU; the bundle times all of them with both
 * beside CUDA. Without a device they run on the host, labelled host
 * fallback. The pixels are gpu.c's, so each image must match the
 * reference pixel for pixel.
 */
#include "fractal.h"

/* Threads per team in the CUDA shape: cuda.cu's 16 x 16 block. */
#define SHAPE_THREADS 256

void fractal_gpu_rows(const fractal_job *job, int32_t *counts, sl_where *where)
{
    const fractal_job j = *job;
    const int64_t width = j.width, height = j.height;
    int on_host = 1;
#pragma omp target teams distribute map(to: j) map(from: counts[0:width * height]) \
    map(tofrom: on_host)
    for (int64_t y = 0; y < height; y++) {
        if (y == 0)
            on_host = omp_is_initial_device();
#pragma omp parallel for simd
        for (int64_t x = 0; x < width; x++)
            counts[y * width + x] = fractal_pixel(&j, x, y);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

void fractal_gpu_loop(const fractal_job *job, int32_t *counts, sl_where *where)
{
    const fractal_job j = *job;
    const int64_t width = j.width, height = j.height;
    int on_host = 1;
    /* A loop region may call no OpenMP routine (its order is concurrent):
     * where it runs is asked in a region of its own, timed with it. The
     * loop is written apart from its teams: clang 16's combined "target
     * teams loop" skips the loop on the host (validation caught it). */
#pragma omp target map(tofrom: on_host)
    on_host = omp_is_initial_device();
#pragma omp target teams map(to: j) map(from: counts[0:width * height])
#pragma omp loop collapse(2)
    for (int64_t y = 0; y < height; y++)
        for (int64_t x = 0; x < width; x++)
            counts[y * width + x] = fractal_pixel(&j, x, y);
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

void fractal_gpu_teams(const fractal_job *job, int32_t *counts, sl_where *where)
{
    const fractal_job j = *job;
    const int64_t width = j.width, height = j.height;
    const int teams = (int)((width * height + SHAPE_THREADS - 1) / SHAPE_THREADS);
    int on_host = 1;
#pragma omp target teams distribute parallel for collapse(2) num_teams(teams) \
    thread_limit(SHAPE_THREADS) map(to: j) map(from: counts[0:width * height]) \
    map(tofrom: on_host)
    for (int64_t y = 0; y < height; y++) {
        for (int64_t x = 0; x < width; x++) {
            if (x == 0 && y == 0)
                on_host = omp_is_initial_device();
            counts[y * width + x] = fractal_pixel(&j, x, y);
        }
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
