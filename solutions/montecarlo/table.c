/* table.c - the Monte Carlo variants of this tree, in ladder order.
 *
 * This table is the only list of variants: tests, bench and runner walk it.
 */
#include "montecarlo.h"
#include "speedlab_config.h"

static const sl_variant montecarlo_variants[] = {
    { "scalar", (sl_any_fn *)montecarlo_scalar, 0, NULL, NULL, NULL },
    { "simd", (sl_any_fn *)montecarlo_simd, SL_USES_SIMD, NULL, NULL, NULL },
    { "threads", (sl_any_fn *)montecarlo_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "threads_simd", (sl_any_fn *)montecarlo_threads_simd,
      SL_USES_THREADS | SL_USES_SIMD, NULL, NULL, NULL },
    /* Beyond the ladder: what an expert gets (step 4.7). */
    { "expert", (sl_any_fn *)montecarlo_expert, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT |
      (MC_EXPERT_NATIVE ? 0 : SL_FALLBACK), NULL, NULL, NULL },
    { "gpu", (sl_any_fn *)montecarlo_gpu, SL_USES_GPU, NULL, NULL, NULL },
#if SPEEDLAB_HAVE_CUDA
    { "cuda", (sl_any_fn *)montecarlo_cuda, SL_USES_CUDA, NULL, NULL, NULL },
#endif
};

const sl_kernel montecarlo_kernel = {
    .problem = &montecarlo_problem,
    .variants = montecarlo_variants,
    .count = sizeof montecarlo_variants / sizeof montecarlo_variants[0],
};
