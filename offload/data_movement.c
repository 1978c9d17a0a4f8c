/* data_movement.c - the offload steps of data_movement.h.
 *
 * `target enter data` / `target exit data` give the device copy a life of
 * its own, longer than one region; inside a region, map(alloc:) on data
 * already present copies nothing (the runtime counts references), so the
 * kernels below compute on what is there; `target update from` copies back
 * when asked. Built with -ffp-contract=off like the fractal variants, so
 * the image can be checked against the reference pixel for pixel.
 */
#include "data_movement.h"

#include <omp.h>

#include "fractal.h"

void dm_device_start(sl_where *where)
{
    int on_host = 1;
#pragma omp target map(tofrom: on_host)
    on_host = omp_is_initial_device();
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

void dm_image_alloc(int32_t *counts, int64_t pixels)
{
    (void)counts; /* a host-only build drops the pragma that uses it */
#pragma omp target enter data map(alloc: counts[0:pixels])
}

void dm_image_kernel(const fractal_job *job, int32_t *counts, sl_where *where)
{
    const fractal_job j = *job;
    const int64_t width = j.width, height = j.height;
    int on_host = 1;
#pragma omp target teams distribute parallel for collapse(2) \
    map(to: j) map(alloc: counts[0:width * height]) map(tofrom: on_host)
    for (int64_t y = 0; y < height; y++) {
        for (int64_t x = 0; x < width; x++) {
            if (x == 0 && y == 0)
                on_host = omp_is_initial_device();
            counts[y * width + x] = fractal_pixel(&j, x, y);
        }
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

void dm_image_to_host(int32_t *counts, int64_t pixels)
{
    (void)counts; /* a host-only build drops the pragma that uses it */
#pragma omp target update from(counts[0:pixels])
}

void dm_image_free(int32_t *counts, int64_t pixels)
{
    (void)counts; /* a host-only build drops the pragma that uses it */
#pragma omp target exit data map(delete: counts[0:pixels])
}

void dm_pi_fill(double *x, int64_t n)
{
    const double h = 1.0 / (double)n;
#pragma omp parallel for simd
    for (int64_t i = 0; i < n; i++)
        x[i] = ((double)i + 0.5) * h;
}

void dm_pi_to_device(const double *x, int64_t n)
{
    (void)x; /* a host-only build drops the pragma that uses it */
#pragma omp target enter data map(to: x[0:n])
}

/* The sum over x on the device, however x got there (present or mapped). */
static double pi_sum(const double *x, int64_t n, sl_where *where)
{
    double sum = 0.0;
    int on_host = 1;
#pragma omp target teams distribute parallel for reduction(+:sum) \
    map(to: x[0:n]) map(tofrom: sum, on_host)
    for (int64_t i = 0; i < n; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        sum += 4.0 / (1.0 + x[i] * x[i]);
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    return sum / (double)n;
}

double dm_pi_kernel(const double *x, int64_t n, sl_where *where)
{
    /* x is present (dm_pi_to_device): map(to:) inside pi_sum copies
     * nothing, it only finds the device's copy. */
    return pi_sum(x, n, where);
}

void dm_pi_free(const double *x, int64_t n)
{
    (void)x; /* a host-only build drops the pragma that uses it */
#pragma omp target exit data map(delete: x[0:n])
}

double dm_pi_per_call(const double *x, int64_t n, sl_where *where)
{
    /* x is not present: this region copies all n doubles in first. */
    return pi_sum(x, n, where);
}
