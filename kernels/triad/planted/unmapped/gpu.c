/* triad/planted/unmapped/gpu.c - step 7.6 done but for one word, for the
 * tests: collect releases a instead of mapping it from the device, so
 * the device's results never come home. On the host fallback the
 * "device" arrays are the host's and the answer is right; on the host
 * offload device (make check OFFLOAD=host) or a GPU, a keeps its value
 * from before the call and validation says WRONG (e2e.host_offload).
 */
#include <omp.h>

#include "triad/triad.h"

void triad_setup_gpu(double *a, double *b, double *c, int64_t n, int threads)
{
    triad_setup_serial(a, b, c, n, threads);
#pragma omp target enter data map(to: a[0:n], b[0:n], c[0:n])
}

void triad_collect_gpu(double *a, double *b, double *c, int64_t n)
{
    (void)a, (void)b, (void)c, (void)n;
    /* The bug: release, not from, for a. */
#pragma omp target exit data map(release: a[0:n], b[0:n], c[0:n])
}

void triad_gpu(double *restrict a, const double *restrict b, const double *restrict c,
               int64_t n, int threads, sl_where *where)
{
    (void)threads;
    int on_host = 1;
#pragma omp target teams distribute parallel for simd \
    map(alloc: a[0:n], b[0:n], c[0:n]) map(tofrom: on_host)
    for (int64_t i = 0; i < n; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        a[i] = b[i] + TRIAD_SCALAR * c[i];
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
