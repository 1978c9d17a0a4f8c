/* test_verdict.c - the runner's verdict column (bench/report/verdict.h).
 *
 * Pairs: each repetition meets the other's nearest in time, and
 * the ratio's median and interval are the order statistics of the pairs.
 * Quiet rows: judged by their medians. Busy rows: by the pairs' CPU time
 * on one thread, so a load that halves every wall time leaves the verdict
 * where it was; threads by their pairs' wall time, which CPU time would
 * exceed (threads that take turns on too few cores), and more threads
 * than cores on a busy machine get none (their share was taken);
 * a variant that only one of its threads works in is as slow as scalar;
 * planted noise wide enough that nothing can be said gives "no speed
 * verdict", and only that does (the room still classes such a row, by its
 * pairs' median and the top of their interval).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "verdict.h"

static const sl_problem_def def = { .name = "toy", .size_name = "steps" };
static const sl_variant variants[] = {
    { .name = "scalar" }, { .name = "simd" }, { .name = "threads" },
};
static const sl_kernel kernel = { &def, variants, 3 };

/* A timed, valid configuration: `reps` repetitions of `wall` seconds
 * each, whose busiest thread ran `cpu[r]` CPU-seconds, starting at
 * start0 + r seconds. Busy if contaminated. */
static void timed(sl_config *c, const char *tree, int variant, int threads, double wall,
                  const double *cpu, int reps, double start0, int contaminated)
{
    memset(c, 0, sizeof *c);
    c->tree = tree;
    c->kernel = &kernel;
    c->variant = &variants[variant];
    c->problem.threads = threads;
    c->threads_used = threads;
    c->valid = 1;
    c->timed = reps;
    c->median = wall;
    c->contaminated = contaminated;
    c->outcome.where = SL_RAN_HOST;
    for (int r = 0; r < reps; r++) {
        c->seconds[r] = wall;
        c->iterations[r] = 1;
        c->busiest[r] = cpu ? cpu[r] : -1.0;
        c->start[r] = start0 + r;
    }
}

static void check_pairs(void)
{
    /* Slow's repetitions began at 0, 10, 20; fast's at 19, 1, 11: each
     * pairs with the nearest (20, 0, 10), not by index. */
    double slow_s[] = { 2.0, 3.0, 4.0 }, slow_t[] = { 0.0, 10.0, 20.0 };
    double fast_s[] = { 1.0, 1.0, 1.0 }, fast_t[] = { 19.0, 1.0, 11.0 };
    sl_paired p;
    CHECK_EQ_LL(sl_pair_ratios(slow_s, slow_t, NULL, 3, fast_s, fast_t, NULL, 3, &p), 3);
    CHECK(p.median == 3.0 && p.low == 2.0 && p.high == 4.0);
    CHECK(fabs(p.level - 0.75) < 1e-12);   /* 3 pairs: [min, max] covers 75% */
    fast_s[0] = 2.0;                        /* now 4.0/2.0: still the one at 20 */
    sl_pair_ratios(slow_s, slow_t, NULL, 3, fast_s, fast_t, NULL, 3, &p);
    CHECK(p.median == 2.0 && p.high == 3.0);
    /* More fast repetitions than slow ones: a baseline timed once beside
     * a group serves each of them (all four pair with the one at 0). */
    double fast4_s[] = { 1.0, 1.0, 1.0, 1.0 }, fast4_t[] = { 0.0, 0.1, 0.2, 0.3 };
    CHECK_EQ_LL(sl_pair_ratios(slow_s, slow_t, NULL, 3, fast4_s, fast4_t, NULL, 4, &p), 4);
    CHECK(p.median == 2.0 && p.low == 2.0 && p.high == 2.0);
    /* A skipped repetition takes no part: fast's at 0.1 goes, and slow's at
     * 0 is skipped, so the rest pair with the one at 10. */
    unsigned char skip_fast[] = { 0, 1, 0, 0 }, skip_slow[] = { 1, 0, 0 };
    CHECK_EQ_LL(sl_pair_ratios(slow_s, slow_t, skip_slow, 3, fast4_s, fast4_t, skip_fast, 4, &p),
                3);
    CHECK(p.median == 3.0);
    /* Six pairs, the least for 95%. */
    double s6[] = { 1, 1, 1, 1, 1, 1 }, t6[] = { 0, 1, 2, 3, 4, 5 };
    double f6[] = { 0.5, 0.5, 0.5, 0.5, 0.5, 0.4 };
    sl_pair_ratios(s6, t6, NULL, 6, f6, t6, NULL, 6, &p);
    CHECK(p.n == 6 && p.median == 2.0 && p.level >= 0.95 && p.high == 2.5);
    CHECK(!sl_paired_too_wide(&p));
    p.high = 4.1;                           /* [2, 4.1]: more than SL_PAIRED_TOO_WIDE */
    CHECK(sl_paired_too_wide(&p));
    p.n = 1, p.low = p.high = 2.0;          /* one pair has no interval */
    CHECK(sl_paired_too_wide(&p));
}

static void words(const sl_suite *s, size_t i, char *out)
{
    sl_verdict_words(s, &s->configs[i], out, 128);
}

/* Quiet: the medians. */
static void check_quiet(void)
{
    sl_config c[5];
    sl_suite s = { .configs = c, .count = 5 };
    char w[128];
    timed(&c[0], "solutions", 0, 0, 1.0, NULL, 3, 0, 0);
    timed(&c[1], "solutions", 1, 0, 0.25, NULL, 3, 0, 0);
    timed(&c[2], "exercises", 1, 0, 0.95, NULL, 3, 0, 0);
    timed(&c[3], "solutions", 2, 2, 0.5, NULL, 3, 0, 0);
    timed(&c[4], "exercises", 2, 2, 0.5, NULL, 3, 0, 0);
    for (int i = 0; i < 5; i++)
        c[i].speedup = 1.0 / c[i].median;
    words(&s, 0, w);
    CHECK_CONTAINS(w, "ok");
    words(&s, 1, w);
    CHECK(strcmp(w, "ok") == 0);
    words(&s, 2, w);
    CHECK(strcmp(w, "not faster yet") == 0);
    words(&s, 4, w);
    CHECK(strcmp(w, "ok") == 0);
    c[2].median = 0.5, c[2].speedup = 2.0;  /* 2x where the solution is 4x */
    words(&s, 2, w);
    CHECK(strcmp(w, "right; solution is 4.0x") == 0);
    c[1].outcome.where = SL_RAN_HOST_FALLBACK;
    words(&s, 1, w);
    CHECK(strcmp(w, "right; host, not a GPU") == 0);
}

/* Busy: the wall times are all over the place (the load came and went),
 * the busiest threads' CPU times are not. */
static void check_busy(void)
{
    /* Scalar 1.0 s of CPU per call, the solution's simd 0.25 (4x), the
     * participant's simd 0.5 (2x); threads: the solution's busiest
     * thread 0.5 (2x), the participant's 1.0 (one thread did it all). */
    double scalar[6] = { 1.00, 1.01, 0.99, 1.00, 1.02, 0.98 };
    double sol[6], mine[6], sol_thr[6], mine_thr[6], noisy[6];
    double planted[6] = { 0.4, 1.0, 0.5, 0.9, 0.6, 0.8 };
    for (int r = 0; r < 6; r++) {
        sol[r] = scalar[r] / 4.0;
        mine[r] = scalar[r] / 2.0;
        sol_thr[r] = scalar[r] / 2.0;
        mine_thr[r] = scalar[r];
        noisy[r] = scalar[r] * planted[r];
    }
    sl_config c[6];
    sl_suite s = { .configs = c, .count = 6 };
    char w[128];
    /* Wall times that say the opposite of the truth: the load was heavy
     * while the solution ran. */
    timed(&c[0], "solutions", 0, 0, 2.0, scalar, 6, 0.0, 1);
    timed(&c[1], "solutions", 1, 0, 3.0, sol, 6, 0.1, 1);
    timed(&c[2], "exercises", 1, 0, 0.4, mine, 6, 0.2, 1);
    /* Threads: their CPU times would claim 2x, but beside the load the
     * two threads took turns and the wall clock gave the solution 1.6x
     * (1.25 s against scalar's 2.0): threads are judged by the wall. */
    timed(&c[3], "solutions", 2, 2, 1.25, sol_thr, 6, 0.3, 1);
    timed(&c[4], "exercises", 2, 2, 2.0, mine_thr, 6, 0.4, 1);
    timed(&c[5], "exhibits", 1, 0, 1.0, noisy, 6, 0.5, 1);
    for (int i = 0; i < 6; i++)
        c[i].speedup = c[0].median / c[i].median;
    words(&s, 0, w);
    CHECK(strcmp(w, "ok; busy, the baseline") == 0);
    words(&s, 1, w);
    CHECK(strcmp(w, "ok; busy: 4.0x [4.0, 4.0]") == 0);
    words(&s, 2, w);
    CHECK(strcmp(w, "right; busy: 2.0x [2.0, 2.0], solution 4.0x") == 0);
    words(&s, 3, w);
    CHECK(strcmp(w, "ok; busy: 1.6x [1.6, 1.6]") == 0);
    words(&s, 4, w);
    CHECK(strcmp(w, "not faster yet; busy: 1.0x [1.0, 1.0], solution 1.6x") == 0);
    /* Three threads on two cores: whatever their CPU time says, no more
     * than the wall clock gave (here 2.0 s against 1.1: 1.8x). */
    sl_config three = c[3];
    three.problem.threads = three.threads_used = 3;
    for (int r = 0; r < 6; r++)
        three.busiest[r] = scalar[r] / 3.0, three.seconds[r] = 1.1;
    sl_paired p3;
    CHECK(sl_speedup_paired(&s, &three, &p3) == 6 && !p3.cpu);
    CHECK(fabs(p3.median - 2.0 / 1.1) < 1e-9);
    CHECK(sl_verdict_paired(&s, &c[2]));
    /* Two threads on one core (taskset, a quota) beside a loop: they took
     * two thirds of it, scalar half, and the wall says 1.3x of one core,
     * a share taken from another program and no speedup: no verdict. */
    c[3].oversubscribed = 1;
    for (int r = 0; r < 6; r++)
        c[3].seconds[r] = 2.0 / 1.33;
    words(&s, 3, w);
    CHECK(strcmp(w, "right; busy: threads need free cores, no speed verdict") == 0);
    CHECK(!sl_verdict_paired(&s, &c[3]));
    CHECK(sl_speedup_unjudged(&s, &c[3]) && sl_speedup_judged(&s, &c[3], NULL) == 0.0);
    /* ... and so while only the baseline was held back (a quota). */
    c[3].contaminated = 0;
    words(&s, 3, w);
    CHECK(strcmp(w, "right; busy: threads need free cores, no speed verdict") == 0);
    c[3].contaminated = 1, c[3].oversubscribed = 0;
    for (int r = 0; r < 6; r++)
        c[3].seconds[r] = 1.25;
    /* Planted noise: 1.0x to 2.5x, too wide to say anything. */
    words(&s, 5, w);
    CHECK(strcmp(w, "right; machine busy, no speed verdict") == 0);
    CHECK(!sl_verdict_paired(&s, &c[5]));
    /* One speed per row: where the verdict gives none, the history, make
     * progress and the room keep none either (not the pairs' 1.0x to
     * 2.5x, nor the walls the load stretched, 2x). */
    double at_most, judged = sl_speedup_judged(&s, &c[5], &at_most);
    CHECK(sl_speedup_unjudged(&s, &c[5]) && judged == 0.0 && at_most == 0.0);
    CHECK(fabs(c[5].speedup - 2.0) < 1e-12);
    CHECK(!sl_speedup_unjudged(&s, &c[2]) && sl_speedup_judged(&s, &c[2], NULL) > 0.0);
    /* The participant's simd as fast as the solution's: ok. */
    for (int r = 0; r < 6; r++)
        c[2].busiest[r] = sol[r];
    words(&s, 2, w);
    CHECK(strcmp(w, "ok; busy: 4.0x [4.0, 4.0], solution 4.0x") == 0);
    /* Where no thread's CPU time was read: the wall times' pairs, which
     * the load made noisy here, so no verdict rather than a wrong one. */
    for (int r = 0; r < 6; r++)
        c[2].busiest[r] = -1.0, c[2].seconds[r] = 0.4 * planted[r];
    words(&s, 2, w);
    CHECK(strcmp(w, "right; machine busy, no speed verdict") == 0);
}

int main(void)
{
    check_pairs();
    check_quiet();
    check_busy();
    return CHECK_DONE();
}
