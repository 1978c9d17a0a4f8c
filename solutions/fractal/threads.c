/* threads.c - Mandelbrot and Julia on several cores, one pixel at a time
 * per core.
 *
 * Rows are independent, so parallel for over rows is correct as it stands.
 * It is not fast as it stands: rows through the set cost up to max_iter per
 * pixel, rows outside it a few, so schedule(static)'s equal blocks of rows
 * leave some threads idle while one finishes the middle. dynamic hands out
 * a row at a time to whichever thread is free; guided hands out big blocks
 * first and smaller ones later. The loop says schedule(runtime) so that the
 * bench can sweep all of them with one kernel; in your own code, write
 * schedule(dynamic). row_thread records who computed each row, from which
 * the bench draws each thread's share of the work (no clocks in kernels).
 */
#include "fractal.h"

void fractal_threads(const fractal_job *job, int32_t *counts, int32_t *row_thread,
                     sl_where *where)
{
    *where = SL_RAN_HOST;
    sl_schedule caller = fractal_schedule_set(job->schedule);
    /* BEGIN SOLUTION */
#pragma omp parallel for schedule(runtime) num_threads(job->threads)
    /* EXERCISE
    // TODO(2.3): share the rows between job->threads threads: omp parallel
    //            for, num_threads(job->threads), and schedule(runtime) so
    //            that the bench can choose the schedule. COURSE.md step 2.3.
    END SOLUTION */
    for (int64_t j = 0; j < job->height; j++) {
        fractal_row_scalar(job, j, counts + j * job->width);
        if (row_thread)
            row_thread[j] = omp_get_thread_num();
    }
    fractal_schedule_restore(caller);
}
