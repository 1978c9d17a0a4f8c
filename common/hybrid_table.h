/* hybrid_table.h - the table of lesson 6's MPI + OpenMP variants.
 *
 * A hybrid variant is two functions, so that the harness can time the
 * kernel and the communication apart without a clock in either:
 * compute() does this rank's share with threads and SIMD and talks to no
 * one; combine() brings the shares together on rank 0 (a reduction, a
 * gather) and is the only MPI call. Both are pure: no clocks, no I/O.
 * Like kernel.h, one table per kernel drives the tests, the bench and the
 * runner (bench/hybrid/).
 */
#ifndef SPEEDLAB_HYBRID_TABLE_H
#define SPEEDLAB_HYBRID_TABLE_H

#include <mpi.h>

#include "hybrid_problem.h"
#include "kernel.h"

typedef struct sl_hybrid_variant {
    const char *name;   /* "hybrid", "hybrid_block", "hybrid_cyclic" */
    /* This rank's share of p (p->threads threads) into me. Returns 0. */
    int (*compute)(const sl_problem *p, sl_share *me);
    /* Collective: every rank calls it; on rank 0 it fills out (value,
     * work, hits; fractals: out->counts, the whole image). Returns 0, or
     * an MPI error code. */
    int (*combine)(const sl_problem *p, sl_share *me, MPI_Comm comm, sl_outcome *out);
    /* Image kernels: the distribution of rows over ranks (NULL otherwise). */
    sl_row_of_fn *row_of;
    sl_row_count_fn *row_count;
} sl_hybrid_variant;

typedef struct sl_hybrid_kernel {
    const sl_problem_def *problem;   /* the single-process problem: check() */
    const sl_hybrid_variant *variants;
    size_t count;
    /* Is one rank's share right (common/hybrid_problem.h)? */
    int (*share_ok)(const sl_problem *p, const sl_share *me, char *why, size_t len);
} sl_hybrid_kernel;

#endif
