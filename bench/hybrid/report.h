/* report.h - lesson 6's run folder from the launches' fragments: the
 * results table with a ranks column, the ranks x threads grid per kernel,
 * the compute / communication split, findings, and the figures' data.
 * Reads what the workers wrote; never calls back into measurement.
 */
#ifndef SPEEDLAB_HYBRID_REPORT_H
#define SPEEDLAB_HYBRID_REPORT_H

#include <stdint.h>
#include <stdio.h>

#define SL_HYBRID_MAX_ROWS 512

/* One configuration as a worker measured it (worker.h's columns). */
typedef struct sl_hybrid_row {
    char kernel[32], variant[32];
    int ranks, threads, reps, valid, disturbed;
    int64_t size, height;
    double work, median, ci_low, ci_high, min, max, compute, compute_mean, comm, balance;
    double work_balance;
    double value, expected, error, tolerance, others;
    char note[512];
    int oversubscribed;   /* ranks x threads > the cores (set by the driver) */
} sl_hybrid_row;

typedef struct sl_hybrid_runs {
    sl_hybrid_row rows[SL_HYBRID_MAX_ROWS];
    int n;
    char context[16384];   /* the fragments' comment lines and the launches */
    size_t context_len;
} sl_hybrid_runs;

/* Add a fragment's rows (and its comment lines to the context). 0, or -1
 * when it cannot be read. */
int sl_hybrid_read_fragment(sl_hybrid_runs *runs, const char *path);

/* The baseline (single-process scalar) row of a kernel, or NULL. */
const sl_hybrid_row *sl_hybrid_baseline(const sl_hybrid_runs *runs, const char *kernel);

/* Write results.csv, context.txt, summary.md and hybrid-<kernel>.dat/.gp
 * into dir (tree: the tree's name); print the tables on out. 0, or -1
 * (errno set) when a file cannot be written. */
int sl_hybrid_write_report(const sl_hybrid_runs *runs, const char *dir, const char *tree,
                           FILE *out);

#endif
