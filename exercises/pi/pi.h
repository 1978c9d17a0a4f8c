/* pi.h - the pi variants of this tree: one signature, five rungs
 * and lesson 5's offload stages.
 *
 * Every variant computes pi ~ h * sum 4/(1+x_i^2), x_i = (i+0.5)h, h = 1/steps
 * and must agree with pi to the tolerance in kernels/pi/pi_problem.c. The harness
 * (tests, bench, runner) finds them through the table in table.c.
 */
#ifndef SPEEDLAB_PI_H
#define SPEEDLAB_PI_H

#include <stdint.h>

#include "kernel.h"
#include "pi_problem.h"
#include "tree.h"

/* Each tree gets its own symbol names (see common/tree.h). */
#define pi_scalar SL_TREE_SYMBOL(pi_scalar)
#define pi_simd SL_TREE_SYMBOL(pi_simd)
#define pi_threads SL_TREE_SYMBOL(pi_threads)
#define pi_threads_simd SL_TREE_SYMBOL(pi_threads_simd)
#define pi_spmd SL_TREE_SYMBOL(pi_spmd)
#define pi_gpu SL_TREE_SYMBOL(pi_gpu)
#define pi_gpu_v1 SL_TREE_SYMBOL(pi_gpu_v1)
#define pi_gpu_v2 SL_TREE_SYMBOL(pi_gpu_v2)
#define pi_gpu_v4 SL_TREE_SYMBOL(pi_gpu_v4)
#define pi_cuda SL_TREE_SYMBOL(pi_cuda)
#define pi_expert SL_TREE_SYMBOL(pi_expert)
#define pi_kernel SL_TREE_SYMBOL(pi_kernel)

/* The SIMD loops count the steps of a chunk with a pi_counter, an int on
 * x86: AVX2 converts 32-bit integers to doubles (vcvtdq2pd) and has no
 * instruction for 64-bit ones (AVX-512 DQ's vcvtqq2pd), so GCC 12 leaves a
 * loop whose counter is 64-bit scalar on AVX2 (measured: 1.00x; in chunks,
 * 2.00x, as with AVX-512). ARM converts either width; there it is 64-bit,
 * as the sum is: GCC 12's 256-bit SVE code added one vector of an int
 * counter's lanes into the other's partial sums (pi 3.23 at 15 steps).
 * (lesson 1, step 1.2) */
#define PI_CHUNK 65536
#if defined(__x86_64__) || defined(__i386__)
typedef int pi_counter;
#else
typedef int64_t pi_counter;
#endif

/* How many steps the chunk that starts at first has, of those before last. */
static inline int pi_chunk(int64_t first, int64_t last)
{
    return last - first < PI_CHUNK ? (int)(last - first) : PI_CHUNK;
}

/* All five have the signature pi_fn (kernels/pi/pi_problem.h):
 *   steps:   how many midpoints (>= 1)
 *   threads: OpenMP threads for threads and threads_simd; others ignore it
 *   where:   set to where the loop ran (only gpu can say "device")
 *   returns  the estimate of pi */
double pi_scalar(int64_t steps, int threads, sl_where *where);
double pi_simd(int64_t steps, int threads, sl_where *where);
double pi_threads(int64_t steps, int threads, sl_where *where);
double pi_threads_simd(int64_t steps, int threads, sl_where *where);
double pi_gpu(int64_t steps, int threads, sl_where *where);

/* Lesson 1's threads by hand (spmd.c, step 1.6): one parallel region,
 * each thread its own share by its id; a stage beside the ladder. */
double pi_spmd(int64_t steps, int threads, sl_where *where);

/* Does this build have what the expert rung needs (AVX-512 F, or aarch64's
 * NEON with its reciprocal estimate and step)? Without it the expert runs
 * threads_simd's loop, and its table entry says so. */
#if defined(__AVX512F__)
#define PI_EXPERT_NATIVE 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define PI_EXPERT_NATIVE 2
#else
#define PI_EXPERT_NATIVE 0
#endif

/* The expert rung (expert.c): past the divider, with a reciprocal estimate
 * refined in fused multiply-adds; threads_simd where there is no AVX-512. */
double pi_expert(int64_t steps, int threads, sl_where *where);

/* Lesson 5's staged offload (gpu_v1.c, gpu_v2.c, gpu.c is stage 3,
 * gpu_v4.c): the same loop, one more level of the device used per stage. */
double pi_gpu_v1(int64_t steps, int threads, sl_where *where);
double pi_gpu_v2(int64_t steps, int threads, sl_where *where);
double pi_gpu_v4(int64_t steps, int threads, sl_where *where);

/* CUDA C for comparison (cuda.cu; built when nvcc is found, run only on a
 * CUDA device). */
double pi_cuda(int64_t steps, int threads, sl_where *where);

/* Declared again through pi_fn: if a variant's signature drifts from the
 * one the harness calls, this line stops the build. */
pi_fn pi_scalar, pi_simd, pi_threads, pi_threads_simd, pi_spmd, pi_gpu, pi_gpu_v1, pi_gpu_v2,
    pi_gpu_v4, pi_cuda;

extern const sl_kernel pi_kernel;

#endif
