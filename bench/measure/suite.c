/* suite.c - planning, validation and timing of configurations (suite.h).
 *
 * Timing: Google Benchmark (through gbench.h) with real time, a warm-up,
 * and repetitions; this file turns the repetitions into median, interval,
 * spread and rate. The only clock read here is the progress line's
 * elapsed time and estimate of what remains.
 */
#define _DEFAULT_SOURCE
#include "suite.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "gpu_info.h"
#include "gbench.h"
#include "interrupt.h"
#include "quiet.h"
#include "sample.h"

int sl_threads_granted(int requested)
{
    int granted = 0;
#pragma omp parallel num_threads(requested)
    {
#pragma omp single
        granted = omp_get_num_threads();
    }
    return granted;
}

int sl_cores_available(void)
{
    return omp_get_num_procs();
}

int sl_check_device(const sl_suite *suite, char *why, size_t whylen)
{
    if (omp_get_num_devices() < 1) {
        snprintf(why, whylen, "--require-device: no offload device (OpenMP sees 0 "
                 "devices), so the gpu variants would run on the host");
        return -1;
    }
    for (size_t i = 0; suite && i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        if ((c->variant->flags & SL_USES_GPU) && c->valid &&
            c->outcome.where != SL_RAN_DEVICE) {
            snprintf(why, whylen, "--require-device: %s ran on the %s, not on the "
                     "device", c->name, sl_where_name(c->outcome.where));
            return -1;
        }
    }
    return 0;
}

static sl_config *suite_push(sl_suite *s)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        sl_config *grown = realloc(s->configs, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        s->configs = grown;
        s->cap = cap;
    }
    sl_config *c = &s->configs[s->count++];
    memset(c, 0, sizeof *c);
    return c;
}

/* Say "unknown" with the names there are and the nearest one. */
static void unknown_name(const char *what, const char *name,
                         const char *const *names, size_t n, char *why,
                         size_t whylen)
{
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    const char *near = sl_nearest(name, names, n);
    if (near)
        snprintf(why, whylen, "unknown %s '%s' (did you mean '%s'? known: %s)",
                 what, name, near, list);
    else
        snprintf(why, whylen, "unknown %s '%s' (known: %s)", what, name, list);
}

const sl_schedule SL_SWEEP_SCHEDULES[4] = {
    { SL_SCHED_STATIC, 0 }, { SL_SCHED_STATIC, 1 },
    { SL_SCHED_DYNAMIC, 0 }, { SL_SCHED_GUIDED, 0 },
};
enum { SL_ODD_SWEEP_THREADS = 3 };
static const sl_schedule DYNAMIC_ONLY[1] = { { SL_SCHED_DYNAMIC, 0 } };

/* Plan one configuration. Returns NULL when out of memory. */
static sl_config *plan_config(sl_suite *s, const sl_plan *p, const sl_kernel *k,
                              const sl_variant *var, int64_t size, int threads,
                              const sl_schedule *schedule)
{
    sl_config *c = suite_push(s);
    if (c == NULL)
        return NULL;
    int takes_threads = (var->flags & SL_USES_THREADS) != 0;
    c->tree = p->tree;
    c->kernel = k;
    c->variant = var;
    c->problem.size = size;
    c->problem.max_iter = p->max_iter;
    c->problem.seed = p->seed;
    c->problem.threads = threads;
    if (schedule)
        c->problem.schedule = *schedule;
    if (takes_threads) {
        c->threads_used = sl_threads_granted(threads);
        c->oversubscribed = c->threads_used > sl_cores_available();
    } else if (!(var->flags & SL_USES_GPU)) {
        c->threads_used = 1;
    }
    int n = snprintf(c->name, sizeof c->name, "%s/%s/%s", p->tree, k->problem->name,
                     var->name);
    if (takes_threads)
        n += snprintf(c->name + n, sizeof c->name - (size_t)n, "/threads:%d", threads);
    if (schedule) {
        char sched[32];
        sl_schedule_name(*schedule, sched, sizeof sched);
        n += snprintf(c->name + n, sizeof c->name - (size_t)n, "/schedule:%s", sched);
    }
    if (p->weak)
        snprintf(c->name + n, sizeof c->name - (size_t)n, "/weak");
    return c;
}

/* Weak scaling: each thread keeps the work one thread had at size / tmax
 * (tmax the largest count planned), so the largest point is the strong
 * study's size again; image kernels grow their rows, not their width. */
static void weak_size(const sl_kernel *k, int64_t size, int tmax, int threads,
                      sl_problem *problem)
{
    int64_t per_thread = size / (tmax > 0 ? tmax : 1);
    if (per_thread < 1)
        per_thread = 1;
    if (k->problem->image)
        problem->height = per_thread * threads;
    else
        problem->size = per_thread * threads;
}

static int add_kernel(sl_suite *s, const sl_plan *p, const sl_kernel *k,
                      char *why, size_t whylen)
{
    const sl_problem_def *def = k->problem;
    int64_t size = p->size ? p->size : p->quick ? def->quick_size : def->default_size;
    int matched = 0;

    if (size > def->max_size) {
        snprintf(why, whylen, "--size: %lld %s is more than %s allows (at most %lld)",
                 (long long)size, def->size_name, def->name, (long long)def->max_size);
        return -1;
    }

    for (size_t v = 0; v < k->count; v++) {
        const sl_variant *var = &k->variants[v];
        int named = (!p->variant_name || strcmp(p->variant_name, var->name) == 0) &&
                    (var->flags & p->variant_flags) == p->variant_flags &&
                    !(p->variant_flags && (var->flags & SL_STAGE));
        /* A speedup needs the baseline, so it is planned whatever was named
         * (not for weak scaling, which compares a variant with itself). */
        if (!named && (p->weak || strcmp(var->name, SL_BASELINE_VARIANT) != 0))
            continue;
        if (p->weak && !(var->flags & SL_USES_THREADS)) {
            matched |= named;
            continue;
        }
        matched |= named;
        if ((var->flags & SL_USES_CUDA) && sl_cuda_device_count() <= 0) {
            if (s->nskipped < SL_MAX_SKIPPED)
                snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s/%s/%s",
                         p->tree, def->name, var->name);
            s->skip_reason = sl_cuda_absent_reason();
            continue;
        }
        int takes_threads = (var->flags & SL_USES_THREADS) != 0;
        int nt = takes_threads ? p->nthreads : 1;
        int max_threads = 0, top = 0, has_odd = 0, counts[SL_MAX_THREAD_COUNTS + 1];
        for (int t = 0; t < nt; t++) {
            counts[t] = takes_threads ? p->threads[t] : 0;
            max_threads = counts[t] > max_threads ? counts[t] : max_threads;
            if (counts[t] <= sl_cores_available() && counts[t] > top)
                top = counts[t];
            has_odd |= counts[t] == SL_ODD_SWEEP_THREADS;
        }
        /* The schedule sweep runs at the most threads that have a core
         * each, not at an oversubscribed point. */
        if (top == 0)
            top = max_threads;
        /* Both images are symmetric top to bottom, so 2 threads with
         * schedule(static) get mirror halves and balance by accident; a
         * sweep that stops at 2 threads adds 3, where static's cost shows
         * (labelled oversubscribed on 2 cores). */
        int odd = p->sweep && p->nschedules == 0 && (var->flags & SL_USES_SCHEDULE) &&
                  top == 2;
        if (odd && !has_odd)
            counts[nt++] = SL_ODD_SWEEP_THREADS;
        for (int t = 0; t < nt; t++) {
            int threads = counts[t];
            /* Schedules: those given, or the sweep at the largest thread
             * count and dynamic elsewhere, or none for other variants. */
            const sl_schedule *sched = NULL;
            int ns = 1;
            if (var->flags & SL_USES_SCHEDULE) {
                if (p->nschedules > 0)
                    sched = p->schedules, ns = p->nschedules;
                else if (p->sweep && ((threads == top && threads > 1) ||
                                      (odd && threads == SL_ODD_SWEEP_THREADS)))
                    sched = SL_SWEEP_SCHEDULES, ns = 4;
                else
                    sched = DYNAMIC_ONLY, ns = 1;
            }
            if (p->weak && sched)
                sched = DYNAMIC_ONLY, ns = 1;
            for (int i = 0; i < ns; i++) {
                sl_config *c = plan_config(s, p, k, var, size, threads,
                                           sched ? &sched[i] : NULL);
                if (c == NULL) {
                    snprintf(why, whylen, "out of memory planning the run");
                    return -1;
                }
                c->weak = p->weak;
                if (p->weak)
                    weak_size(k, size, max_threads, threads, &c->problem);
            }
        }
    }
    if (!matched && p->variant_name) {
        const char *names[16];
        size_t n = 0;
        for (size_t v = 0; v < k->count && n < 16; v++)
            names[n++] = k->variants[v].name;
        unknown_name("variant", p->variant_name, names, n, why, whylen);
        return -1;
    }
    return 0;
}

int sl_suite_add(sl_suite *s, const sl_plan *p, char *why, size_t whylen)
{
    int matched = 0;
    for (const sl_kernel *const *k = p->kernels; *k; k++) {
        if (p->kernel_name && strcmp(p->kernel_name, (*k)->problem->name) != 0)
            continue;
        matched = 1;
        if (add_kernel(s, p, *k, why, whylen) != 0)
            return -1;
    }
    if (!matched) {
        const char *names[16];
        size_t n = 0;
        for (const sl_kernel *const *k = p->kernels; *k && n < 16; k++)
            names[n++] = (*k)->problem->name;
        unknown_name("kernel", p->kernel_name, names, n, why, whylen);
        return -1;
    }
    return 0;
}

int sl_suite_named_skipped(const sl_suite *s, const char *variant_name, char *why,
                           size_t whylen)
{
    if (variant_name == NULL)
        return 0;
    for (int i = 0; i < s->nskipped; i++) {
        const char *slash = strrchr(s->skipped[i], '/');
        if (slash && strcmp(slash + 1, variant_name) == 0) {
            snprintf(why, whylen, "--variant %s cannot run here: %s", variant_name,
                     s->skip_reason);
            return 1;
        }
    }
    return 0;
}

void sl_suite_print_skipped(const sl_suite *s, FILE *f, int verbose)
{
    if (!verbose && s->nskipped > 1) {
        fprintf(f, "  skipped  %d variants (%s, ...): %s\n", s->nskipped, s->skipped[0],
                s->skip_reason);
        return;
    }
    for (int i = 0; i < s->nskipped; i++)
        fprintf(f, "  skipped  %-56s %s\n", s->skipped[i], s->skip_reason);
}

/* Run one configuration at one size and check it. Image kernels get an
 * image to fill; at the timed size (keep = 1) the configuration keeps the
 * work per row and who computed it, and the image itself when it is wrong. */
static int validate_at(sl_config *c, int64_t size, int keep, sl_outcome *out,
                       sl_verdict *verdict)
{
    const sl_problem_def *def = c->kernel->problem;
    sl_problem p = c->problem;
    if (size != p.size)
        p.height = 0;   /* the probe: square, whatever the timed shape */
    p.size = size;
    memset(out, 0, sizeof *out);
    int64_t width = p.size, height = sl_problem_height(&p);
    if (def->image) {
        out->counts = malloc((size_t)(width * height) * sizeof *out->counts);
        out->row_thread = malloc((size_t)height * sizeof *out->row_thread);
        if (out->counts == NULL || out->row_thread == NULL) {
            free(out->counts);
            free(out->row_thread);
            return -1;
        }
    }
    double t0 = sl_now();
    int rc = sl_solve(def, c->variant, &p, out);
    if (keep)
        c->call_seconds = sl_now() - t0;
    if (rc == 0)
        *verdict = def->check(&p, out);
    if (def->image && rc == 0 && keep) {
        c->row_work = calloc((size_t)height, sizeof *c->row_work);
        if (c->row_work)
            for (int64_t j = 0; j < height; j++)
                for (int64_t i = 0; i < width; i++)
                    c->row_work[j] += out->counts[j * width + i];
        c->row_thread = out->row_thread;
        out->row_thread = NULL;
        if (!verdict->ok) {
            c->counts = out->counts;
            out->counts = NULL;
        }
    }
    if (def->image) {
        free(out->counts);
        free(out->row_thread);
        out->counts = NULL;
        out->row_thread = NULL;
    }
    return rc;
}

size_t sl_suite_validate(sl_suite *s, FILE *progress, int verbose)
{
    size_t failed = 0;
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (sl_interrupted()) {
            /* Not run, so neither valid nor wrong: left out, not flagged. */
            snprintf(c->error, sizeof c->error, "interrupted");
            c->interrupted = 1;
            continue;
        }
        int64_t probe = c->kernel->problem->probe_size;
        int ran = validate_at(c, probe, 0, &c->probe_outcome, &c->probe_verdict) == 0 &&
                  validate_at(c, c->problem.size, 1, &c->outcome, &c->verdict) == 0;
        c->valid = ran && c->probe_verdict.ok && c->verdict.ok;
        if (!ran)
            snprintf(c->error, sizeof c->error, "could not run (out of memory?)");
        if (!c->valid)
            failed++;
        if (progress) {
            const sl_verdict *bad = !c->probe_verdict.ok ? &c->probe_verdict : &c->verdict;
            const sl_outcome *got = !c->probe_verdict.ok ? &c->probe_outcome : &c->outcome;
            int64_t at = !c->probe_verdict.ok ? probe : c->problem.size;
            const char *err = c->kernel->problem->error_name;
            if (c->valid && verbose)
                fprintf(progress, "  valid    %-56s %s %.3g <= %.3g  (%s)\n",
                        c->name, err, c->verdict.error, c->verdict.tolerance,
                        sl_where_name(c->outcome.where));
            else if (c->valid)
                ;
            else if (!ran)
                fprintf(progress, "  INVALID  %-56s %s\n", c->name, c->error);
            else
                fprintf(progress, "  INVALID  %-56s at %s=%lld got %.17g, expected "
                        "%.17g: %s %.3g > tolerance %.3g\n", c->name,
                        c->kernel->problem->size_name, (long long)at, got->value,
                        bad->expected, err, bad->error, bad->tolerance);
            fflush(progress);
        }
    }
    return failed;
}

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
    sl_quiet_mark from, to;
    sl_quiet_mark_now(&from);
    /* Only run() is timed: the answer and the work were tallied once, at
     * validation (the work of a call does not change between calls). */
    while (gb_keep_running(st)) {
        if (c->kernel->problem->run(c->variant, &c->problem, &out) != 0) {
            gb_skip_with_error(st, "the variant could not run");
            free(out.counts);
            return;
        }
        gb_do_not_optimize(out.value);
    }
    sl_quiet_mark_now(&to);
    free(out.counts);
    gb_set_items_processed(st, (double)gb_iterations(st) * c->outcome.work);
    /* Google Benchmark 1.7.1 reports, per repetition, the last call of the
     * body (the first repetition calls it until the iteration count is
     * found, later ones once): so the last `reps` calls recorded here are
     * the repetitions, in order (on_result checks their lengths agree). */
    double others = sl_quiet_others(&from, &to);
    int slot = c->ncalls++ % SL_MAX_REPS;
    c->call_others[slot] = others;
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
    for (int r = 0; r < c->timed; r++) {
        known &= c->others[r] >= 0.0;
        others += c->others[r];
        window += c->window[r];
        c->disturbed += c->others[r] >= 0.0 && sl_quiet_disturbed(c->others[r], c->window[r]);
    }
    c->others_cpu = known && window > 0.0 ? others / window : -1.0;
    c->contaminated = c->disturbed > 0;
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
        c->window[r] = c->call_window[slot];
        c->start[r] = c->call_start[slot];
    }
    for (int r = 0; r < n && !lined_up; r++)
        c->others[r] = -1.0, c->window[r] = 0.0;
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
 * Returns the number timed, or -1 when registering failed. */
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
    if (t.tty)
        fprintf(opt->progress, "\n");
    return ran;
}

/* Keep the cleaner of two measurements of one configuration: fewer
 * disturbed repetitions, then less CPU taken by others. */
static int cleaner(const sl_config *a, const sl_config *b)
{
    if (a->disturbed != b->disturbed)
        return a->disturbed < b->disturbed;
    return a->others_cpu <= b->others_cpu;
}

int sl_suite_time(sl_suite *s, const sl_timing *opt)
{
    char *want = calloc(s->count ? s->count : 1, 1);
    body_ctx *bodies = calloc(s->count ? s->count : 1, sizeof *bodies);
    sl_config *kept = calloc(s->count ? s->count : 1, sizeof *kept);
    int rc = -1;
    if (want == NULL || bodies == NULL || kept == NULL)
        goto out;
    for (size_t i = 0; i < s->count; i++)
        want[i] = s->configs[i].valid;
    s->epoch = sl_now();
    if (time_pass(s, opt, want, bodies) <= 0)
        goto out;
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
        if (opt->progress)
            fprintf(opt->progress, "  measuring %d disturbed configuration(s) again "
                    "(other processes used more than %.2g of a core while they ran)\n",
                    again, SL_BUSY_CORES);
        if (time_pass(s, opt, want, bodies) < 0)
            goto out;
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
    return rc;
}

int sl_suite_first_of_kernel(const sl_suite *s, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (s->configs[j].kernel->problem == s->configs[i].kernel->problem)
            return 0;
    return 1;
}

const sl_config *sl_suite_baseline(const sl_suite *s, const sl_config *c)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *b = &s->configs[i];
        if (b->kernel->problem == c->kernel->problem && strcmp(b->tree, c->tree) == 0 &&
            !b->weak && strcmp(b->variant->name, SL_BASELINE_VARIANT) == 0)
            return b;
    }
    return NULL;
}

void sl_suite_free(sl_suite *s)
{
    for (size_t i = 0; i < s->count; i++) {
        free(s->configs[i].row_work);
        free(s->configs[i].row_thread);
        free(s->configs[i].counts);
    }
    free(s->configs);
    s->configs = NULL;
    s->count = s->cap = 0;
}
