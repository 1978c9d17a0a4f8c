/* simd.c - Mandelbrot and Julia, many pixels per instruction on one core.
 *
 * Many pixels per instruction on one core. `omp simd` on the pixel loop
 * does not vectorise: each pixel's escape loop stops at a different step.
 * The image must still equal the reference pixel for pixel: each lane must
 * perform the scalar code's operations in the same order. (step 2.2;
 * step 3.4 goes further)
 */
#include "fractal.h"


void fractal_row_simd(const fractal_job *job, int64_t j, int32_t *row)
{
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
}

void fractal_simd(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_simd(job, j, counts + j * job->width);
}
