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
    double seconds;          /* the probe's wall time */
    double slowest;          /* compute: slowest call / median - 1
                                (0.42: up to 42% slower) */
    double mem_slowest;      /* the same for a pass over memory */
    double pair;             /* the spread of the log-ratio of two calls
                                SL_NOISE_PAIR_S apart (a robust sd:
                                0.01 is about 1%), the larger kind's */
} sl_noise;

/* How far apart the calls in a pair are: about the distance between a
 * rung's repetition and its baseline's (timing.c's cycles). */
#define SL_NOISE_PAIR_S 0.5

/* Time the probe for about `seconds` (a compute loop and a pass over
 * memory beyond the caches, in turn, each call about 20 ms). */
void sl_noise_measure(sl_noise *n, double seconds);

/* The precision (0.01: +-1%) of a speedup from `pairs` pairs at this
 * noise: a median's 95% interval, about 1.96 x 1.25 sd / sqrt(pairs). */
double sl_noise_precision(const sl_noise *n, int pairs);

/* "a fixed piece of work, timed 60 times over 3 s, ran up to 42% slower
 * than its median (a pass over memory: 12%); two calls 0.5 s apart
 * differ by about 1.1%" */
void sl_noise_text(const sl_noise *n, char *out, size_t len);

#endif
