/* table.c - the pi variants of this tree, in ladder order.
 *
 * This table is the only list of variants: tests, bench and runner walk it.
 * A new variant is one more line here.
 */
#include "pi.h"
#include "speedlab_config.h"

static const sl_variant pi_variants[] = {
    { "scalar", (sl_any_fn *)pi_scalar, 0, NULL, NULL, NULL },
    { "simd", (sl_any_fn *)pi_simd, SL_USES_SIMD, NULL, NULL, NULL },
    { "threads", (sl_any_fn *)pi_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "threads_simd", (sl_any_fn *)pi_threads_simd,
      SL_USES_THREADS | SL_USES_SIMD, NULL, NULL, NULL },
    /* Lesson 1's threads by hand (step 1.6): a stage beside the ladder. */
    { "spmd", (sl_any_fn *)pi_spmd, SL_USES_THREADS | SL_STAGE, NULL, NULL, NULL },
    /* Beyond the ladder: what an expert gets (step 1.8). */
    { "expert", (sl_any_fn *)pi_expert, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT |
      (PI_EXPERT_NATIVE ? 0 : SL_FALLBACK), NULL, NULL, NULL },
    /* Lesson 5: offload in stages; the ladder's "gpu" is stage 3. */
    { "gpu_v1", (sl_any_fn *)pi_gpu_v1, SL_USES_GPU | SL_STAGE, NULL, NULL, NULL },
    { "gpu_v2", (sl_any_fn *)pi_gpu_v2, SL_USES_GPU | SL_STAGE, NULL, NULL, NULL },
    { "gpu", (sl_any_fn *)pi_gpu, SL_USES_GPU, NULL, NULL, NULL },
    { "gpu_v4", (sl_any_fn *)pi_gpu_v4, SL_USES_GPU | SL_STAGE, NULL, NULL, NULL },
#if SPEEDLAB_HAVE_CUDA
    { "cuda", (sl_any_fn *)pi_cuda, SL_USES_CUDA, NULL, NULL, NULL },
#endif
};

const sl_kernel pi_kernel = {
    .problem = &pi_problem,
    .variants = pi_variants,
    .count = sizeof pi_variants / sizeof pi_variants[0],
};
