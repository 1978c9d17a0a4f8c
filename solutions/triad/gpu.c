/* gpu.c - the triad on a device, with the arrays living there.
 *
 * BEGIN SOLUTION HEADER
 * The set-up copies b and c (and a) onto the device once (target enter
 * data); each call then finds them present and moves nothing but where it
 * ran, so its time is the device memory's bandwidth (an H100's HBM3 reads
 * about 3 TB/s); collect copies a home (target exit data), outside the
 * clock. Without a device all of it runs on the host, labelled host
 * fallback.
 * EXERCISE HEADER
 * Keep the arrays on the device: map them there once in the set-up, use
 * them there in the kernel, bring a home in collect. (step 7.6)
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "triad.h"

void triad_setup_gpu(double *a, double *b, double *c, int64_t n, int threads)
{
    triad_setup_serial(a, b, c, n, threads);
    /* BEGIN SOLUTION */
#pragma omp target enter data map(to: a[0:n], b[0:n], c[0:n])
    /* EXERCISE
    // TODO(7.6): copy the three arrays onto the device once:
    //            omp target enter data map(to: a[0:n], b[0:n], c[0:n]).
    END SOLUTION */
}

void triad_collect_gpu(double *a, double *b, double *c, int64_t n)
{
    /* Used by the pragma only, which a build without OpenMP ignores. */
    (void)a, (void)b, (void)c, (void)n;
    /* BEGIN SOLUTION */
#pragma omp target exit data map(from: a[0:n]) map(release: b[0:n], c[0:n])
    /* EXERCISE
    // TODO(7.6): bring a home and free the device's copies:
    //            omp target exit data map(from: a[0:n])
    //            map(release: b[0:n], c[0:n]).
    END SOLUTION */
}

void triad_gpu(double *restrict a, const double *restrict b, const double *restrict c,
               int64_t n, int threads, sl_where *where)
{
    (void)threads;
    int on_host = 1;
    /* BEGIN SOLUTION */
    /* The arrays are present (the set-up mapped them): map(alloc:) finds
     * them and moves nothing. */
#pragma omp target teams distribute parallel for simd \
    map(alloc: a[0:n], b[0:n], c[0:n]) map(tofrom: on_host)
    /* EXERCISE
    // TODO(7.6): offload this loop: omp target teams distribute parallel
    //            for simd, map(alloc: a[0:n], b[0:n], c[0:n]) (present
    //            already: nothing moves) and map(tofrom: on_host).
    END SOLUTION */
    for (int64_t i = 0; i < n; i++) {
        /* One element records where the loop ran; only it writes on_host. */
        if (i == 0)
            on_host = omp_is_initial_device();
        a[i] = b[i] + TRIAD_SCALAR * c[i];
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
