/* stats.h - two-sample statistics for comparing runs (speedlab-compare).
 *
 * Timings are not normal (a busy machine adds a long right tail), so both
 * tests here are distribution-free: the Mann-Whitney U test asks whether
 * one run's times tend to be larger than the other's, and a bootstrap
 * gives an interval for the ratio of the two medians.
 */
#ifndef SPEEDLAB_STATS_H
#define SPEEDLAB_STATS_H

#include <stdint.h>

/* Both samples' sizes up to this get the exact U distribution (when there
 * are no ties); larger ones the normal approximation. */
#define SL_MW_EXACT_MAX 25

/* Two-sided p-value of the Mann-Whitney U test of a[0..m) against b[0..n)
 * (m, n >= 1). */
double sl_mann_whitney_p(const double *a, int m, const double *b, int n);

/* A 95% percentile-bootstrap interval for median(b) / median(a), from
 * `resamples` resamples drawn with the counter-based generator (rng.h)
 * keyed by seed, so the same data always gives the same interval. */
void sl_bootstrap_ratio(const double *a, int m, const double *b, int n, int resamples,
                        uint64_t seed, double *low, double *high);

#endif
