/* noise.h - how noisy this host is, said before a run measures anything
 * (and by make doctor). A shared host (a cloud VM, a login node, a laptop
 * with a browser open) slows down in bursts that no process counter shows;
 * a fixed piece of work timed again and again shows them: how much slower
 * its slowest calls ran than its median, and how far apart two calls
 * half a second apart land (what a speedup measured in pairs still
 * carries). From that spread, the precision that a number of pairs buys.
 */
#ifndef SPEEDLAB_NOISE_H
#define SPEEDLAB_NOISE_H

#include <stddef.h>

typedef struct sl_noise {
    int calls;               /* calls of each kind; 0: not measured */
    int cores;               /* the "all cores" calls' threads */
    double seconds;          /* the probe's wall time */
    double slowest;          /* one core: slowest call / median - 1
                                (0.42: up to 42% slower); the larger of
                                compute and a pass over memory */
    double slowest_all;      /* the same, compute on every granted core
                                at once, each call as long as its slowest
                                thread (as a parallel loop waits) */
    double pair;             /* one core: the spread of the log-ratio of
                                two calls SL_NOISE_PAIR_S apart (a robust
                                sd: 0.01 is about 1%) */
    double pair_all;         /* the same on every core at once */
} sl_noise;

/* How far apart the calls in a pair are: about the distance between a
 * rung's repetition and its baseline's (timing.c's cycles). */
#define SL_NOISE_PAIR_S 0.5

/* Time the probe for about `seconds`: in turn, a compute loop on one
 * core, the same on every granted core at once (sl_cores_available), and
 * a pass over memory beyond the caches, each call about 20 ms. */
void sl_noise_measure(sl_noise *n, double seconds);

/* The precision (0.01: +-1%) of a speedup from `pairs` pairs at this
 * noise, on one core (all 0) or on every core (all 1): the expected
 * half-width of the median's interval (sample.h) when each pair's
 * log-ratio spreads as the probe's did. */
double sl_noise_precision(const sl_noise *n, int pairs, int all);

/* The same for pairs whose log-ratios spread by sd (sl_paired.spread). */
double sl_noise_precision_sd(double sd, int pairs);

/* "a fixed piece of work, timed 50 times over 3 s, ran up to 6% slower
 * than its median on one core and 80% on 2 cores at once; two calls
 * 0.5 s apart differ by about 2% on one core and 25% on 2" */
void sl_noise_text(const sl_noise *n, char *out, size_t len);

#endif
