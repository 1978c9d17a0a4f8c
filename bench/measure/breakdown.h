/* breakdown.h - lesson 5's measurement: where a GPU run's time goes.
 *
 * For each kernel whose problem names a breakdown workload (kernel.h: an
 * image made on the device, results come back; an array summed there,
 * input goes in), times each offload step separately (offload/data_movement.h):
 * starting the device (the first target region of the process), copies to
 * the device, the kernel, copies back, release; and end to end both ways:
 * a per-call region that maps everything, and the steps above, the shape of
 * a persistent `target data` region. Beside them, the best CPU variant at
 * the same size, taken from the strong study (one "best CPU" per size in
 * the whole report), and for the image the side where the GPU (end to end,
 * per call) starts to beat it: the crossover. Steps are timed through the
 * kit's one sample path (sample.h): median of the repetitions.
 *
 * Every step's result is validated before its time counts; every figure
 * carries where the kernel ran, and a host fallback is never a GPU figure.
 */
#ifndef SPEEDLAB_BREAKDOWN_H
#define SPEEDLAB_BREAKDOWN_H

#include <stdio.h>

#include "suite.h"

enum { SL_BREAKDOWN_ROWS = 2, SL_CROSSOVER_POINTS = 12 };

typedef struct sl_breakdown_row {
    char workload[64];         /* "<kernel> 2048x2048" */
    const char *kernel;        /* the kernel's name */
    int64_t size;              /* pixels per side, or array elements */
    double bytes_in, bytes_out;
    /* Medians over the repetitions, seconds. */
    double to_device, kernel_time, to_host, release;
    double per_call;           /* one region that maps everything */
    double cpu_best;           /* the best CPU variant at this size */
    char cpu_name[208];        /* which one: "solutions/<kernel>/threads_simd/threads:2", and
                                  " (disturbed)" when it was */
    int cpu_from_suite;        /* cpu_best is the strong study's median */
    sl_where where;            /* where the kernel ran */
    int valid;                 /* every result checked out */
    char error[256];
} sl_breakdown_row;

typedef struct sl_crossover_point {
    int64_t side;              /* an image of side x side pixels */
    double gpu_per_call, cpu_best;  /* medians, seconds */
} sl_crossover_point;

typedef struct sl_breakdown {
    int wanted;                /* the plan has a gpu variant with a workload */
    double start;              /* the first target region, seconds */
    sl_where start_where;
    char device[160];          /* the device's name, or why there is none */
    int nrows;
    sl_breakdown_row rows[SL_BREAKDOWN_ROWS];
    int npoints;
    sl_crossover_point points[SL_CROSSOVER_POINTS];
    int64_t crossover;         /* first side from which the GPU wins; 0: none */
    const char *cross_kernel;  /* whose image the sweep made */
    char cross_cpu[208];       /* the best CPU at the crossover's largest side */
    sl_where cross_where;
} sl_breakdown;

/* Decide from the planned suite whether to measure, and if so time the
 * very first target region now: call it before anything else offloads. */
void sl_breakdown_begin(sl_breakdown *b, const sl_suite *s);

/* The best CPU configuration of a kernel at a size (width, and height for
 * image kernels) in the suite's strong study: valid, timed, a core per
 * thread, not disturbed if it can be helped; NULL when there is none. */
const sl_config *sl_best_cpu(const sl_suite *s, const sl_problem_def *def, int64_t size,
                             int64_t height);

/* Measure the steps, after the suite was validated and timed (its best CPU
 * configurations are the comparison). Progress: a line to start, and one
 * per row when verbose or invalid. Returns the number of rows that failed
 * validation. */
int sl_breakdown_measure(sl_breakdown *b, const sl_suite *s, int reps, int quick,
                         FILE *progress, int verbose);

#endif
