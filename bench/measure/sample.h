/* sample.h - the one way the kit turns repeated timings into numbers: the
 * median, a distribution-free 95% interval for it, the extremes and the
 * spread. Google Benchmark's repetitions, the GPU breakdown's steps and the
 * ceiling probe all end here, so every figure carries the same statistics.
 */
#ifndef SPEEDLAB_SAMPLE_H
#define SPEEDLAB_SAMPLE_H

#include "defaults.h"   /* SL_MAX_REPS */


typedef struct sl_sample {
    int n;
    double v[SL_MAX_REPS];        /* in the order measured */
    double median, min, max, mean, stddev, cv;
    double ci_low, ci_high;       /* the median's interval */
    double ci_level;              /* its coverage (0.95 or more from 6) */
} sl_sample;

/* The one clock of the kit's own timings: wall seconds (omp_get_wtime). */
double sl_now(void);

/* Add a value (beyond SL_MAX_REPS values are dropped). */
void sl_sample_add(sl_sample *s, double v);

/* Median, interval, extremes and spread of s->v[0 .. n) (n >= 1). */
void sl_sample_summarise(sl_sample *s);

/* Sort v[0 .. n) ascending. */
void sl_sort(double *v, int n);

/* The median of v[0 .. n) (n >= 1); sorts v. */
double sl_median(double *v, int n);

/* A robust sd of v[0 .. n) about center: 1.4826 x the median absolute
 * deviation, which a rare burst does not inflate as it would the sd.
 * Overwrites v with the deviations. */
double sl_robust_sd(double *v, int n, double center);

/* A confidence interval for the median of sorted[0 .. n) from order
 * statistics alone (no assumption about the distribution of times): the
 * narrowest [sorted[k], sorted[n-1-k]] whose coverage is at least 95%, or
 * [min, max] when n is too small for 95%. Returns the coverage. */
double sl_median_ci(const double *sorted, int n, double *low, double *high);

/* A median's precision: the wider side of its interval over the median
 * (0.03 is +-3%); 0 for no median. */
double sl_precision(double median, double low, double high);

/* Do v[0 .. n), in the order they were measured, come in stretches rather
 * than at random? The Wald-Wolfowitz runs test on which side of their
 * median each falls (values at the median left out): the z of the number
 * of runs, negative when there are fewer than chance gives (a machine
 * whose speed changed while they ran), 0 when too few to say. The median
 * interval above assumes independent repetitions; this says when they
 * were not. */
double sl_runs_z(const double *v, int n);

/* A ratio of two timings from repetitions taken side by side: a speedup
 * measured in pairs, so that a slow stretch of the host slows both sides
 * of a pair and cancels in its ratio, where two medians taken minutes
 * apart would each carry their own stretch. */
typedef struct sl_paired {
    int n;                        /* pairs; 0: none (not comparable) */
    double median, low, high;     /* of the ratios, and its interval */
    double level;                 /* the interval's coverage */
    double spread;                /* a robust sd of the pairs' log-ratios
                                     (1.4826 x their median absolute
                                     deviation: 0.02 is about 2%) */
    int cpu;                      /* 1: of the busiest thread's CPU time;
                                     0: of wall time */
} sl_paired;

/* The repetition of start[0 .. n) that began nearest to `at`, leaving out
 * those whose skip[] is nonzero (skip may be NULL); -1 when none is left. */
int sl_nearest_start(const double *start, const unsigned char *skip, int n, double at);

/* The ratio slow/fast of repetitions paired by start time: each of
 * fast's repetitions with the one of slow's that began nearest to it
 * (one of slow's may serve several of fast's: a baseline timed once
 * beside a group of rungs). A repetition whose skip[] is nonzero takes
 * no part (skip may be NULL). A speedup over scalar is
 * sl_pair_ratios(scalar, variant). Returns the number of pairs. */
int sl_pair_ratios(const double *slow_s, const double *slow_start, const unsigned char *slow_skip,
                   int nslow, const double *fast_s, const double *fast_start,
                   const unsigned char *fast_skip, int nfast, sl_paired *out);

/* Repetitions enough, and a z low enough (one-sided 2.5%), to call a
 * sample's times shifted with when they ran. */
#define SL_SHIFT_MIN_REPS 12
#define SL_SHIFT_Z (-1.96)

#endif
