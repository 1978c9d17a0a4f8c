/* triad.h - the triad variants of this tree: one signature, five rungs,
 * and each rung's set-up.
 *
 * Every variant computes a[i] = b[i] + TRIAD_SCALAR * c[i] and must agree
 * with kernels/triad/triad_problem.c element for element. The harness (tests,
 * bench, runner) finds them through the table in table.c; two kernels
 * share them: triad (arrays from memory) and triad_cache (arrays in L2).
 */
#ifndef SPEEDLAB_TRIAD_H
#define SPEEDLAB_TRIAD_H

#include <stdint.h>

#include "kernel.h"
#include "triad_problem.h"
#include "tree.h"

/* Each tree gets its own symbol names (see common/tree.h). */
#define triad_scalar SL_TREE_SYMBOL(triad_scalar)
#define triad_simd SL_TREE_SYMBOL(triad_simd)
#define triad_threads SL_TREE_SYMBOL(triad_threads)
#define triad_threads_simd SL_TREE_SYMBOL(triad_threads_simd)
#define triad_expert SL_TREE_SYMBOL(triad_expert)
#define triad_gpu SL_TREE_SYMBOL(triad_gpu)
#define triad_setup_serial SL_TREE_SYMBOL(triad_setup_serial)
#define triad_setup_threads SL_TREE_SYMBOL(triad_setup_threads)
#define triad_setup_gpu SL_TREE_SYMBOL(triad_setup_gpu)
#define triad_collect_gpu SL_TREE_SYMBOL(triad_collect_gpu)
#define triad_gpu_loop SL_TREE_SYMBOL(triad_gpu_loop)
#define triad_gpu_teams SL_TREE_SYMBOL(triad_gpu_teams)
#define triad_setup_shapes SL_TREE_SYMBOL(triad_setup_shapes)
#define triad_collect_shapes SL_TREE_SYMBOL(triad_collect_shapes)
#define triad_cuda SL_TREE_SYMBOL(triad_cuda)
#define triad_setup_cuda SL_TREE_SYMBOL(triad_setup_cuda)
#define triad_collect_cuda SL_TREE_SYMBOL(triad_collect_cuda)
#define triad_kernel SL_TREE_SYMBOL(triad_kernel)
#define triad_cache_kernel SL_TREE_SYMBOL(triad_cache_kernel)

/* All five have the signature triad_fn (kernels/triad/triad_problem.h):
 *   a, b, c: n elements each, set up by the variant's setup
 *   threads: OpenMP threads for threads and threads_simd; others ignore it
 *   where:   set to where the loop ran (only gpu can say "device") */
void triad_scalar(double *restrict a, const double *restrict b, const double *restrict c,
                  int64_t n, int threads, sl_where *where);
void triad_simd(double *restrict a, const double *restrict b, const double *restrict c,
                int64_t n, int threads, sl_where *where);
void triad_threads(double *restrict a, const double *restrict b, const double *restrict c,
                   int64_t n, int threads, sl_where *where);
void triad_threads_simd(double *restrict a, const double *restrict b,
                        const double *restrict c, int64_t n, int threads, sl_where *where);
void triad_gpu(double *restrict a, const double *restrict b, const double *restrict c,
               int64_t n, int threads, sl_where *where);

/* Does this build have what the expert rung needs (streaming stores: SSE2
 * or later's intrinsics, aarch64's stnp)? Without it the expert runs
 * threads_simd's loop, and its table entry says so. */
#if defined(__SSE2__)
#define TRIAD_EXPERT_NATIVE 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define TRIAD_EXPERT_NATIVE 2
#else
#define TRIAD_EXPERT_NATIVE 0
#endif

/* The expert rung (expert.c): threads_simd with streaming stores, which
 * skip the read of the line they write. */
void triad_expert(double *restrict a, const double *restrict b, const double *restrict c,
                  int64_t n, int threads, sl_where *where);

/* The set-ups (triad_setup_fn): scalar.c's one loop on one thread for the
 * one-thread rungs, threads.c's first touch for the threaded ones, gpu.c's
 * copy onto the device; and gpu.c's way home (triad_collect_fn). */
void triad_setup_serial(double *a, double *b, double *c, int64_t n, int threads);
void triad_setup_threads(double *a, double *b, double *c, int64_t n, int threads);
void triad_setup_gpu(double *a, double *b, double *c, int64_t n, int threads);
void triad_collect_gpu(double *a, double *b, double *c, int64_t n);

/* CUDA C for comparison (cuda.cu; built when nvcc is found, run only on a
 * CUDA device), with its own set-up and way home. */
void triad_cuda(double *restrict a, const double *restrict b, const double *restrict c,
                int64_t n, int threads, sl_where *where);
void triad_setup_cuda(double *a, double *b, double *c, int64_t n, int threads);
void triad_collect_cuda(double *a, double *b, double *c, int64_t n);

/* Declared again through the typedefs: if a signature drifts from the one
 * the harness calls, these lines stop the build. */
triad_fn triad_scalar, triad_simd, triad_threads, triad_threads_simd, triad_expert, triad_gpu,
    triad_cuda;
/* Other shapes of the gpu variant's loop (gpu_shapes.c, step 5.7), with
 * a copy onto the device and home of their own. */
triad_fn triad_gpu_loop, triad_gpu_teams;
triad_setup_fn triad_setup_shapes;
triad_collect_fn triad_collect_shapes;
triad_setup_fn triad_setup_serial, triad_setup_threads, triad_setup_gpu, triad_setup_cuda;
triad_collect_fn triad_collect_gpu, triad_collect_cuda;

extern const sl_kernel triad_kernel;
extern const sl_kernel triad_cache_kernel;

#endif
