/* compare_report.h - what speedlab-compare writes and prints: compare.csv,
 * the figure's data (compare-runs.dat/.gp, drawn by plots/), summary.md and
 * index.html from one text, and the console's table.
 */
#ifndef SPEEDLAB_COMPARE_REPORT_H
#define SPEEDLAB_COMPARE_REPORT_H

#include <stdio.h>

#include "compare.h"

/* Every file of a comparison into dir (the figures when plots is set;
 * *plotted is sl_run_plots's answer, -1 when not asked). labels and runs
 * are A's and B's. 0, or -1 with errno. */
int sl_compare_write(const char *dir, const sl_compare_pair *q, int n, const char *const *labels,
                     const sl_compare_run *runs, int unmatched, int plots, int *plotted);

/* The ratios, intervals and verdicts, a line per pair, after a line for
 * each run the bench found disturbed. */
void sl_compare_print(FILE *console, const sl_compare_pair *q, int n, const char *const *labels,
                      const sl_compare_run *runs, int unmatched);

#endif
