/* fractal/planted/broken/threads.c - a planted bug for its e2e.sh: the threads
 * variant draws row j + 1 into row j (the last row twice), a deterministic
 * wrong image that the bench must flag, keep out of the plots, and draw as
 * a difference image. */
#include "fractal/fractal.h"

void fractal_threads(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
#pragma omp parallel for schedule(dynamic) num_threads(job->threads)
    for (int64_t j = 0; j < job->height; j++) {
        int64_t from = j + 1 < job->height ? j + 1 : j;
        fractal_row_scalar(job, from, counts + j * job->width);
    }
}
