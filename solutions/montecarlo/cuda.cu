/* cuda.cu - Monte Carlo pi in CUDA C, for comparison with gpu.c.
 *
 * The same counter-based generator as every other variant (common/rng.h,
 * compiled for the device through SL_DEVICE_FN), so the count inside must
 * equal the reference exactly: integer arithmetic, and an inside test with
 * no rounding choices (montecarlo_inside; built with --fmad=false). Each
 * thread counts a strided share of the points, each block adds its
 * threads' counts in shared memory, the host adds the blocks' counts.
 * threads is ignored: the grid's shape is the GPU's business.
 */
#include <cuda_runtime.h>

#include "cuda_block_sum.cuh"

extern "C" {
#include "montecarlo.h"
#include "nvtx.h"
}

enum { MC_BLOCK = 256, MC_MAX_BLOCKS = 1024 };

static __global__ void montecarlo_blocks(int64_t samples, uint64_t seed,
                                  unsigned long long *block_counts)
{
    unsigned long long inside = 0;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < samples; i += stride) {
        uint64_t rx = sl_rng_u64(seed, 2 * (uint64_t)i);
        uint64_t ry = sl_rng_u64(seed, 2 * (uint64_t)i + 1);
        inside += montecarlo_inside(rx, ry);
    }
    sl_block_sum<MC_BLOCK>(inside, block_counts);
}

extern "C" int64_t montecarlo_cuda(int64_t samples, uint64_t seed, int threads,
                                   sl_where *where)
{
    (void)threads;
    *where = SL_RAN_DEVICE;
    int64_t wanted = (samples + MC_BLOCK - 1) / MC_BLOCK;
    const int blocks = wanted < MC_MAX_BLOCKS ? (int)wanted : MC_MAX_BLOCKS;
    unsigned long long block_counts[MC_MAX_BLOCKS], *dev = NULL;

    /* A failed call gives -1 points inside, which the check reports. */
    if (cudaMalloc(&dev, blocks * sizeof *dev) != cudaSuccess)
        return -1;
    sl_range_push("montecarlo cuda: kernel");
    montecarlo_blocks<<<blocks, MC_BLOCK>>>(samples, seed, dev);
    cudaError_t err = cudaDeviceSynchronize();
    sl_range_pop();
    sl_range_push("montecarlo cuda: copy to host");
    if (err == cudaSuccess)
        err = cudaMemcpy(block_counts, dev, blocks * sizeof *dev, cudaMemcpyDeviceToHost);
    sl_range_pop();
    cudaFree(dev);
    if (err != cudaSuccess)
        return -1;
    int64_t inside = 0;
    for (int b = 0; b < blocks; b++)
        inside += (int64_t)block_counts[b];
    return inside;
}
