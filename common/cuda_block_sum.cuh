/* cuda_block_sum.cuh - the end of every CUDA kernel that reduces to one
 * number (pi's sum, Monte Carlo's count): what reduction(+:x) does inside a
 * team. Each thread brings its partial value; the block adds them in
 * shared memory, halving the active threads each round; thread 0 writes the
 * block's total to block_sums[blockIdx.x]. The host then adds the blocks'
 * totals in a fixed order, so the answer does not depend on which block
 * ends first. Call it from every thread of a block of BLOCK threads
 * (BLOCK a power of two).
 */
#ifndef SPEEDLAB_CUDA_BLOCK_SUM_CUH
#define SPEEDLAB_CUDA_BLOCK_SUM_CUH

template <int BLOCK, typename T>
__device__ void sl_block_sum(T mine, T *block_sums)
{
    __shared__ T sums[BLOCK];
    sums[threadIdx.x] = mine;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        block_sums[blockIdx.x] = sums[0];
}

#endif
