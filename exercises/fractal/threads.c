/* threads.c - Mandelbrot and Julia on several cores, one pixel at a time
 * per core.
 *
 * Share the image's rows between job->threads threads. Which rows cost the
 * most, and what does that mean for how they are handed out? (step 2.4)
 */
#include "fractal.h"

void fractal_threads(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    // TODO(2.3): share the rows between job->threads threads: omp parallel
    //            for with num_threads(job->threads), and a schedule that
    //            suits rows of very different cost. course/02-mandelbrot.md, step 2.3.
    for (int64_t j = 0; j < job->height; j++)
        fractal_row_scalar(job, j, counts + j * job->width);
}
