/* cuda.cu - pi in CUDA C, for comparison with the OpenMP offload (gpu*.c).
 *
 * What `target teams distribute parallel for reduction(+:sum)` does for
 * you, written out: a grid of blocks (teams) of threads; each thread sums
 * a strided share of the steps; each block adds its threads' sums in shared
 * memory (sl_block_sum, common/cuda_block_sum.cuh); the blocks' sums come
 * back to the host, which adds them in a fixed order, so the answer does
 * not depend on which block ends first.
 * Only the block sums cross the bus: the work is all arithmetic.
 * threads is ignored: the grid's shape is the GPU's business.
 */
#include <cuda_runtime.h>

#include "cuda_block_sum.cuh"

extern "C" {
#include "nvtx.h"
#include "pi.h"
}

enum { PI_BLOCK = 256, PI_MAX_BLOCKS = 1024 };

static __global__ void pi_blocks(int64_t steps, double h, double *block_sums)
{
    double sum = 0.0;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < steps; i += stride) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    sl_block_sum<PI_BLOCK>(sum, block_sums);
}

extern "C" double pi_cuda(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_DEVICE;
    const double h = 1.0 / (double)steps;
    int64_t wanted = (steps + PI_BLOCK - 1) / PI_BLOCK;
    const int blocks = wanted < PI_MAX_BLOCKS ? (int)wanted : PI_MAX_BLOCKS;
    double block_sums[PI_MAX_BLOCKS], *dev = NULL;

    /* A failed call gives NaN, which the check then reports as wrong. */
    if (cudaMalloc(&dev, blocks * sizeof *dev) != cudaSuccess)
        return 0.0 / 0.0;
    sl_range_push("pi cuda: kernel");
    pi_blocks<<<blocks, PI_BLOCK>>>(steps, h, dev);
    cudaError_t err = cudaDeviceSynchronize();
    sl_range_pop();
    sl_range_push("pi cuda: copy to host");
    if (err == cudaSuccess)
        err = cudaMemcpy(block_sums, dev, blocks * sizeof *dev, cudaMemcpyDeviceToHost);
    sl_range_pop();
    cudaFree(dev);
    if (err != cudaSuccess)
        return 0.0 / 0.0;
    double sum = 0.0;
    for (int b = 0; b < blocks; b++)
        sum += block_sums[b];
    return h * sum;
}
