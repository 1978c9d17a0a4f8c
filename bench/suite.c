/* suite.c - planning, validation and timing of configurations (suite.h).
 *
 * Timing: Google Benchmark (through gbench.h) with real time, a warm-up,
 * and repetitions; this file turns the repetitions into median, spread and
 * rate. Nothing here reads a clock.
 */
#include "suite.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gbench.h"

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

static int add_kernel(sl_suite *s, const sl_plan *p, const sl_kernel *k,
                      char *why, size_t whylen)
{
    const sl_problem_def *def = k->problem;
    int64_t size = p->size ? p->size : p->quick ? def->quick_size : def->default_size;
    int cores = sl_cores_available();
    int matched = 0;

    if (size > def->max_size) {
        snprintf(why, whylen, "--size: %lld %s is more than %s allows (at most %lld)",
                 (long long)size, def->size_name, def->name, (long long)def->max_size);
        return -1;
    }

    for (size_t v = 0; v < k->count; v++) {
        const sl_variant *var = &k->variants[v];
        int named = !p->variant_name || strcmp(p->variant_name, var->name) == 0;
        /* A speedup needs the baseline, so it is planned whatever was named. */
        if (!named && strcmp(var->name, SL_BASELINE_VARIANT) != 0)
            continue;
        matched |= named;
        int takes_threads = (var->flags & SL_USES_THREADS) != 0;
        int nt = takes_threads ? p->nthreads : 1;
        for (int t = 0; t < nt; t++) {
            sl_config *c = suite_push(s);
            if (c == NULL) {
                snprintf(why, whylen, "out of memory planning the run");
                return -1;
            }
            c->tree = p->tree;
            c->kernel = k;
            c->variant = var;
            c->problem.size = size;
            c->problem.threads = takes_threads ? p->threads[t] : 0;
            if (takes_threads) {
                c->threads_used = sl_threads_granted(c->problem.threads);
                c->oversubscribed = c->threads_used > cores;
            } else if (!(var->flags & SL_USES_GPU)) {
                c->threads_used = 1;
            }
            if (takes_threads)
                snprintf(c->name, sizeof c->name, "%s/%s/%s/threads:%d",
                         p->tree, def->name, var->name, c->problem.threads);
            else
                snprintf(c->name, sizeof c->name, "%s/%s/%s", p->tree,
                         def->name, var->name);
        }
    }
    if (!matched) {
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

/* Run one configuration at one size and check it. */
static int validate_at(sl_config *c, int64_t size, sl_outcome *out,
                       sl_verdict *verdict)
{
    sl_problem p = c->problem;
    p.size = size;
    memset(out, 0, sizeof *out);
    if (c->kernel->problem->run(c->variant, &p, out) != 0)
        return -1;
    *verdict = c->kernel->problem->check(&p, out);
    return 0;
}

size_t sl_suite_validate(sl_suite *s, FILE *progress)
{
    size_t failed = 0;
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        int64_t probe = c->kernel->problem->probe_size;
        int ran = validate_at(c, probe, &c->probe_outcome, &c->probe_verdict) == 0 &&
                  validate_at(c, c->problem.size, &c->outcome, &c->verdict) == 0;
        c->valid = ran && c->probe_verdict.ok && c->verdict.ok;
        if (!ran)
            snprintf(c->error, sizeof c->error, "could not run (out of memory?)");
        if (!c->valid)
            failed++;
        if (progress) {
            const sl_verdict *bad = !c->probe_verdict.ok ? &c->probe_verdict : &c->verdict;
            const sl_outcome *got = !c->probe_verdict.ok ? &c->probe_outcome : &c->outcome;
            int64_t at = !c->probe_verdict.ok ? probe : c->problem.size;
            if (c->valid)
                fprintf(progress, "  valid    %-44s error %.2e <= %.2e  (%s)\n",
                        c->name, c->verdict.error, c->verdict.tolerance,
                        sl_where_name(c->outcome.where));
            else if (!ran)
                fprintf(progress, "  INVALID  %-44s %s\n", c->name, c->error);
            else
                fprintf(progress, "  INVALID  %-44s at %s=%lld got %.17g, expected "
                        "%.17g: error %.3g > tolerance %.3g\n", c->name,
                        c->kernel->problem->size_name, (long long)at, got->value,
                        bad->expected, bad->error, bad->tolerance);
            fflush(progress);
        }
    }
    return failed;
}

/* The Google Benchmark body: call the variant until told to stop. */
static void time_body(gb_state *st, void *ctx)
{
    sl_config *c = ctx;
    sl_outcome out;
    while (gb_keep_running(st)) {
        if (c->kernel->problem->run(c->variant, &c->problem, &out) != 0) {
            gb_skip_with_error(st, "the variant could not run");
            return;
        }
        gb_do_not_optimize(out.value);
    }
    gb_set_items_processed(st, (double)gb_iterations(st) * out.work);
}

typedef struct timing_ctx {
    sl_suite *suite;
    FILE *progress;
    size_t done, total;
    int reps;
} timing_ctx;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, extremes, spread and rate from the repetitions. */
static void summarise(sl_config *c)
{
    double sorted[SL_MAX_REPS], mean = 0.0, var = 0.0;
    int n = c->timed;
    memcpy(sorted, c->seconds, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    c->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    c->min = sorted[0];
    c->max = sorted[n - 1];
    for (int i = 0; i < n; i++)
        mean += sorted[i] / n;
    for (int i = 0; i < n; i++)
        var += (sorted[i] - mean) * (sorted[i] - mean);
    c->stddev = n > 1 ? sqrt(var / (n - 1)) : 0.0;
    c->cv = mean > 0.0 ? c->stddev / mean : 0.0;
    c->rate = c->median > 0.0 ? c->outcome.work / c->median : 0.0;
}

static void on_result(const gb_result *r, void *ctx)
{
    timing_ctx *t = ctx;
    for (size_t i = 0; i < t->suite->count; i++) {
        sl_config *c = &t->suite->configs[i];
        if (strcmp(c->name, r->name) != 0)
            continue;
        if (r->error) {
            snprintf(c->error, sizeof c->error, "%s", r->error_message);
            c->valid = 0;
        } else if (c->timed < SL_MAX_REPS) {
            c->seconds[c->timed++] = r->seconds_per_call;
        }
        if (c->timed == t->reps || r->error) {
            t->done++;
            if (!r->error)
                summarise(c);
            if (t->progress) {
                if (r->error)
                    fprintf(t->progress, "  [%zu/%zu] %-44s ERROR %s\n", t->done,
                            t->total, c->name, c->error);
                else
                    fprintf(t->progress, "  [%zu/%zu] %-44s median %10.3f ms  "
                            "%9.3e %s/s  cv %4.1f%%\n", t->done, t->total, c->name,
                            c->median * 1e3, c->rate,
                            c->kernel->problem->work_unit, 100.0 * c->cv);
                fflush(t->progress);
            }
        }
        return;
    }
}

int sl_suite_time(sl_suite *s, int reps, double min_time, FILE *progress)
{
    timing_ctx t = { s, progress, 0, 0, reps };
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (!c->valid)
            continue;
        gb_bench *b = gb_register(c->name, time_body, c);
        if (b == NULL)
            return -1;
        gb_use_real_time(b);
        gb_repetitions(b, reps);
        gb_min_time(b, min_time);
        /* The first calls start the thread pool or the device. */
        gb_min_warmup_time(b, min_time);
        t.total++;
    }
    if (t.total == 0)
        return -1;
    if (gb_run(on_result, &t) == 0)
        return -1;
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        const sl_config *base = sl_suite_baseline(s, c);
        c->speedup = c->valid && c->timed && base && base->valid && base->timed
                         ? base->median / c->median : 0.0;
    }
    return 0;
}

const sl_config *sl_suite_baseline(const sl_suite *s, const sl_config *c)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *b = &s->configs[i];
        if (b->kernel->problem == c->kernel->problem && strcmp(b->tree, c->tree) == 0 &&
            strcmp(b->variant->name, SL_BASELINE_VARIANT) == 0)
            return b;
    }
    return NULL;
}

void sl_suite_free(sl_suite *s)
{
    free(s->configs);
    s->configs = NULL;
    s->count = s->cap = 0;
}
