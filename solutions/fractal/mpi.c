/* fractal.c - lesson 6: Mandelbrot and Julia over MPI ranks.
 *
 * BEGIN SOLUTION HEADER
 * Rows are shared out over ranks and each rank computes its rows with
 * lesson 2's threads_simd loop and the participant's own vectorised row;
 * MPI_Gatherv brings every rank's rows to rank 0, which puts each row in
 * its place. Two distributions: blocks (rank r gets the r-th band of rows)
 * leave the rank with the set's interior, whose pixels all run to the cap,
 * with most of the work; cyclic rows (rank r gets rows r, r + R, ...) deal
 * every band out to every rank, like cards, and balance it.
 * EXERCISE HEADER
 * As written, every rank computes every row and rank 0 keeps its own
 * image: right, and no faster with more ranks. Share the rows out in
 * blocks (step 6.6), gather them on rank 0 (step 6.7), then deal them out
 * cyclically and measure the difference (step 6.8).
 * END SOLUTION HEADER
 */
#include <string.h>

#include "fractal.h"
#include "hybrid.h"

#define fractal_hybrid_compute SL_TREE_SYMBOL(fractal_hybrid_compute)
#define fractal_hybrid_combine SL_TREE_SYMBOL(fractal_hybrid_combine)
#define fractal_block_row_of SL_TREE_SYMBOL(fractal_block_row_of)
#define fractal_block_row_count SL_TREE_SYMBOL(fractal_block_row_count)
#define fractal_cyclic_row_of SL_TREE_SYMBOL(fractal_cyclic_row_of)
#define fractal_cyclic_row_count SL_TREE_SYMBOL(fractal_cyclic_row_count)
#define mandelbrot_hybrid SL_TREE_SYMBOL(mandelbrot_hybrid)
#define julia_hybrid SL_TREE_SYMBOL(julia_hybrid)

int64_t fractal_block_row_count(int rank, int ranks, int64_t height)
{
    /* BEGIN SOLUTION */
    int64_t first, count;
    sl_block(height, rank, ranks, &first, &count);
    return count;
    /* EXERCISE
    (void)rank, (void)ranks;
    // TODO(6.6): this rank's number of rows in a block distribution:
    //            sl_block(height, rank, ranks, &first, &count).
    return height;
    END SOLUTION */
}

int64_t fractal_block_row_of(int64_t k, int rank, int ranks, int64_t height)
{
    /* BEGIN SOLUTION */
    int64_t first, count;
    sl_block(height, rank, ranks, &first, &count);
    return first + k;
    /* EXERCISE
    (void)rank, (void)ranks, (void)height;
    // TODO(6.6): the image row of this rank's k-th row: first + k.
    return k;
    END SOLUTION */
}

int64_t fractal_cyclic_row_count(int rank, int ranks, int64_t height)
{
    /* BEGIN SOLUTION */
    return rank < height ? (height - rank + ranks - 1) / ranks : 0;
    /* EXERCISE
    (void)rank, (void)ranks;
    // TODO(6.8): rows rank, rank + ranks, rank + 2 * ranks, ... below
    //            height: how many are there?
    return height;
    END SOLUTION */
}

int64_t fractal_cyclic_row_of(int64_t k, int rank, int ranks, int64_t height)
{
    (void)height;
    /* BEGIN SOLUTION */
    return rank + k * ranks;
    /* EXERCISE
    (void)rank, (void)ranks;
    // TODO(6.8): the image row of this rank's k-th row when rows are
    //            dealt out like cards.
    return k;
    END SOLUTION */
}

/* This rank's rows, shared between its threads as in lesson 2. */
int fractal_hybrid_compute(const sl_problem *p, sl_share *me)
{
    /* Alone on its cache lines: every thread reads it on every row. */
    const fractal_job_alone held = { fractal_job_for(me->def, p) };
    const fractal_job *job = &held.job;
    const int64_t rows = me->row_count(me->rank, me->ranks, job->height);
#pragma omp parallel for schedule(dynamic) num_threads(job->threads)
    for (int64_t k = 0; k < rows; k++)
        fractal_row_simd(job, me->row_of(k, me->rank, me->ranks, job->height),
                         me->rows + k * job->width);
    me->rows_done = rows;
    return 0;
}

int fractal_hybrid_combine(const sl_problem *p, sl_share *me, MPI_Comm comm, sl_outcome *out)
{
    const int64_t width = p->size, height = sl_problem_height(p);
    int rc = MPI_SUCCESS;
    out->where = SL_RAN_HOST;
    /* BEGIN SOLUTION */
    /* Rank 0 receives rank r's rows at displs[r] of the gathered buffer. */
    int counts[me->ranks], displs[me->ranks];
    for (int r = 0, at = 0; r < me->ranks; r++) {
        counts[r] = (int)(me->row_count(r, me->ranks, height) * width);
        displs[r] = at;
        at += counts[r];
    }
    rc = MPI_Gatherv(me->rows, counts[me->rank], MPI_INT32_T, me->gathered, counts,
                     displs, MPI_INT32_T, 0, comm);
    if (rc != MPI_SUCCESS || me->rank != 0)
        return rc;
    for (int r = 0; r < me->ranks; r++)
        for (int64_t k = 0; k < counts[r] / width; k++)
            memcpy(out->counts + me->row_of(k, r, me->ranks, height) * width,
                   me->gathered + displs[r] + k * width, (size_t)width * sizeof(int32_t));
    /* EXERCISE
    (void)comm;
    // TODO(6.7): gather every rank's rows on rank 0 with MPI_Gatherv
    //            (rank r sends row_count(r) * width counts), then put each
    //            rank's k-th row at image row row_of(k, r, ...).
    if (me->rank != 0)
        return rc;
    for (int64_t k = 0; k < me->rows_done; k++)
        memcpy(out->counts + me->row_of(k, 0, me->ranks, height) * width,
               me->rows + k * width, (size_t)width * sizeof(int32_t));
    END SOLUTION */
    return rc;
}

/* Lesson 6's tables for the fractals (the tree's hybrid_kernels lists
 * them): the same rows code, only the problem differs. */
static const sl_hybrid_variant fractal_hybrid_variants[] = {
    { "hybrid_block", fractal_hybrid_compute, fractal_hybrid_combine,
      fractal_block_row_of, fractal_block_row_count },
    { "hybrid_cyclic", fractal_hybrid_compute, fractal_hybrid_combine,
      fractal_cyclic_row_of, fractal_cyclic_row_count },
};

const sl_hybrid_kernel mandelbrot_hybrid = {
    &mandelbrot_problem, fractal_hybrid_variants, SL_HYBRID_COUNT(fractal_hybrid_variants),
    sl_fractal_share_ok,
};

const sl_hybrid_kernel julia_hybrid = {
    &julia_problem, fractal_hybrid_variants, SL_HYBRID_COUNT(fractal_hybrid_variants),
    sl_fractal_share_ok,
};
