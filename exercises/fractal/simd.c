/* simd.c - Mandelbrot and Julia, many pixels per instruction on one core.
 *
 * `omp simd` on the pixel loop does not vectorise: each pixel's escape loop
 * stops at a different step. So the loop is turned inside out. A pool of
 * FRACTAL_LANES lanes each holds one pixel; one step advances every lane
 * at once, under `omp simd`, and a lane whose pixel has escaped (or reached
 * max_iter) is masked: its z stays put and its count stops. Every
 * FRACTAL_CHECK_EVERY steps a short scalar pass hands in finished pixels
 * and gives their lanes the row's next pixel, so lanes do not sit idle
 * waiting for the slowest pixel of a fixed strip (Julia's pixels differ so
 * much that fixed strips of 8 waste over half the lanes; lesson 3).
 *
 * Exact: each lane performs the scalar code's operations in the same order
 * (masking only chooses whether to keep the result), so the image equals
 * the reference pixel for pixel.
 */
#include "fractal.h"

/* A finished or parked lane: |z|^2 = 16 > 4, so the step leaves it alone. */
#define PARKED_ZR 4.0

void fractal_row_simd(const fractal_job *job, int64_t j, int32_t *row)
{
    // TODO(2.2): vectorise this row. `omp simd` on this loop does nothing:
    //            every pixel's escape loop stops at a different step.
    //            Iterate a strip of pixels together instead: arrays of
    //            z, c and counts, one step for all lanes under `omp simd`
    //            (a lane that has escaped keeps its values: go ? new : old),
    //            and stop when no lane is still going. COURSE.md step 2.2.
    for (int64_t i = 0; i < job->width; i++)
        row[i] = fractal_pixel(job, i, j);
}

void fractal_simd(const fractal_job *job, int32_t *counts, int32_t *row_thread,
                  sl_where *where)
{
    (void)row_thread;
    *where = SL_RAN_HOST;
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_simd(job, j, counts + j * job->width);
}
