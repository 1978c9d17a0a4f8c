/* passes.h - Google Benchmark's own record of a run (its JSON), kept in
 * the run folder beside speedlab's files. Google Benchmark writes each
 * timing pass's JSON to one temporary name: the first pass becomes
 * bench.json, each later round (repetitions that replace disturbed ones,
 * or narrow an interval) bench-round-N.json; an interrupted run keeps none.
 */
#ifndef SPEEDLAB_PASSES_H
#define SPEEDLAB_PASSES_H

#include <stddef.h>

#include "args.h"
#include "cli.h"
#include "context.h"

typedef struct sl_passes {
    char partial[SL_PATH_BUF];         /* the run folder being written */
    char tmp[SL_PATH_BUF];             /* where Google Benchmark writes */
    char out_flag[SL_PATH_BUF + 32];   /* --benchmark_out=tmp */
    int npasses;
    int in_a_row;                      /* the flags asked for no interleaving */
} sl_passes;

/* Start Google Benchmark with the user's --benchmark_* flags (cli) and its
 * JSON going to the folder partial. 0, or -1 with why (a flag refused). */
int sl_passes_start(sl_passes *p, const char *partial, char *argv0, const sl_cli *cli,
                    char *why, size_t whylen);

/* The run's context (and the rows' tree) into Google Benchmark's JSON. */
void sl_passes_context(const sl_context *ctx, const char *tree);

/* After each timing pass (sl_timing's after_pass, with ctx a sl_passes):
 * hold the pass's JSON under its own hidden name. */
void sl_passes_keep(int pass, void *ctx);

/* Publish the held passes under their names, or (drop: a signal ended
 * the run) remove them. 0, or -1 with why. */
int sl_passes_publish(const sl_passes *p, int drop, char *why, size_t whylen);

#endif
