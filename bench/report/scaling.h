/* scaling.h - the strong- and weak-scaling studies of a run.
 *
 * Strong: each threaded variant at a fixed size, per thread count the
 * speedup over its own 1-thread time, the parallel efficiency and the
 * Karp-Flatt serial fraction; plots/scaling.gp adds the Amdahl fit.
 * Weak: the work per thread held constant (suite.h's weak points), time
 * per thread count against the flat ideal, with the work actually done.
 * Everything is computed from the suite's medians and intervals.
 */
#ifndef SPEEDLAB_SCALING_H
#define SPEEDLAB_SCALING_H

#include <stdio.h>

#include "suite.h"

/* The Amdahl fit needs this many thread counts with a core each. */
#define SL_FIT_MIN_POINTS 3

/* Karp-Flatt: the serial fraction e = (1/S - 1/p) / (1 - 1/p) that
 * explains speedup S on p threads (p > 1); a fraction that grows with p
 * means overhead grows with threads, not a fixed serial part. */
double sl_karp_flatt(double speedup, int threads);

/* scaling-<kernel>.dat/.gp and weak-<kernel>.dat for one kernel. Returns 0,
 * or -1 with errno set. */
int sl_write_scaling_data(const char *dir, const sl_suite *s, const sl_problem_def *k);

/* The summary's strong- and weak-scaling sections (Markdown). */
void sl_print_scaling(FILE *f, const sl_suite *s);

#endif
