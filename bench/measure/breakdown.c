/* breakdown.c - time the offload steps (breakdown.h). Timing lives in
 * bench/: this file reads the kit's one clock (sl_now) around calls into
 * offload/data_movement.c, which does not, and summarises every step with
 * the one sample path (sample.h). Which kernels it measures, and how, comes
 * from their problem definitions (kernel.h's breakdown kind), never from
 * their names. */
#define _DEFAULT_SOURCE
#include "breakdown.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "data_movement.h"
#include "fractal_problem.h"
#include "gpu_info.h"
#include "nvtx.h"
#include "sample.h"

/* An array-in workload: 8 bytes per element go in. */
#define ARRAY_SIZE INT64_C(100000000)
#define ARRAY_QUICK INT64_C(10000000)
/* The crossover sweep starts at a side too small for any GPU to pay. */
#define CROSSOVER_FIRST_SIDE 64

/* The ladder's gpu variant (not a stage) of a kernel with a workload. */
static int is_breakdown_gpu(const sl_config *c)
{
    return (c->variant->flags & SL_USES_GPU) && !(c->variant->flags & SL_STAGE) &&
           !c->weak && c->kernel->problem->breakdown != SL_BREAKDOWN_NONE;
}

void sl_breakdown_begin(sl_breakdown *b, const sl_suite *s)
{
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < s->count; i++)
        b->wanted |= is_breakdown_gpu(&s->configs[i]);
    if (!b->wanted)
        return;
    sl_range_push("first target region (device start)");
    double t0 = sl_now();
    dm_device_start(&b->start_where);
    b->start = sl_now() - t0;
    sl_range_pop();
    if (b->start_where == SL_RAN_DEVICE) {
        char name[128];
        sl_gpu_name(name, sizeof name);
        snprintf(b->device, sizeof b->device, "%s (%d offload device(s))", name,
                 omp_get_num_devices());
    } else {
        snprintf(b->device, sizeof b->device, "none: host fallback (%d offload "
                 "devices)", omp_get_num_devices());
    }
}

const sl_config *sl_best_cpu(const sl_suite *s, const sl_problem_def *def, int64_t size,
                             int64_t height)
{
    const sl_config *best = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (c->kernel->problem != def || !c->valid || !c->timed || c->weak || c->foreign ||
            c->oversubscribed || c->threads_used < 1 || c->problem.size != size ||
            (def->image && sl_problem_height(&c->problem) != height) ||
            (c->variant->flags & (SL_USES_GPU | SL_USES_CUDA)))
            continue;
        /* The fastest, even when disturbed: others' work only adds time,
         * so a disturbed median overstates the CPU's time, never flatters
         * it, and preferring a quiet slower rung (the scalar) would hand
         * the GPU a win the CPU did not lose. The name says "disturbed". */
        if (best == NULL || c->median < best->median)
            best = c;
    }
    return best;
}

/* Median seconds of reps calls of config c's variant on problem p, after
 * one call that must pass the check. Returns -1 when it is wrong. */
static double time_variant(const sl_config *c, const sl_problem *p, int32_t *counts,
                           int reps, sl_where *where)
{
    const sl_problem_def *def = c->kernel->problem;
    sl_outcome out = { .counts = counts };
    if (sl_solve(def, c->variant, p, &out) != 0 || !def->check(p, &out).ok)
        return -1.0;
    *where = out.where;
    sl_sample t = { 0 };
    for (int r = 0; r < reps; r++) {
        double t0 = sl_now();
        def->run(c->variant, p, &out);
        sl_sample_add(&t, sl_now() - t0);
    }
    sl_sample_summarise(&t);
    return t.median;
}

/* The best CPU time at p: the strong study's median when the suite
 * measured that size, else timed here. */
static double best_cpu_time(sl_breakdown_row *row, const sl_suite *s, const sl_config *cpu,
                            const sl_problem *p, int32_t *counts, int reps)
{
    const sl_config *same = sl_best_cpu(s, cpu->kernel->problem, p->size,
                                        sl_problem_height(p));
    snprintf(row->cpu_name, sizeof row->cpu_name, "%s%s", same ? same->name : cpu->name,
             same && same->contaminated ? " (disturbed)" : "");
    row->cpu_from_suite = same != NULL;
    if (same)
        return same->median;
    sl_problem q = cpu->problem;
    q.size = p->size;
    q.height = p->height;
    sl_where w;
    return time_variant(cpu, &q, counts, reps, &w);
}

/* Each workload times four steps in a row, from five clock marks. */
enum { STEPS = 4 };

static void add_steps(sl_sample t[STEPS], const double mark[STEPS + 1])
{
    for (int k = 0; k < STEPS; k++)
        sl_sample_add(&t[k], mark[k + 1] - mark[k]);
}

/* The image: allocate on the device, compute there, copy back, free. */
static void measure_image(sl_breakdown_row *row, const sl_suite *s, const sl_config *gpu,
                          const sl_config *cpu, int reps)
{
    const sl_problem_def *def = gpu->kernel->problem;
    sl_problem p = gpu->problem;
    /* Alone on its cache lines, as in the timed call (a host fallback
     * runs threads on it). */
    const fractal_job_alone held = { fractal_job_for(def, &p) };
    const fractal_job *job = &held.job;
    int64_t pixels = job->width * job->height;
    sl_sample t[STEPS] = { { 0 } };
    int32_t *counts = malloc((size_t)pixels * sizeof *counts);
    row->kernel = def->name;
    row->size = p.size;
    row->bytes_out = (double)pixels * sizeof *counts;
    snprintf(row->workload, sizeof row->workload, "%s %lldx%lld", def->name,
             (long long)job->width, (long long)job->height);
    if (counts == NULL) {
        snprintf(row->error, sizeof row->error, "no memory for the image");
        return;
    }
    for (int r = 0; r < reps; r++) {
        /* A copy that never happened must show: start from garbage. */
        memset(counts, 0xff, (size_t)pixels * sizeof *counts);
        double t0 = sl_now();
        sl_range_push("image: allocate on device");
        dm_image_alloc(counts, pixels);
        sl_range_pop();
        double t1 = sl_now();
        sl_range_push("image: kernel");
        dm_image_kernel(job, counts, &row->where);
        sl_range_pop();
        double t2 = sl_now();
        sl_range_push("image: copy to host");
        dm_image_to_host(counts, pixels);
        sl_range_pop();
        double t3 = sl_now();
        sl_range_push("image: free on device");
        dm_image_free(counts, pixels);
        sl_range_pop();
        double t4 = sl_now();
        if (r == 0) {
            sl_outcome out = { .counts = counts, .where = row->where };
            sl_verdict v = def->check(&p, &out);
            if (!v.ok) {
                snprintf(row->error, sizeof row->error, "the staged image has %.0f wrong "
                         "pixels (tolerance %.0f)", v.error, v.tolerance);
                free(counts);
                return;
            }
        }
        add_steps(t, (const double[STEPS + 1]){ t0, t1, t2, t3, t4 });
    }
    for (int k = 0; k < STEPS; k++)
        sl_sample_summarise(&t[k]);
    row->to_device = t[0].median;
    row->kernel_time = t[1].median;
    row->to_host = t[2].median;
    row->release = t[3].median;
    sl_where w;
    row->per_call = time_variant(gpu, &p, counts, reps, &w);
    row->cpu_best = best_cpu_time(row, s, cpu, &p, counts, reps);
    free(counts);
    if (row->per_call < 0 || row->cpu_best < 0) {
        snprintf(row->error, sizeof row->error, "a variant gave a wrong image at %s",
                 row->workload);
        return;
    }
    row->valid = 1;
}

/* An array in: copy the input in, sum there, free; the sum comes back
 * with the kernel's region (8 bytes). The array holds pi's midpoints, so
 * the kernel's own check judges the sum. */
static void measure_array(sl_breakdown_row *row, const sl_suite *s, const sl_config *cpu,
                          int64_t n, int reps)
{
    const sl_problem_def *def = cpu->kernel->problem;
    sl_sample t[STEPS] = { { 0 } };
    double *x = malloc((size_t)n * sizeof *x);
    row->kernel = def->name;
    row->size = n;
    row->bytes_in = (double)n * sizeof *x;
    row->bytes_out = sizeof(double);
    snprintf(row->workload, sizeof row->workload, "%s, array of %.0e", def->name, (double)n);
    if (x == NULL) {
        snprintf(row->error, sizeof row->error, "no memory for %lld doubles", (long long)n);
        return;
    }
    dm_pi_fill(x, n);
    sl_problem p = { .size = n };
    for (int r = 0; r < reps; r++) {
        sl_where w;
        double t0 = sl_now();
        sl_range_push("array: copy to device");
        dm_pi_to_device(x, n);
        sl_range_pop();
        double t1 = sl_now();
        sl_range_push("array: kernel");
        double value = dm_pi_kernel(x, n, &row->where);
        sl_range_pop();
        double t2 = sl_now();
        sl_range_push("array: free on device");
        dm_pi_free(x, n);
        sl_range_pop();
        double t3 = sl_now();
        sl_range_push("array: per call");
        double again = dm_pi_per_call(x, n, &w);
        sl_range_pop();
        double t4 = sl_now();
        if (r == 0) {
            sl_outcome a = { .value = value, .where = row->where };
            sl_outcome b = { .value = again, .where = w };
            sl_verdict va = def->check(&p, &a), vb = def->check(&p, &b);
            if (!va.ok || !vb.ok) {
                snprintf(row->error, sizeof row->error, "the sum of the array is wrong: "
                         "%.17g and %.17g (tolerance %.3g)", value, again, va.tolerance);
                free(x);
                return;
            }
        }
        add_steps(t, (const double[STEPS + 1]){ t0, t1, t2, t3, t4 });
    }
    free(x);
    for (int k = 0; k < STEPS; k++)
        sl_sample_summarise(&t[k]);
    row->to_device = t[0].median;
    row->kernel_time = t[1].median;
    row->release = t[2].median;
    row->per_call = t[3].median;
    row->cpu_best = best_cpu_time(row, s, cpu, &p, NULL, reps);
    if (row->cpu_best < 0) {
        snprintf(row->error, sizeof row->error, "%s is wrong at %lld %s", cpu->name,
                 (long long)n, def->size_name);
        return;
    }
    row->valid = 1;
}

/* The image from a tiny side up to the bench's: per-call GPU vs CPU. The
 * last point is the suite's own size, with the strong study's best CPU. */
static int measure_crossover(sl_breakdown *b, const sl_suite *s, const sl_config *gpu,
                             const sl_config *cpu, int reps)
{
    int64_t top = gpu->problem.size;
    int32_t *counts = malloc((size_t)(top * top) * sizeof *counts);
    if (counts == NULL)
        return -1;
    for (int64_t side = top < CROSSOVER_FIRST_SIDE ? top : CROSSOVER_FIRST_SIDE;
         b->npoints < SL_CROSSOVER_POINTS;
         side = side * 2 < top && side * 2 > side ? side * 2 : top) {
        sl_problem p = gpu->problem;
        p.size = side;
        p.height = 0;
        sl_crossover_point *pt = &b->points[b->npoints];
        sl_breakdown_row scratch = { 0 };
        pt->side = side;
        pt->gpu_per_call = time_variant(gpu, &p, counts, reps, &b->cross_where);
        pt->cpu_best = best_cpu_time(&scratch, s, cpu, &p, counts, reps);
        if (pt->gpu_per_call < 0 || pt->cpu_best < 0) {
            free(counts);
            return -1;
        }
        b->npoints++;
        snprintf(b->cross_cpu, sizeof b->cross_cpu, "%s", scratch.cpu_name);
        if (side == top)
            break;
    }
    free(counts);
    /* The first side from which the GPU stays ahead. */
    b->crossover = 0;
    for (int i = b->npoints - 1; i >= 0 && b->points[i].gpu_per_call < b->points[i].cpu_best; i--)
        b->crossover = b->points[i].side;
    return 0;
}

static void print_row(FILE *progress, const sl_breakdown_row *r, int verbose)
{
    if (progress == NULL || (r->valid && !verbose))
        return;
    if (r->valid)
        fprintf(progress, "  %-24s to device %8.3f ms  kernel %8.3f ms  to host "
                "%8.3f ms  per call %8.3f ms  (%s)\n", r->workload,
                r->to_device * 1e3, r->kernel_time * 1e3, r->to_host * 1e3,
                r->per_call * 1e3, sl_where_name(r->where));
    else
        fprintf(progress, "  INVALID  %-24s %s\n", r->workload, r->error);
}

int sl_breakdown_measure(sl_breakdown *b, const sl_suite *s, int reps, int quick,
                         FILE *progress, int verbose)
{
    if (!b->wanted)
        return 0;
    int failed = 0;
    if (progress)
        fprintf(progress, "GPU breakdown (lesson 5): first target region %.3f ms on the %s\n",
                b->start * 1e3, sl_where_name(b->start_where));
    for (size_t i = 0; i < s->count && b->nrows < SL_BREAKDOWN_ROWS; i++) {
        const sl_config *gpu = &s->configs[i];
        if (!is_breakdown_gpu(gpu) || !gpu->valid)
            continue;
        const sl_problem_def *def = gpu->kernel->problem;
        /* The CPU to beat: the strong study's best at the gpu's size. */
        const sl_config *cpu = sl_best_cpu(s, def, gpu->problem.size,
                                           sl_problem_height(&gpu->problem));
        if (cpu == NULL)
            continue;
        sl_breakdown_row *row = &b->rows[b->nrows++];
        if (def->breakdown == SL_BREAKDOWN_IMAGE) {
            measure_image(row, s, gpu, cpu, reps);
            if (row->valid && b->npoints == 0 && measure_crossover(b, s, gpu, cpu, reps) != 0) {
                snprintf(row->error, sizeof row->error,
                         "a variant was wrong in the crossover sweep");
                row->valid = 0;
            }
        } else {
            measure_array(row, s, cpu, quick ? ARRAY_QUICK : ARRAY_SIZE, reps);
        }
        failed += !row->valid;
        print_row(progress, row, verbose);
    }
    return failed;
}
