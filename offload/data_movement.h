/* data_movement.h - lesson 5: offload in separate steps, so the bench can
 * time each one (bench/measure/breakdown.c) and show where a GPU run's time goes.
 *
 * Two workloads, chosen for their opposite traffic:
 *   - the Mandelbrot image: nothing goes in, width*height counts come back;
 *   - pi "the NumPy way": the midpoints are an array made on the host
 *     (like np.linspace), so 8 bytes per step go in and one number comes
 *     back.
 * Each has the steps a `target data` region makes explicit: put the data on
 * the device, run the kernel on data already there, bring results back,
 * release; and a per-call form that maps everything inside the one target
 * region, as a function called in a loop would.
 *
 * These are kernels: pure functions of their arguments, no clocks, no I/O.
 * Every kernel step reports where it ran (omp_is_initial_device() read
 * inside the region); on the host fallback the copies cost nothing, because
 * the "device" is the host's own memory.
 */
#ifndef SPEEDLAB_DATA_MOVEMENT_H
#define SPEEDLAB_DATA_MOVEMENT_H

#include <stdint.h>

#include "fractal_problem.h"
#include "kernel.h"

/* An empty target region: the first one in a process starts the offload
 * runtime and the device (seconds on some machines). */
void dm_device_start(sl_where *where);

/* --- The Mandelbrot (or Julia) image: results come back ------------------ */
/* Make room for the image on the device (nothing is copied). */
void dm_image_alloc(int32_t *counts, int64_t pixels);
/* Compute the image into the device's copy of counts. */
void dm_image_kernel(const fractal_job *job, int32_t *counts, sl_where *where);
/* Copy the device's image into counts on the host. */
void dm_image_to_host(int32_t *counts, int64_t pixels);
/* Free the device's copy. */
void dm_image_free(int32_t *counts, int64_t pixels);

/* --- pi from an array of midpoints: input goes in ------------------------- */
/* The host makes the input: x[i] = (i + 0.5) / n. */
void dm_pi_fill(double *x, int64_t n);
/* Copy x to the device. */
void dm_pi_to_device(const double *x, int64_t n);
/* pi ~ (1/n) sum 4/(1 + x[i]^2), over the device's copy of x. */
double dm_pi_kernel(const double *x, int64_t n, sl_where *where);
/* Free the device's copy. */
void dm_pi_free(const double *x, int64_t n);
/* All in one region: copy x in, sum, copy the sum out, free: per call. */
double dm_pi_per_call(const double *x, int64_t n, sl_where *where);

#endif
