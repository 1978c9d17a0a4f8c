/* compare.h - two runs' samples of one configuration, and the decision
 * about them (speedlab-compare): the ratio of the medians, B / A, with a
 * bootstrap interval, and a Mann-Whitney U test at the 5% level.
 */
#ifndef SPEEDLAB_COMPARE_H
#define SPEEDLAB_COMPARE_H

#include "sample.h"

/* One configuration's repetitions in one run. */
typedef struct sl_compare_series {
    char key[256];           /* kernel/variant/threads/schedule/study/size */
    char label[160];         /* "<kernel> threads_simd x2, dynamic (weak)" */
    double seconds[SL_MAX_REPS];
    int n;
} sl_compare_series;

/* What sl_compare_decide says about a pair. */
typedef enum sl_compare_outcome {
    SL_COMPARE_SAME = 0,     /* no significant difference */
    SL_COMPARE_FASTER = 1,   /* B faster */
    SL_COMPARE_SLOWER = 2    /* B slower */
} sl_compare_outcome;

typedef struct sl_compare_pair {
    const sl_compare_series *a, *b;
    double median_a, median_b, ratio, low, high, p;
    sl_compare_outcome outcome;
    const char *verdict;     /* the outcome in words */
} sl_compare_pair;

/* Fill q's medians, ratio, interval, p and verdict from q->a and q->b
 * (each with at least one sample). The bootstrap has a fixed key, so the
 * same samples always give the same interval. */
void sl_compare_decide(sl_compare_pair *q);

#endif
