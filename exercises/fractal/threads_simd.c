/* threads_simd.c - Mandelbrot and Julia: every core, every lane.
 *
 * The threads variant's loop over rows, calling your vectorised row from
 * simd.c: every core, and every lane of each core.
 */
#include "fractal.h"

void fractal_threads_simd(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    // TODO(2.5): the same pragma as in threads.c (step 2.3): this loop
    //            already calls your vectorised row from simd.c.
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_simd(job, j, counts + j * job->width);
}
