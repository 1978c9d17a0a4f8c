/* table.c - the exhibits the runner knows (`speedlab false-sharing`). The
 * reference rows are the solutions' own scalar and threads variants. */
#include "false_sharing.h"

extern pi_fn solutions_pi_scalar, solutions_pi_threads;

static const sl_problem_def false_sharing_problem = {
    .name = "false-sharing",
    .size_name = "steps",
    .work_unit = "steps",
    .default_size = 100000000,
    .quick_size = 100000000,
    .probe_size = PI_PROBE_SIZE,
    .max_size = PI_MAX_SIZE,
    .error_name = "abs error",
    .run = pi_run,
    .check = pi_check,
};

static const sl_variant false_sharing_variants[] = {
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0 },
    { "reduction", (sl_any_fn *)solutions_pi_threads, SL_USES_THREADS },
    { "adjacent", (sl_any_fn *)pi_adjacent, SL_USES_THREADS },
    { "padded", (sl_any_fn *)pi_padded, SL_USES_THREADS },
};

static const sl_kernel false_sharing_kernel = {
    .problem = &false_sharing_problem,
    .variants = false_sharing_variants,
    .count = sizeof false_sharing_variants / sizeof false_sharing_variants[0],
};

const sl_kernel *const exhibits_kernels[] = { &false_sharing_kernel, NULL };
