/* history_report.h - the history's pages (speedlab-history): the trends
 * with their steps (make history) and a participant's afternoon (make
 * progress), each as console lines, data files, figures and one HTML page
 * rendered by html.h like every other report. The rules they show (the
 * step rule, the progress line) are bench/history/'s.
 */
#ifndef SPEEDLAB_HISTORY_REPORT_H
#define SPEEDLAB_HISTORY_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "progress.h"
#include "trend.h"

/* The flagged steps, one line each (or the line saying there are none). */
void sl_history_print_steps(FILE *console, const sl_trend_point *p, size_t n);

/* Into folder out (made if missing): run.gp, history.csv (every point),
 * trend-<kernel>.dat (index blocks: one series each, its name first, then
 * run order, median and interval in ms), the figures when plots is set,
 * then history.html. 0, or -1 with errno. */
int sl_history_write_trends(const char *out, const sl_trend_point *p, size_t n, int plots);

/* A line per exercise on console, and into folder out (made if missing):
 * progress-<kernel>.dat, run.gp, the figures when plots is set, then
 * progress.html. 0, or -1 with errno. */
int sl_progress_write(FILE *console, const char *out, const sl_progress_row *r, size_t n,
                      int plots);

#endif
