/* fractal_problem.h - the Mandelbrot and Julia problems: the signature every
 * fractal variant has, the plane each kernel covers, and the exactness policy
 * that decides whether an image is right.
 *
 * Pixel (i, j) of a W x H image is the point at its centre:
 *   x_i = x0 + (i + 0.5) * (x1 - x0) / W,   y_j = y1 - (j + 0.5) * (y1 - y0) / H
 * (row 0 at the top). Its count is the number of updates z <- z^2 + c made
 * while |z|^2 <= 4, capped at max_iter. Mandelbrot: z0 = 0, c = pixel.
 * Julia: z0 = pixel, c = -0.8 + 0.156i. Work is the sum of the counts.
 */
#ifndef SPEEDLAB_FRACTAL_PROBLEM_H
#define SPEEDLAB_FRACTAL_PROBLEM_H

#include <stdint.h>

#include "hybrid_problem.h"
#include "kernel.h"

/* The iteration cap when none is given. */
#define FRACTAL_DEFAULT_MAX_ITER 1000
/* Caps on input. Whether an image fits is checked against the memory the
 * machine has (bench/measure/memory.h), not here: 65536 keeps a CUDA grid
 * within its limits and every pixel count exact. A million iterations per
 * pixel is far past where double precision stops meaning anything. */
#define FRACTAL_MAX_SIDE 65536
#define FRACTAL_MAX_ITER_LIMIT SL_MAX_ITER_LIMIT
/* Odd and not a multiple of any lane count: the probe size (67 x 67). */
#define FRACTAL_PROBE_SIDE 67
/* A device may evaluate the iteration differently: GCC 12 writes plain
 * mul.f64 and add.f64 into its PTX, and the driver's compiler fuses them
 * into FMAs (-ffp-contract=off cannot reach it): a few pixels in 1000 on
 * an H100 (course/02-mandelbrot.md quotes the count). So a device may
 * differ from the host reference in at most 1 pixel in 100; host code,
 * fallback included, must be exact, and so must CUDA (built with
 * --fmad=false). */
#define FRACTAL_DEVICE_MISMATCH_PER_MILLE 10

/* The SIMD variants' lane pool (solutions/fractal/simd.c): how many pixels
 * are iterated together (several vectors, so their dependency chains
 * overlap) and how many steps run between the checks that hand in finished
 * pixels. The bench's lane-utilisation model reads the same numbers.
 * 32 lanes checked every 16 steps beat 8 and 16 lanes on both kernels
 * (course/02-mandelbrot.md and course/03-julia.md have the measurements). */
#ifndef FRACTAL_LANES
#define FRACTAL_LANES 32
#endif
#ifndef FRACTAL_CHECK_EVERY
#define FRACTAL_CHECK_EVERY 16
#endif

/* What a fractal variant computes: the plane, the image and the loop. */
typedef struct fractal_job {
    int julia;              /* 0: Mandelbrot (z0 = 0, c = pixel); 1: Julia */
    double x0, x1, y0, y1;  /* the plane: x in [x0, x1], y in [y0, y1] */
    double cr, ci;          /* Julia's c */
    int64_t width, height;  /* pixels */
    int max_iter;           /* the count cap */
    int threads;            /* OpenMP threads for threaded variants */
} fractal_job;

/* Every fractal variant: fill counts (width * height, row-major, row 0 at
 * the top) and set *where to where the loop ran. */
typedef void fractal_fn(const fractal_job *job, int32_t *counts, sl_where *where);

/* A threaded variant's schedule-sweep twin (sl_variant.sweep): its loop
 * over rows with schedule(runtime), which the harness sets, recording in
 * row_thread the OpenMP thread that computed each row (for the bench's
 * per-thread share of the work). Host code only. */
typedef void fractal_sweep_fn(const fractal_job *job, int32_t *counts,
                              int32_t *row_thread);

/* The problems shared by both trees. */
extern const sl_problem_def mandelbrot_problem;
extern const sl_problem_def julia_problem;

/* Mandelbrot's run, tally, check and reference, for the exhibits
 * (exhibits/), which draw the same set. */
int mandelbrot_run(const sl_variant *v, const sl_problem *p, sl_outcome *out);
void fractal_tally(const sl_problem *p, sl_outcome *out);
sl_verdict mandelbrot_check(const sl_problem *p, const sl_outcome *out);
const int32_t *mandelbrot_reference(const sl_problem *p);

/* The job a problem describes (size, height, max_iter, threads). */
fractal_job fractal_job_for(const sl_problem_def *def, const sl_problem *p);

#ifndef __cplusplus
/* A job on cache lines of its own, for a caller that keeps it on its stack
 * while threads read it. The calling thread runs its share of the rows in
 * frames right below the job, and its writes there would take the job's
 * line away from the other threads on every row they start: Julia's expert
 * is measurably slower (course/03-julia.md has the figures). Host code only
 * (C11 alignment; the CUDA files never make one). */
typedef struct fractal_job_alone {
    _Alignas(64) fractal_job job;
} fractal_job_alone;
#endif

/* The reference image for a problem: computed once, plainly, by code that
 * shares nothing with the trees, and cached (the last few problems asked
 * for). NULL when there is no memory for it. */
const int32_t *fractal_reference(const sl_problem_def *def, const sl_problem *p);

/* Lesson 6: one rank's share against the reference (hybrid_problem.h). */
sl_share_ok_fn sl_fractal_share_ok;

#endif
