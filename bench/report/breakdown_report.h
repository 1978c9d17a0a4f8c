/* breakdown_report.h - the GPU time breakdown's files and tables, from
 * what measure/breakdown.h measured. */
#ifndef SPEEDLAB_BREAKDOWN_REPORT_H
#define SPEEDLAB_BREAKDOWN_REPORT_H

#include <stdio.h>

#include "breakdown.h"

/* breakdown.csv, breakdown-gpu.dat (+ .gp: its labels) and
 * crossover-<kernel>.dat in dir. Returns 0, or -1 with errno set. */
int sl_breakdown_write(const char *dir, const sl_breakdown *b);

/* The summary's section, in Markdown; with s, each kernel's offload rows
 * against its CUDA row where both ran on a device. */
void sl_breakdown_summary(FILE *f, const sl_breakdown *b, const sl_suite *s);

#endif
