/* expert.c - Mandelbrot and Julia past the lane pool: the expert rung.
 *
 * Optional, for fast participants: as written this is threads_simd. Make
 * the pool cheaper per step and per refill (step 3.5).
 */
#include "fractal.h"


void fractal_expert(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
#pragma omp parallel for schedule(dynamic) num_threads(job->threads)
    for (int64_t j = 0; j < job->height; j++) {
        // TODO(3.5): a row faster than your lane pool (step 3.5).
        fractal_row_simd(job, j, counts + j * job->width);
    }
}
