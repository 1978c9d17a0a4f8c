/* test_timing.c - only the kernel is timed.
 *
 * A fractal's answer is the sum of its image; summing 2048^2 counts used to
 * happen inside every timed call. Here a kernel whose tally (the summing
 * step) sleeps is timed through the bench's own path (sl_suite_time): the
 * tally must run only at validation, and the measured time must not hold
 * its sleep. And Mandelbrot's run() must leave the answer to its tally.
 * And the GPU breakdown's "best CPU" is the fastest rung even when it was
 * disturbed (an H100 node once got a quiet scalar instead, and a GPU win
 * of 1.6x where the CPU was 5x faster).
 * And precision within a budget: a kernel whose calls take 1 ms and 5 ms
 * in turn never narrows its interval to +-5%: it gets more repetitions
 * until they are spent ("too noisy"), and none past a deadline ("budget
 * spent"). A busy machine may instead leave it disturbed; never at target.
 * A kernel whose calls are slower in some stretches of time than in others
 * ends "shifted over time" instead.
 * And settled clocks: a device's repetitions each follow a warm-up call.
 * And a later round's repetitions last about min_time after a load has
 * gone: their call count comes from the fastest repetition so far, not
 * from the count found while the machine was slower.
 * And a kernel's arrays are made once a pass, where the memory allows.
 * And speedups in pairs: a host that halves its speed for the second half
 * of the timing (a burst no process counter sees) leaves a rung's paired
 * speedup at its quiet value, where the same repetitions taken in a row
 * (scalar's all before the burst, the rung's in it) would halve it.
 * And the host's roofs re-probed through a pass (sl_timing.watch): between
 * its cycles, evenly, before a repetition's clock starts, as many times
 * as the share of the pass allows; never in a row's order.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "breakdown.h"
#include "check.h"
#include "fractal_problem.h"
#include "gbench.h"
#include "suite.h"

extern const sl_kernel *const solutions_kernels[];

/* The tally's cost: far above the kernel's, so its presence in a timed
 * call cannot hide in noise. */
#define TALLY_SLEEP_S 0.05

static int tallies;

static void sleep_s(double s)
{
    struct timespec ts = { 0, (long)(s * 1e9) };
    nanosleep(&ts, NULL);
}

typedef double nothing_fn(void);
static double nothing(void)
{
    return 1.0;
}

static int fake_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    (void)p;
    out->where = SL_RAN_HOST;
    out->hits = (int64_t)((nothing_fn *)v->fn)();
    return 0;
}

static void fake_tally(const sl_problem *p, sl_outcome *out)
{
    tallies++;
    sleep_s(TALLY_SLEEP_S);
    out->value = (double)out->hits;
    out->work = (double)p->size;
}

static sl_verdict fake_check(const sl_problem *p, const sl_outcome *out)
{
    (void)p;
    return (sl_verdict){ .ok = out->value == 1.0, .expected = 1.0, .tolerance = 0.0 };
}

/* A fake kernel's problem: its name and run(); the rest is shared. */
#define FAKE_PROBLEM(NAME, RUN)                                                    \
    { .name = NAME, .size_name = "units", .work_unit = "units", .default_size = 10, \
      .quick_size = 10, .probe_size = 3, .max_size = 100, .error_name = "error",    \
      .run = RUN, .tally = fake_tally, .check = fake_check }

static const sl_problem_def fake_problem = FAKE_PROBLEM("fake", fake_run);
static const sl_variant fake_variants[] = { { "scalar", (sl_any_fn *)nothing, 0, NULL, NULL, NULL } };
static const sl_kernel fake_kernel = { &fake_problem, fake_variants, 1 };
static const sl_kernel *const fake_kernels[] = { &fake_kernel, NULL };

/* s: the kernels' one configuration each, on one thread, validated. */
static void validated_suite(sl_suite *s, const sl_kernel *const *kernels)
{
    char why[256];
    int one = 1;
    sl_plan plan = { .tree = "test", .kernels = kernels, .threads = &one, .nthreads = 1 };
    CHECK(sl_suite_add(s, &plan, why, sizeof why) == 0);
    CHECK(sl_suite_validate(s, NULL, 0) == 0);
}

static void tally_outside_the_clock(void)
{
    sl_suite s = { 0 };
    validated_suite(&s, fake_kernels);
    /* Validation tallies twice: at the probe size and at the timed size. */
    CHECK_EQ_LL(tallies, 2);
    sl_timing t = { .reps = 3, .min_time = 0.01, .retry_busy = 0 };
    CHECK(sl_suite_time(&s, &t) == 0);
    CHECK_EQ_LL(s.configs[0].timed, 3);
    CHECK_EQ_LL(tallies, 2);
    CHECK(s.configs[0].median < TALLY_SLEEP_S / 10);
    /* The rate uses the work tallied at validation. */
    CHECK(s.configs[0].rate > 0.0);
    sl_suite_free(&s);
}

/* Busy for 1 ms, then 5 ms, in turn, `stretch` calls at a time (a
 * repetition is one call): 1, a kernel noisy call by call; 4, a machine
 * whose speed changes while the bench runs. Busy: a sleeping call is
 * "stalled". */
static long stretch = 1, calls;

static int bimodal_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    (void)v, (void)p;
    double t0 = sl_now(), wait = calls++ / stretch % 2 ? 5e-3 : 1e-3;
    while (sl_now() - t0 < wait)
        ;
    out->where = SL_RAN_HOST;
    out->hits = 1;
    return 0;
}

static const sl_problem_def bimodal_problem = FAKE_PROBLEM("bimodal", bimodal_run);
static const sl_kernel bimodal_kernel = { &bimodal_problem, fake_variants, 1 };
static const sl_kernel *const bimodal_kernels[] = { &bimodal_kernel, NULL };

static void precision_within_a_budget(void)
{
    for (int past_deadline = 0; past_deadline < 2; past_deadline++) {
        sl_suite s = { 0 };
        validated_suite(&s, bimodal_kernels);
        sl_timing t = { .reps = 6, .min_time = 1e-4, .retry_busy = 1, .target = 0.05,
                        .deadline = past_deadline ? sl_now() - 1.0 : 0.0 };
        CHECK(sl_suite_time(&s, &t) == 0);
        const sl_config *c = &s.configs[0];
        CHECK(c->short_of != SL_AT_TARGET && c->precision > 0.05);
        if (past_deadline) {
            CHECK_EQ_LL(c->timed, 6);
            CHECK(c->contaminated || c->short_of == SL_SHORT_BUDGET);
        } else {
            CHECK(c->contaminated || (c->short_of == SL_SHORT_NOISY && c->timed >= 48));
        }
        CHECK(c->kept <= c->timed && c->median > 0.0);
        sl_suite_free(&s);
    }
}

/* Repetitions in stretches of four, each too wide for the target: short
 * of it because their times shifted over time, which the summary says,
 * not because they were noisy (in turn call by call, above, the same
 * kernel stays "too noisy"). */
static void shifted_over_time(void)
{
    sl_suite s = { 0 };
    validated_suite(&s, bimodal_kernels);
    stretch = 4;
    calls = 0;
    sl_timing t = { .reps = 6, .min_time = 1e-4, .retry_busy = 1, .target = 0.05 };
    CHECK(sl_suite_time(&s, &t) == 0);
    const sl_config *c = &s.configs[0];
    /* A busy machine may leave it disturbed before it has the repetitions
     * to judge stretches (seen once, beside e2e.aarch64's qemu). */
    CHECK(c->contaminated || c->timed >= SL_SHIFT_MIN_REPS);
    CHECK(c->contaminated || c->short_of == SL_SHORT_SHIFTED);
    CHECK(strcmp(sl_short_of_name(SL_SHORT_SHIFTED), "shifted over time") == 0);
    sl_suite_free(&s);
}

/* A "device" kernel whose calls take 20 ms, longer than a repetition
 * (min_time 10 ms), so that each repetition is one timed call; and a host
 * kernel beside it, whose turns come between its repetitions. */
#define DEVICE_CALL_S 0.02
static int device_calls;

static int device_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    fake_run(v, p, out);
    out->where = SL_RAN_DEVICE;
    device_calls++;
    sleep_s(DEVICE_CALL_S);
    return 0;
}

static const sl_problem_def device_problem = FAKE_PROBLEM("device", device_run);
static const sl_kernel device_kernel = { &device_problem, fake_variants, 1 };
static const sl_kernel *const device_kernels[] = { &fake_kernel, &device_kernel, NULL };

/* Settled clocks: each repetition of a configuration that ran on a device
 * follows an untimed warm-up call (a GPU's clock drops while the CPU
 * configurations run between its turns), so it makes twice the calls of
 * its repetitions; the host kernel beside it makes no more than its own. */
static void device_repetitions_warm_up(void)
{
    sl_suite s = { 0 };
    validated_suite(&s, device_kernels);
    CHECK_EQ_LL(s.count, 2);
    CHECK(s.configs[1].outcome.where == SL_RAN_DEVICE);
    device_calls = 0;
    sl_timing t = { .reps = 4, .min_time = DEVICE_CALL_S / 2, .retry_busy = 0 };
    CHECK(sl_suite_time(&s, &t) == 0);
    const sl_config *c = &s.configs[1];
    CHECK_EQ_LL(c->timed, 4);
    CHECK_EQ_LL(c->iterations[0], 1);
    CHECK_EQ_LL(device_calls, 2 * c->timed);
    /* The warm-up is outside the clock: a repetition is one call. */
    CHECK(c->median >= DEVICE_CALL_S && c->median < 1.9 * DEVICE_CALL_S);
    sl_suite_free(&s);
}

/* Calls that sleep 40 ms while `phased` has fewer than 3 repetitions (its
 * first pass: a loaded machine) and 12 ms after (the load gone). A sleeping call
 * is stalled, so every repetition long enough to judge (quiet.h) is left
 * out and measured again in each retry round, and the fastest comes from
 * all of them. */
#define PHASED_SLOW_S 0.04
#define PHASED_FAST_S 0.012
static const sl_config *phased;

static int phased_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    fake_run(v, p, out);
    sleep_s(phased && phased->timed < 3 ? PHASED_SLOW_S : PHASED_FAST_S);
    return 0;
}

static const sl_problem_def phased_problem = FAKE_PROBLEM("phased", phased_run);
static const sl_kernel phased_kernel = { &phased_problem, fake_variants, 1 };
static const sl_kernel *const phased_kernels[] = { &phased_kernel, NULL };

/* ceil(min_time / the fastest of c's first n repetitions). */
static int64_t calls_for(const sl_config *c, int n, double min_time)
{
    double fastest = c->seconds[0];
    for (int r = 1; r < n; r++)
        fastest = c->seconds[r] < fastest ? c->seconds[r] : fastest;
    return (int64_t)ceil(min_time / fastest);
}

/* Two retry rounds after a slow first pass. Round 1 sizes its calls from
 * the slow repetitions (5 calls: 60 ms of the 200 asked for); round 2
 * from round 1's fast ones: over three times the calls, where reusing the
 * last count would keep it at 60 ms. With 2 ms calls round 1's would be
 * too short for quiet.h to judge at all, and no round 2. Counts, not
 * durations, are checked: load lengthens the sleeps a little, and every
 * repetition stays stalled. */
static void later_rounds_size_from_the_fastest(void)
{
    sl_suite s = { 0 };
    validated_suite(&s, phased_kernels);
    const sl_config *c = &s.configs[0];
    phased = c;
    sl_timing t = { .reps = 3, .min_time = 0.2, .retry_busy = 2 };
    CHECK(sl_suite_time(&s, &t) == 0);
    phased = NULL;
    CHECK_EQ_LL(c->timed, 9);
    CHECK(c->stalled == 9 && c->contaminated);
    for (int r = 3; r < 9 && c->timed == 9; r++)
        CHECK_EQ_LL(c->iterations[r], calls_for(c, r < 6 ? 3 : 6, t.min_time));
    CHECK(c->iterations[6] >= 2 * c->iterations[3]);
    sl_suite_free(&s);
}

/* A scalar whose calls spin 2 ms and a rung whose calls spin 1 ms: a
 * speedup of 2. From call `burst_from` on, every call takes twice as long
 * (the host slowed down). */
static long burst_calls, burst_from = -1;

static int burst_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    double t0 = sl_now(), wait = strcmp(v->name, "scalar") == 0 ? 2e-3 : 1e-3;
    if (burst_from >= 0 && burst_calls++ >= burst_from)
        wait *= 2.0;
    while (sl_now() - t0 < wait)
        ;
    return fake_run(v, p, out);
}

static const sl_problem_def burst_problem = FAKE_PROBLEM("burst", burst_run);
static const sl_variant burst_variants[] = {
    { "scalar", (sl_any_fn *)nothing, 0, NULL, NULL, NULL },
    { "simd", (sl_any_fn *)nothing, 0, NULL, NULL, NULL },
};
static const sl_kernel burst_kernel = { &burst_problem, burst_variants, 2 };
static const sl_kernel *const burst_kernels[] = { &burst_kernel, NULL };

/* 12 repetitions of 20 ms each: 10 of scalar's calls, 20 of the rung's;
 * the burst begins half way through their 360 calls. */
static void speedups_in_pairs(void)
{
    for (int in_a_row = 0; in_a_row < 2; in_a_row++) {
        sl_suite s = { 0 };
        validated_suite(&s, burst_kernels);
        sl_timing t = { .reps = 12, .min_time = 0.02, .retry_busy = 0, .in_a_row = in_a_row };
        /* Calibration and the two warm-up calls (about 7 calls) first. */
        burst_calls = 0;
        burst_from = 7 + 180;
        CHECK(sl_suite_time(&s, &t) == 0);
        burst_from = -1;
        const sl_config *base = &s.configs[0], *rung = &s.configs[1];
        CHECK(strcmp(rung->variant->name, "simd") == 0 && rung->timed == 12);
        double medians = base->median / rung->median;
        if (!in_a_row) {
            /* Paired: every pair is both quiet or both slow. */
            /* (Wide bounds: a spin preempted near its end overshoots,
             * and the suite runs this beside other tests; in a row reads
             * about 1.0.) */
            CHECK(rung->up.n >= 6);   /* disturbed ones take no part */
            CHECK(rung->speedup > 1.6 && rung->speedup < 2.5);
            CHECK(rung->up.low <= 2.2 && rung->up.high >= 1.8);
        } else {
            /* In a row the medians' ratio is about 1, not 2: what pairs
             * exist for (where other processes left the two blocks
             * alone: their own load would move the medians too). */
            CHECK(medians < 1.5 || base->disturbed || rung->disturbed);
        }
        sl_suite_free(&s);
    }
}

/* Arrays made by prepare: counted, and how many live at once. */
static int prepared, live, most_live;

static int counted_prepare(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    (void)v, (void)p;
    out->data = malloc(1);
    prepared++;
    most_live = ++live > most_live ? live : most_live;
    return out->data ? 0 : -1;
}

static void counted_release(sl_outcome *out)
{
    free(out->data);
    live--;
}

static double small_data(const sl_problem *p)
{
    (void)p;
    return 1024.0;
}

/* More than any machine has: such arrays cannot be kept beside others. */
static double huge_data(const sl_problem *p)
{
    (void)p;
    return 1e18;
}

#define DATA_PROBLEM(NAME, HELD)                                              \
    { .name = NAME, .size_name = "units", .work_unit = "units", .default_size = 10, \
      .quick_size = 10, .probe_size = 3, .max_size = 100, .error_name = "error",    \
      .run = fake_run, .tally = fake_tally, .check = fake_check,                    \
      .prepare = counted_prepare, .release = counted_release, .bytes_held = HELD }

static const sl_problem_def small_problem = DATA_PROBLEM("small", small_data);
static const sl_problem_def huge_problem = DATA_PROBLEM("huge", huge_data);
static const sl_kernel small_kernel = { &small_problem, fake_variants, 1 };
static const sl_kernel huge_kernel = { &huge_problem, fake_variants, 1 };
static const sl_kernel *const small_kernels[] = { &small_kernel, &fake_kernel, NULL };
static const sl_kernel *const huge_kernels[] = { &huge_kernel, &fake_kernel, NULL };

/* A configuration's arrays are made once a pass, not for every one of its
 * calls (rebuilding them cost a triad bench more than its calls), and
 * all are released when the pass ends; arrays too big to keep beside the
 * others are made for every call, one configuration's at a time. */
static void arrays_once_a_pass(void)
{
    sl_suite s = { 0 };
    validated_suite(&s, small_kernels);
    prepared = live = most_live = 0;
    sl_timing t = { .reps = 4, .min_time = 0.005, .retry_busy = 0 };
    CHECK(sl_suite_time(&s, &t) == 0);
    CHECK_EQ_LL(s.configs[0].timed, 4);
    CHECK_EQ_LL(prepared, 1);
    CHECK_EQ_LL(live, 0);
    sl_suite_free(&s);

    memset(&s, 0, sizeof s);
    validated_suite(&s, huge_kernels);
    prepared = live = most_live = 0;
    CHECK(sl_suite_time(&s, &t) == 0);
    CHECK_EQ_LL(s.configs[0].timed, 4);
    CHECK(prepared >= 4);
    CHECK_EQ_LL(most_live, 1);
    CHECK_EQ_LL(live, 0);
    sl_suite_free(&s);
}

static void mandelbrot_run_does_not_sum(void)
{
    sl_problem p = { .size = 16, .height = 8 };
    int32_t *counts = malloc(16 * 8 * sizeof *counts);
    CHECK(counts != NULL);
    if (counts == NULL)
        return;
    const sl_kernel *k = sl_find_kernel(solutions_kernels, "mandelbrot");
    CHECK(k != NULL && k->problem->tally != NULL);
    sl_outcome out = { .counts = counts, .value = -1.0, .work = -1.0 };
    CHECK(k->problem->run(&k->variants[0], &p, &out) == 0);
    CHECK(out.value == -1.0 && out.work == -1.0);
    k->problem->tally(&p, &out);
    double sum = 0.0;
    for (int i = 0; i < 16 * 8; i++)
        sum += counts[i];
    CHECK(sum > 0.0 && out.value == sum && out.work == sum);
    free(counts);
}

static void best_cpu_is_the_fastest(void)
{
    const sl_kernel *k = sl_find_kernel(solutions_kernels, "pi");
    CHECK(k != NULL);
    if (k == NULL)
        return;
    sl_config c[2] = { { 0 } };
    for (int i = 0; i < 2; i++) {
        c[i].kernel = k;
        c[i].variant = &k->variants[0];
        c[i].problem.size = 1000;
        c[i].valid = 1;
        c[i].timed = 3;
        c[i].threads_used = 1;
    }
    c[0].median = 0.734;   /* quiet scalar */
    c[1].median = 0.0896;  /* threads_simd, disturbed */
    c[1].contaminated = 1;
    sl_suite s = { .configs = c, .count = 2 };
    CHECK(sl_best_cpu(&s, k->problem, 1000, 0) == &c[1]);
    c[1].contaminated = 0;
    c[0].contaminated = 1;
    CHECK(sl_best_cpu(&s, k->problem, 1000, 0) == &c[1]);
    CHECK(sl_best_cpu(&s, k->problem, 2000, 0) == NULL);
}

/* The watch's calls, and the repetitions timed before each. */
static int watched, watched_after[16];
static const sl_suite *watched_suite;

static void count_watch(void *ctx)
{
    (void)ctx;
    if (watched < 16)
        watched_after[watched] = watched_suite->configs[0].ncalls;
    watched++;
}

static void roofs_watched_between_cycles(void)
{
    /* share 1, a free probe: one between every two cycles; a probe that
     * costs more than its share of the pass: none; in a row: none. */
    const struct { double share, seconds; int in_a_row, want; } cases[] = {
        { 1.0, 1e-9, 0, 5 }, { 0.02, 10.0, 0, 0 }, { 1.0, 1e-9, 1, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sl_suite s = { 0 };
        validated_suite(&s, fake_kernels);
        watched = 0;
        watched_suite = &s;
        sl_timing t = { .reps = 6, .min_time = 1e-3, .retry_busy = 0, .watch = count_watch,
                        .watch_share = cases[i].share, .watch_seconds = cases[i].seconds,
                        .in_a_row = cases[i].in_a_row };
        CHECK(sl_suite_time(&s, &t) == 0);
        CHECK_EQ_LL(s.configs[0].timed, 6);
        CHECK_EQ_LL(watched, cases[i].want);
        /* One cycle a repetition here: the k-th probe after k of them. */
        for (int k = 0; k < watched && k < 16; k++)
            CHECK_EQ_LL(watched_after[k], k + 1);
        sl_suite_free(&s);
    }
}

int main(int argc, char **argv)
{
    char why[256];
    if (gb_initialize(&argc, argv, NULL, why, sizeof why) != 0) {
        fprintf(stderr, "test_timing: %s\n", why);
        return 1;
    }
    tally_outside_the_clock();
    precision_within_a_budget();
    shifted_over_time();
    device_repetitions_warm_up();
    later_rounds_size_from_the_fastest();
    arrays_once_a_pass();
    speedups_in_pairs();
    mandelbrot_run_does_not_sum();
    best_cpu_is_the_fastest();
    roofs_watched_between_cycles();
    gb_shutdown();
    return CHECK_DONE();
}
