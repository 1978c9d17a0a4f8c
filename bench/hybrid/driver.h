/* driver.h - lesson 6's driver, below its program (bench/mpi_main.c): the
 * rules of a grid of ranks x threads per rank, and its launches. Each
 * point of the grid is one mpirun on the program itself with --worker
 * (launch.h), whose fragment is read into the suite's grid (grid.h).
 * Nothing here prints an error: each returns its reason in why, and the
 * program says it.
 */
#ifndef SPEEDLAB_HYBRID_DRIVER_H
#define SPEEDLAB_HYBRID_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "grid.h"
#include "worker.h"

/* A grid to launch: the options, the kernels and their sizes, where the
 * fragments go, and the program's own file for the ranks. */
typedef struct sl_hybrid_grid {
    const sl_cli *cli;
    const sl_hybrid_kernel *const *kernels;
    const int64_t *sizes;
    int nkernels;
    const char *mpirun;     /* sl_find_mpirun's answer */
    const char *self;       /* this program's file (sl_self_exe) */
    const char *dir;        /* the fragments' folder */
    const char *tree;       /* the rows' tree */
    FILE *progress;         /* a line per launch, as it starts */
} sl_hybrid_grid;

/* The cores mpirun places ranks on: under a SLURM allocation, every
 * node's (SLURM_JOB_CPUS_PER_NODE, e.g. "4(x2),2" for 4 + 4 + 2); else
 * this machine's, the CPUs this process may use. */
int sl_hybrid_job_cores(void);

/* OMP_THREAD_LIMIT caps each rank's threads, so a row "1 x 2" would claim
 * a thread its rank never had: a given count above the limit is refused
 * (-1 with why), the default list keeps what fits. */
int sl_hybrid_thread_limit(sl_cli *c, char *why, size_t whylen);

/* Whether every launch of the grid can be placed as asked: --bind core
 * with more ranks than the job's cores is refused here, while planning,
 * not found by mpirun after the first launch was measured. 0, or -1 with
 * why. */
int sl_hybrid_bindable(const sl_cli *c, char *why, size_t whylen);

/* The size of kernel def in this run (--size, else --check's probe size,
 * --quick's or the default), refused (-1 with why) where MPI cannot carry
 * it: a fractal image is gathered in one message of int counts. */
int sl_hybrid_size(const sl_cli *c, const sl_problem_def *def, int64_t *out, char *why,
                   size_t whylen);

/* The kernels --kernel names (text: comma-separated; NULL: every one of
 * all, in lesson order) into out (room for SL_HYBRID_MAX_JOBS). Returns
 * how many, or -1 with why naming the one that is not in all. */
int sl_hybrid_choose(const sl_hybrid_kernel *const *all, const char *text,
                     const sl_hybrid_kernel **out, char *why, size_t whylen);

/* Before anything is measured: whether mpirun can place every launch of
 * the grid here (each tried quietly, with true as the program), so that a
 * launch the machine or job cannot hold (too few slots, a binding it
 * refuses) is refused while planning. 0; SL_EXIT_USAGE with mpirun's
 * reason in why; SL_EXIT_RUNTIME, with why, when a tried launch ran past
 * --timeout, was interrupted, or could not be started. */
int sl_hybrid_try_grid(const sl_hybrid_grid *g, char *why, size_t whylen);

/* Every point of the grid into grid (a 1-rank launch first when the grid
 * has none: the baseline comes from one). Returns 0, 3 when a
 * configuration was wrong, or, with why (and nothing to keep): 1 when a
 * launch failed, hung past --timeout or was interrupted, 3 when a rank's
 * call called exit(). */
int sl_hybrid_launch_grid(const sl_hybrid_grid *g, sl_grid *grid, char *why, size_t whylen);

#endif
