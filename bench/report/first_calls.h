/* first_calls.h - lesson 8's section of the one report: where the first
 * call of each imported JIT variant goes (numba's compile phases, then the
 * run), against the same call warm, and the figure's data. */
#ifndef SPEEDLAB_FIRST_CALLS_H
#define SPEEDLAB_FIRST_CALLS_H

#include <stdio.h>

#include "suite.h"

/* The section's Markdown (nothing when no first call was imported). */
void sl_first_calls_section(FILE *f, const sl_suite *s);

/* compile-<tree>.dat in dir for plots/compile.gp. 0, or -1 with errno set. */
int sl_first_calls_write_data(const char *dir, const sl_suite *s);

#endif
