/* hybrid_problem.h - what lesson 6's MPI + OpenMP variants share that needs
 * no MPI: one rank's share of a problem, the block decomposition every
 * rank agrees on, and the reference for one rank's share (so that rank 0
 * can say which rank was wrong, not only that the answer was).
 *
 * The variants themselves (solutions/<kernel>/mpi.c) and their table type
 * (common/hybrid_table.h) need MPI; this file is built into every build, so the
 * references are tested with or without MPI.
 */
#ifndef SPEEDLAB_HYBRID_PROBLEM_H
#define SPEEDLAB_HYBRID_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/* One rank's part of a problem: made by a variant's compute(), sent by its
 * combine(). */
/* Which image row is a rank's k-th, and how many rows a rank has: a
 * fractal variant's distribution of rows over ranks. */
typedef int64_t sl_row_of_fn(int64_t k, int rank, int ranks, int64_t height);
typedef int64_t sl_row_count_fn(int rank, int ranks, int64_t height);

typedef struct sl_share {
    const sl_problem_def *def;  /* the problem (fractals: which of the two) */
    int rank, ranks;       /* this rank in the communicator, and its size */
    double sum;            /* pi: this rank's part of the integral */
    int64_t hits;          /* montecarlo: this rank's points inside */
    /* Fractals: this rank's rows, one after the other in the order the
     * variant's row_of gives (owned by the caller, rows_max rows). */
    int32_t *rows;
    int64_t rows_done;     /* fractals: rows this rank computed */
    /* Fractals, rank 0 only: room for every rank's rows (width * height),
     * where combine() gathers them before putting each row in place. */
    int32_t *gathered;
    /* Fractals: the variant's distribution of rows (sl_hybrid_variant). */
    sl_row_of_fn *row_of;
    sl_row_count_fn *row_count;
} sl_share;

/* The block decomposition of n items over ranks: rank r gets the r-th
 * contiguous block; blocks differ by at most one item, the larger first.
 * Every rank computes the same blocks without talking to the others. */
void sl_block(int64_t n, int rank, int ranks, int64_t *first, int64_t *count);

/* Is this rank's share what the reference gives for the same part? 1 yes;
 * 0 no, with the numbers in why. Each kernel with MPI variants defines its
 * own (kernels/<kernel>/: pi's block sum within the whole problem's
 * tolerance, Monte Carlo's block count exactly, a fractal rank's rows
 * pixel for pixel), plain code that shares nothing with the trees. */
typedef int sl_share_ok_fn(const sl_problem *p, const sl_share *me, char *why, size_t len);

#endif
