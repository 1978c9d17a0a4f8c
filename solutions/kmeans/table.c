/* table.c - the k-means variants of this tree, in ladder order.
 *
 * This table is the only list of variants: tests, bench and runner walk it.
 * A new variant is one more line here.
 */
#include "kmeans.h"

static const sl_variant kmeans_variants[] = {
    { "scalar", (sl_any_fn *)kmeans_scalar, 0, NULL, NULL, NULL },
    { "simd", (sl_any_fn *)kmeans_simd, SL_USES_SIMD, NULL, NULL, NULL },
    { "threads", (sl_any_fn *)kmeans_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "threads_simd", (sl_any_fn *)kmeans_threads_simd, SL_USES_THREADS | SL_USES_SIMD,
      NULL, NULL, NULL },
    /* Beyond the ladder: what an expert gets (step 9.7). */
    { "expert", (sl_any_fn *)kmeans_expert, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT,
      NULL, NULL, NULL },
    { "gpu", (sl_any_fn *)kmeans_gpu, SL_USES_GPU, NULL, NULL, NULL },
#if SPEEDLAB_HAVE_CUDA
    { "cuda", (sl_any_fn *)kmeans_cuda, SL_USES_CUDA, NULL, NULL, NULL },
#endif
};

const sl_kernel kmeans_kernel = {
    .problem = &kmeans_problem,
    .variants = kmeans_variants,
    .count = sizeof kmeans_variants / sizeof kmeans_variants[0],
};
