/* pi_problem.h - pi by the midpoint rule: the signature every variant has,
 * and the tolerance policy that decides whether an answer is right.
 *
 * pi = integral over [0,1] of 4/(1+x^2); with h = 1/N and x_i = (i+0.5)h,
 * pi ~ h * sum 4/(1+x_i^2).
 */
#ifndef SPEEDLAB_PI_PROBLEM_H
#define SPEEDLAB_PI_PROBLEM_H

#include <stdint.h>

#include "hybrid_problem.h"
#include "kernel.h"

/* An awkward prime near 1e6: the size where every pi variant is checked
 * with a tight tolerance (see pi_problem.c). */
#define PI_PROBE_SIZE INT64_C(1000003)
/* Beyond 2^50 steps h = 1/N loses the midpoints' spacing in double. */
#define PI_MAX_SIZE (INT64_C(1) << 50)

/* Every pi variant: integrate with `steps` midpoints on `threads` OpenMP
 * threads (variants without threads ignore it); set *where to where the
 * loop ran; return the estimate. */
typedef double pi_fn(int64_t steps, int threads, sl_where *where);

/* The largest error a correct pi variant may have at `steps`:
 * truncation + rounding allowance. See pi_problem.c for the derivation. */
double pi_tolerance(int64_t steps);

/* Call a pi_fn variant / check a pi outcome: the problem's run and check,
 * shared with the exhibits (exhibits/), which integrate the same pi. */
int pi_run(const sl_variant *v, const sl_problem *p, sl_outcome *out);
sl_verdict pi_check(const sl_problem *p, const sl_outcome *out);

/* The problem shared by both trees. */
extern const sl_problem_def pi_problem;

/* Lesson 6: one rank's share against the reference (hybrid_problem.h). */
sl_share_ok_fn sl_pi_share_ok;

#endif
