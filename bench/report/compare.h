/* compare.h - two runs' samples of one configuration, and the decision
 * about them (speedlab-compare): the ratio of the medians, B / A, with a
 * bootstrap interval, and a Mann-Whitney U test at the 5% level.
 */
#ifndef SPEEDLAB_COMPARE_H
#define SPEEDLAB_COMPARE_H

#include <stddef.h>

#include "args.h"
#include "sample.h"

/* One configuration's repetitions in one run. */
typedef struct sl_compare_series {
    char key[256];           /* kernel/variant/threads/schedule/study/size */
    char label[160];         /* "<kernel> threads_simd x2, dynamic (weak)" */
    double seconds[SL_MAX_REPS];
    int n;
} sl_compare_series;

/* What sl_compare_decide says about a pair. A difference is claimed only
 * where the rank test and the interval both find it; too few samples for
 * the test to reach its level get neither an interval nor a verdict. */
typedef enum sl_compare_outcome {
    SL_COMPARE_SAME = 0,     /* no significant difference */
    SL_COMPARE_FASTER = 1,   /* B faster */
    SL_COMPARE_SLOWER = 2,   /* B slower */
    SL_COMPARE_FEW = 3,      /* too few samples to judge: no interval */
    SL_COMPARE_UNCLEAR = 4   /* the test and the interval disagree */
} sl_compare_outcome;

/* Whether a pair has an interval to show (not SL_COMPARE_FEW). */
#define SL_COMPARE_HAS_INTERVAL(q) ((q)->outcome != SL_COMPARE_FEW)

typedef struct sl_compare_pair {
    const sl_compare_series *a, *b;
    double median_a, median_b, ratio, low, high, p;
    sl_compare_outcome outcome;
    const char *verdict;     /* the outcome in words */
} sl_compare_pair;

/* One run's samples, configuration by configuration. */
typedef struct sl_compare_run {
    char dir[SL_PATH_BUF];   /* the run folder, with links resolved */
    sl_compare_series *s;
    int count, cap;
} sl_compare_run;

/* Read dir/samples.csv into r through the one reader, strictly: the
 * columns the bench writes, finite positive times, whole numbers where the
 * bench writes them; repetitions the bench left out of its median are left
 * out here too. 0, or -1 with the reason (file, line, value) in why. The
 * caller frees r->s either way. */
int sl_compare_read(sl_compare_run *r, const char *dir, char *why, size_t whylen);

/* The series of r with this key; with add, a new empty one when there is
 * none (NULL only when memory ran out). */
sl_compare_series *sl_compare_find(sl_compare_run *r, const char *key, int add);

/* Pair the configurations both runs have into q (room for a->count) and
 * decide each; *unmatched counts those in only one run. Returns the pairs. */
int sl_compare_pair_runs(const sl_compare_run *a, sl_compare_run *b, sl_compare_pair *q,
                         int *unmatched);

/* Fill q's medians, ratio, interval, p and verdict from q->a and q->b
 * (each with at least one sample). The bootstrap has a fixed key, so the
 * same samples always give the same interval. With samples too few for
 * the exact test ever to reach 5% (its smallest p, 2 / C(n+m, n), is not
 * below it: 1 against fewer than 40, 3 against 3 or 4), the outcome is
 * SL_COMPARE_FEW, p is 1 and there is no interval (low = high = ratio). */
void sl_compare_decide(sl_compare_pair *q);

#endif
