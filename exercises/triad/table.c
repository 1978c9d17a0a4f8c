/* table.c - the triad variants of this tree, in ladder order, each with
 * its set-up; two kernels share them (triad.h).
 *
 * This table is the only list of variants: tests, bench and runner walk it.
 */
#include "speedlab_config.h"
#include "triad.h"

static const sl_variant triad_variants[] = {
    { "scalar", (sl_any_fn *)triad_scalar, 0, NULL, (sl_any_fn *)triad_setup_serial, NULL },
    { "simd", (sl_any_fn *)triad_simd, SL_USES_SIMD, NULL, (sl_any_fn *)triad_setup_serial,
      NULL },
    { "threads", (sl_any_fn *)triad_threads, SL_USES_THREADS, NULL,
      (sl_any_fn *)triad_setup_threads, NULL },
    { "threads_simd", (sl_any_fn *)triad_threads_simd, SL_USES_THREADS | SL_USES_SIMD, NULL,
      (sl_any_fn *)triad_setup_threads, NULL },
    /* Beyond the ladder: what an expert gets (step 7.8). */
    { "expert", (sl_any_fn *)triad_expert, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT |
      (TRIAD_EXPERT_NATIVE ? 0 : SL_FALLBACK), NULL, (sl_any_fn *)triad_setup_threads, NULL },
    { "gpu", (sl_any_fn *)triad_gpu, SL_USES_GPU, NULL, (sl_any_fn *)triad_setup_gpu,
      (sl_any_fn *)triad_collect_gpu },
    /* Other shapes of its loop, for the GPU node (step 5.7). */
    { "gpu_loop", (sl_any_fn *)triad_gpu_loop, SL_USES_GPU | SL_STAGE | SL_SHAPE, NULL,
      (sl_any_fn *)triad_setup_shapes, (sl_any_fn *)triad_collect_shapes },
    { "gpu_teams", (sl_any_fn *)triad_gpu_teams, SL_USES_GPU | SL_STAGE | SL_SHAPE, NULL,
      (sl_any_fn *)triad_setup_shapes, (sl_any_fn *)triad_collect_shapes },
#if SPEEDLAB_HAVE_CUDA
    { "cuda", (sl_any_fn *)triad_cuda, SL_USES_CUDA, NULL, (sl_any_fn *)triad_setup_cuda,
      (sl_any_fn *)triad_collect_cuda },
#endif
};

const sl_kernel triad_kernel = {
    .problem = &triad_problem,
    .variants = triad_variants,
    .count = sizeof triad_variants / sizeof triad_variants[0],
};

const sl_kernel triad_cache_kernel = {
    .problem = &triad_cache_problem,
    .variants = triad_variants,
    .count = sizeof triad_variants / sizeof triad_variants[0],
};
