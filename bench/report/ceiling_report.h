/* ceiling_report.h - how close each variant comes to the machine.
 *
 * A configuration's ceiling is the lower of two roofs. The compute roof:
 * the probe's per-core peak (measure/ceiling.h) times the cores it had,
 * divided by the operations its work unit needs (kernel.h). The memory
 * roof, for a kernel that declares the bytes a call moves: the measured
 * bandwidth for its threads over those bytes. Its evidence is its rate as
 * a percentage of the lower, and which roof that is says what bounds it.
 */
#ifndef SPEEDLAB_CEILING_REPORT_H
#define SPEEDLAB_CEILING_REPORT_H

#include <stdio.h>

#include "ceiling.h"
#include "suite.h"

/* The ceiling of configuration c in its work units per second, or 0 when
 * there is none (no probe for the kernel, or a device run). */
double sl_config_ceiling(const sl_ceilings *m, const sl_config *c);

/* c's percent of its ceiling, as an interval: its rate's (the median's
 * interval) against its roof's (ceiling.h's sl_roof_interval), each at
 * the far end, so both uncertainties are in it. 0, or -1 without a
 * ceiling or an interval. */
int sl_config_percent_interval(const sl_ceilings *m, const sl_config *c, double *low,
                               double *high);

/* The compute limit that binds c: its kernel's instruction (the expert
 * rung's own where it has one), or the issue roof (kernel.h's issue_ops)
 * where that is the lower. */
sl_limit sl_config_limit(const sl_ceilings *m, const sl_config *c);

/* The instructions whose probes s's compute roofs can use (bit k:
 * sl_ceiling_kind k): each configuration's own and, where its kernel has
 * one, the issue roof's (sl_measure_ceiling_kinds). */
unsigned sl_suite_ceiling_kinds(const sl_suite *s);

/* The bandwidth roofs s's rows stand under (bandwidth.h: SL_ROOF_MEMORY,
 * SL_ROOF_CACHES; 0: no kernel of s declares its bytes), by the caches'
 * sizes: the bench probes only those. */
unsigned sl_suite_memory_roofs(const sl_suite *s);

/* Cores a configuration had: its threads, at most the machine's (a target
 * region on the host fallback: the runtime's default team). */
int sl_config_cores(const sl_config *c);

/* Which roof is the lower for c. */
typedef enum sl_bound { SL_BOUND_NONE = 0, SL_BOUND_COMPUTE, SL_BOUND_MEMORY } sl_bound;
sl_bound sl_config_bound(const sl_ceilings *m, const sl_config *c);

/* Where c's arrays live: the cache level (1..3) they fit in, whose roof
 * is theirs; 0: the memory; -1: c moves no bytes worth counting, or
 * nothing was probed. */
int sl_config_level(const sl_ceilings *m, const sl_config *c);

/* The bandwidth of that level for c's threads, in the loop's bytes per
 * second (bandwidth.h); 0 when not measured. */
double sl_config_bandwidth(const sl_ceilings *m, const sl_config *c);

/* "memory" (level 0), "L1", "L2", "L3". */
const char *sl_level_name(int level);

/* The roofline's data and gnuplot script (roofline.dat, roofline.gp):
 * the measured roofs and every strong-study configuration of every
 * kernel at its intensity and rate. Returns 0, or -1 with errno. */
int sl_write_roofline(const char *dir, const sl_ceilings *m, const sl_suite *s);

/* The probe results (ceiling.csv) and the evidence per configuration
 * (evidence.csv: rate, ceiling, percent). Returns 0, or -1 with errno. */
int sl_write_ceilings(const char *dir, const sl_ceilings *m, const sl_suite *s);

/* The summary's section: the probe and the evidence table (Markdown). */
void sl_print_ceilings(FILE *f, const sl_ceilings *m, const sl_suite *s);

/* The name of a ceiling kind: "FMA", "divide", "64-bit multiply",
 * "vector instruction". */
const char *sl_ceiling_name(int kind);

#endif
