/* table.c - the exhibits the runner knows (`speedlab data-race`,
 * `speedlab false-sharing`, `speedlab fma`, `speedlab shared-rng`,
 * `speedlab missing-map`, `speedlab first-touch`). Each names the kernel
 * it shows and is checked as that kernel is; only its name, lesson, size
 * and extra variants are its own. The reference rows are the solutions'
 * own variants. */
#include "exhibits.h"

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

/* An exhibit: the kernel it shows, and what is its own. */
typedef struct exhibit {
    const char *name;
    int lesson;                     /* the lesson that shows it */
    const sl_problem_def *shows;    /* the kernel's problem */
    int64_t size;                   /* default and quick; 0: the kernel's */
    int64_t max_size;               /* 0: the kernel's */
    int statistics_only;            /* draws other points: check_statistics */
    const char *slow, *fast;        /* its point, a speed (kernel.h: contrast) */
    const sl_variant *variants;
    size_t count;
} exhibit;

#define VARIANTS(v) v, sizeof v / sizeof v[0]

static const sl_variant false_sharing_variants[] = {
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0, NULL, NULL, NULL },
    { "reduction", (sl_any_fn *)solutions_pi_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "adjacent", (sl_any_fn *)pi_adjacent, SL_USES_THREADS, NULL, NULL, NULL },
    { "padded", (sl_any_fn *)pi_padded, SL_USES_THREADS, NULL, NULL, NULL },
};

static const sl_variant data_race_variants[] = {
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0, NULL, NULL, NULL },
    { "reduction", (sl_any_fn *)solutions_pi_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "shared_sum", (sl_any_fn *)pi_shared_sum, SL_USES_THREADS, NULL, NULL, NULL },
    { "critical", (sl_any_fn *)pi_critical, SL_USES_THREADS, NULL, NULL, NULL },
    { "atomic", (sl_any_fn *)pi_atomic, SL_USES_THREADS, NULL, NULL, NULL },
};

static const sl_variant missing_map_variants[] = {
    { "scalar", (sl_any_fn *)solutions_pi_scalar, 0, NULL, NULL, NULL },
    { "map_from", (sl_any_fn *)pi_map_from, SL_USES_GPU, NULL, NULL, NULL },
    { "map_alloc", (sl_any_fn *)pi_map_alloc, SL_USES_GPU, NULL, NULL, NULL },
};

static const sl_variant fma_variants[] = {
    { "scalar", (sl_any_fn *)solutions_fractal_scalar, 0, NULL, NULL, NULL },
    { "fma", (sl_any_fn *)fractal_fma, 0, NULL, NULL, NULL },
};

static const sl_variant shared_rng_variants[] = {
    { "scalar", (sl_any_fn *)solutions_montecarlo_scalar, 0, NULL, NULL, NULL },
    { "counter", (sl_any_fn *)solutions_montecarlo_threads_simd, SL_USES_THREADS, NULL, NULL, NULL },
    { "rand", (sl_any_fn *)mc_rand, SL_USES_THREADS, NULL, NULL, NULL },
    { "shared_state", (sl_any_fn *)mc_shared_state, SL_USES_THREADS, NULL, NULL, NULL },
    { "per_thread_seed", (sl_any_fn *)mc_per_thread_seed, SL_USES_THREADS, NULL, NULL, NULL },
};

static const sl_variant first_touch_variants[] = {
    { "scalar", (sl_any_fn *)solutions_triad_scalar, 0, NULL,
      (sl_any_fn *)solutions_triad_setup_serial, NULL },
    { "parallel_touch", (sl_any_fn *)solutions_triad_threads_simd, SL_USES_THREADS, NULL,
      (sl_any_fn *)solutions_triad_setup_threads, NULL },
    { "serial_touch", (sl_any_fn *)solutions_triad_threads_simd, SL_USES_THREADS, NULL,
      (sl_any_fn *)solutions_triad_setup_serial, NULL },
};

static const exhibit table[] = {
    /* pi's sum without reduction, and the slow cures: sized so that
     * critical and atomic (every step through one lock or cache line)
     * finish in a second or two on 2 threads. */
    { "data-race", 1, &pi_problem, 10000000, 0, 0, NULL, NULL, VARIANTS(data_race_variants) },
    { "false-sharing", 1, &pi_problem, 100000000, 0, 0, "adjacent", "padded",
      VARIANTS(false_sharing_variants) },
    /* Mandelbrot, checked pixel by pixel against the reference. */
    { "fma", 2, &mandelbrot_problem, 1024, 0, 0, NULL, NULL, VARIANTS(fma_variants) },
    /* The exhibit's generators draw other points than the reference's:
     * checked for a plausible estimate only. rand() takes ~10 ns a draw,
     * and far more under contention. */
    { "shared-rng", 4, &montecarlo_problem, 10000000, 0, 1, NULL, NULL,
      VARIANTS(shared_rng_variants) },
    /* pi's terms computed in a target region, mapped back or not: 10^7
     * terms are 80 MB, small for a GPU, quick on the host fallback. */
    { "missing-map", 5, &pi_problem, 10000000, 100000000, 0, NULL, NULL,
      VARIANTS(missing_map_variants) },
    /* The triad from memory on every core, its arrays first touched by
     * the threads that stream them, or all by one thread (every page then
     * lives in that thread's memory node): the same kernel either way,
     * only the set-up differs. */
    { "first-touch", 7, &triad_problem, 0, 0, 0, "serial_touch", "parallel_touch",
      VARIANTS(first_touch_variants) },
};

enum { NEXHIBITS = sizeof table / sizeof table[0] };

const sl_kernel *const *sl_exhibits(void)
{
    static sl_problem_def problems[NEXHIBITS];
    static sl_kernel kernels[NEXHIBITS];
    static const sl_kernel *list[NEXHIBITS + 1];
    if (list[0] != NULL)
        return list;
    for (int i = 0; i < NEXHIBITS; i++) {
        const exhibit *e = &table[i];
        problems[i] = *e->shows;
        problems[i].name = e->name;
        problems[i].lesson = e->lesson;
        problems[i].companion_of = NULL;
        problems[i].contrast_slow = e->slow;
        problems[i].contrast_fast = e->fast;
        if (e->size)
            problems[i].default_size = problems[i].quick_size = e->size;
        if (e->max_size)
            problems[i].max_size = e->max_size;
        if (e->statistics_only)
            problems[i].check = problems[i].check_statistics;
        kernels[i] = (sl_kernel){ &problems[i], e->variants, e->count };
        list[i] = &kernels[i];
    }
    return list;
}
