/* ceiling.h - how close each variant comes to the machine.
 *
 * A small probe measures, on one core, the peak throughput of the
 * instructions the kernels cannot do without: packed double FMAs, packed
 * double divides and packed 64-bit multiplies (lane-operations per
 * second). A configuration's ceiling is that peak times the cores it had,
 * divided by the operations its work unit needs (kernel.h), and its
 * evidence is its rate as a percentage of that ceiling.
 */
#ifndef SPEEDLAB_CEILING_H
#define SPEEDLAB_CEILING_H

#include <stdio.h>

#include "suite.h"

typedef struct sl_ceilings {
    int measured;
    int lanes;                  /* doubles per vector the probe used */
    double per_core[4];         /* lane-operations/s, by sl_ceiling_kind */
    double spread[4];           /* (max - min) / median of the probe runs */
} sl_ceilings;

/* Run the probes on the calling thread (about a second in all; quick: a
 * quarter of that). */
void sl_measure_ceilings(sl_ceilings *m, int quick);

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
