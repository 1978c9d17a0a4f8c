/* mca_report.h - the static model beside the measurement: for each
 * solution rung, llvm-mca's predicted cycles per iteration of its hot loop
 * (measure/mca.h) and the cycles one iteration took, from the measured
 * rate and the measured clock.
 *
 * An iteration does `lanes` limiting operations (the class of the
 * variant's limit: divides, multiplies and FMAs, or 64-bit multiplies),
 * so it covers lanes / ops work units, where ops is what the kernel
 * counts per unit (kernel.h): measured cycles per iteration = clock x
 * cores x (lanes / ops) / rate. Where the compiled loop does a different
 * number of operations per unit than the kernel counts, that count is
 * the first suspect of a disagreement.
 */
#ifndef SPEEDLAB_MCA_REPORT_H
#define SPEEDLAB_MCA_REPORT_H

#include <stdio.h>

#include "ceiling.h"
#include "suite.h"

/* The analysis of c's loop: solutions' rungs that ran on this CPU (the
 * host fallback's gpu rungs too); NULL otherwise. */
const sl_mca_row *sl_config_mca(const sl_ceilings *m, const sl_config *c);

/* Cycles one iteration of that loop took in c's run (per core); 0 when
 * the clock or the rate is not known. */
double sl_config_measured_cycles(const sl_ceilings *m, const sl_config *c,
                                 const sl_mca_row *r);

/* "what limits it" from the analysis: the resource or chain that binds,
 * the predicted and measured cycles, and, when they disagree, where to
 * look. 0 when there is no analysis for c. */
int sl_mca_limit_text(const sl_ceilings *m, const sl_config *c, char *out, size_t len);

/* The summary's section: every solution rung's pair, one row each (its
 * run on the fewest threads). Nothing when there is no analysis. */
void sl_print_mca(FILE *f, const sl_ceilings *m, const sl_suite *s);

#endif
