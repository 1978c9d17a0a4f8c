/* threads_simd.c - Mandelbrot and Julia: every core, every lane.
 *
 * BEGIN SOLUTION HEADER
 * The threads variant's loop over rows, with simd.c's row: threads share
 * the rows under schedule(dynamic), and each row runs on the lane pool.
 * EXERCISE HEADER
 * The threads variant's loop over rows, calling your vectorised row from
 * simd.c: every core, and every lane of each core.
 * END SOLUTION HEADER
 */
#include "fractal.h"

void fractal_threads_simd(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    /* BEGIN SOLUTION */
#pragma omp parallel for schedule(dynamic) num_threads(job->threads)
    /* EXERCISE
    // TODO(2.5): the same pragma as in threads.c (step 2.3): this loop
    //            already calls your vectorised row from simd.c.
    END SOLUTION */
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_simd(job, j, counts + j * job->width);
}
