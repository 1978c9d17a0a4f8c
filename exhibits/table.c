/* table.c - the exhibits the runner knows (`speedlab data-race`,
 * `speedlab false-sharing`, `speedlab fma`, `speedlab shared-rng`,
 * `speedlab missing-map`, `speedlab first-touch`). The
 * reference rows are the solutions' own variants. */
#include "data_race.h"
#include "false_sharing.h"
#include "fractal_exhibits.h"
#include "missing_map.h"
#include "shared_rng.h"
#include "triad_problem.h"

extern pi_fn solutions_pi_scalar, solutions_pi_threads;
extern fractal_fn solutions_fractal_scalar;
extern montecarlo_fn solutions_montecarlo_scalar, solutions_montecarlo_threads_simd;
extern triad_fn solutions_triad_scalar, solutions_triad_threads_simd;
extern triad_setup_fn solutions_triad_setup_serial, solutions_triad_setup_threads;

static const sl_problem_def false_sharing_problem = {
    .name = "false-sharing",
    .lesson = 1,
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
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0, NULL, NULL, NULL },
    { "reduction", (sl_any_fn *)solutions_pi_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "adjacent", (sl_any_fn *)pi_adjacent, SL_USES_THREADS, NULL, NULL, NULL },
    { "padded", (sl_any_fn *)pi_padded, SL_USES_THREADS, NULL, NULL, NULL },
};

static const sl_kernel false_sharing_kernel = {
    .problem = &false_sharing_problem,
    .variants = false_sharing_variants,
    .count = sizeof false_sharing_variants / sizeof false_sharing_variants[0],
};

/* pi again: a sum without reduction, and the slow cures. Sized so that
 * critical and atomic (every step through one lock or cache line) finish
 * in a second or two on 2 threads. */
static const sl_problem_def data_race_problem = {
    .name = "data-race",
    .lesson = 1,
    .size_name = "steps",
    .work_unit = "steps",
    .default_size = 10000000,
    .quick_size = 10000000,
    .probe_size = PI_PROBE_SIZE,
    .max_size = PI_MAX_SIZE,
    .error_name = "abs error",
    .run = pi_run,
    .check = pi_check,
};

static const sl_variant data_race_variants[] = {
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0, NULL, NULL, NULL },
    { "reduction", (sl_any_fn *)solutions_pi_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "shared_sum", (sl_any_fn *)pi_shared_sum, SL_USES_THREADS, NULL, NULL, NULL },
    { "critical", (sl_any_fn *)pi_critical, SL_USES_THREADS, NULL, NULL, NULL },
    { "atomic", (sl_any_fn *)pi_atomic, SL_USES_THREADS, NULL, NULL, NULL },
};

static const sl_kernel data_race_kernel = {
    .problem = &data_race_problem,
    .variants = data_race_variants,
    .count = sizeof data_race_variants / sizeof data_race_variants[0],
};

/* pi's terms computed in a target region, mapped back or not. 10^7 terms
 * are 80 MB, small for a GPU, quick on the host fallback. */
static const sl_problem_def missing_map_problem = {
    .name = "missing-map",
    .lesson = 5,
    .size_name = "steps",
    .work_unit = "steps",
    .default_size = 10000000,
    .quick_size = 10000000,
    .probe_size = PI_PROBE_SIZE,
    .max_size = 100000000,
    .error_name = "abs error",
    .run = pi_run,
    .check = pi_check,
};

static const sl_variant missing_map_variants[] = {
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0, NULL, NULL, NULL },
    { "map_from", (sl_any_fn *)pi_map_from, SL_USES_GPU, NULL, NULL, NULL },
    { "map_alloc", (sl_any_fn *)pi_map_alloc, SL_USES_GPU, NULL, NULL, NULL },
};

static const sl_kernel missing_map_kernel = {
    .problem = &missing_map_problem,
    .variants = missing_map_variants,
    .count = sizeof missing_map_variants / sizeof missing_map_variants[0],
};

/* Mandelbrot, checked pixel by pixel against the reference. */
static const sl_problem_def fma_problem = {
    .name = "fma",
    .lesson = 2,
    .size_name = "pixels per side",
    .work_unit = "iterations",
    .default_size = 1024,
    .quick_size = 1024,
    .probe_size = FRACTAL_PROBE_SIDE,
    .max_size = FRACTAL_MAX_SIDE,
    .image = 1,
    .error_name = "wrong pixels",
    .run = mandelbrot_run,
    .tally = fractal_tally,
    .check = mandelbrot_check,
    .reference = mandelbrot_reference,
};

static const sl_variant fma_variants[] = {
    { "scalar", (sl_any_fn *)solutions_fractal_scalar, 0, NULL, NULL, NULL },
    { "fma", (sl_any_fn *)fractal_fma, 0, NULL, NULL, NULL },
};

static const sl_kernel fma_kernel = {
    .problem = &fma_problem,
    .variants = fma_variants,
    .count = sizeof fma_variants / sizeof fma_variants[0],
};

/* Monte Carlo pi, checked only for a plausible estimate: the exhibit's
 * generators draw other points than the reference's. */
static const sl_problem_def shared_rng_problem = {
    .name = "shared-rng",
    .lesson = 4,
    .size_name = "samples",
    .work_unit = "samples",
    /* rand() takes ~10 ns a draw here, and far more under contention. */
    .default_size = 10000000,
    .quick_size = 10000000,
    .probe_size = MC_PROBE_SIZE,
    .max_size = MC_MAX_SIZE,
    .error_name = "abs error",
    .run = montecarlo_run,
    .check = montecarlo_check_statistics,
    .std_error = montecarlo_std_error,
};

static const sl_variant shared_rng_variants[] = {
    { "scalar", (sl_any_fn *)solutions_montecarlo_scalar, 0, NULL, NULL, NULL },
    { "counter", (sl_any_fn *)solutions_montecarlo_threads_simd, SL_USES_THREADS, NULL, NULL, NULL },
    { "rand", (sl_any_fn *)mc_rand, SL_USES_THREADS, NULL, NULL, NULL },
    { "shared_state", (sl_any_fn *)mc_shared_state, SL_USES_THREADS, NULL, NULL, NULL },
    { "per_thread_seed", (sl_any_fn *)mc_per_thread_seed, SL_USES_THREADS, NULL, NULL, NULL },
};

static const sl_kernel shared_rng_kernel = {
    .problem = &shared_rng_problem,
    .variants = shared_rng_variants,
    .count = sizeof shared_rng_variants / sizeof shared_rng_variants[0],
};

/* Lesson 7: the triad from memory on every core, its arrays first
 * touched by the threads that stream them, or all by one thread (every
 * page then lives in that thread's memory node). The same kernel either
 * way; only the set-up differs. */
static const sl_problem_def first_touch_problem = {
    .name = "first-touch",
    .lesson = 7,
    .size_name = "elements",
    .work_unit = "elements",
    .default_size = INT64_C(1) << 23,
    .quick_size = INT64_C(1) << 23,
    .size_here = triad_memory_size,
    .probe_size = TRIAD_PROBE_SIZE,
    .max_size = TRIAD_MAX_SIZE,
    .error_name = "wrong elements",
    .run = triad_run,
    .tally = triad_tally,
    .check = triad_check,
    .prepare = triad_prepare,
    .collect = triad_collect,
    .release = triad_release,
};

static const sl_variant first_touch_variants[] = {
    { "scalar", (sl_any_fn *)solutions_triad_scalar, 0, NULL,
      (sl_any_fn *)solutions_triad_setup_serial, NULL },
    { "parallel_touch", (sl_any_fn *)solutions_triad_threads_simd, SL_USES_THREADS, NULL,
      (sl_any_fn *)solutions_triad_setup_threads, NULL },
    { "serial_touch", (sl_any_fn *)solutions_triad_threads_simd, SL_USES_THREADS, NULL,
      (sl_any_fn *)solutions_triad_setup_serial, NULL },
};

static const sl_kernel first_touch_kernel = {
    .problem = &first_touch_problem,
    .variants = first_touch_variants,
    .count = sizeof first_touch_variants / sizeof first_touch_variants[0],
};

const sl_kernel *const exhibits_kernels[] = { &data_race_kernel, &false_sharing_kernel,
                                              &fma_kernel, &shared_rng_kernel,
                                              &missing_map_kernel, &first_touch_kernel,
                                              NULL };
