/* pi_problem.c - the pi problem: sizes, work, how to call a variant, and the
 * reference check.
 *
 * Tolerance policy (tests/test_check.c checks that it accepts correct
 * answers and rejects the usual bugs):
 *  - truncation: the midpoint rule's error for f = 4/(1+x^2) is about
 *    h^2/24 * (f'(1) - f'(0)) = -1/(12 N^2); we allow 1/(3 N^2), four times
 *    that, so N = 1 (error 0.058) passes too.
 *  - rounding: summing N positive terms in any order is off by at most
 *    about N*eps relative; terms are at most 4 and h*sum ~ pi, so we allow
 *    4*(N+8)*eps (the +8 covers computing x_i, the division and the final
 *    multiply).
 * The rounding allowance grows with N while bugs such as an off-by-one shrink
 * like 1/N, so every variant is also checked at probe_size (an awkward
 * prime near 1e6, where the tolerance is ~1e-9 and an off-by-one is 2e-6).
 */
#include "pi_problem.h"

#include <inttypes.h>
#include <stdio.h>

#include "hybrid_problem.h"

#include <float.h>
#include <math.h>

double pi_tolerance(int64_t steps)
{
    double n = (double)steps;
    return 1.0 / (3.0 * n * n) + 4.0 * (n + 8.0) * DBL_EPSILON;
}

int pi_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    pi_fn *fn = (pi_fn *)v->fn;
    out->where = SL_RAN_HOST;
    out->value = fn(p->size, p->threads, &out->where);
    out->work = (double)p->size;
    return 0;
}

sl_verdict pi_check(const sl_problem *p, const sl_outcome *out)
{
    sl_verdict v = { 0 };
    v.expected = SL_PI;
    v.error = fabs(out->value - SL_PI);
    v.tolerance = pi_tolerance(p->size);
    /* NaN compares false, so a NaN answer is never ok. */
    v.ok = v.error <= v.tolerance;
    return v;
}

/* Sizes around the SIMD widths and thread counts, a prime, the probe size
 * and a large size: where off-by-ones and remainder loops go wrong. */
static const sl_problem pi_test_cases[] = {
    { .size = 1 }, { .size = 2 }, { .size = 3 }, { .size = 5 }, { .size = 7 },
    { .size = 8 }, { .size = 9 }, { .size = 15 }, { .size = 16 }, { .size = 17 },
    { .size = 63 }, { .size = 65 }, { .size = 1009 }, { .size = PI_PROBE_SIZE },
    { .size = 10000019 }, { .size = 0 },
};

const sl_problem_def pi_problem = {
    .name = "pi",
    .lesson = 1,
    .size_name = "steps",
    .work_unit = "steps",
    /* ~0.5 s for the scalar variant on a 2020s core: long enough that thread
     * start-up is noise, short enough for repetitions. */
    .default_size = 400000000,
    .quick_size = 100000000,
    .probe_size = PI_PROBE_SIZE,
    .max_size = PI_MAX_SIZE,
    .error_name = "abs error",
    .test_cases = pi_test_cases,
    .run = pi_run,
    .check = pi_check,
    .ceiling = SL_CEILING_DIVIDE,
    .ceiling_ops = 1,
    .ceiling_why = "1 divide per step",
    /* The expert rung (solutions/pi/expert.c): no divide; per step 4 fused
     * multiply-adds (1 + x^2, e, e + e^2, r + r(e + e^2)) and 2 adds, which
     * go to the add pipes. On aarch64: 1 + x^2, frecpe and three frecps +
     * fmul steps, all on the multiply pipes. */
    .expert_ceiling = SL_CEILING_FMA,
#if defined(__aarch64__)
    .expert_ceiling_ops = 8,
    .expert_ceiling_why = "8 multiply-pipe instructions per step (frecpe, 3 frecps), no divide",
#else
    .expert_ceiling_ops = 4,
    .expert_ceiling_why = "4 FMAs per step, no divide",
#endif
    .exact = SL_PI,
    /* Lesson 5: pi from an array shows the cost of input going in. */
    .breakdown = SL_BREAKDOWN_ARRAY_IN,
};

/* Lesson 6: is this rank's share the reference's (common/hybrid_problem.h)?
 * No MPI here: rank 0 calls it on each share when the answer was wrong. */
int sl_pi_share_ok(const sl_problem *p, const sl_share *me, char *why, size_t len)
{
    int64_t first, count;
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    const double h = 1.0 / (double)p->size;
    double sum = 0.0;
    for (int64_t i = first; i < first + count; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    double expected = h * sum, error = fabs(me->sum - expected);
    /* A block's rounding error is at most the whole sum's. */
    if (error <= pi_tolerance(p->size))
        return 1;
    snprintf(why, len, "its steps %" PRId64 "..%" PRId64 " sum to %.17g, expected %.17g",
             first, first + count - 1, me->sum, expected);
    return 0;
}
