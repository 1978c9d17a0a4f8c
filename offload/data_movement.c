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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fractal.h"

void dm_device_start(sl_where *where)
{
    int on_host = 1;
#pragma omp target map(tofrom: on_host)
    on_host = omp_is_initial_device();
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

/* --- The Mandelbrot (or Julia) image: results come back ------------------ */

typedef struct image_work {
    fractal_job_alone held;   /* alone on its lines, as in the timed call */
    int32_t *counts;
    int64_t pixels;
} image_work;

static void *image_prepare(const sl_problem_def *def, const sl_problem *p, sl_outcome *out,
                           double *bytes_in, double *bytes_out, char *label, size_t len)
{
    image_work *w = aligned_alloc(64, sizeof *w);
    if (w == NULL)
        return NULL;
    w->held.job = fractal_job_for(def, p);
    w->pixels = w->held.job.width * w->held.job.height;
    w->counts = out->counts = malloc((size_t)w->pixels * sizeof *w->counts);
    *bytes_in = 0;
    *bytes_out = (double)w->pixels * sizeof *w->counts;
    snprintf(label, len, "%s %lldx%lld", def->name, (long long)w->held.job.width,
             (long long)w->held.job.height);
    if (w->counts == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

/* A copy that never happened must show: every repetition starts from garbage. */
static void image_reset(void *vw)
{
    image_work *w = vw;
    memset(w->counts, 0xff, (size_t)w->pixels * sizeof *w->counts);
}

/* Make room for the image on the device (nothing is copied). */
static void image_alloc(void *vw, sl_outcome *out)
{
    (void)out;
    int32_t *counts = ((image_work *)vw)->counts;
    const int64_t pixels = ((image_work *)vw)->pixels;
    (void)counts, (void)pixels; /* a host-only build drops the pragma that uses them */
#pragma omp target enter data map(alloc: counts[0:pixels])
}

/* Compute the image into the device's copy of the counts. */
static void image_kernel(void *vw, sl_outcome *out)
{
    const fractal_job j = ((image_work *)vw)->held.job;
    int32_t *counts = ((image_work *)vw)->counts;
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
    out->where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

/* Copy the device's image to the host. */
static void image_to_host(void *vw, sl_outcome *out)
{
    (void)out;
    int32_t *counts = ((image_work *)vw)->counts;
    const int64_t pixels = ((image_work *)vw)->pixels;
    (void)counts, (void)pixels; /* a host-only build drops the pragma that uses them */
#pragma omp target update from(counts[0:pixels])
}

/* Free the device's copy. */
static void image_free(void *vw, sl_outcome *out)
{
    (void)out;
    int32_t *counts = ((image_work *)vw)->counts;
    const int64_t pixels = ((image_work *)vw)->pixels;
    (void)counts, (void)pixels; /* a host-only build drops the pragma that uses them */
#pragma omp target exit data map(delete: counts[0:pixels])
}

static void image_discard(void *vw)
{
    free(((image_work *)vw)->counts);
    free(vw);
}

/* --- pi from an array of midpoints: input goes in ------------------------- */

typedef struct array_work {
    double *x;
    int64_t n;
} array_work;

/* The host makes the input, as np.linspace would: x[i] = (i + 0.5) / n. */
static void *array_prepare(const sl_problem_def *def, const sl_problem *p, sl_outcome *out,
                           double *bytes_in, double *bytes_out, char *label, size_t len)
{
    (void)out;
    array_work *w = malloc(sizeof *w);
    const int64_t n = p->size;
    double *x = w ? malloc((size_t)n * sizeof *x) : NULL;
    *bytes_in = (double)n * sizeof *x;
    *bytes_out = sizeof(double);
    snprintf(label, len, "%s, array of %.0e", def->name, (double)n);
    if (x == NULL) {
        free(w);
        return NULL;
    }
    const double h = 1.0 / (double)n;
#pragma omp parallel for simd
    for (int64_t i = 0; i < n; i++)
        x[i] = ((double)i + 0.5) * h;
    *w = (array_work){ x, n };
    return w;
}

/* Copy x to the device. */
static void array_to_device(void *vw, sl_outcome *out)
{
    (void)out;
    const double *x = ((array_work *)vw)->x;
    const int64_t n = ((array_work *)vw)->n;
    (void)x, (void)n; /* a host-only build drops the pragma that uses them */
#pragma omp target enter data map(to: x[0:n])
}

/* pi ~ (1/n) sum 4/(1 + x[i]^2) on the device, however x got there: when
 * it is present (array_to_device), map(to:) copies nothing and only finds
 * the device's copy; when it is not (array_per_call), this region copies
 * all n doubles in first. The sum comes back with the region (8 bytes). */
static void array_sum(void *vw, sl_outcome *out)
{
    const double *x = ((array_work *)vw)->x;
    const int64_t n = ((array_work *)vw)->n;
    double sum = 0.0;
    int on_host = 1;
#pragma omp target teams distribute parallel for reduction(+:sum) \
    map(to: x[0:n]) map(tofrom: sum, on_host)
    for (int64_t i = 0; i < n; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        sum += 4.0 / (1.0 + x[i] * x[i]);
    }
    out->where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
    out->value = sum / (double)n;
}

/* Free the device's copy. */
static void array_free(void *vw, sl_outcome *out)
{
    (void)out;
    const double *x = ((array_work *)vw)->x;
    const int64_t n = ((array_work *)vw)->n;
    (void)x, (void)n; /* a host-only build drops the pragma that uses them */
#pragma omp target exit data map(delete: x[0:n])
}

static void array_discard(void *vw)
{
    free(((array_work *)vw)->x);
    free(vw);
}

static const dm_workload image = {
    .prepare = image_prepare, .reset = image_reset,
    .step = { image_alloc, image_kernel, image_to_host, image_free },
    .step_name = { "image: allocate on device", "image: kernel", "image: copy to host",
                   "image: free on device" },
    .discard = image_discard, .crossover = 1,
};

/* An array of 10^8 doubles (800 MB) goes in; QUICK: 10^7. */
static const dm_workload array_in = {
    .size = INT64_C(100000000), .quick_size = INT64_C(10000000),
    .prepare = array_prepare,
    .step = { array_to_device, array_sum, NULL, array_free },
    .step_name = { "array: copy to device", "array: kernel", NULL, "array: free on device",
                   "array: per call" },
    .per_call = array_sum, .discard = array_discard,
};

const dm_workload *dm_workload_of(sl_breakdown_kind kind)
{
    return kind == SL_BREAKDOWN_IMAGE ? &image : kind == SL_BREAKDOWN_ARRAY_IN ? &array_in : NULL;
}
