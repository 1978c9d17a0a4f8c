/* cuda.cu - the triad in CUDA C, for comparison with gpu.c: the same
 * arrays living on the device, and the bandwidth a hand-written kernel
 * gets from it.
 *
 * OpenMP's `target enter data` makes the runtime remember, for each host
 * array, its copy on the device; a target region then finds it "present".
 * CUDA C has no such table, so this file keeps one, written out: the
 * set-up copies the arrays over and records the three device pointers
 * under the host's `a`, the kernel looks them up, and collect copies `a`
 * home and frees them. One grid-stride loop; threads is ignored.
 */
#include <cuda_runtime.h>

extern "C" {
#include "nvtx.h"
#include "triad.h"
}

enum { TRIAD_BLOCK = 256, TRIAD_MAX_BLOCKS = 65535, RESIDENT_MAX = 8 };

/* Host arrays -> their device copies: what OpenMP's runtime keeps. */
static struct {
    const double *a;
    double *da, *db, *dc;
} resident[RESIDENT_MAX];

static int find(const double *a)
{
    for (int k = 0; k < RESIDENT_MAX; k++)
        if (resident[k].a == a)
            return k;
    return -1;
}

static __global__ void triad_grid(double *a, const double *b, const double *c, int64_t n)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
}

extern "C" void triad_setup_cuda(double *a, double *b, double *c, int64_t n, int threads)
{
    triad_setup_serial(a, b, c, n, threads);
    int k = find(NULL);
    if (k < 0)
        return;   /* no slot: the kernel finds nothing, and a stays wrong */
    size_t bytes = (size_t)n * sizeof(double);
    double *da = NULL, *db = NULL, *dc = NULL;
    if (cudaMalloc(&da, bytes) != cudaSuccess || cudaMalloc(&db, bytes) != cudaSuccess ||
        cudaMalloc(&dc, bytes) != cudaSuccess ||
        cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(dc, c, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        cudaFree(da), cudaFree(db), cudaFree(dc);
        return;
    }
    resident[k].a = a;
    resident[k].da = da, resident[k].db = db, resident[k].dc = dc;
}

extern "C" void triad_cuda(double *restrict a, const double *restrict b,
                           const double *restrict c, int64_t n, int threads, sl_where *where)
{
    (void)b, (void)c, (void)threads;
    *where = SL_RAN_DEVICE;
    int k = find(a);
    if (k < 0)
        return;
    int64_t wanted = (n + TRIAD_BLOCK - 1) / TRIAD_BLOCK;
    int blocks = wanted < TRIAD_MAX_BLOCKS ? (int)wanted : TRIAD_MAX_BLOCKS;
    sl_range_push("triad cuda: kernel");
    triad_grid<<<blocks, TRIAD_BLOCK>>>(resident[k].da, resident[k].db, resident[k].dc, n);
    cudaDeviceSynchronize();
    sl_range_pop();
}

extern "C" void triad_collect_cuda(double *a, double *b, double *c, int64_t n)
{
    (void)b, (void)c;
    int k = find(a);
    if (k < 0)
        return;
    cudaMemcpy(a, resident[k].da, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaFree(resident[k].da), cudaFree(resident[k].db), cudaFree(resident[k].dc);
    resident[k].a = NULL;
}
