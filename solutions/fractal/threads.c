/* threads.c - Mandelbrot and Julia on several cores, one pixel at a time
 * per core.
 *
 * BEGIN SOLUTION HEADER
 * Rows are independent, so parallel for over rows is correct as it stands.
 * It is not fast as it stands: rows through the set cost up to max_iter per
 * pixel, rows outside it a few, so schedule(static)'s equal blocks of rows
 * leave some threads idle while one finishes the middle. schedule(dynamic)
 * hands out a row at a time to whichever thread is free. (The bench's
 * sweep of static, dynamic and guided runs this loop's twin in sweep.c.)
 * EXERCISE HEADER
 * Share the image's rows between job->threads threads. Which rows cost the
 * most, and what does that mean for how they are handed out? (step 2.4)
 * END SOLUTION HEADER
 */
#include "fractal.h"

void fractal_threads(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    /* BEGIN SOLUTION */
#pragma omp parallel for schedule(dynamic) num_threads(job->threads)
    /* EXERCISE
    // TODO(2.3): share the rows between job->threads threads: omp parallel
    //            for with num_threads(job->threads), and a schedule that
    //            suits rows of very different cost. course/02-mandelbrot.md, step 2.3.
    END SOLUTION */
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_scalar(job, j, counts + j * job->width);
}
