/* sweep.c - the bench's schedule sweep: not a lesson file, nothing to edit.
 *
 * threads.c and threads_simd.c write their schedule in their pragma, so a
 * row labelled with a schedule must have run under it. To time static,
 * static,1, dynamic and guided from one build, the bench runs these twins
 * instead: the same loops over this tree's rows (fractal_row_scalar,
 * fractal_row_simd) with schedule(runtime), whose schedule the harness
 * sets for the call (kernels/fractal/fractal_problem.c). row_thread records which
 * thread computed each row; the report draws each thread's share of the
 * work from it (no clocks in kernels).
 */
#include "fractal.h"

void fractal_threads_sweep(const fractal_job *job, int32_t *counts, int32_t *row_thread)
{
#pragma omp parallel for schedule(runtime) num_threads(job->threads)
    for (int64_t j = 0; j < job->height; j++) {
        fractal_row_scalar(job, j, counts + j * job->width);
        if (row_thread)
            row_thread[j] = omp_get_thread_num();
    }
}

void fractal_threads_simd_sweep(const fractal_job *job, int32_t *counts,
                                int32_t *row_thread)
{
#pragma omp parallel for schedule(runtime) num_threads(job->threads)
    for (int64_t j = 0; j < job->height; j++) {
        fractal_row_simd(job, j, counts + j * job->width);
        if (row_thread)
            row_thread[j] = omp_get_thread_num();
    }
}
