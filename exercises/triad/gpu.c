/* gpu.c - the triad on a device, with the arrays living there.
 *
 * Keep the arrays on the device: map them there once in the set-up, use
 * them there in the kernel, bring a home in collect. (step 7.6)
 */
#include <omp.h>

#include "triad.h"

void triad_setup_gpu(double *a, double *b, double *c, int64_t n, int threads)
{
    triad_setup_serial(a, b, c, n, threads);
    // TODO(7.6): copy the three arrays onto the device once:
    //            omp target enter data map(to: a[0:n], b[0:n], c[0:n]).
}

void triad_collect_gpu(double *a, double *b, double *c, int64_t n)
{
    /* Used by the pragma only, which a build without OpenMP ignores. */
    (void)a, (void)b, (void)c, (void)n;
    // TODO(7.6): bring a home and free the device's copies:
    //            omp target exit data map(from: a[0:n])
    //            map(release: b[0:n], c[0:n]).
}

void triad_gpu(double *restrict a, const double *restrict b, const double *restrict c,
               int64_t n, int threads, sl_where *where)
{
    (void)threads;
    int on_host = 1;
    // TODO(7.6): offload this loop: omp target teams distribute parallel
    //            for simd, map(alloc: a[0:n], b[0:n], c[0:n]) (present
    //            already: nothing moves) and map(tofrom: on_host).
    for (int64_t i = 0; i < n; i++) {
        /* One element records where the loop ran; only it writes on_host. */
        if (i == 0)
            on_host = omp_is_initial_device();
        a[i] = b[i] + TRIAD_SCALAR * c[i];
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
