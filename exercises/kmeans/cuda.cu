/* cuda.cu - k-means' assignment in CUDA C, for comparison with gpu.c.
 *
 * What gpu.c's `target data` and `target teams distribute parallel for`
 * do, written out: the points are copied to the device once for all the
 * iterations; each iteration copies the KMEANS_D x KMEANS_K centroids
 * (transposed, 4 KiB) over, one thread per point finds its nearest
 * centroid (the centroids read from shared memory, which every thread of a
 * block shares), and the labels come home for the update, done on the host
 * as in gpu.c. The distances may contract to FMAs on the device; the
 * labels on the kit's well-separated clusters do not move, and the
 * centroids are the host's sums, so the check stays exact.
 * threads is ignored: the grid's shape is the GPU's business.
 */
#include <cuda_runtime.h>

extern "C" {
#include "kmeans.h"
#include "nvtx.h"
}

enum { KMEANS_BLOCK = 256 };

static __global__ void kmeans_assign(const double *x, int64_t n, const double *ct,
                                     int32_t *labels)
{
    __shared__ double shared_ct[KMEANS_D * KMEANS_K];
    for (int k = threadIdx.x; k < KMEANS_D * KMEANS_K; k += blockDim.x)
        shared_ct[k] = ct[k];
    __syncthreads();
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double dist[KMEANS_K] = { 0 };
    for (int f = 0; f < KMEANS_D; f++) {
        const double xf = x[i * KMEANS_D + f];
        for (int c = 0; c < KMEANS_K; c++) {
            double e = xf - shared_ct[f * KMEANS_K + c];
            dist[c] += e * e;
        }
    }
    int32_t best = 0;
    for (int c = 1; c < KMEANS_K; c++)
        if (dist[c] < dist[best])
            best = c;
    labels[i] = best;
}

/* One Lloyd iteration's update on the host: gpu.c's. */
static void update(const double *x, int64_t n, const int32_t *labels, double *centroids)
{
    double sums[KMEANS_K * KMEANS_D] = { 0 };
    int64_t counts[KMEANS_K] = { 0 };
    for (int64_t i = 0; i < n; i++) {
        counts[labels[i]]++;
        for (int f = 0; f < KMEANS_D; f++)
            sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
    }
    kmeans_mean(sums, counts, centroids);
}

extern "C" void kmeans_cuda(const double *restrict x, int64_t n, int32_t *restrict labels,
                            double *restrict centroids, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_DEVICE;
    kmeans_start(x, centroids);
    double ct[KMEANS_D * KMEANS_K], *dx = NULL, *dct = NULL;
    int32_t *dlabels = NULL;
    const size_t xbytes = (size_t)n * KMEANS_D * sizeof(double);
    const size_t lbytes = (size_t)n * sizeof(int32_t);
    /* A failed call leaves the labels unwritten (no cluster's), which the
     * check then reports as wrong. */
    sl_range_push("kmeans cuda: points to the device");
    cudaError_t err = cudaMalloc(&dx, xbytes);
    if (err == cudaSuccess)
        err = cudaMalloc(&dct, sizeof ct);
    if (err == cudaSuccess)
        err = cudaMalloc(&dlabels, lbytes);
    if (err == cudaSuccess)
        err = cudaMemcpy(dx, x, xbytes, cudaMemcpyHostToDevice);
    sl_range_pop();
    const int64_t blocks = (n + KMEANS_BLOCK - 1) / KMEANS_BLOCK;
    for (int it = 0; it < KMEANS_ITERS && err == cudaSuccess; it++) {
        kmeans_transpose(centroids, ct);
        sl_range_push("kmeans cuda: assignment");
        err = cudaMemcpy(dct, ct, sizeof ct, cudaMemcpyHostToDevice);
        if (err == cudaSuccess) {
            kmeans_assign<<<(unsigned)blocks, KMEANS_BLOCK>>>(dx, n, dct, dlabels);
            err = cudaDeviceSynchronize();
        }
        if (err == cudaSuccess)
            err = cudaMemcpy(labels, dlabels, lbytes, cudaMemcpyDeviceToHost);
        sl_range_pop();
        if (err == cudaSuccess)
            update(x, n, labels, centroids);
    }
    cudaFree(dx);
    cudaFree(dct);
    cudaFree(dlabels);
}
