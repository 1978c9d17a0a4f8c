/* details.h - the report's appendix: every configuration in one table
 * (median, interval, rate, speedup, spread, others' CPU, error, where it
 * ran, check), the sampling kernels' estimates, and grouped notes. */
#ifndef SPEEDLAB_DETAILS_H
#define SPEEDLAB_DETAILS_H

#include <stdio.h>

#include "suite.h"

/* The tables and notes, in Markdown. */
void sl_details_configs(FILE *f, const sl_suite *s);

#endif
