/* data_movement.h - lesson 5: offload in separate steps, so the bench can
 * time each one (bench/measure/breakdown.c) and show where a GPU run's time goes.
 *
 * Two workloads, chosen for their opposite traffic:
 *   - the Mandelbrot image: nothing goes in, width*height counts come back;
 *   - pi "the NumPy way": the midpoints are an array made on the host
 *     (like np.linspace), so 8 bytes per step go in and one number comes
 *     back.
 * Each has the steps a `target data` region makes explicit: put the data on
 * the device, run the kernel on data already there, bring results back,
 * release; and a per-call form that maps everything inside the one target
 * region, as a function called in a loop would.
 *
 * These are kernels: pure functions of their arguments, no clocks, no I/O.
 * Every kernel step reports where it ran (omp_is_initial_device() read
 * inside the region); on the host fallback the copies cost nothing, because
 * the "device" is the host's own memory.
 */
#ifndef SPEEDLAB_DATA_MOVEMENT_H
#define SPEEDLAB_DATA_MOVEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "fractal_problem.h"
#include "kernel.h"

/* An empty target region: the first one in a process starts the offload
 * runtime and the device (seconds on some machines). */
void dm_device_start(sl_where *where);

/* A workload's offload, as steps the bench times one by one
 * (bench/measure/breakdown.c); it knows no kernel, only these. */
enum { DM_STEPS = 4 };                 /* to device, kernel, to host, release */
typedef struct dm_workload {
    /* The problem measured (quick: the smaller); 0: the gpu variant's own. */
    int64_t size, quick_size;
    /* The host's side of p: buffers (an image goes into out->counts), the
     * bytes that cross each way, and a label ("pi, array of 1e+08"). NULL
     * without memory. */
    void *(*prepare)(const sl_problem_def *def, const sl_problem *p, sl_outcome *out,
                     double *bytes_in, double *bytes_out, char *label, size_t len);
    /* Before each repetition, untimed; NULL: nothing to do. */
    void (*reset)(void *w);
    /* The steps in order (NULL: this workload has no such step), each
     * recording where its region ran and what it computed in out, and
     * their names on a profiler's timeline. */
    void (*step[DM_STEPS])(void *w, sl_outcome *out);
    const char *step_name[DM_STEPS + 1];
    /* Everything in one region, as a function called in a loop would (its
     * name is step_name[DM_STEPS]); NULL: the kernel's gpu variant is that. */
    void (*per_call)(void *w, sl_outcome *out);
    void (*discard)(void *w);
    int crossover;                     /* sweep the side for the crossover */
} dm_workload;

/* The steps of a kernel's breakdown kind (kernel.h); NULL for none. */
const dm_workload *dm_workload_of(sl_breakdown_kind kind);

#endif
