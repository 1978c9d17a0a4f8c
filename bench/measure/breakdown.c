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
#include "gpu_info.h"
#include "nvtx.h"
#include "sample.h"

/* The crossover sweep starts at a side too small for any GPU to pay. */
#define CROSSOVER_FIRST_SIDE 64

/* The ladder's gpu variant (not a stage) of a kernel with a workload. */
static int is_breakdown_gpu(const sl_config *c)
{
    return (c->variant->flags & SL_USES_GPU) && !(c->variant->flags & SL_STAGE) &&
           !c->weak && dm_workload_of(c->kernel->problem->breakdown) != NULL;
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
    sl_calling_kernel = def->name;
    sl_calling_variant = c->variant->name;
    for (int r = 0; r < reps; r++) {
        double t0 = sl_now();
        def->run(c->variant, p, &out);
        sl_sample_add(&t, sl_now() - t0);
    }
    sl_calling_variant = NULL;
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

/* A step's median, or 0 for a step the workload does not have. */
static double step_median(sl_sample *t)
{
    if (t->n == 0)
        return 0.0;
    sl_sample_summarise(t);
    return t->median;
}

/* The first repetition's answers, checked by the kernel's own check: the
 * steps' (out), and the per-call region's (again) where there is one. */
static int steps_right(sl_breakdown_row *row, const sl_problem_def *def, const sl_problem *p,
                       const sl_outcome *out, const sl_outcome *again)
{
    sl_verdict v = def->check(p, out);
    sl_verdict w = again ? def->check(p, again) : v;
    if (v.ok && w.ok)
        return 1;
    snprintf(row->error, sizeof row->error, "the staged steps' answer is wrong at %s: %s "
             "%.6g%s (tolerance %.3g)", row->workload, def->error_name, v.ok ? w.error : v.error,
             v.ok ? " in the per-call region" : "", v.tolerance);
    return 0;
}

/* One workload (data_movement.h): each step timed alone, reps times, the
 * first repetition checked; then its per-call form and the best CPU. */
static void measure_steps(sl_breakdown_row *row, const sl_suite *s, const sl_config *gpu,
                          const sl_config *cpu, const dm_workload *wl, int reps, int quick)
{
    const sl_problem_def *def = gpu->kernel->problem;
    sl_problem p = gpu->problem;
    if (wl->size > 0)
        p = (sl_problem){ .size = quick ? wl->quick_size : wl->size };
    sl_outcome out = { 0 }, again = { 0 };
    void *w = wl->prepare(def, &p, &out, &row->bytes_in, &row->bytes_out, row->workload,
                          sizeof row->workload);
    row->kernel = def->name;
    row->size = p.size;
    if (w == NULL) {
        snprintf(row->error, sizeof row->error, "no memory for %s", row->workload);
        return;
    }
    sl_sample t[DM_STEPS + 1] = { { 0 } };
    for (int r = 0; r < reps; r++) {
        if (wl->reset)
            wl->reset(w);
        for (int k = 0; k <= DM_STEPS; k++) {
            void (*step)(void *, sl_outcome *) = k < DM_STEPS ? wl->step[k] : wl->per_call;
            if (step == NULL)
                continue;
            double t0 = sl_now();
            sl_range_push(wl->step_name[k]);
            step(w, k < DM_STEPS ? &out : &again);
            sl_range_pop();
            sl_sample_add(&t[k], sl_now() - t0);
        }
        if (r == 0 && !steps_right(row, def, &p, &out, wl->per_call ? &again : NULL)) {
            wl->discard(w);
            return;
        }
    }
    row->where = out.where;
    row->to_device = step_median(&t[0]);
    row->kernel_time = step_median(&t[1]);
    row->to_host = step_median(&t[2]);
    row->release = step_median(&t[3]);
    sl_where ignored;
    row->per_call = wl->per_call ? step_median(&t[DM_STEPS])
                                 : time_variant(gpu, &p, out.counts, reps, &ignored);
    row->cpu_best = best_cpu_time(row, s, cpu, &p, out.counts, reps);
    wl->discard(w);
    if (row->per_call < 0 || row->cpu_best < 0) {
        snprintf(row->error, sizeof row->error, "a variant gave a wrong answer at %s",
                 row->workload);
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
        b->cross_kernel = gpu->kernel->problem->name;
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
        const dm_workload *wl = dm_workload_of(def->breakdown);
        measure_steps(row, s, gpu, cpu, wl, reps, quick);
        if (wl->crossover && row->valid && b->npoints == 0 &&
            measure_crossover(b, s, gpu, cpu, reps) != 0) {
            snprintf(row->error, sizeof row->error, "a variant was wrong in the crossover sweep");
            row->valid = 0;
        }
        failed += !row->valid;
        print_row(progress, row, verbose);
    }
    return failed;
}
