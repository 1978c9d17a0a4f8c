/* timing.c - time a validated suite (suite.h's sl_suite_time).
 *
 * Google Benchmark (through gbench.h) owns the timing loop; this file
 * owns the order: each repetition is a benchmark of one run, and a pass
 * runs them in cycles, every baseline in the middle of the rungs it is
 * the baseline of, so that a speedup is a ratio of repetitions taken
 * seconds apart (sample.h's sl_pair_ratios), which a slow stretch of a
 * shared host slows on both sides. Around each
 * call of the body this file reads how much CPU other processes used
 * (quiet.h), maps those readings to the repetitions Google Benchmark
 * reports, and measures disturbed configurations again at the end. The
 * statistics are sample.h's. The only other clock read is the progress
 * line's.
 */
#define _DEFAULT_SOURCE
#include "suite.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "gbench.h"
#include "interrupt.h"
#include "memory.h"
#include "noise.h"
#include "quiet.h"
#include "sample.h"

struct body_ctx;

typedef struct timing_ctx {
    sl_suite *suite;
    const sl_timing *opt;
    struct body_ctx *bodies;      /* one per configuration */
    size_t done, total;           /* configurations finished, planned */
    double start;                 /* sl_now() when timing began */
    double estimate;              /* seconds the whole pass should take */
    double last_progress;         /* sl_now() at the last progress line */
    int tty;                      /* progress rewrites one line */
} timing_ctx;

/* What a body needs: its configuration, and the pass for progress; and
 * what the pass adds to it: repetitions from index `from`. */
typedef struct body_ctx {
    timing_ctx *t;
    sl_config *c;
    int reps;                     /* to add in this pass; 0: not in it */
    int from;                     /* c->timed when the pass began */
    int over;                     /* its repetitions are in (or it failed) */
    int keep;                     /* its arrays and image last the pass */
    int rewarm;                   /* a roof probe ran just before: warm up */
    sl_outcome kept;              /* those, once made (keep) */
} body_ctx;

/* One registered repetition: its configuration's body, and whether the
 * host's roofs are probed before it (outside the clock: sl_timing.watch). */
typedef struct rep_ctx {
    body_ctx *body;
    int watch;
} rep_ctx;

/* pass_order's mark for "probe the roofs here", between two cycles. */
#define WATCH_MARK SIZE_MAX

/* Rounds after the first pass: repetitions double from 6 to 96. */
#define SL_MAX_ROUNDS 6
/* Headline rungs whose spread say_seen_noise weighs, at most. */
#define SL_MAX_SEEN 256

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
static void time_calls(gb_state *st, void *ctx);

/* What the variant prints while it is timed goes apart (capture.h), and
 * its lines are counted against it. A roof probe due before this
 * repetition runs first, before Google Benchmark's clock starts. */
static void time_body(gb_state *st, void *ctx)
{
    rep_ctx *r = ctx;
    const sl_timing *opt = r->body->t->opt;
    if (r->watch && !sl_interrupted()) {
        r->watch = 0;
        opt->watch(opt->watch_ctx);
        r->body->rewarm = 1;
    }
    sl_capture_begin();
    time_calls(st, r->body);
    r->body->c->printed += sl_capture_end();
}

/* What the calls work on, made outside the clock: an image kernel's image
 * (one, filled by every call), a kernel's arrays (by the variant's own
 * setup: first touch; a device copy). NULL, or what could not be had. */
static const char *make_data(const sl_config *c, sl_outcome *out)
{
    const sl_problem_def *def = c->kernel->problem;
    if (def->image && out->counts == NULL &&
        (out->counts = malloc((size_t)sl_image_bytes(c))) == NULL)
        return "no memory for the image";
    if (def->prepare && out->data == NULL && def->prepare(c->variant, &c->problem, out) != 0)
        return "no memory for the arrays";
    return NULL;
}

static void drop_data(const sl_config *c, sl_outcome *out)
{
    sl_release(c->kernel->problem, out);
    free(out->counts);
    out->counts = NULL;
}

static void time_calls(gb_state *st, void *ctx)
{
    body_ctx *b = ctx;
    sl_config *c = b->c;
    sl_outcome own = { 0 }, *out = b->keep ? &b->kept : &own;
    /* After a signal, configurations not yet started are skipped; the one
     * in progress finishes its repetitions (Google Benchmark 1.7.1 aborts
     * on repetitions that stop half way). */
    if (sl_interrupted()) {
        gb_skip_with_error(st, "interrupted");
        return;
    }
    /* An earlier repetition of this pass failed: the rest say so. */
    if (b->over) {
        gb_skip_with_error(st, c->error[0] ? c->error : "the variant could not run");
        return;
    }
    /* A pass's first call warms up (every count is fixed: Google
     * Benchmark takes no warm-up then), unless the call is longer than a
     * repetition in the first pass: then it is its own warm-up. So does
     * every repetition of a
     * configuration that runs on a device: its clock drops while CPU
     * configurations run between its turns (an H100 idles at 420 of
     * 1980 MHz), and a repetition must not start on a cold clock. */
    int warm_up = (!c->started && (b->from > 0 || c->call_seconds < b->t->opt->min_time)) ||
                  c->outcome.where == SL_RAN_DEVICE || b->rewarm;
    c->started = 1;
    b->rewarm = 0;
    /* Made once a pass when kept (time_pass), else for every call. */
    const sl_problem_def *def = c->kernel->problem;
    const char *no_data = make_data(c, out);
    if (no_data) {
        drop_data(c, out);
        gb_skip_with_error(st, no_data);
        return;
    }
    /* An exit() inside a call is the exit guard's to name (isolate.h). */
    sl_calling_kernel = def->name;
    sl_calling_variant = c->variant->name;
    /* Outside the clock: Google Benchmark starts it at gb_keep_running. */
    if (warm_up && def->run(c->variant, &c->problem, out) != 0) {
        sl_calling_variant = NULL;
        gb_skip_with_error(st, "the variant could not run");
        drop_data(c, out);
        return;
    }
    sl_quiet_mark from, to;
    sl_quiet_mark_now(&from);
    /* Only run() is timed: the answer and the work were tallied once, at
     * validation (the work of a call does not change between calls). */
    while (gb_keep_running(st)) {
        if (def->run(c->variant, &c->problem, out) != 0) {
            sl_calling_variant = NULL;
            gb_skip_with_error(st, "the variant could not run");
            drop_data(c, out);
            return;
        }
        gb_do_not_optimize(out->value);
    }
    sl_quiet_mark_now(&to);
    sl_calling_variant = NULL;
    if (def->collect)
        def->collect(c->variant, &c->problem, out);
    if (!b->keep)
        drop_data(c, out);
    gb_set_items_processed(st, (double)gb_iterations(st) * c->outcome.work);
    /* Google Benchmark 1.7.1 reports, per repetition, the last call of the
     * body (the first repetition calls it until the iteration count is
     * found, later ones once): so the last `reps` calls recorded here are
     * the repetitions, in order (on_result checks their lengths agree). */
    double others = sl_quiet_others(&from, &to);
    int slot = c->ncalls++ % SL_MAX_REPS;
    c->call_others[slot] = others;
    c->call_self[slot] = sl_quiet_self(&from, &to);
    c->call_busiest[slot] = sl_quiet_busiest(&from, &to);
    c->call_window[slot] = to.wall - from.wall;
    c->call_start[slot] = from.wall - b->t->suite->epoch;
    progress_tick(b->t, others, to.wall - from.wall);
}

/* Which repetitions a busy or stopped machine disturbed (quiet.h); the
 * slow-stretch bit is mark_slow's. */
static void flag_reps(sl_config *c)
{
    /* On a device, the host thread may wait without using a core. */
    int host = c->outcome.where != SL_RAN_DEVICE;
    for (int r = 0; r < c->timed; r++)
        c->left_out[r] = (unsigned char)(
            (c->others[r] >= 0.0 && sl_quiet_disturbed(c->others[r], c->window[r])
             ? SL_LEFT_DISTURBED : 0) |
            (host && sl_quiet_stalled(c->self_cpu[r], c->window[r]) ? SL_LEFT_STALLED : 0));
}

/* Repetitions none of whose SL_LEFT_* bits is set. */
static int clean_reps(const sl_config *c)
{
    int clean = 0;
    for (int r = 0; r < c->timed; r++)
        clean += c->left_out[r] == 0;
    return clean;
}

/* Median, interval, spread, rate and quietness from the clean repetitions,
 * or from all of them when fewer than `least` are clean (then it stays
 * contaminated: the tables say "disturbed"). */
static void summarise(sl_config *c, int least)
{
    int clean = clean_reps(c);
    sl_sample t = { 0 };
    double others = 0.0, window = 0.0;
    int known = 1, all = clean < least;
    c->disturbed = c->stalled = 0;
    for (int r = 0; r < c->timed; r++) {
        c->disturbed += (c->left_out[r] & SL_LEFT_DISTURBED) != 0;
        c->stalled += (c->left_out[r] & SL_LEFT_STALLED) != 0;
        if (c->left_out[r] && !all)
            continue;
        t.v[t.n++] = c->seconds[r];
        known &= c->others[r] >= 0.0;
        others += c->others[r];
        window += c->window[r];
    }
    sl_sample_summarise(&t);
    c->kept = t.n;
    c->median = t.median;
    c->min = t.min;
    c->max = t.max;
    c->stddev = t.stddev;
    c->cv = t.cv;
    c->ci_low = t.ci_low;
    c->ci_high = t.ci_high;
    c->ci_level = t.ci_level;
    c->precision = sl_precision(t.median, t.ci_low, t.ci_high);
    c->rate = c->median > 0.0 ? c->outcome.work / c->median : 0.0;
    c->others_cpu = known && window > 0.0 ? others / window : -1.0;
    c->contaminated = all && clean < c->timed;
}

/* One timed repetition on the run's timeline: configuration i's r-th. */
typedef struct timed_rep {
    double start, ratio, others;  /* others: cores; -1 not measured */
    size_t i;
    int r;
} timed_rep;

static int by_start(const void *a, const void *b)
{
    double x = ((const timed_rep *)a)->start, y = ((const timed_rep *)b)->start;
    return (x > y) - (x < y);
}

static int by_ratio(const void *a, const void *b)
{
    double x = ((const timed_rep *)a)->ratio, y = ((const timed_rep *)b)->ratio;
    return (x > y) - (x < y);
}

/* Every timed repetition in the order they ran, each against its own
 * configuration's median; NULL when fewer than `least` (or no memory). */
static timed_rep *timeline(const sl_suite *s, size_t least, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        *n += c->valid && !c->foreign && c->median > 0.0 ? (size_t)c->timed : 0;
    }
    timed_rep *reps = *n >= least && *n > 0 ? malloc(*n * sizeof *reps) : NULL;
    if (reps == NULL)
        return NULL;
    *n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        for (int r = 0; c->valid && !c->foreign && c->median > 0.0 && r < c->timed; r++)
            reps[(*n)++] = (timed_rep){ c->start[r], c->seconds[r] / c->median,
                                        c->others[r] >= 0.0 && c->window[r] > 0.0
                                        ? c->others[r] / c->window[r] : -1.0, i, r };
    }
    qsort(reps, *n, sizeof *reps, by_start);
    return reps;
}

/* The median ratio of a window of SL_DRIFT_WINDOW repetitions (sorts it),
 * and how many configurations it holds. */
static double window_ratio(timed_rep *win, int *configs)
{
    *configs = 0;
    for (int k = 0; k < SL_DRIFT_WINDOW; k++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = win[j].i == win[k].i;
        *configs += !seen;
    }
    qsort(win, SL_DRIFT_WINDOW, sizeof *win, by_ratio);
    return 0.5 * (win[SL_DRIFT_WINDOW / 2 - 1].ratio + win[SL_DRIFT_WINDOW / 2].ratio);
}

/* Leave out the repetitions timed while the whole machine ran slower:
 * windows of consecutive repetitions (interleaved, so from many
 * configurations) whose median is SL_DRIFT_SLOWER than their medians. */
static void mark_slow(sl_suite *s)
{
    size_t n;
    timed_rep *reps = timeline(s, SL_DRIFT_WINDOW, &n), win[SL_DRIFT_WINDOW];
    for (size_t w = 0; reps && w + SL_DRIFT_WINDOW <= n; w += SL_DRIFT_WINDOW / 2) {
        int configs;
        memcpy(win, reps + w, sizeof win);
        if (window_ratio(win, &configs) < SL_DRIFT_SLOWER || configs < SL_DRIFT_CONFIGS)
            continue;
        for (int k = 0; k < SL_DRIFT_WINDOW; k++)
            s->configs[reps[w + k].i].left_out[reps[w + k].r] |= SL_LEFT_SLOW;
    }
    free(reps);
}

int sl_suite_drift(const sl_suite *s, sl_drift *d)
{
    size_t n;
    timed_rep *reps = timeline(s, 4 * SL_DRIFT_WINDOW, &n), win[SL_DRIFT_WINDOW];
    memset(d, 0, sizeof *d);
    for (size_t w = 0; reps && w + SL_DRIFT_WINDOW <= n; w += SL_DRIFT_WINDOW / 2) {
        double others = 0.0;
        int configs;
        memcpy(win, reps + w, sizeof win);
        for (int k = 0; k < SL_DRIFT_WINDOW; k++)
            others = win[k].others > others ? win[k].others : others;
        double ratio = window_ratio(win, &configs);
        if (ratio > d->slowest) {
            d->slowest = ratio;
            d->from = reps[w].start;
            d->to = reps[w + SL_DRIFT_WINDOW - 1].start;
            d->others = others;
        }
    }
    free(reps);
    return d->slowest >= SL_DRIFT_SLOWER;
}

/* The configuration whose repetitions c's speedup is paired with (its
 * baseline, timed in the same cycles), or NULL: the baseline itself, a
 * weak-scaling point (no speedup), a row imported from elsewhere. */
static const sl_config *pair_base(const sl_suite *s, const sl_config *c)
{
    const sl_config *base = sl_suite_baseline(s, c);
    return base && base != c && base->valid && !base->foreign && !c->foreign && !c->weak
           ? base : NULL;
}

/* Can c's repetitions be counted in CPU time? On the host, where its
 * busiest thread's CPU time was read for every one of them. */
static int cpu_counted(const sl_config *c)
{
    if (c->outcome.where == SL_RAN_DEVICE)
        return 0;
    for (int r = 0; r < c->timed; r++)
        if (!(c->busiest[r] > 0.0) || c->iterations[r] <= 0)
            return 0;
    return c->timed > 0;
}

/* Seconds per call of each repetition: wall, or its busiest thread's CPU;
 * and which take no part (those another process disturbed, or in which
 * the bench hardly ran), unless none is left out (busy: all of them). */
static void per_call(const sl_config *c, int cpu, int all, double *out, unsigned char *skip)
{
    for (int r = 0; r < c->timed && r < SL_MAX_REPS; r++) {
        out[r] = cpu ? c->busiest[r] / (double)c->iterations[r] : c->seconds[r];
        skip[r] = !all && (c->left_out[r] & SL_LEFT_UNPAIRED) != 0;
    }
}

int sl_speedup_paired(const sl_suite *s, const sl_config *c, sl_paired *out)
{
    return sl_ratio_paired(pair_base(s, c), c, out);
}

int sl_paired_too_wide(const sl_paired *p)
{
    /* One pair has no interval at all. */
    return p->n < 2 || !(p->low > 0.0) || p->high / p->low > SL_PAIRED_TOO_WIDE;
}

int sl_threads_took_others_share(const sl_suite *s, const sl_config *c)
{
    const sl_config *base = sl_suite_baseline(s, c);
    return c->threads_used > 1 && c->oversubscribed &&
           (c->contaminated || (base && base->contaminated));
}

int sl_speedup_unjudged(const sl_suite *s, const sl_config *c)
{
    sl_paired up;
    if (!c->valid || !c->timed || sl_gpu_stand_in(c->outcome.where) ||
        strcmp(c->variant->name, SL_BASELINE_VARIANT) == 0)
        return 0;
    if (sl_threads_took_others_share(s, c))
        return 1;
    const sl_config *base = sl_suite_baseline(s, c);
    return c->contaminated && (base == NULL || base == c || sl_speedup_paired(s, c, &up) == 0 ||
                               sl_paired_too_wide(&up));
}

double sl_speedup_judged(const sl_suite *s, const sl_config *c, double *at_most)
{
    const sl_config *base = sl_suite_baseline(s, c);
    sl_paired up;
    int unjudged = sl_speedup_unjudged(s, c);
    int paired = !unjudged && c->contaminated && base && base != c &&
                 sl_speedup_paired(s, c, &up) > 0;
    double figure = unjudged ? 0.0 : paired ? up.median : c->speedup;
    if (at_most)
        *at_most = paired ? up.high : figure;
    return figure;
}

int sl_ratio_paired(const sl_config *base, const sl_config *c, sl_paired *out)
{
    double a[SL_MAX_REPS], b[SL_MAX_REPS];
    unsigned char skip_a[SL_MAX_REPS], skip_b[SL_MAX_REPS];
    memset(out, 0, sizeof *out);
    if (base == NULL || base == c || !c->valid || !base->valid || c->foreign ||
        base->foreign || c->timed == 0 || base->timed == 0)
        return 0;
    int busy = c->contaminated || base->contaminated;
    int cpu = busy && cpu_counted(base) && cpu_counted(c) && base->threads_used <= 1 &&
              c->threads_used <= 1;
    per_call(base, cpu, busy, a, skip_a);
    per_call(c, cpu, busy, b, skip_b);
    int n = sl_pair_ratios(a, base->start, skip_a, base->timed, b, c->start, skip_b, c->timed,
                           out);
    out->cpu = cpu;
    return n;
}

/* c's speedup from pairs (sl_speedup_paired), and its precision. */
static void pair_speedup(const sl_suite *s, sl_config *c)
{
    c->up_precision = sl_speedup_paired(s, c, &c->up) > 0
                      ? sl_precision(c->up.median, c->up.low, c->up.high) : 0.0;
}

/* Judge every configuration timed so far: which repetitions are left
 * out, then the medians of the clean ones (at least `least` of them),
 * then the speedups from pairs. */
static void judge(sl_suite *s, int least)
{
    /* The slow stretches are measured against every repetition's median. */
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (c->valid && c->timed > 0) {
            flag_reps(c);
            summarise(c, SL_MAX_REPS + 1);
        }
    }
    mark_slow(s);
    for (size_t i = 0; i < s->count; i++)
        if (s->configs[i].valid && s->configs[i].timed > 0)
            summarise(&s->configs[i], least);
    for (size_t i = 0; i < s->count; i++)
        if (s->configs[i].valid)
            pair_speedup(s, &s->configs[i]);
}

/* Give repetitions from.. the quietness of the body calls that produced
 * them: the last ones. A call must have lasted at least as long as the
 * iterations it timed; if not, the calls do not line up (another Google
 * Benchmark) and the quietness is "not measured" rather than a guess. */
static void match_calls(sl_config *c, int from)
{
    int n = c->timed - from, lined_up = c->ncalls >= n;
    for (int k = 0; k < n && lined_up; k++) {
        int slot = (c->ncalls - n + k) % SL_MAX_REPS, r = from + k;
        double timed = (double)c->iterations[r] * c->seconds[r];
        lined_up = c->call_window[slot] >= timed * 0.999;
        c->others[r] = c->call_others[slot];
        c->self_cpu[r] = c->call_self[slot];
        c->busiest[r] = c->call_busiest[slot];
        c->window[r] = c->call_window[slot];
        c->start[r] = c->call_start[slot];
    }
    for (int r = from; r < c->timed && !lined_up; r++)
        c->others[r] = -1.0, c->self_cpu[r] = -1.0, c->busiest[r] = -1.0, c->window[r] = 0.0;
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
        /* The last repetition's time: the medians are judged after the
         * pass, with every configuration's repetitions in. */
        fprintf(f, "  [%zu/%zu] %-44s %2d reps  last %10.3f ms  %9.3e %s/s\n",
                t->done, t->total, c->name, c->timed, c->seconds[c->timed - 1] * 1e3,
                c->outcome.work / c->seconds[c->timed - 1], c->kernel->problem->work_unit);
    fflush(f);
}

static void on_result(const gb_result *r, void *ctx)
{
    timing_ctx *t = ctx;
    for (size_t i = 0; i < t->suite->count; i++) {
        sl_config *c = &t->suite->configs[i];
        body_ctx *b = &t->bodies[i];
        if (b->reps == 0 || strcmp(c->name, r->name) != 0)
            continue;
        /* Every repetition of a skipped configuration reports its error:
         * count the configuration once. */
        if (b->over)
            return;
        if (r->error && sl_interrupted()) {
            /* Skipped by the signal: what this pass and earlier ones timed
             * stays (its interval says how little that is); a
             * configuration with no repetition yet is valid, not timed. */
            if (c->timed == 0) {
                snprintf(c->error, sizeof c->error, "interrupted");
                c->interrupted = 1;
                c->timed = 0;
            }
            b->over = 1;
        } else if (r->error) {
            snprintf(c->error, sizeof c->error, "%s", r->error_message);
            c->valid = 0;
            b->over = 1;
        } else if (c->timed < SL_MAX_REPS) {
            c->iterations[c->timed] = r->iterations;
            c->seconds[c->timed++] = r->seconds_per_call;
            b->over = c->timed == b->from + b->reps;
        }
        if (b->over) {
            if (c->timed > b->from)
                match_calls(c, b->from);
            t->done++;
            config_line(t, c, r->error);
        }
        return;
    }
}

/* Seconds one repetition of c takes: its call, or min_time of calls. */
static double rep_seconds(const sl_config *c, const sl_timing *opt)
{
    double call = c->timed > 0 ? c->median : c->call_seconds;
    return call > opt->min_time ? call : opt->min_time;
}

/* Seconds a pass should spend on c: the repetitions, each at least one
 * call, after a warm-up call (none for a call longer than a repetition
 * in the first pass), on a device each after a warm-up call (time_body). */
static double config_estimate(const sl_config *c, const sl_timing *opt, int reps)
{
    double call = c->timed > 0 ? c->median : c->call_seconds;
    double warm_up = c->timed > 0 || call < opt->min_time ? call : 0.0;
    double device = c->outcome.where == SL_RAN_DEVICE ? reps * c->call_seconds : 0.0;
    return reps * rep_seconds(c, opt) + warm_up + device;
}

/* Seconds the pass over bodies' repetitions should take. */
static double pass_seconds(const sl_suite *s, const sl_timing *opt, const body_ctx *bodies)
{
    double sum = 0.0;
    for (size_t i = 0; i < s->count; i++)
        sum += bodies[i].reps ? config_estimate(&s->configs[i], opt, bodies[i].reps) : 0.0;
    return sum;
}

double sl_suite_cycle_seconds(const sl_suite *s, const sl_timing *opt)
{
    double sum = 0.0;
    for (size_t i = 0; i < s->count; i++)
        if (s->configs[i].valid && !s->configs[i].foreign)
            sum += rep_seconds(&s->configs[i], opt);
    return sum;
}

/* Bytes the calls of c work on (its image, its arrays); -1: not known. */
static int64_t data_bytes(const sl_config *c)
{
    const sl_problem_def *def = c->kernel->problem;
    int64_t bytes = sl_image_bytes(c);
    if (def->prepare)
        bytes = def->bytes_held ? bytes + (int64_t)def->bytes_held(&c->problem) : -1;
    return bytes;
}

/* Which configurations keep what their calls work on for the whole pass
 * rather than make it again for every repetition: arrays past the caches,
 * made again (page faults, first touch) and freed, took more of a quick
 * bench's CPU than the calls themselves (Zen 4). Host configurations only (a
 * device's memory is not known here), while half of the memory left
 * beside the largest configuration's data holds them all; the rest make
 * theirs for every repetition, one at a time, as the memory check
 * (sl_suite_check_memory) assumes. */
static void plan_keep(const sl_suite *s, body_ctx *bodies)
{
    const char *from;
    int64_t left = sl_memory_available(&from), largest = 0;
    for (size_t i = 0; i < s->count; i++) {
        int64_t bytes = bodies[i].reps ? data_bytes(&s->configs[i]) : 0;
        largest = bytes > largest ? bytes : largest;
    }
    left = left > largest ? (left - largest) / 2 : 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        int64_t bytes = bodies[i].reps ? data_bytes(c) : -1;
        bodies[i].keep = bytes >= 0 && bytes <= left && c->outcome.where != SL_RAN_DEVICE;
        left -= bodies[i].keep ? bytes : 0;
    }
}

/* Where configuration i's repetitions go in a cycle: with its baseline's
 * group when that baseline is timed in this pass, else in a group of its
 * own. Returns the index of the group's baseline (i itself for a group
 * of one). */
static size_t group_of(const sl_suite *s, const body_ctx *bodies, size_t i)
{
    const sl_config *base = pair_base(s, &s->configs[i]);
    size_t b = base ? (size_t)(base - s->configs) : i;
    return bodies[b].reps > 0 ? b : i;
}

/* A small generator for the cycles' order (splitmix64), seeded from the
 * clock and the process (pass_order): a fixed order would time the same
 * configuration after the same neighbour in every run, a bias no
 * interval shows (six runners of identical code at once read 109% to
 * 245% of the solution's speed, every one above 100). */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void shuffle(size_t *v, size_t n, uint64_t *state)
{
    for (size_t k = n; k > 1; k--) {
        size_t j = (size_t)(next_random(state) % k), t = v[k - 1];
        v[k - 1] = v[j];
        v[j] = t;
    }
}

/* The cycles of a pass: the most repetitions any configuration adds. */
static int pass_cycles(const sl_suite *s, const body_ctx *bodies)
{
    int cycles = 0;
    for (size_t i = 0; i < s->count; i++)
        cycles = bodies[i].reps > cycles ? bodies[i].reps : cycles;
    return cycles;
}

/* Roof probes an interleaved pass of `estimate` seconds makes between its
 * cycles: watch_share of its time at most, spread evenly, none in a row. */
static int pass_watches(const sl_timing *opt, int cycles, double estimate)
{
    if (opt->watch == NULL || opt->in_a_row || opt->watch_seconds <= 0.0 || cycles < 2)
        return 0;
    double n = floor(opt->watch_share * estimate / opt->watch_seconds);
    return n < 1.0 ? 0 : n > cycles - 1 ? cycles - 1 : (int)n;
}

/* The order of a pass's repetitions, as configuration indices (one entry
 * a repetition); NULL when out of memory. In a row: each configuration's
 * repetitions together. Interleaved: cycle k holds the k-th repetition
 * of every configuration that has one, group by group in a random order;
 * in a group the rungs in a random order with their baseline in the
 * middle, so that no rung is more than half a group away from it; and
 * `watches` WATCH_MARKs, each at the start of a cycle, spread evenly. */
static size_t *pass_order(const sl_suite *s, const body_ctx *bodies, int in_a_row, int pass,
                          int watches, size_t *n)
{
    size_t total = 0, count = s->count ? s->count : 1;
    int cycles = pass_cycles(s, bodies);
    for (size_t i = 0; i < s->count; i++)
        total += (size_t)bodies[i].reps;
    size_t *order = malloc((total + (size_t)watches + 1) * sizeof *order);
    size_t *keys = malloc(count * sizeof *keys), *members = malloc(count * sizeof *members);
    size_t *group = malloc(count * sizeof *group);
    *n = 0;
    if (order == NULL || keys == NULL || members == NULL || group == NULL) {
        free(order), free(keys), free(members), free(group);
        return NULL;
    }
    for (size_t i = 0; i < s->count; i++) {
        group[i] = group_of(s, bodies, i);
        for (int r = 0; in_a_row && r < bodies[i].reps; r++)
            order[(*n)++] = i;
    }
    uint64_t state = (uint64_t)(sl_now() * 1e6) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)pass;
    for (int k = 0, w = 0; !in_a_row && k < cycles; k++) {
        if (w < watches && k == (w + 1) * cycles / (watches + 1)) {
            order[(*n)++] = WATCH_MARK;
            w++;
        }
        size_t nkeys = 0;
        for (size_t i = 0; i < s->count; i++)
            if (group[i] == i && bodies[i].reps > 0)
                keys[nkeys++] = i;
        shuffle(keys, nkeys, &state);
        for (size_t g = 0; g < nkeys; g++) {
            size_t nm = 0, key = keys[g];
            for (size_t i = 0; i < s->count; i++)
                if (i != key && group[i] == key && bodies[i].reps > k)
                    members[nm++] = i;
            shuffle(members, nm, &state);
            for (size_t m = 0; m <= nm; m++) {
                if (m == nm / 2 && bodies[key].reps > k)
                    order[(*n)++] = key;
                if (m < nm)
                    order[(*n)++] = members[m];
            }
        }
    }
    free(keys), free(members), free(group);
    return order;
}

/* Calls per repetition: at least min_time of them, from the fastest
 * repetition so far or, in the first pass, the calibrated call (the first
 * pass's count, found under whatever load it had, can make a repetition
 * after the load a fraction of min_time, too short for quiet.h to judge). */
static int64_t calls_per_rep(const sl_config *c, const sl_timing *opt)
{
    double call = c->timed > 0 && c->min > 0.0 ? c->min : c->call_seconds;
    double n = call > 0.0 ? ceil(opt->min_time / call) : 1.0;
    return n < 1.0 ? 1 : n > 1e9 ? 1000000000 : (int64_t)n;
}

/* Validation's call, the sole measure of a call before the first pass,
 * also made the arrays and tallied the answer: past this many
 * repetitions' time, run() alone is taken to be as long. */
#define CALIBRATE_BELOW 10.0

/* Before the first pass (suite.h): a call's time, warm, for the calls'
 * count. A first call warms up (and is the measure when it is longer
 * than a repetition), then calls for a tenth of a repetition. */
void sl_suite_calibrate(sl_suite *s, const sl_timing *opt)
{
    s->calibrated = 1;
    for (size_t i = 0; i < s->count && !sl_interrupted(); i++) {
        sl_config *c = &s->configs[i];
        const sl_problem_def *def = c->kernel->problem;
        sl_outcome out = { 0 };
        if (!c->valid || c->foreign || c->call_seconds >= CALIBRATE_BELOW * opt->min_time ||
            c->outcome.where == SL_RAN_DEVICE || make_data(c, &out) != NULL) {
            drop_data(c, &out);
            continue;
        }
        sl_capture_begin();
        double t0 = sl_now();
        int calls = 0, failed = def->run(c->variant, &c->problem, &out) != 0;
        double first = sl_now() - t0, spent = 0.0;
        t0 = sl_now();
        while (!failed && first < opt->min_time && spent < 0.1 * opt->min_time &&
               calls < 1000000000) {
            failed = def->run(c->variant, &c->problem, &out) != 0;
            calls++;
            spent = sl_now() - t0;
        }
        c->printed += sl_capture_end();
        if (!failed)
            c->call_seconds = calls > 0 ? spent / calls : first;
        drop_data(c, &out);
    }
}

/* One pass of Google Benchmark over the configurations whose body has
 * repetitions to add, in pass_order's order.
 * Returns the number timed, -1 when registering failed, or -2 (errno set)
 * when Google Benchmark's output file cannot be written. */
static int time_pass(sl_suite *s, const sl_timing *opt, body_ctx *bodies, int pass)
{
    timing_ctx t = { .suite = s, .opt = opt, .bodies = bodies, .start = sl_now() };
    t.last_progress = t.start;
    t.tty = opt->progress && isatty(fileno(opt->progress)) && !opt->verbose;
    gb_clear();
    t.estimate = pass_seconds(s, opt, bodies);
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        body_ctx *body = &bodies[i];
        if (body->reps == 0)
            continue;
        body->t = &t;
        body->c = c;
        body->from = c->timed;
        body->over = 0;
        c->ncalls = 0;
        c->started = 0;
        t.total++;
    }
    if (t.total == 0)
        return 0;
    int watches = pass_watches(opt, pass_cycles(s, bodies), t.estimate);
    size_t n, *order = pass_order(s, bodies, opt->in_a_row, pass, watches, &n);
    rep_ctx *reps = calloc(n ? n : 1, sizeof *reps);
    if (order == NULL || reps == NULL) {
        free(order), free(reps);
        return -1;
    }
    /* A repetition is a benchmark of its own (one repetition, a fixed
     * count of calls): Google Benchmark runs them in the order registered. */
    for (size_t k = 0, r = 0; k < n; k++) {
        if (order[k] == WATCH_MARK) {
            reps[r].watch = 1;
            continue;
        }
        sl_config *c = &s->configs[order[k]];
        reps[r].body = &bodies[order[k]];
        gb_bench *b = gb_register(c->name, time_body, &reps[r++]);
        if (b == NULL) {
            free(order), free(reps);
            return -1;
        }
        gb_use_real_time(b);
        gb_repetitions(b, 1);
        gb_fixed_iterations(b, calls_per_rep(c, opt));
    }
    free(order);
    plan_keep(s, bodies);
    int ran = gb_run(on_result, &t), saved_errno = errno;
    free(reps);
    for (size_t i = 0; i < s->count; i++)
        if (bodies[i].keep)
            drop_data(&s->configs[i], &bodies[i].kept);
    errno = saved_errno;
    if (ran < 0)
        return -2;
    if (t.tty)
        fprintf(opt->progress, "\n");
    return ran > 0 ? (int)t.total : 0;
}

/* A configuration that could take part in another round. */
typedef struct wanted {
    size_t i;
    int more, replace;            /* repetitions to add; some replace left-out ones */
    int shown;                    /* a headline row */
    double width;                 /* its interval's precision, rounded
                                     to 1% (ties go to the cheaper) */
    double cost;                  /* seconds, estimated */
} wanted;

/* Replacements first, then the headline's rows, then the widest
 * intervals (where the budget buys the most), then the cheapest. */
static int by_need(const void *a, const void *b)
{
    const wanted *x = a, *y = b;
    if ((x->replace > 0) != (y->replace > 0))
        return x->replace > 0 ? -1 : 1;
    if (x->shown != y->shown)
        return x->shown ? -1 : 1;
    if (x->width != y->width)
        return x->width > y->width ? -1 : 1;
    return (x->cost > y->cost) - (x->cost < y->cost);
}

/* Within the target, at 95% at least (fewer than 6 repetitions cover
 * the median less often: 50% from 2): a rung's speedup, which is what a
 * reader takes away (its own time carries the host's speed of the moment
 * and says so in its interval), or the median of a row without pairs. */
static int at_target(const sl_config *c, const sl_timing *opt)
{
    if (c->up.n > 0)
        return c->up_precision <= opt->target && c->up.level >= 0.95;
    return c->precision <= opt->target && c->ci_level >= 0.95;
}

/* How many repetitions c should add in round `round`: the left-out ones
 * replaced while retry rounds last; short of the target, as many again
 * as it has (the interval narrows by about a third each time). */
static int more_reps(const sl_suite *s, const sl_config *c, const sl_timing *opt, int round,
                     int *replace)
{
    /* A rung's figure is its pairs, which a slow stretch of the whole
     * host does not disturb (it slowed both sides): only repetitions
     * another process disturbed, or the bench's own stops, are replaced. */
    int clean = 0, more = 0, paired = pair_base(s, c) != NULL;
    for (int r = 0; r < c->timed; r++)
        clean += paired ? (c->left_out[r] & SL_LEFT_UNPAIRED) == 0
                        : c->left_out[r] == 0;
    *replace = 0;
    if (!c->valid || c->timed == 0 || c->foreign)
        return 0;
    if (clean < opt->reps && round <= opt->retry_busy)
        more = *replace = opt->reps - clean;
    else if (opt->target > 0.0 && clean >= opt->reps && !at_target(c, opt))
        more = clean;
    return more < SL_MAX_REPS - c->timed ? more : SL_MAX_REPS - c->timed;
}

/* Choose this round's configurations (bodies[i].reps), replacements
 * first, then the headline's rows, then the cheapest, while the time left before the deadline
 * covers them; the rest are short of the target for the budget. Returns
 * how many take part; *replaced: how many replace left-out repetitions. */
static int plan_round(sl_suite *s, const sl_timing *opt, int round, body_ctx *bodies,
                      int *replaced, double *seconds)
{
    wanted *w = malloc((s->count ? s->count : 1) * sizeof *w);
    size_t n = 0;
    int chosen = 0;
    *replaced = 0;
    *seconds = 0.0;
    for (size_t i = 0; w != NULL && i < s->count; i++) {
        sl_config *c = &s->configs[i];
        bodies[i].reps = 0;
        int replace, more = more_reps(s, c, opt, round, &replace);
        if (more > 0)
            w[n++] = (wanted){ i, more, replace, opt->shown_first && opt->shown_first(s, c),
                               floor(100.0 * (c->up.n > 0 ? c->up_precision : c->precision)),
                               config_estimate(c, opt, more) };
    }
    qsort(w, n, sizeof *w, by_need);
    double left = opt->deadline > 0.0 ? opt->deadline - sl_now() : INFINITY;
    for (size_t k = 0; k < n; k++) {
        sl_config *c = &s->configs[w[k].i];
        /* A rung's repetitions are paired with its baseline's in the same
         * cycles: the baseline comes along, as often, at its cost. */
        const sl_config *base = pair_base(s, c);
        body_ctx *bb = base ? &bodies[base - s->configs] : NULL;
        int bump = 0;
        if (bb && bb->reps < w[k].more) {
            bump = w[k].more < SL_MAX_REPS - base->timed ? w[k].more : SL_MAX_REPS - base->timed;
            bump = bump > bb->reps ? bump : bb->reps;
        }
        double cost = w[k].cost + (bb && bump > bb->reps
                                   ? config_estimate(base, opt, bump - bb->reps) : 0.0);
        if (*seconds + cost > left) {
            c->short_of = SL_SHORT_BUDGET;
            continue;
        }
        *seconds += cost;
        if (bb && bump > bb->reps)
            bb->reps = bump;
        bodies[w[k].i].reps = w[k].more > bodies[w[k].i].reps ? w[k].more : bodies[w[k].i].reps;
        c->remeasured += w[k].replace > 0;
        *replaced += w[k].replace > 0;
        chosen++;
    }
    free(w);
    return chosen;
}

/* The round's line on the console. */
static void round_line(const sl_timing *opt, int chosen, int replaced, double seconds)
{
    if (opt->progress == NULL)
        return;
    if (replaced)
        fprintf(opt->progress, "  measuring %d disturbed configuration(s) again (other "
                "processes used more than %.2g of a core while they ran, the bench itself "
                "was stopped, or the whole machine slowed down)\n", replaced, SL_BUSY_CORES);
    if (chosen > replaced)
        fprintf(opt->progress, "  %d configuration(s) not yet within +-%.0f%%: twice the "
                "repetitions (about %.0f s)\n", chosen - replaced, 100.0 * opt->target,
                seconds);
    fflush(opt->progress);
}

/* After the first pass: how noisy its pairs were (the host's noise as the
 * rungs met it, which a few seconds' probe before timing can miss), and
 * how many rungs the time left can bring to the target at their own
 * spread (noise.h's sl_noise_precision_sd). Said on the console. */
static void say_seen_noise(sl_suite *s, const sl_timing *opt)
{
    double spread[SL_MAX_SEEN], cycle = sl_suite_cycle_seconds(s, opt);
    int n = 0, reachable = 0;
    int more = opt->deadline > 0.0 && cycle > 0.0 ? (int)((opt->deadline - sl_now()) / cycle) : 0;
    for (size_t i = 0; i < s->count && n < SL_MAX_SEEN; i++) {
        const sl_config *c = &s->configs[i];
        if (c->up.n < 3 || (opt->shown_first && !opt->shown_first(s, c)))
            continue;
        spread[n++] = c->up.spread;
        int pairs = c->up.n + (more > 0 ? more : 0);
        reachable += sl_noise_precision_sd(c->up.spread, pairs) <= opt->target;
    }
    if (n == 0)
        return;
    sl_sort(spread, n);
    s->seen_spread = spread[n / 2];
    s->seen_worst = spread[n - 1];
    s->seen_rungs = n;
    s->seen_reachable = reachable;
    if (opt->progress == NULL)
        return;
    fprintf(opt->progress, "  the first pass's pairs spread by about \u00b1%.1f%% (the middle "
            "headline rung; the noisiest \u00b1%.0f%%): at that noise the time left can bring "
            "%d of %d headline speedups to \u00b1%.0f%%%s\n", 100.0 * s->seen_spread,
            100.0 * s->seen_worst, reachable, n, 100.0 * opt->target,
            reachable < n ? "; this host allows no better for the rest" : "");
    fflush(opt->progress);
}

/* When timing took far longer than the first pass's estimate, say why:
 * a busy machine slows every call, and its disturbed configurations are
 * measured again; a precision target asks for more repetitions. */
static void took_line(const sl_timing *opt, double estimate, const sl_quiet_mark *from,
                      int remeasured, int precision)
{
    sl_quiet_mark to;
    sl_quiet_mark_now(&to);
    double spent = to.wall - from->wall, others = sl_quiet_others(from, &to);
    if (opt->progress == NULL || spent < 20.0 || spent < 1.5 * estimate)
        return;
    char took[24], why[256] = "";
    format_duration(spent, took, sizeof took);
    if (others >= 0.0 && sl_quiet_disturbed(others, spent))
        snprintf(why, sizeof why, "other processes used %.1f cores on average meanwhile, "
                 "so every call got less of the machine", others / spent);
    if (remeasured)
        snprintf(why + strlen(why), sizeof why - strlen(why), "%s%d round(s) measured "
                 "disturbed configurations again", why[0] ? "; " : "", remeasured);
    if (precision)
        snprintf(why + strlen(why), sizeof why - strlen(why), "%s%d round(s) added "
                 "repetitions for the +-%.0f%% target", why[0] ? "; " : "", precision,
                 100.0 * opt->target);
    fprintf(opt->progress, "  timing took %s, %.1fx the first estimate (%.0f s): %s\n", took,
            spent / estimate, estimate, why[0] ? why : "the machine was slower than its "
            "first calls said");
    fflush(opt->progress);
}

/* Did c's kept repetitions, in the order they began, come in stretches
 * (sl_runs_z)? */
static int shifted(const sl_config *c)
{
    timed_rep kept[SL_MAX_REPS];
    double v[SL_MAX_REPS];
    int n = 0, clean = clean_reps(c);
    if (c->median <= 0.0)
        return 0;
    for (int r = 0; r < c->timed && r < SL_MAX_REPS; r++)
        if (!c->left_out[r] || clean < c->kept)
            kept[n++] = (timed_rep){ c->start[r], c->seconds[r] / c->median, 0.0, 0, r };
    if (n < SL_SHIFT_MIN_REPS)
        return 0;
    qsort(kept, (size_t)n, sizeof *kept, by_start);
    for (int k = 0; k < n; k++)
        v[k] = kept[k].ratio;
    return sl_runs_z(v, n) <= SL_SHIFT_Z;
}

/* Why each configuration's interval is as wide as it is, and speedups. */
static void finish(sl_suite *s, const sl_timing *opt)
{
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (!c->valid || c->timed == 0)
            continue;
        if (opt->target <= 0.0)
            c->short_of = SL_NO_TARGET;
        else if (c->contaminated)
            c->short_of = SL_SHORT_DISTURBED;
        else if (at_target(c, opt))
            c->short_of = SL_AT_TARGET;
        else if (sl_interrupted())
            c->short_of = SL_SHORT_INTERRUPTED;
        else if (shifted(c))
            c->short_of = SL_SHORT_SHIFTED;
        else if (c->short_of != SL_SHORT_BUDGET)
            c->short_of = SL_SHORT_NOISY;
    }
    /* The speedup from pairs (judge), or where there are none the ratio
     * of the two medians. */
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        const sl_config *base = sl_suite_baseline(s, c);
        c->speedup = c->valid && c->timed && !c->weak && base && base->valid &&
                     base->timed ? base->median / c->median : 0.0;
        if (c->speedup > 0.0 && c->up.n > 0)
            c->speedup = c->up.median;
    }
}

const char *sl_short_of_name(int why)
{
    switch (why) {
    case SL_SHORT_NOISY: return "too noisy";
    case SL_SHORT_BUDGET: return "budget spent";
    case SL_SHORT_SHIFTED: return "shifted over time";
    case SL_SHORT_DISTURBED: return "disturbed";
    case SL_SHORT_INTERRUPTED: return "interrupted";
    default: return "";
    }
}

int sl_suite_time(sl_suite *s, const sl_timing *opt)
{
    body_ctx *bodies = calloc(s->count ? s->count : 1, sizeof *bodies);
    int rc = -1, saved_errno = 0;
    if (bodies == NULL)
        return -1;
    for (size_t i = 0; i < s->count; i++) {
        bodies[i].reps = s->configs[i].valid ? opt->reps : 0;
        s->configs[i].short_of = SL_AT_TARGET;
    }
    if (!s->calibrated)
        sl_suite_calibrate(s, opt);
    double first = pass_seconds(s, opt, bodies);
    sl_quiet_mark began;
    sl_quiet_mark_now(&began);
    int remeasured = 0, precision = 0;
    if (opt->deadline > 0.0 && opt->progress && sl_now() + first > opt->deadline)
        fprintf(opt->progress, "  the first pass alone needs about %.0f min, past the time "
                "budget: this run will overrun it (fewer kernels: --kernel; or --budget)\n",
                ceil(first / 60.0));
    s->epoch = sl_now();
    s->target = opt->target;
    if ((rc = time_pass(s, opt, bodies, 0)) <= 0) {
        rc = rc == -2 ? -2 : -1;
        saved_errno = errno;
        goto out;
    }
    judge(s, opt->reps);
    if (opt->target > 0.0)
        say_seen_noise(s, opt);
    if (opt->after_pass)
        opt->after_pass(0, opt->ctx);
    int replaced, chosen;
    double seconds;
    for (int round = 1; round <= SL_MAX_ROUNDS && !sl_interrupted(); round++) {
        if ((chosen = plan_round(s, opt, round, bodies, &replaced, &seconds)) == 0)
            break;
        round_line(opt, chosen, replaced, seconds);
        remeasured += replaced > 0;
        precision += chosen > replaced;
        if ((rc = time_pass(s, opt, bodies, round)) < 0) {
            saved_errno = errno;
            goto out;
        }
        judge(s, opt->reps);
        if (opt->after_pass)
            opt->after_pass(round, opt->ctx);
    }
    finish(s, opt);
    took_line(opt, first, &began, remeasured, precision);
    rc = 0;
out:
    free(bodies);
    errno = saved_errno ? saved_errno : errno;
    return rc;
}
