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
    double seconds[SL_MAX_REPS]; /* a rung's: shares of its scalar's time
                                     (paired: each repetition over the
                                     scalar repetition timed nearest) */
    int n;
    int paired;              /* 1: seconds[] are shares of scalar's time */
    int crowded;             /* more than one thread, or a gpu row (on the
                                host fallback: every core): its time rides
                                on how fast the cores run all at once */
    /* As read, before pairing: when each began, and whether the bench
     * left it out because another process disturbed it or the bench
     * stalled (2), or only because the whole host was slow then (1). */
    double start[SL_MAX_REPS];
    unsigned char left[SL_MAX_REPS];
} sl_compare_series;

/* Two runs of the same code on one host differ by more than their
 * repetitions say: each run draws its own placement of pages and threads
 * and its own stretch of the host's speed (two quick runs of lesson 1's
 * kernel ten minutes apart on a 2-vCPU Zen 5 VM: its expert rung's share
 * of scalar's time 0.943 [0.910, 0.968] B/A, 6 repetitions each, p 0.002). So a difference
 * is claimed only beyond this margin, the bench's own +-5% target: below
 * it, an A/A comparison would flag a third of the rows. */
#define SL_COMPARE_MARGIN 0.05

/* What sl_compare_decide says about a pair. A difference is claimed only
 * where the rank test and the interval both find it; too few samples for
 * the test to reach its level get neither an interval nor a verdict. */
typedef enum sl_compare_outcome {
    SL_COMPARE_SAME = 0,     /* no significant difference */
    SL_COMPARE_FASTER = 1,   /* B faster */
    SL_COMPARE_SLOWER = 2,   /* B slower */
    SL_COMPARE_FEW = 3,      /* too few samples to judge: no interval */
    SL_COMPARE_UNCLEAR = 4,  /* the test and the interval disagree */
    SL_COMPARE_HOST = 5      /* a difference, within what the host's cores
                                at once differed by (sl_compare_host) */
} sl_compare_outcome;

/* Whether a pair has an interval to show (not SL_COMPARE_FEW). */
#define SL_COMPARE_HAS_INTERVAL(q) ((q)->outcome != SL_COMPARE_FEW)

typedef struct sl_compare_pair {
    const sl_compare_series *a, *b;
    double median_a, median_b, ratio, low, high, p;
    double host;             /* the B/A the host alone can explain for this
                                row (sl_compare_host); 0 or 1: none */
    sl_compare_outcome outcome;
    const char *verdict;     /* the outcome in words */
} sl_compare_pair;

/* One run's samples, configuration by configuration. */
typedef struct sl_compare_run {
    char dir[SL_PATH_BUF];   /* the run folder, with links resolved */
    sl_compare_series *s;
    int count, cap;
    int reps, disturbed;     /* repetitions read, and those left out as
                                disturbed, stalled or slow */
    /* With `together_threads` cores at once, each core's share of its
     * speed alone: the L1 roof on every core over that on one, per core
     * (ceiling.csv); 0 where the run has none. */
    double together;
    int together_threads;
} sl_compare_run;

/* With `threads` cores at once, each core's share of its speed alone,
 * from a roof on one core (`one`) and on all of them (`all`): at most 1,
 * as above 1 is the probes' own noise (a core cannot run faster for
 * having company). The run's summary and sl_compare_read both take it
 * from the L1 roofs. */
double sl_compare_together(double one, double all, int threads);

/* Two runs of the same code on a 2-vCPU VM, 10 minutes apart (Zen 5):
 * every 2-thread rung of the memory-heavy kernels 15 to 34% faster in
 * the second, the 1-thread rungs within 5%, because with both cores at
 * once each core ran at 85% of its speed alone in the first (the L1
 * roofs, 680 GB/s on 2 against 402 on 1) and 98% in the second. A
 * paired share of scalar's time cannot cancel that: scalar runs on one
 * core. Where the runs' `together` differ by more than SL_COMPARE_MARGIN,
 * compare says so first, and a crowded row's difference is claimed only
 * beyond what the host explains: the B/A returned here (A's together
 * over B's), else 1. */
double sl_compare_host(const sl_compare_run *a, const sl_compare_run *b);

/* A run whose bench left out more than this share of its repetitions was
 * disturbed: compare says so before any verdict. */
#define SL_COMPARE_DISTURBED 0.2

/* Read dir/samples.csv (and the cores-at-once share from ceiling.csv,
 * where there is one) into r through the one reader, strictly: the
 * columns the bench writes, finite positive times, whole numbers where the
 * bench writes them. A rung is read as the bench's speedups are (suite.h's
 * sl_speedup_paired): each repetition as a share of the time of the scalar
 * repetition of the same kernel and size timed nearest to it, so that two
 * runs on a host whose speed moved compare their code, not the host;
 * repetitions another process disturbed take no part, those in a slow
 * stretch of the whole host do. Scalar, weak-scaling rows and runs older
 * than start_s: times, without the repetitions the bench left out of its
 * median. 0, or -1 with the reason (file, line, value) in why. The caller
 * frees r->s either way. */
int sl_compare_read(sl_compare_run *r, const char *dir, char *why, size_t whylen);

/* The series of r with this key; with add, a new empty one when there is
 * none (NULL only when memory ran out). */
sl_compare_series *sl_compare_find(sl_compare_run *r, const char *key, int add);

/* Pair the configurations both runs have into q (room for a->count) and
 * decide each (a crowded row with sl_compare_host's allowance); *unmatched counts those in only one run. Returns the pairs. */
int sl_compare_pair_runs(const sl_compare_run *a, sl_compare_run *b, sl_compare_pair *q,
                         int *unmatched);

/* Fill q's medians, ratio, interval, p and verdict from q->a and q->b
 * (each with at least one sample): a difference where the rank test at 5%
 * finds one and the interval lies wholly beyond SL_COMPARE_MARGIN. The bootstrap has a fixed key, so the
 * same samples always give the same interval. With samples too few for
 * the exact test ever to reach 5% (its smallest p, 2 / C(n+m, n), is not
 * below it: 1 against fewer than 40, 3 against 3 or 4), the outcome is
 * SL_COMPARE_FEW, p is 1 and there is no interval (low = high = ratio).
 * With q->host away from 1, the margin reaches out to it on its side:
 * what lies within is SL_COMPARE_HOST, not a claim. */
void sl_compare_decide(sl_compare_pair *q);

#endif
