/* simd.c - Mandelbrot and Julia, many pixels per instruction on one core.
 *
 * BEGIN SOLUTION HEADER
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
 * EXERCISE HEADER
 * Many pixels per instruction on one core. `omp simd` on the pixel loop
 * does not vectorise: each pixel's escape loop stops at a different step.
 * The image must still equal the reference pixel for pixel: each lane must
 * perform the scalar code's operations in the same order. (step 2.2;
 * step 3.4 goes further)
 * END SOLUTION HEADER
 */
#include "fractal.h"

/* BEGIN SOLUTION */
/* A finished or parked lane: |z|^2 = 16 > 4, so the step leaves it alone. */
#define PARKED_ZR 4.0
/* END SOLUTION */

void fractal_row_simd(const fractal_job *job, int64_t j, int32_t *row)
{
    /* BEGIN SOLUTION */
    const double y = fractal_y(job, j);
    const int64_t max_iter = job->max_iter;
    /* Lane state. The counts are 64-bit like the doubles, so one vector
     * holds the same lanes for all of them. */
    double zr[FRACTAL_LANES], zi[FRACTAL_LANES], cr[FRACTAL_LANES], ci[FRACTAL_LANES];
    int64_t n[FRACTAL_LANES], pixel[FRACTAL_LANES];
    int64_t next = 0, busy = 0;

    for (int l = 0; l < FRACTAL_LANES; l++) {
        zr[l] = PARKED_ZR, zi[l] = 0.0, cr[l] = 0.0, ci[l] = 0.0;
        n[l] = 0, pixel[l] = -1;
    }
    for (;;) {
        /* Hand in finished pixels and refill their lanes (scalar, once
         * every FRACTAL_CHECK_EVERY steps). */
        for (int l = 0; l < FRACTAL_LANES; l++) {
            if (zr[l] * zr[l] + zi[l] * zi[l] <= 4.0 && n[l] < max_iter)
                continue;
            if (pixel[l] >= 0) {
                row[pixel[l]] = (int32_t)n[l];
                busy--;
            }
            pixel[l] = -1;
            zr[l] = PARKED_ZR, zi[l] = 0.0;
            if (next < job->width) {
                fractal_start(job, fractal_x(job, next), y, &zr[l], &zi[l], &cr[l], &ci[l]);
                n[l] = 0;
                pixel[l] = next++;
                busy++;
            }
        }
        if (busy == 0)
            break;
        for (int k = 0; k < FRACTAL_CHECK_EVERY; k++) {
            /* One step for every lane; a finished lane keeps its values. */
#pragma omp simd
            for (int l = 0; l < FRACTAL_LANES; l++) {
                double zr2 = zr[l] * zr[l], zi2 = zi[l] * zi[l];
                int go = (zr2 + zi2 <= 4.0) & (n[l] < max_iter);
                double next_zi = 2.0 * zr[l] * zi[l] + ci[l];
                double next_zr = zr2 - zi2 + cr[l];
                zr[l] = go ? next_zr : zr[l];
                zi[l] = go ? next_zi : zi[l];
                n[l] += go;
            }
        }
    }
    /* EXERCISE
    // TODO(2.2): vectorise this row. `omp simd` on this loop does nothing:
    //            every pixel's escape loop stops at a different step.
    //            Iterate a strip of pixels together instead: arrays of
    //            z, c and counts, one step for all lanes under `omp simd`
    //            (a lane that has escaped keeps its values: go ? new : old),
    //            and stop when no lane is still going. course/02-mandelbrot.md, step 2.2.
    // TODO(3.4), after lesson 3's step 3.2: turn the strip into
    //            a lane pool. Every FRACTAL_CHECK_EVERY steps a scalar pass
    //            stores the count of each finished lane and gives that lane
    //            the row's next pixel, so no lane waits for the slowest
    //            pixel of its strip. course/03-julia.md, step 3.4.
    for (int64_t i = 0; i < job->width; i++)
        row[i] = fractal_pixel(job, i, j);
    END SOLUTION */
}

void fractal_simd(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_simd(job, j, counts + j * job->width);
}
