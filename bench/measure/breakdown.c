/* breakdown.c - time the offload steps (breakdown.h). Timing lives in
 * bench/: this file reads the clock (omp_get_wtime) around calls into
 * offload/data_movement.c, which does not. */
#define _DEFAULT_SOURCE
#include "breakdown.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "data_movement.h"
#include "fractal_problem.h"
#include "gpu_info.h"
#include "nvtx.h"
#include "pi_problem.h"

/* pi from an array: 8 bytes per element go in. */
#define PI_ARRAY_SIZE INT64_C(100000000)
#define PI_ARRAY_QUICK INT64_C(10000000)
/* The crossover sweep starts at a side too small for any GPU to pay. */
#define CROSSOVER_FIRST_SIDE 64

void sl_breakdown_begin(sl_breakdown *b, const char *kernel_name, const char *variant_name)
{
    memset(b, 0, sizeof *b);
    int kernel_ok = !kernel_name || strcmp(kernel_name, "pi") == 0 ||
                    strcmp(kernel_name, "mandelbrot") == 0;
    b->wanted = kernel_ok && (!variant_name || strcmp(variant_name, "gpu") == 0);
    if (!b->wanted)
        return;
    sl_range_push("first target region (device start)");
    double t0 = omp_get_wtime();
    dm_device_start(&b->start_where);
    b->start = omp_get_wtime() - t0;
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

/* The fastest valid CPU configuration of a kernel in the suite (not
 * oversubscribed): what a GPU must beat. */
static const sl_config *best_cpu(const sl_suite *s, const char *kernel)
{
    const sl_config *best = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (strcmp(c->kernel->problem->name, kernel) != 0 || !c->valid || !c->timed ||
            c->oversubscribed || (c->variant->flags & (SL_USES_GPU | SL_USES_CUDA)))
            continue;
        if (best == NULL || c->median < best->median)
            best = c;
    }
    return best;
}

/* The suite's gpu configuration of a kernel, or NULL. */
static const sl_config *gpu_config(const sl_suite *s, const char *kernel)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (strcmp(c->kernel->problem->name, kernel) == 0 &&
            strcmp(c->variant->name, "gpu") == 0)
            return c;
    }
    return NULL;
}

/* Median seconds of reps calls of config c's variant on problem p, after
 * one call that must pass the check. Returns -1 when it is wrong. */
static double time_variant(const sl_config *c, const sl_problem *p, int32_t *counts,
                           int reps, sl_where *where)
{
    const sl_problem_def *def = c->kernel->problem;
    double t[SL_MAX_REPS];
    sl_outcome out = { .counts = counts };
    if (sl_solve(def, c->variant, p, &out) != 0 || !def->check(p, &out).ok)
        return -1.0;
    *where = out.where;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        def->run(c->variant, p, &out);
        t[r] = omp_get_wtime() - t0;
    }
    return sl_median(t, reps);
}

/* The image: allocate on the device, compute there, copy back, free. */
static void measure_image(sl_breakdown_row *row, const sl_config *gpu,
                          const sl_config *cpu, int reps)
{
    const sl_problem_def *def = gpu->kernel->problem;
    sl_problem p = gpu->problem;
    fractal_job job = fractal_job_for(def, &p);
    int64_t pixels = job.width * job.height;
    double t[4][SL_MAX_REPS];
    int32_t *counts = malloc((size_t)pixels * sizeof *counts);
    row->kernel = def->name;
    row->size = p.size;
    row->bytes_out = (double)pixels * sizeof *counts;
    snprintf(row->workload, sizeof row->workload, "%s %lldx%lld", def->name,
             (long long)job.width, (long long)job.height);
    if (counts == NULL) {
        snprintf(row->error, sizeof row->error, "no memory for the image");
        return;
    }
    for (int r = 0; r < reps; r++) {
        /* A copy that never happened must show: start from garbage. */
        memset(counts, 0xff, (size_t)pixels * sizeof *counts);
        double t0 = omp_get_wtime();
        sl_range_push("image: allocate on device");
        dm_image_alloc(counts, pixels);
        sl_range_pop();
        double t1 = omp_get_wtime();
        sl_range_push("image: kernel");
        dm_image_kernel(&job, counts, &row->where);
        sl_range_pop();
        double t2 = omp_get_wtime();
        sl_range_push("image: copy to host");
        dm_image_to_host(counts, pixels);
        sl_range_pop();
        double t3 = omp_get_wtime();
        sl_range_push("image: free on device");
        dm_image_free(counts, pixels);
        sl_range_pop();
        double t4 = omp_get_wtime();
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
        t[0][r] = t1 - t0, t[1][r] = t2 - t1, t[2][r] = t3 - t2, t[3][r] = t4 - t3;
    }
    row->to_device = sl_median(t[0], reps);
    row->kernel_time = sl_median(t[1], reps);
    row->to_host = sl_median(t[2], reps);
    row->release = sl_median(t[3], reps);
    sl_where w;
    row->per_call = time_variant(gpu, &p, counts, reps, &w);
    row->cpu_best = time_variant(cpu, &p, counts, reps, &w);
    free(counts);
    if (row->per_call < 0 || row->cpu_best < 0) {
        snprintf(row->error, sizeof row->error, "a variant gave a wrong image at %s",
                 row->workload);
        return;
    }
    row->valid = 1;
}

/* pi from an array: copy the input in, sum there, free; the sum comes back
 * with the kernel's region (8 bytes). */
static void measure_pi_array(sl_breakdown_row *row, const sl_config *cpu, int64_t n,
                             int reps)
{
    double t[3][SL_MAX_REPS], per_call[SL_MAX_REPS];
    double *x = malloc((size_t)n * sizeof *x);
    row->kernel = "pi";
    row->size = n;
    row->bytes_in = (double)n * sizeof *x;
    row->bytes_out = sizeof(double);
    snprintf(row->workload, sizeof row->workload, "pi, array of %.0e", (double)n);
    if (x == NULL) {
        snprintf(row->error, sizeof row->error, "no memory for %lld doubles", (long long)n);
        return;
    }
    dm_pi_fill(x, n);
    sl_problem p = { .size = n };
    for (int r = 0; r < reps; r++) {
        sl_where w;
        double t0 = omp_get_wtime();
        sl_range_push("pi array: copy to device");
        dm_pi_to_device(x, n);
        sl_range_pop();
        double t1 = omp_get_wtime();
        sl_range_push("pi array: kernel");
        double value = dm_pi_kernel(x, n, &row->where);
        sl_range_pop();
        double t2 = omp_get_wtime();
        sl_range_push("pi array: free on device");
        dm_pi_free(x, n);
        sl_range_pop();
        double t3 = omp_get_wtime();
        sl_range_push("pi array: per call");
        double again = dm_pi_per_call(x, n, &w);
        sl_range_pop();
        double t4 = omp_get_wtime();
        if (r == 0) {
            sl_outcome a = { .value = value, .where = row->where };
            sl_outcome b = { .value = again, .where = w };
            sl_verdict va = pi_problem.check(&p, &a), vb = pi_problem.check(&p, &b);
            if (!va.ok || !vb.ok) {
                snprintf(row->error, sizeof row->error, "pi from the array is wrong: "
                         "%.17g and %.17g (tolerance %.3g)", value, again, va.tolerance);
                free(x);
                return;
            }
        }
        t[0][r] = t1 - t0, t[1][r] = t2 - t1, t[2][r] = t3 - t2, per_call[r] = t4 - t3;
    }
    free(x);
    row->to_device = sl_median(t[0], reps);
    row->kernel_time = sl_median(t[1], reps);
    row->release = sl_median(t[2], reps);
    row->per_call = sl_median(per_call, reps);
    sl_problem q = cpu->problem;
    q.size = n;
    sl_where w;
    row->cpu_best = time_variant(cpu, &q, NULL, reps, &w);
    if (row->cpu_best < 0) {
        snprintf(row->error, sizeof row->error, "%s is wrong at %lld steps",
                 cpu->name, (long long)n);
        return;
    }
    row->valid = 1;
}

/* Mandelbrot from a tiny image up to the bench's: per-call GPU vs CPU. */
static int measure_crossover(sl_breakdown *b, const sl_config *gpu, const sl_config *cpu,
                             int reps)
{
    int64_t top = gpu->problem.size;
    int32_t *counts = malloc((size_t)(top * top) * sizeof *counts);
    if (counts == NULL)
        return -1;
    for (int64_t side = top < CROSSOVER_FIRST_SIDE ? top : CROSSOVER_FIRST_SIDE;
         b->npoints < SL_CROSSOVER_POINTS;
         side = side * 2 < top && side * 2 > side ? side * 2 : top) {
        sl_problem p = gpu->problem, q = cpu->problem;
        p.size = q.size = side;
        p.height = q.height = 0;
        sl_crossover_point *pt = &b->points[b->npoints];
        pt->side = side;
        pt->gpu_per_call = time_variant(gpu, &p, counts, reps, &b->cross_where);
        pt->cpu_best = time_variant(cpu, &q, counts, reps, &(sl_where){ 0 });
        if (pt->gpu_per_call < 0 || pt->cpu_best < 0) {
            free(counts);
            return -1;
        }
        b->npoints++;
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

int sl_breakdown_measure(sl_breakdown *b, const sl_suite *s, int reps, int quick,
                         FILE *progress)
{
    if (!b->wanted)
        return 0;
    int failed = 0;
    const sl_config *mgpu = gpu_config(s, "mandelbrot"), *mcpu = best_cpu(s, "mandelbrot");
    const sl_config *pgpu = gpu_config(s, "pi"), *pcpu = best_cpu(s, "pi");
    if (progress)
        fprintf(progress, "GPU breakdown (lesson 5): first target region %.3f ms on the %s\n",
                b->start * 1e3, sl_where_name(b->start_where));
    if (mgpu && mgpu->valid && mcpu) {
        sl_breakdown_row *row = &b->rows[b->nrows++];
        measure_image(row, mgpu, mcpu, reps);
        snprintf(row->cpu_name, sizeof row->cpu_name, "%s", mcpu->name);
        failed += !row->valid;
        if (row->valid && measure_crossover(b, mgpu, mcpu, reps) != 0) {
            snprintf(row->error, sizeof row->error, "a variant was wrong in the crossover sweep");
            row->valid = 0;
            failed++;
        }
    }
    if (pgpu && pgpu->valid && pcpu) {
        sl_breakdown_row *row = &b->rows[b->nrows++];
        measure_pi_array(row, pcpu, quick ? PI_ARRAY_QUICK : PI_ARRAY_SIZE, reps);
        snprintf(row->cpu_name, sizeof row->cpu_name, "%s", pcpu->name);
        failed += !row->valid;
    }
    if (progress)
        for (int i = 0; i < b->nrows; i++) {
            const sl_breakdown_row *r = &b->rows[i];
            if (r->valid)
                fprintf(progress, "  %-24s to device %8.3f ms  kernel %8.3f ms  to host "
                        "%8.3f ms  per call %8.3f ms  (%s)\n", r->workload,
                        r->to_device * 1e3, r->kernel_time * 1e3, r->to_host * 1e3,
                        r->per_call * 1e3, sl_where_name(r->where));
            else
                fprintf(progress, "  INVALID  %-24s %s\n", r->workload, r->error);
        }
    return failed;
}
