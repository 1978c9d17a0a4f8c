/* worker.h - lesson 6's measurement under mpirun: every rank runs the same
 * configurations in the same order; rank 0 validates, times and writes.
 *
 * One launch is one (ranks, threads per rank) pair. For each kernel and
 * hybrid variant: one call that is checked on rank 0 against the
 * single-process reference (a wrong answer is never timed; every rank
 * hears the verdict, so none waits for a call that will not come, and the
 * ranks whose share is wrong are named), then Google Benchmark repetitions
 * of a fixed number of calls, each behind a barrier, timed as the slowest
 * rank's. Rank 0 appends one CSV row per configuration to the fragment
 * file the driver named (bench/hybrid/launch.c).
 */
#ifndef SPEEDLAB_HYBRID_WORKER_H
#define SPEEDLAB_HYBRID_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "hybrid_table.h"

#define SL_HYBRID_MAX_JOBS 8

typedef struct sl_hybrid_job {
    const sl_hybrid_kernel *kernel;
    const sl_kernel *single;     /* the same kernel's single-process table */
    int64_t size;
} sl_hybrid_job;

typedef struct sl_hybrid_plan {
    sl_hybrid_job jobs[SL_HYBRID_MAX_JOBS];
    int njobs;
    int threads;        /* OpenMP threads per rank */
    int reps;           /* repetitions (0: validate only) */
    double min_time;    /* seconds per repetition, at least */
    int baseline;       /* 1-rank launch: also time the scalar variant */
    const char *frag;   /* rank 0 writes its rows here */
    const char *program; /* the program's name, for rank 0's messages */
} sl_hybrid_plan;

/* The file beside a launch's fragment frag in which its ranks note
 * themselves (omp_leftovers.h), for the driver to read once mpirun has
 * ended: 0 with its path in out, or -1 when that does not fit. */
int sl_hybrid_ranks_list(const char *frag, char *out, size_t len);

/* Run the plan on MPI_COMM_WORLD (MPI initialised). Returns the exit code
 * every rank returns: 0 (invalid configurations included: the fragment
 * says valid=no) or 1 (a rank out of memory, or the fragment not written). */
int sl_hybrid_work(const sl_hybrid_plan *plan);

#endif
