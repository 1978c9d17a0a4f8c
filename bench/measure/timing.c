/* timing.c - time a validated suite (suite.h's sl_suite_time).
 *
 * Google Benchmark (through gbench.h) owns the timing loop, the warm-up
 * and the repetitions, interleaved across configurations. Around each
 * call of the body this file reads how much CPU other processes used
 * (quiet.h), maps those readings to the repetitions Google Benchmark
 * reports, and measures disturbed configurations again at the end. The
 * statistics are sample.h's. The only other clock read is the progress
 * line's.
 */
#define _DEFAULT_SOURCE
#include "suite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gbench.h"
#include "interrupt.h"
#include "quiet.h"
#include "sample.h"

typedef struct timing_ctx {
    sl_suite *suite;
    const sl_timing *opt;
    size_t done, total;           /* configurations finished, planned */
    double start;                 /* sl_now() when timing began */
    double estimate;              /* seconds the whole pass should take */
    double last_progress;         /* sl_now() at the last progress line */
    int tty;                      /* progress rewrites one line */
} timing_ctx;

/* What a body needs: its configuration, and the pass for progress. */
typedef struct body_ctx {
    timing_ctx *t;
    sl_config *c;
} body_ctx;

/* "1m05s" for the progress line. */
static void format_duration(double seconds, char *out, size_t len)
{
    long s = (long)(seconds + 0.5);
    if (s >= 60)
        snprintf(out, len, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(out, len, "%lds", s);
}

/* Seconds between progress lines when they cannot rewrite one line. */
#define PROGRESS_EVERY 120.0
#define PROGRESS_EVERY_TTY 1.0

/* With the repetitions interleaved, configurations finish together near
 * the end, so progress is the time spent against the time planned. */
static void progress_tick(timing_ctx *t, double others, double window)
{
    double now = sl_now();
    FILE *f = t->opt->progress;
    if (f == NULL || now - t->last_progress < (t->tty ? PROGRESS_EVERY_TTY : PROGRESS_EVERY))
        return;
    t->last_progress = now;
    char elapsed[24], left[24], quiet[64] = "";
    double spent = now - t->start;
    double pct = t->estimate > 0.0 ? 100.0 * spent / t->estimate : 0.0;
    format_duration(spent, elapsed, sizeof elapsed);
    format_duration(t->estimate > spent ? t->estimate - spent : 0.0, left, sizeof left);
    if (others >= 0.0 && window > 0.0)
        snprintf(quiet, sizeof quiet, "; other processes: %.2f cores%s", others / window,
                 sl_quiet_disturbed(others, window) ? " (busy)" : "");
    if (pct < 99.0)
        fprintf(f, "%s  timing: %3.0f%%, %s elapsed, ~%s left%s%s", t->tty ? "\r" : "",
                pct, elapsed, left, quiet, t->tty ? "   " : "\n");
    else
        fprintf(f, "%s  timing: finishing, %s elapsed%s%s", t->tty ? "\r" : "", elapsed,
                quiet, t->tty ? "                 " : "\n");
    fflush(f);
}

/* The Google Benchmark body: call the variant until told to stop, and
 * measure what other processes did meanwhile. */
static void time_body(gb_state *st, void *ctx)
{
    body_ctx *b = ctx;
    sl_config *c = b->c;
    sl_outcome out = { 0 };
    /* After a signal, configurations not yet started are skipped; the one
     * in progress finishes its repetitions (Google Benchmark 1.7.1 aborts
     * on repetitions that stop half way). */
    if (sl_interrupted() && !c->started) {
        gb_skip_with_error(st, "interrupted");
        return;
    }
    c->started = 1;
    /* An image kernel fills one image per call, allocated once here so
     * that no call pays for it. */
    if (c->kernel->problem->image) {
        int64_t pixels = c->problem.size * sl_problem_height(&c->problem);
        out.counts = malloc((size_t)pixels * sizeof *out.counts);
        if (out.counts == NULL) {
            gb_skip_with_error(st, "no memory for the image");
            return;
        }
    }
    /* A kernel with data (prepare) gets its arrays set up here, outside the
     * clock, by the variant's own setup (first touch; a device copy). */
    const sl_problem_def *def = c->kernel->problem;
    if (def->prepare && def->prepare(c->variant, &c->problem, &out) != 0) {
        free(out.counts);
        gb_skip_with_error(st, "no memory for the arrays");
        return;
    }
    sl_quiet_mark from, to;
    sl_quiet_mark_now(&from);
    /* Only run() is timed: the answer and the work were tallied once, at
     * validation (the work of a call does not change between calls). */
    while (gb_keep_running(st)) {
        if (c->kernel->problem->run(c->variant, &c->problem, &out) != 0) {
            gb_skip_with_error(st, "the variant could not run");
            free(out.counts);
            sl_release(def, &out);
            return;
        }
        gb_do_not_optimize(out.value);
    }
    sl_quiet_mark_now(&to);
    if (def->collect)
        def->collect(c->variant, &c->problem, &out);
    sl_release(def, &out);
    free(out.counts);
    gb_set_items_processed(st, (double)gb_iterations(st) * c->outcome.work);
    /* Google Benchmark 1.7.1 reports, per repetition, the last call of the
     * body (the first repetition calls it until the iteration count is
     * found, later ones once): so the last `reps` calls recorded here are
     * the repetitions, in order (on_result checks their lengths agree). */
    double others = sl_quiet_others(&from, &to);
    int slot = c->ncalls++ % SL_MAX_REPS;
    c->call_others[slot] = others;
    c->call_self[slot] = sl_quiet_self(&from, &to);
    c->call_window[slot] = to.wall - from.wall;
    c->call_start[slot] = from.wall - b->t->suite->epoch;
    progress_tick(b->t, others, to.wall - from.wall);
}

/* Median, extremes, spread, rate and quietness from the repetitions. */
static void summarise(sl_config *c)
{
    sl_sample t = { .n = c->timed };
    memcpy(t.v, c->seconds, (size_t)c->timed * sizeof *t.v);
    sl_sample_summarise(&t);
    c->median = t.median;
    c->min = t.min;
    c->max = t.max;
    c->stddev = t.stddev;
    c->cv = t.cv;
    c->ci_low = t.ci_low;
    c->ci_high = t.ci_high;
    c->ci_level = t.ci_level;
    c->rate = c->median > 0.0 ? c->outcome.work / c->median : 0.0;
    double others = 0.0, window = 0.0;
    int known = 1;
    c->disturbed = 0;
    c->stalled = 0;
    /* On a device, the host thread may wait without using a core. */
    int host = c->outcome.where != SL_RAN_DEVICE;
    for (int r = 0; r < c->timed; r++) {
        known &= c->others[r] >= 0.0;
        others += c->others[r];
        window += c->window[r];
        c->disturbed += c->others[r] >= 0.0 && sl_quiet_disturbed(c->others[r], c->window[r]);
        c->stalled += host && sl_quiet_stalled(c->self_cpu[r], c->window[r]);
    }
    c->others_cpu = known && window > 0.0 ? others / window : -1.0;
    c->contaminated = c->disturbed + c->stalled > 0;
}

/* Give each repetition the quietness of the body call that produced it:
 * the last `timed` calls. A call must have lasted at least as long as the
 * iterations it timed; if not, the calls do not line up (another Google
 * Benchmark) and the quietness is "not measured" rather than a guess. */
static void match_calls(sl_config *c)
{
    int n = c->timed, lined_up = c->ncalls >= n;
    for (int r = 0; r < n && lined_up; r++) {
        int slot = (c->ncalls - n + r) % SL_MAX_REPS;
        double timed = (double)c->iterations[r] * c->seconds[r];
        lined_up = c->call_window[slot] >= timed * 0.999;
        c->others[r] = c->call_others[slot];
        c->self_cpu[r] = c->call_self[slot];
        c->window[r] = c->call_window[slot];
        c->start[r] = c->call_start[slot];
    }
    for (int r = 0; r < n && !lined_up; r++)
        c->others[r] = -1.0, c->self_cpu[r] = -1.0, c->window[r] = 0.0;
}

/* One configuration's line, in verbose progress. */
static void config_line(const timing_ctx *t, const sl_config *c, int error)
{
    FILE *f = t->opt->progress;
    if (f == NULL || !t->opt->verbose || c->interrupted)
        return;
    if (error)
        fprintf(f, "  [%zu/%zu] %-44s ERROR %s\n", t->done, t->total, c->name, c->error);
    else
        fprintf(f, "  [%zu/%zu] %-44s median %10.3f ms  %9.3e %s/s  cv %4.1f%%%s\n",
                t->done, t->total, c->name, c->median * 1e3, c->rate,
                c->kernel->problem->work_unit, 100.0 * c->cv,
                c->contaminated ? "  DISTURBED" : "");
    fflush(f);
}

static void on_result(const gb_result *r, void *ctx)
{
    timing_ctx *t = ctx;
    for (size_t i = 0; i < t->suite->count; i++) {
        sl_config *c = &t->suite->configs[i];
        if (strcmp(c->name, r->name) != 0)
            continue;
        /* Every repetition of a skipped configuration reports its error:
         * count the configuration once. */
        if (r->error && c->error[0] != '\0')
            return;
        if (r->error && sl_interrupted()) {
            /* Skipped by the signal: valid, but not (fully) timed. */
            snprintf(c->error, sizeof c->error, "interrupted");
            c->interrupted = 1;
            c->timed = 0;
        } else if (r->error) {
            snprintf(c->error, sizeof c->error, "%s", r->error_message);
            c->valid = 0;
        } else if (c->timed < SL_MAX_REPS) {
            c->iterations[c->timed] = r->iterations;
            c->seconds[c->timed++] = r->seconds_per_call;
        }
        if (c->timed == t->opt->reps || r->error) {
            if (!r->error)
                match_calls(c);
            t->done++;
            if (!r->error)
                summarise(c);
            config_line(t, c, r->error);
        }
        return;
    }
}

/* Seconds one configuration should take: a warm-up, finding the
 * iteration count (about two repetitions' worth, measured), and the
 * repetitions, each at least one call. */
static double config_estimate(const sl_config *c, const sl_timing *opt)
{
    double rep = c->call_seconds > opt->min_time ? c->call_seconds : opt->min_time;
    return (opt->reps + 3) * rep;
}

/* One pass of Google Benchmark over the configurations marked in want.
 * Returns the number timed, -1 when registering failed, or -2 (errno set)
 * when Google Benchmark's output file cannot be written. */
static int time_pass(sl_suite *s, const sl_timing *opt, const char *want, body_ctx *bodies)
{
    timing_ctx t = { .suite = s, .opt = opt, .start = sl_now() };
    t.last_progress = t.start;
    t.tty = opt->progress && isatty(fileno(opt->progress)) && !opt->verbose;
    gb_clear();
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (!want[i])
            continue;
        bodies[i] = (body_ctx){ &t, c };
        gb_bench *b = gb_register(c->name, time_body, &bodies[i]);
        if (b == NULL)
            return -1;
        gb_use_real_time(b);
        gb_repetitions(b, opt->reps);
        gb_min_time(b, opt->min_time);
        /* The first calls start the thread pool or the device. */
        gb_min_warmup_time(b, opt->min_time);
        t.total++;
        t.estimate += config_estimate(c, opt);
    }
    if (t.total == 0)
        return 0;
    int ran = gb_run(on_result, &t);
    if (ran < 0)
        return -2;
    if (t.tty)
        fprintf(opt->progress, "\n");
    return ran;
}

/* Keep the cleaner of two measurements of one configuration: fewer
 * disturbed or stalled repetitions, then less CPU taken by others. */
static int cleaner(const sl_config *a, const sl_config *b)
{
    if (a->disturbed + a->stalled != b->disturbed + b->stalled)
        return a->disturbed + a->stalled < b->disturbed + b->stalled;
    return a->others_cpu <= b->others_cpu;
}

int sl_suite_time(sl_suite *s, const sl_timing *opt)
{
    char *want = calloc(s->count ? s->count : 1, 1);
    body_ctx *bodies = calloc(s->count ? s->count : 1, sizeof *bodies);
    sl_config *kept = calloc(s->count ? s->count : 1, sizeof *kept);
    int rc = -1, ran, saved_errno = 0;
    if (want == NULL || bodies == NULL || kept == NULL)
        goto out;
    for (size_t i = 0; i < s->count; i++)
        want[i] = s->configs[i].valid;
    s->epoch = sl_now();
    if ((ran = time_pass(s, opt, want, bodies)) <= 0) {
        rc = ran == -2 ? -2 : -1;
        saved_errno = errno;
        goto out;
    }
    if (opt->after_pass)
        opt->after_pass(0, opt->ctx);
    for (int pass = 1; pass <= opt->retry_busy && !sl_interrupted(); pass++) {
        int again = 0;
        for (size_t i = 0; i < s->count; i++) {
            sl_config *c = &s->configs[i];
            want[i] = c->valid && c->timed && c->contaminated;
            if (!want[i])
                continue;
            again++;
            kept[i] = *c;
            c->timed = 0;
            c->ncalls = 0;
            c->started = 0;
            c->remeasured++;
        }
        if (again == 0)
            break;
        if (opt->progress) {
            fprintf(opt->progress, "  measuring %d disturbed configuration(s) again "
                    "(other processes used more than %.2g of a core while they ran, or "
                    "the bench itself was stopped)\n", again, SL_BUSY_CORES);
            fflush(opt->progress);
        }
        if ((ran = time_pass(s, opt, want, bodies)) < 0) {
            rc = ran;
            saved_errno = errno;
            goto out;
        }
        if (opt->after_pass)
            opt->after_pass(pass, opt->ctx);
        for (size_t i = 0; i < s->count; i++) {
            sl_config *c = &s->configs[i];
            if (!want[i])
                continue;
            /* A pass the signal cut short, or a dirtier one: keep the old. */
            int remeasured = c->remeasured;
            if (!c->valid || c->timed < opt->reps || !cleaner(c, &kept[i])) {
                *c = kept[i];
                c->remeasured = remeasured;
            }
        }
    }
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        const sl_config *base = sl_suite_baseline(s, c);
        c->speedup = c->valid && c->timed && !c->weak && base && base->valid &&
                     base->timed ? base->median / c->median : 0.0;
    }
    rc = 0;
out:
    free(want);
    free(bodies);
    free(kept);
    errno = saved_errno ? saved_errno : errno;
    return rc;
}
