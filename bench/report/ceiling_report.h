/* ceiling_report.h - how close each variant comes to the machine.
 *
 * A configuration's ceiling is the probe's per-core peak (measure/
 * ceiling.h) times the cores it had, divided by the operations its work
 * unit needs (kernel.h); its evidence is its rate as a percentage of that.
 */
#ifndef SPEEDLAB_CEILING_REPORT_H
#define SPEEDLAB_CEILING_REPORT_H

#include <stdio.h>

#include "ceiling.h"
#include "suite.h"

/* The ceiling of configuration c in its work units per second, or 0 when
 * there is none (no probe for the kernel, or a device run). */
double sl_config_ceiling(const sl_ceilings *m, const sl_config *c);

/* The probe results (ceiling.csv) and the evidence per configuration
 * (evidence.csv: rate, ceiling, percent). Returns 0, or -1 with errno. */
int sl_write_ceilings(const char *dir, const sl_ceilings *m, const sl_suite *s);

/* The summary's section: the probe and the evidence table (Markdown). */
void sl_print_ceilings(FILE *f, const sl_ceilings *m, const sl_suite *s);

/* The name of a ceiling kind: "FMA", "divide", "64-bit multiply". */
const char *sl_ceiling_name(int kind);

#endif
