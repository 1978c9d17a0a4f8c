/* grid_report.h - lesson 6's section of the one report: per kernel, the
 * ranks x threads-per-rank grid with the compute / communication split and
 * the balance, the findings an instructor says out loud, the grid's rows
 * in results.csv, and the figures' data (hybrid-<kernel>.dat/.gp, drawn by
 * plots/hybrid.gp). Reads the suite's grid; never calls back into
 * measurement.
 */
#ifndef SPEEDLAB_GRID_REPORT_H
#define SPEEDLAB_GRID_REPORT_H

#include <stdio.h>

#include "grid.h"

/* The section's Markdown (nothing when the grid is empty); for the
 * console (report.h renders it as text), the grids and then the findings,
 * without the explanation and the context. */
void sl_grid_section(FILE *f, const sl_grid *g, int console);

/* The grid's rows in results.csv's columns (report/results.c's header). */
void sl_grid_csv_rows(FILE *f, const sl_grid *g);

/* hybrid-<kernel>.dat and .gp in dir. 0, or -1 with errno set. */
int sl_grid_write_data(const char *dir, const sl_grid *g);

#endif
