/* report.h - the report of one measured run, told story first.
 *
 * A table of sections, each written as Markdown into memory: the title,
 * the warnings, the headline table, the findings, the figures in lesson
 * order with a caption each, then the details (context, every
 * configuration, ceilings, scaling, image evidence, GPU breakdown).
 * summary.md, index.html and the console are all built from the same
 * sections; nothing is parsed back from a written file.
 */
#ifndef SPEEDLAB_REPORT_H
#define SPEEDLAB_REPORT_H

#include <stdio.h>

#include "breakdown.h"
#include "ceiling.h"
#include "context.h"
#include "suite.h"

typedef struct sl_run_report {
    const sl_suite *suite;
    const sl_context *ctx;
    const char *run_name;
    const char *dir;               /* the run folder: which figures exist */
    const sl_breakdown *breakdown; /* may be NULL */
    const sl_ceilings *ceilings;   /* may be NULL */
    int plots;                     /* plot.sh's status; -1: not run;
                                      SL_PLOTS_INTERRUPTED */
} sl_run_report;

/* plots: a signal (Ctrl-C, SIGTERM) stopped plot.sh part way. */
#define SL_PLOTS_INTERRUPTED 256

/* summary.md and index.html in r->dir. Returns 0, or -1 with errno set
 * and the file's name in failed. */
int sl_write_report(const sl_run_report *r, char *failed, size_t failedlen);

/* The console's account: warnings and the headline table (under 40 lines
 * for a full run); verbose: the whole summary. */
void sl_print_report(FILE *f, const sl_run_report *r, int verbose);

#endif
