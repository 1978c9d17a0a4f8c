/* montecarlo.h - the Monte Carlo pi variants of this tree: one signature,
 * five rungs.
 *
 * Every variant counts the points inside the quarter circle among points
 * 0 .. samples-1, point i drawn from (seed, i) by the counter-based
 * generator (common/rng.h, kernels/montecarlo/montecarlo_problem.h). The count must
 * equal the reference's exactly, whatever the lanes or threads. The
 * harness finds the variants through the table in table.c.
 */
#ifndef SPEEDLAB_MONTECARLO_H
#define SPEEDLAB_MONTECARLO_H

#include <stdint.h>

#include "kernel.h"
#include "montecarlo_problem.h"
#include "rng.h"
#include "tree.h"

/* Each tree gets its own symbol names (see common/tree.h). */
#define montecarlo_scalar SL_TREE_SYMBOL(montecarlo_scalar)
#define montecarlo_simd SL_TREE_SYMBOL(montecarlo_simd)
#define montecarlo_threads SL_TREE_SYMBOL(montecarlo_threads)
#define montecarlo_threads_simd SL_TREE_SYMBOL(montecarlo_threads_simd)
#define montecarlo_gpu SL_TREE_SYMBOL(montecarlo_gpu)
#define montecarlo_cuda SL_TREE_SYMBOL(montecarlo_cuda)
#define montecarlo_expert SL_TREE_SYMBOL(montecarlo_expert)
#define montecarlo_kernel SL_TREE_SYMBOL(montecarlo_kernel)

/* All five have the signature montecarlo_fn (kernels/montecarlo/montecarlo_problem.h):
 *   samples: how many points (>= 1)
 *   seed:    the generator's seed; the same seed gives the same points
 *   threads: OpenMP threads for threads and threads_simd; others ignore it
 *   where:   set to where the loop ran (only gpu can say "device")
 *   returns  how many points fell inside */
montecarlo_fn montecarlo_scalar, montecarlo_simd, montecarlo_threads,
    montecarlo_threads_simd, montecarlo_gpu;

/* Does this build have what the expert rung needs (AVX-512 F and DQ, or
 * ARM's SVE: both multiply 64-bit lanes)? Without it (NEON has no 64 x 64-bit
 * vector multiply) the expert runs threads_simd's loop, and its table entry
 * says so. */
#if defined(__AVX512F__) && defined(__AVX512DQ__)
#define MC_EXPERT_NATIVE 1
#elif defined(__ARM_FEATURE_SVE)
#define MC_EXPERT_NATIVE 2
#else
#define MC_EXPERT_NATIVE 0
#endif

/* The expert rung (expert.c): the same points, counted as a hand-written
 * AVX-512 loop; threads_simd without AVX-512 DQ. */
montecarlo_fn montecarlo_expert;

/* CUDA C for comparison (cuda.cu; built when nvcc is found, run only on a
 * CUDA device). */
montecarlo_fn montecarlo_cuda;

extern const sl_kernel montecarlo_kernel;

#endif
