/* results.h - the data files of a run folder, each written atomically:
 * results.csv (tidy, one row per configuration), samples.csv (every
 * repetition), and the plot data (speedup-<kernel>.dat, scaling-<kernel>.dat,
 * run.gp) that plots/plot.sh turns into figures. The summary and the page
 * are report.h's. */
#ifndef SPEEDLAB_RESULTS_H
#define SPEEDLAB_RESULTS_H

#include <stdio.h>

#include "breakdown_report.h"
#include "ceiling_report.h"
#include "context.h"
#include "suite.h"

/* results.csv, samples.csv and the plot data into dir. 0, or -1 with
 * errno set and the file that failed in failed. */
int sl_write_run_data(const char *dir, const sl_suite *s, const sl_context *ctx,
                      char *failed, size_t failedlen);

/* Every data file of a bench run into dir: sl_write_run_data's, then the
 * ceilings, the roofline's data, the GPU breakdown and the image evidence
 * (the summary and the page come after the plots: they show the figures
 * that exist). 0, or -1 with why naming the file that failed. */
int sl_write_bench_data(const char *dir, const sl_suite *s, const sl_context *ctx,
                        const sl_breakdown *bd, const sl_ceilings *ceilings, char *why,
                        size_t whylen);

/* Run plots/plot.sh on a folder. Returns its exit status (3: gnuplot is
 * missing), 127 when it could not be started. A stop signal (interrupt.h)
 * arriving meanwhile stops plot.sh and its gnuplot: some figures are then
 * missing, and the caller says so. */
int sl_run_plots(const char *dir);

#endif
