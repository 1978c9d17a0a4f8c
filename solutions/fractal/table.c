/* table.c - the fractal variants of this tree, in ladder order, and the two
 * kernels that share them (they differ only in their problem).
 *
 * This table is the only list of variants: tests, bench and runner walk it.
 */
#include "fractal.h"
#include "speedlab_config.h"

static const sl_variant fractal_variants[] = {
    { "scalar", (sl_any_fn *)fractal_scalar, 0, NULL, NULL, NULL },
    { "simd", (sl_any_fn *)fractal_simd, SL_USES_SIMD, NULL, NULL, NULL },
    { "threads", (sl_any_fn *)fractal_threads, SL_USES_THREADS | SL_USES_SCHEDULE,
      (sl_any_fn *)fractal_threads_sweep, NULL, NULL },
    { "threads_simd", (sl_any_fn *)fractal_threads_simd,
      SL_USES_THREADS | SL_USES_SIMD | SL_USES_SCHEDULE,
      (sl_any_fn *)fractal_threads_simd_sweep, NULL, NULL },
    /* Beyond the ladder: what an expert gets (step 3.5). */
    { "expert", (sl_any_fn *)fractal_expert, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT,
      NULL, NULL, NULL },
    { "gpu", (sl_any_fn *)fractal_gpu, SL_USES_GPU, NULL, NULL, NULL },
    /* Other shapes of its loops, for the GPU node (step 5.7). */
    { "gpu_rows", (sl_any_fn *)fractal_gpu_rows, SL_USES_GPU | SL_STAGE | SL_SHAPE, NULL,
      NULL, NULL },
    { "gpu_loop", (sl_any_fn *)fractal_gpu_loop, SL_USES_GPU | SL_STAGE | SL_SHAPE, NULL,
      NULL, NULL },
    { "gpu_teams", (sl_any_fn *)fractal_gpu_teams, SL_USES_GPU | SL_STAGE | SL_SHAPE, NULL,
      NULL, NULL },
#if SPEEDLAB_HAVE_CUDA
    { "cuda", (sl_any_fn *)fractal_cuda, SL_USES_CUDA, NULL, NULL, NULL },
#endif
};

const sl_kernel mandelbrot_kernel = {
    .problem = &mandelbrot_problem,
    .variants = fractal_variants,
    .count = sizeof fractal_variants / sizeof fractal_variants[0],
};

const sl_kernel julia_kernel = {
    .problem = &julia_problem,
    .variants = fractal_variants,
    .count = sizeof fractal_variants / sizeof fractal_variants[0],
};
