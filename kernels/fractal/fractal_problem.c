/* fractal_problem.c - Mandelbrot and Julia: sizes, how to call a variant,
 * the reference image and the exactness check.
 *
 * Exactness policy (tests/test_tree.c and tests/test_fractal.c check it):
 * every fractal file, this one included, is compiled with -ffp-contract=off,
 * so every variant rounds the same operations in the same order and its
 * counts must equal the reference's pixel for pixel (error = pixels that
 * differ, tolerance 0). A fused multiply-add rounds once where the plain
 * code rounds twice, which moves a few points across the |z|^2 = 4 line:
 * the FMA exhibit (exhibits/fractal_fma.c) shows how many. Only a run that
 * really reached a device gets a budget (FRACTAL_DEVICE_MISMATCH_PER_MILLE).
 */
#include "fractal_problem.h"

#include <inttypes.h>
#include <stdio.h>

#include "hybrid_problem.h"

#include <omp.h>
#include <stdlib.h>

fractal_job fractal_job_for(const sl_problem_def *def, const sl_problem *p)
{
    int julia = def == &julia_problem;
    fractal_job job = {
        .julia = julia,
        .x0 = julia ? -1.6 : -2.0, .x1 = julia ? 1.6 : 0.5,
        .y0 = julia ? -1.0 : -1.25, .y1 = julia ? 1.0 : 1.25,
        .cr = -0.8, .ci = 0.156,
        .width = p->size,
        .height = sl_problem_height(p),
        .max_iter = p->max_iter > 0 ? p->max_iter : FRACTAL_DEFAULT_MAX_ITER,
        .threads = p->threads,
    };
    return job;
}

/* The plain loop, written independently of the trees' code. Rows are
 * shared among the cores (each pixel is computed alone, so the image is
 * the same): at a GPU's sizes (8192 x 8192) one core would take a minute. */
static void reference_image(const fractal_job *job, int32_t *counts)
{
    double dx = (job->x1 - job->x0) / (double)job->width;
    double dy = (job->y1 - job->y0) / (double)job->height;
#pragma omp parallel for schedule(dynamic)
    for (int64_t j = 0; j < job->height; j++) {
        double y = job->y1 - ((double)j + 0.5) * dy;
        for (int64_t i = 0; i < job->width; i++) {
            double x = job->x0 + ((double)i + 0.5) * dx;
            double zr = job->julia ? x : 0.0, zi = job->julia ? y : 0.0;
            double cr = job->julia ? job->cr : x, ci = job->julia ? job->ci : y;
            int n = 0;
            while (n < job->max_iter) {
                double zr2 = zr * zr, zi2 = zi * zi;
                if (zr2 + zi2 > 4.0)
                    break;
                zi = 2.0 * zr * zi + ci;
                zr = zr2 - zi2 + cr;
                n++;
            }
            counts[j * job->width + i] = n;
        }
    }
}

/* A few cached references per kernel: the bench validates every variant
 * at the probe size and the timed size in turn, and the weak study at a
 * size per thread count, so each image is computed once. */
enum { REFERENCES = 4 };

typedef struct reference_cache {
    fractal_job job;
    int32_t *counts;
} reference_cache;

const int32_t *fractal_reference(const sl_problem_def *def, const sl_problem *p)
{
    static reference_cache cache[2][REFERENCES];
    static int next[2];
    fractal_job job = fractal_job_for(def, p);
    reference_cache *kernel = cache[job.julia];
    for (int k = 0; k < REFERENCES; k++)
        if (kernel[k].counts && kernel[k].job.width == job.width &&
            kernel[k].job.height == job.height && kernel[k].job.max_iter == job.max_iter)
            return kernel[k].counts;
    reference_cache *c = &kernel[next[job.julia]];
    next[job.julia] = (next[job.julia] + 1) % REFERENCES;
    free(c->counts);
    c->counts = malloc((size_t)(job.width * job.height) * sizeof *c->counts);
    if (c->counts == NULL)
        return NULL;
    c->job = job;
    reference_image(&job, c->counts);
    return c->counts;
}

/* A schedule-sweep twin's call: the schedule(runtime) loop takes the
 * runtime's run-sched-var, set here from the problem and given back after,
 * so that nothing else the process runs inherits it. */
static void run_sweep_twin(const sl_variant *v, const fractal_job *job, sl_schedule s,
                           sl_outcome *out)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    omp_set_schedule((omp_sched_t)s.kind, s.chunk);
    ((fractal_sweep_fn *)v->sweep)(job, out->counts, out->row_thread);
    omp_set_schedule(kind, chunk);
}

/* The timed call: the variant fills the image, nothing more. A problem
 * with a schedule runs the variant's twin; otherwise the variant itself,
 * with the schedule its pragma says. The job is held alone on its cache
 * lines (fractal_job_alone), so that the clock sees the variant's speed. */
static int fractal_run(const sl_problem_def *def, const sl_variant *v,
                       const sl_problem *p, sl_outcome *out)
{
    const fractal_job_alone held = { fractal_job_for(def, p) };
    const fractal_job *job = &held.job;
    if (out->counts == NULL)
        return -1;
    if (out->row_thread)
        for (int64_t j = 0; j < job->height; j++)
            out->row_thread[j] = -1;
    out->where = SL_RAN_HOST;
    if (p->schedule.kind != SL_SCHED_DEFAULT && v->sweep)
        run_sweep_twin(v, job, p->schedule, out);
    else
        ((fractal_fn *)v->fn)(job, out->counts, &out->where);
    return 0;
}

/* Outside the clock: the answer and the work are the sum of the counts. */
void fractal_tally(const sl_problem *p, sl_outcome *out)
{
    int64_t pixels = p->size * sl_problem_height(p);
    double sum = 0.0;
    for (int64_t k = 0; out->counts && k < pixels; k++)
        sum += out->counts[k];
    out->value = sum;
    out->work = sum;
}

static sl_verdict fractal_check(const sl_problem_def *def, const sl_problem *p,
                                const sl_outcome *out)
{
    fractal_job job = fractal_job_for(def, p);
    int64_t pixels = job.width * job.height;
    const int32_t *ref = fractal_reference(def, p);
    sl_verdict v = { .ok = 0, .error = (double)pixels, .tolerance = 0.0 };
    if (ref == NULL) {
        v.no_reference = 1;
        return v;
    }
    double expected = 0.0;
    for (int64_t k = 0; k < pixels; k++)
        expected += ref[k];
    v.expected = expected;
    if (out->counts == NULL)
        return v;
    int64_t wrong = 0;
    for (int64_t k = 0; k < pixels; k++)
        wrong += out->counts[k] != ref[k];
    v.error = (double)wrong;
    if (out->where == SL_RAN_DEVICE)
        v.tolerance = (double)(pixels * FRACTAL_DEVICE_MISMATCH_PER_MILLE / 1000);
    v.ok = v.error <= v.tolerance;
    return v;
}

int mandelbrot_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    return fractal_run(&mandelbrot_problem, v, p, out);
}
sl_verdict mandelbrot_check(const sl_problem *p, const sl_outcome *out)
{
    return fractal_check(&mandelbrot_problem, p, out);
}
const int32_t *mandelbrot_reference(const sl_problem *p)
{
    return fractal_reference(&mandelbrot_problem, p);
}
static const int32_t *julia_reference(const sl_problem *p)
{
    return fractal_reference(&julia_problem, p);
}
static int julia_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    return fractal_run(&julia_problem, v, p, out);
}
static sl_verdict julia_check(const sl_problem *p, const sl_outcome *out)
{
    return fractal_check(&julia_problem, p, out);
}

/* 1 x 1, single rows and columns, widths that are not a multiple of any
 * lane count, odd heights, max_iter 1 and 2 (every pixel capped at once),
 * and one image big enough for every thread to get many rows. */
static const sl_problem fractal_test_cases[] = {
    { .size = 1, .height = 1 }, { .size = 2, .height = 1 },
    { .size = 1, .height = 3 }, { .size = 7, .height = 3 },
    { .size = 33, .height = 5 }, { .size = 31, .height = 17 },
    { .size = 67, .height = 45 }, { .size = 100, .height = 1, .max_iter = 1 },
    { .size = 64, .height = 64, .max_iter = 1 },
    { .size = 33, .height = 33, .max_iter = 2 },
    { .size = 129, .height = 65, .max_iter = 50 },
    { .size = 257, .height = 255 }, { .size = 0 },
};

/* The roofline's bytes: one 4-byte count written per pixel; nothing read. */
static double fractal_bytes(const sl_problem *p)
{
    return 4.0 * (double)p->size * (double)sl_problem_height(p);
}

#define FRACTAL_COMMON                                     \
    .size_name = "pixels per side",                       \
    .work_unit = "iterations",                            \
    .probe_size = FRACTAL_PROBE_SIDE,                     \
    .max_size = FRACTAL_MAX_SIDE,                         \
    .image = 1,                                           \
    .error_name = "wrong pixels",                         \
    .test_cases = fractal_test_cases,                     \
    /* zr*zr, zi*zi, 2*zr, (2*zr)*zi: the adds can go to  \
     * other units, the multiplies only to the FMA ones. */\
    .ceiling = SL_CEILING_FMA,                            \
    .ceiling_ops = 4,                                     \
    .ceiling_why = "4 multiplies per iteration, on the FMA units", \
    /* Rounded as the reference rounds (no FMA): 3 multiplies, \
     * 5 adds and subtracts, the compare, the mask and the     \
     * count (course/03-julia.md, step 3.5). */               \
    .issue_ops = 11,                                      \
    .issue_why = "11 vector instructions per iteration, 3 of them multiplies", \
    .default_max_iter = FRACTAL_DEFAULT_MAX_ITER,           \
    .bytes_moved = fractal_bytes,                         \
    .pool_lanes = FRACTAL_LANES,                          \
    .pool_check_every = FRACTAL_CHECK_EVERY

const sl_problem_def mandelbrot_problem = {
    .name = "mandelbrot",
    .lesson = 2,
    /* 2048^2 at max_iter 1000 is ~1.0e9 iterations: ~3 s scalar here. */
    .default_size = 2048,
    .quick_size = 512,
    .run = mandelbrot_run,
    .tally = fractal_tally,
    .check = mandelbrot_check,
    .reference = mandelbrot_reference,
    /* Lesson 5: the image shows the cost of results coming back (one
     * fractal is enough: Julia's data moves the same way). */
    .breakdown = SL_BREAKDOWN_IMAGE,
    FRACTAL_COMMON,
};

const sl_problem_def julia_problem = {
    .name = "julia",
    .lesson = 3,
    /* 2048^2 is ~1.7e8 iterations: ~0.5 s scalar here. */
    .default_size = 2048,
    .quick_size = 512,
    .run = julia_run,
    .tally = fractal_tally,
    .check = julia_check,
    .reference = julia_reference,
    FRACTAL_COMMON,
};

/* Lesson 6: is this rank's share the reference's (common/hybrid_problem.h)?
 * No MPI here: rank 0 calls it on each share when the answer was wrong. */
int sl_fractal_share_ok(const sl_problem *p, const sl_share *me, char *why, size_t len)
{
    const int32_t *ref = fractal_reference(me->def, p);
    if (ref == NULL) {
        snprintf(why, len, "no memory for the reference image");
        return 0;
    }
    const int64_t w = p->size, h = sl_problem_height(p);
    int64_t wrong = 0, first_row = -1;
    for (int64_t k = 0; k < me->rows_done; k++) {
        int64_t j = me->row_of(k, me->rank, me->ranks, h);
        const int32_t *mine = me->rows + k * w, *want = ref + j * w;
        for (int64_t i = 0; i < w; i++)
            if (mine[i] != want[i]) {
                wrong++;
                if (first_row < 0)
                    first_row = j;
            }
    }
    if (wrong == 0)
        return 1;
    snprintf(why, len, "%" PRId64 " wrong pixels in its %" PRId64 " rows, the first in row %" PRId64,
             wrong, me->rows_done, first_row);
    return 0;
}
