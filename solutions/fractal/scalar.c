/* scalar.c - Mandelbrot and Julia, one pixel at a time: the baseline.
 *
 * Compiled with the auto-vectoriser off (and, like every fractal file,
 * with -ffp-contract=off), so it is the genuinely scalar reference point.
 */
#include "fractal.h"

void fractal_row_scalar(const fractal_job *job, int64_t j, int32_t *row)
{
    for (int64_t i = 0; i < job->width; i++)
        row[i] = fractal_pixel(job, i, j);
}

void fractal_scalar(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_scalar(job, j, counts + j * job->width);
}
