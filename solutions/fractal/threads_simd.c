/* threads_simd.c - Mandelbrot and Julia: every core, every lane.
 *
 * The threads variant's loop over rows, with simd.c's row: threads share
 * the rows under the chosen schedule, and each row runs on the lane pool.
 */
#include "fractal.h"

void fractal_threads_simd(const fractal_job *job, int32_t *counts,
                          int32_t *row_thread, sl_where *where)
{
    *where = SL_RAN_HOST;
    sl_schedule caller = fractal_schedule_set(job->schedule);
    /* BEGIN SOLUTION */
#pragma omp parallel for schedule(runtime) num_threads(job->threads)
    /* EXERCISE
    // TODO(2.5): the same pragma as in threads.c (step 2.3): this loop
    //            already calls your vectorised row from simd.c.
    END SOLUTION */
    for (int64_t j = 0; j < job->height; j++) {
        fractal_row_simd(job, j, counts + j * job->width);
        if (row_thread)
            row_thread[j] = omp_get_thread_num();
    }
    fractal_schedule_restore(caller);
}
