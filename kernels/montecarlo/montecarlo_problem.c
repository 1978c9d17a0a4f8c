/* montecarlo_problem.c - the Monte Carlo pi problem: sizes, how to call a
 * variant, the reference count and the check.
 *
 * The check has two parts:
 *  - identity: the count of points inside must equal the reference's
 *    exactly (tolerance 0), because point i depends only on (seed, i). A
 *    lost, repeated or shifted point changes the count, however good the
 *    estimate still looks.
 *  - statistics: |estimate - pi| <= 6 sigma with sigma the standard error
 *    (montecarlo_sigma). A correct run fails this with probability 2e-9;
 *    a broken generator fails it at once.
 * The verdict reports the second part's numbers when the first holds.
 */
#include "montecarlo_problem.h"

#include <inttypes.h>
#include <stdio.h>

#include "hybrid_problem.h"

#include <math.h>

/* How many standard errors a correct estimate may be off. */
#define MC_SIGMAS 6.0

/* Plainly, as a reader would write it from the definition. Integer sums do
 * not depend on their order, so threads and lanes do not change it. */
int64_t montecarlo_reference_range(int64_t first, int64_t count, uint64_t seed)
{
    int64_t inside = 0;
    /* GCC 12.2 for SVE (-march=armv8.2-a+sve, the aarch64 suite under qemu)
     * miscompiles this loop as `parallel for simd` when it does not
     * vectorise it: the lane array of the reduction is read before the
     * thread's count is stored in it, and every call returned 16. The
     * reference is the ground truth, so there it goes without simd. */
#if defined(__ARM_FEATURE_SVE) && defined(__GNUC__) && !defined(__clang__)
#pragma omp parallel for reduction(+:inside)
#else
#pragma omp parallel for simd reduction(+:inside)
#endif
    for (int64_t i = first; i < first + count; i++) {
        double x = sl_rng_unit(sl_rng_u64(seed, 2 * (uint64_t)i));
        double y = sl_rng_unit(sl_rng_u64(seed, 2 * (uint64_t)i + 1));
        inside += x * x + y * y < 1.0;
    }
    return inside;
}

/* A few cached answers: the bench checks every variant at the probe size
 * and at the timed size, alternately. */
enum { MC_CACHE = 4 };

int64_t montecarlo_reference(int64_t samples, uint64_t seed)
{
    static struct { int64_t samples; uint64_t seed; int64_t inside; } cache[MC_CACHE];
    static int next;
    for (int k = 0; k < MC_CACHE; k++)
        if (cache[k].samples == samples && cache[k].seed == seed)
            return cache[k].inside;
    int64_t inside = montecarlo_reference_range(0, samples, seed);
    cache[next].samples = samples;
    cache[next].seed = seed;
    cache[next].inside = inside;
    next = (next + 1) % MC_CACHE;
    return inside;
}

double montecarlo_estimate(int64_t inside, int64_t samples)
{
    return 4.0 * (double)inside / (double)samples;
}

double montecarlo_sigma(int64_t samples)
{
    const double p = SL_PI / 4.0;
    return 4.0 * sqrt(p * (1.0 - p) / (double)samples);
}

/* The reference's estimate at any size and seed: the convergence figure. */
static double montecarlo_estimate_at(int64_t samples, uint64_t seed)
{
    return montecarlo_estimate(montecarlo_reference(samples, seed), samples);
}

double montecarlo_std_error(const sl_problem *p)
{
    return montecarlo_sigma(p->size);
}

int montecarlo_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    montecarlo_fn *fn = (montecarlo_fn *)v->fn;
    out->where = SL_RAN_HOST;
    out->hits = fn(p->size, p->seed, p->threads, &out->where);
    out->value = montecarlo_estimate(out->hits, p->size);
    out->work = (double)p->size;
    return 0;
}

sl_verdict montecarlo_check_statistics(const sl_problem *p, const sl_outcome *out)
{
    sl_verdict v = { 0 };
    v.expected = SL_PI;
    v.error = fabs(out->value - SL_PI);
    v.tolerance = MC_SIGMAS * montecarlo_sigma(p->size);
    v.ok = v.error <= v.tolerance;
    return v;
}

sl_verdict montecarlo_check(const sl_problem *p, const sl_outcome *out)
{
    int64_t ref = montecarlo_reference(p->size, p->seed);
    if (out->hits == ref)
        return montecarlo_check_statistics(p, out);
    /* Wrong points: report against the reference's own estimate. */
    sl_verdict v = { 0 };
    v.expected = montecarlo_estimate(ref, p->size);
    v.error = fabs(out->value - v.expected);
    v.tolerance = 0.0;
    v.ok = 0;
    return v;
}

/* Sizes around the SIMD widths and thread counts, primes, the probe size;
 * seeds where the counter wraps and where it starts at zero. */
static const sl_problem mc_test_cases[] = {
    { .size = 1 }, { .size = 2, .seed = 1 }, { .size = 3 }, { .size = 5, .seed = 7 },
    { .size = 7 }, { .size = 8 }, { .size = 9, .seed = UINT64_MAX },
    { .size = 15 }, { .size = 16 }, { .size = 17, .seed = 12345 }, { .size = 31 },
    { .size = 33 }, { .size = 63 }, { .size = 65, .seed = UINT64_MAX - SL_RNG_GAMMA },
    { .size = 1009 }, { .size = 100003, .seed = 2 }, { .size = MC_PROBE_SIZE },
    { .size = 0 },
};

const sl_problem_def montecarlo_problem = {
    .name = "montecarlo",
    .lesson = 4,
    .size_name = "samples",
    .work_unit = "samples",
    /* The size the lesson's targets are stated at: ~2.5 s scalar here. */
    .default_size = 1000000000,
    .quick_size = 100000000,
    .probe_size = MC_PROBE_SIZE,
    .max_size = MC_MAX_SIZE,
    .error_name = "abs error",
    .test_cases = mc_test_cases,
    .run = montecarlo_run,
    .check = montecarlo_check,
    .std_error = montecarlo_std_error,
    .check_statistics = montecarlo_check_statistics,
    .exact = SL_PI,
    .estimate_at = montecarlo_estimate_at,
    /* Each of a sample's 2 draws mixes its counter with 2 multiplies
     * (common/rng.h); the counter's own multiply can become an add. */
    .ceiling = SL_CEILING_MUL64,
    .ceiling_ops = 4,
    .ceiling_why = "4 64-bit multiplies per sample",
    /* The multiplies are 4 of a sample's vector instructions at least:
     * per draw, sl_rng_mix's 3 shifts, 2 xors and 2 multiplies, its last
     * xor and montecarlo_inside's clearing of the low bits as one
     * three-input logic op (AVX-512's vpternlogq; 2 instructions without
     * one, as on ARM), then a conversion to a double; per sample the 2
     * squares, their sum, the comparison, the count and the 2 counters'
     * adds. Where the vector pipes issue the cheapest instruction at twice
     * a multiply's rate (Zen 4's double-pumped 512-bit ops), these bind
     * first. */
    .issue_ops = 25,
    .issue_why = "25 vector instructions per sample, 4 of them multiplies",
};

/* Lesson 6: is this rank's share the reference's (common/hybrid_problem.h)?
 * No MPI here: rank 0 calls it on each share when the answer was wrong. */
int sl_montecarlo_share_ok(const sl_problem *p, const sl_share *me, char *why, size_t len)
{
    int64_t first, count;
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    int64_t inside = montecarlo_reference_range(first, count, p->seed);
    if (me->hits == inside)
        return 1;
    snprintf(why, len, "%" PRId64 " of its points %" PRId64 "..%" PRId64
             " inside, expected %" PRId64, me->hits, first, first + count - 1, inside);
    return 0;
}
