/* cuda.cu - Mandelbrot and Julia in CUDA C, for comparison with gpu.c.
 *
 * One GPU thread per pixel, in 16 x 16 blocks: what collapse(2) over
 * `target teams distribute parallel for` gives, written out. The pixel
 * code is fractal.h's, compiled for the device (SL_DEVICE_FN) with
 * --fmad=false, so the image must match the reference pixel for pixel.
 * The whole image comes back over the bus: for a large image and a low
 * iteration cap, that copy can cost more than the kernel (lesson 5).
 * job->threads is ignored: the GPU schedules its own blocks.
 */
#include <cuda_runtime.h>

extern "C" {
#include "fractal.h"
#include "nvtx.h"
}

enum { FRACTAL_TILE = 16 };

static __global__ void fractal_pixels(fractal_job job, int32_t *counts)
{
    int64_t x = (int64_t)blockIdx.x * FRACTAL_TILE + threadIdx.x;
    int64_t y = (int64_t)blockIdx.y * FRACTAL_TILE + threadIdx.y;
    if (x < job.width && y < job.height)
        counts[y * job.width + x] = fractal_pixel(&job, x, y);
}

extern "C" void fractal_cuda(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_DEVICE;
    const size_t bytes = (size_t)(job->width * job->height) * sizeof *counts;
    int32_t *dev = NULL;
    cudaError_t err = cudaMalloc(&dev, bytes);
    if (err == cudaSuccess) {
        dim3 block(FRACTAL_TILE, FRACTAL_TILE);
        dim3 grid((unsigned)((job->width + FRACTAL_TILE - 1) / FRACTAL_TILE),
                  (unsigned)((job->height + FRACTAL_TILE - 1) / FRACTAL_TILE));
        sl_range_push("fractal cuda: kernel");
        fractal_pixels<<<grid, block>>>(*job, dev);
        err = cudaDeviceSynchronize();
        sl_range_pop();
        sl_range_push("fractal cuda: copy image to host");
        if (err == cudaSuccess)
            err = cudaMemcpy(counts, dev, bytes, cudaMemcpyDeviceToHost);
        sl_range_pop();
        cudaFree(dev);
    }
    /* A failed call leaves an image no check accepts. */
    if (err != cudaSuccess)
        for (int64_t i = 0; i < job->width * job->height; i++)
            counts[i] = -1;
}
