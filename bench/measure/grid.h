/* grid.h - lesson 6's measurements: one row per kernel, variant and point of
 * the ranks x threads-per-rank grid, with the MPI split (the slowest rank's
 * compute, communication and waiting) and the work balance.
 *
 * The rows come from the workers' fragments (speedlab-mpi) or from an MPI
 * run's results.csv (--import); either way through table.h, the one
 * reader. They travel in the suite, so the one report and the one
 * results.csv writer show them beside the single-process ladder.
 */
#ifndef SPEEDLAB_GRID_H
#define SPEEDLAB_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "table.h"

typedef struct sl_grid_row {
    char tree[32], kernel[32], variant[32], unit[24];
    int ranks, threads, reps, valid, disturbed;
    int oversubscribed;        /* ranks x threads > the cores */
    int64_t size, height;
    double work, median, ci_low, ci_high, min, max, compute, compute_mean, comm, balance;
    double work_balance;
    double value, expected, error, tolerance, others;
    char note[512];
} sl_grid_row;

typedef struct sl_grid {
    sl_grid_row *rows;
    int n, cap;
    char *context;             /* where the ranks ran: MPI library, hosts, launches */
    size_t context_len;
} sl_grid;

/* The columns of a grid row in results.csv; a worker's fragment (worker.h)
 * writes the first SL_GRID_FRAGMENT_COLUMNS, under the same names. */
#define SL_GRID_FRAGMENT_COLUMNS 26
extern const char *const sl_grid_columns[];

/* Add a worker's fragment (its comment lines join the its comment lines join the
 * context), every row of tree. Returns the rows added, or -1 with why. */
int sl_grid_read_fragment(sl_grid *g, const char *path, const char *tree, char *why,
                          size_t whylen);

/* Add the grid rows of a results.csv table (rows whose ranks column is set;
 * t must have that column). Returns the rows added, or -1 with why. */
int sl_grid_read_results(sl_grid *g, const sl_table *t, char *why, size_t whylen);

/* Append text (a line, or a whole context) to the context. 0 or -1. */
int sl_grid_note(sl_grid *g, const char *text);

void sl_grid_free(sl_grid *g);

/* Timed: valid, with repetitions and a positive median. */
int sl_grid_timed(const sl_grid_row *r);

/* The one-process scalar row of a kernel, the grid's baseline, or NULL. */
const sl_grid_row *sl_grid_baseline(const sl_grid *g, const char *kernel);

/* Speedup over the baseline, or NAN. */
double sl_grid_speedup(const sl_grid *g, const sl_grid_row *r);

#endif
