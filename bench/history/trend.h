/* trend.h - a series of the history and the steps in it.
 *
 * A series is one configuration on one machine: host, tree, kernel,
 * variant, threads and size, strong scaling, valid and timed; its points are
 * its runs in the order they were recorded. A step is flagged between two
 * consecutive points only when their medians' intervals do not overlap (a
 * step is then unlikely to be noise) and the medians differ by more than a
 * factor 1 + min_change (a real but tiny change on a quiet machine is no
 * alarm). The point after the step names the commit that brought it.
 */
#ifndef SPEEDLAB_TREND_H
#define SPEEDLAB_TREND_H

#include <stddef.h>

typedef struct sl_trend_point {
    char host[128], tree[32], kernel[64], variant[64], started[32], commit[48];
    int threads, dirty;
    long long size, run;
    double median, lo, hi;    /* seconds: the median and its interval */
    int step;                 /* 0, +1 slower than the point before, -1 faster */
    int disturbed;            /* the bench marked it disturbed (others' load) */
    int unjudged;             /* a step from the point before, not judged:
                                 one of the two was disturbed */
} sl_trend_point;

/* Do a and b belong to one series? */
int sl_trend_same_series(const sl_trend_point *a, const sl_trend_point *b);

/* Set each point's step against the point before it in the same series
 * (p holds the series one after another, each in run order). A pair of
 * which either point was disturbed is shown but not judged: no step, and
 * unjudged set where the rule would have found one. Returns how many
 * points are slower steps. */
int sl_trend_find_steps(sl_trend_point *p, size_t n, double min_change);

/* Who brought a point: its commit, or "uncommitted changes on <commit>"
 * for a run whose tree had uncommitted changes (dirty). */
void sl_trend_commit_label(const sl_trend_point *q, char *out, size_t len);

/* "solutions threads_simd x2" ("solutions scalar" without threads). */
void sl_trend_series_name(const sl_trend_point *q, char *out, size_t len);

#endif
