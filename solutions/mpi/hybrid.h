/* hybrid.h - lesson 6: pi, Monte Carlo, Mandelbrot and Julia across MPI
 * ranks, with OpenMP threads and SIMD inside each rank.
 *
 * Each variant is a pair (common/hybrid_table.h): compute() does this rank's
 * share with the loops of lessons 1 to 4; combine() is the communication.
 * The harness (bench/hybrid/) calls them under mpirun, times them apart,
 * and checks the combined answer on rank 0 against the same reference as
 * the single-process variants.
 */
#ifndef SPEEDLAB_MPI_HYBRID_H
#define SPEEDLAB_MPI_HYBRID_H

#include "hybrid_table.h"
#include "tree.h"

#define pi_hybrid_compute SL_TREE_SYMBOL(pi_hybrid_compute)
#define pi_hybrid_combine SL_TREE_SYMBOL(pi_hybrid_combine)
#define montecarlo_hybrid_compute SL_TREE_SYMBOL(montecarlo_hybrid_compute)
#define montecarlo_hybrid_combine SL_TREE_SYMBOL(montecarlo_hybrid_combine)
#define fractal_hybrid_compute SL_TREE_SYMBOL(fractal_hybrid_compute)
#define fractal_hybrid_combine SL_TREE_SYMBOL(fractal_hybrid_combine)
#define fractal_block_row_of SL_TREE_SYMBOL(fractal_block_row_of)
#define fractal_block_row_count SL_TREE_SYMBOL(fractal_block_row_count)
#define fractal_cyclic_row_of SL_TREE_SYMBOL(fractal_cyclic_row_of)
#define fractal_cyclic_row_count SL_TREE_SYMBOL(fractal_cyclic_row_count)
#define hybrid_kernels SL_TREE_SYMBOL(hybrid_kernels)

/* pi.c: each rank integrates its block of steps; MPI_Reduce adds them. */
int pi_hybrid_compute(const sl_problem *p, sl_share *me);
int pi_hybrid_combine(const sl_problem *p, sl_share *me, MPI_Comm comm, sl_outcome *out);

/* montecarlo.c: each rank draws its block of points; MPI_Reduce counts. */
int montecarlo_hybrid_compute(const sl_problem *p, sl_share *me);
int montecarlo_hybrid_combine(const sl_problem *p, sl_share *me, MPI_Comm comm,
                              sl_outcome *out);

/* fractal.c: rows over ranks, in blocks or dealt out like cards (cyclic);
 * MPI_Gatherv brings them to rank 0. */
int fractal_hybrid_compute(const sl_problem *p, sl_share *me);
int fractal_hybrid_combine(const sl_problem *p, sl_share *me, MPI_Comm comm, sl_outcome *out);
sl_row_of_fn fractal_block_row_of, fractal_cyclic_row_of;
sl_row_count_fn fractal_block_row_count, fractal_cyclic_row_count;

/* Every hybrid kernel of this tree, NULL-terminated (table.c). */
extern const sl_hybrid_kernel *const hybrid_kernels[];

#endif
