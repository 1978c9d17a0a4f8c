/* bench_plan.c - the bench's plan and its early refusals (bench_plan.h). */
#include "bench_plan.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "context.h"
#include "exitcodes.h"
#include "foreign.h"
#include "isolate.h"
#include "sample.h"

/* The weak-scaling study times the best CPU rung: threads and SIMD. */
#define WEAK_FLAGS (SL_USES_THREADS | SL_USES_SIMD)

void sl_bench_settings_of(const sl_cli *cli, sl_bench_settings *out)
{
    out->reps = cli->reps;
    out->min_time = cli->min_time;
    out->target = cli->target / 100.0;
    out->budget = 60.0 * cli->budget;
    out->retry_busy = cli->retry_busy;
    const char *share = getenv(SL_WATCH_SHARE_ENV);
    char *end = NULL;
    double v = share ? strtod(share, &end) : -1.0;
    out->watch_share = end && end != share && *end == '\0' && v >= 0.0 && v <= 1e6
                           ? v : SL_WATCH_SHARE;
}

/* The weak study after the strong one (see sl_bench_plan). */
static int add_weak_study(sl_suite *suite, const sl_plan *strong, const sl_cli *cli,
                          char *why, size_t whylen)
{
    int counts[SL_MAX_THREAD_COUNTS], n = 0;
    for (int i = 0; i < cli->nthreads; i++)
        if (cli->threads[i] <= sl_cores_available())
            counts[n++] = cli->threads[i];
    if (cli->no_weak || n < 2)
        return 0;
    unsigned want = cli->variant ? SL_USES_THREADS : WEAK_FLAGS;
    int threaded = 0;
    for (size_t i = 0; i < suite->count; i++) {
        const sl_variant *v = suite->configs[i].variant;
        threaded |= (v->flags & want) == want && !(v->flags & SL_NOT_BY_FLAGS) &&
                    (!cli->variant || strcmp(v->name, cli->variant) == 0);
    }
    if (!threaded)
        return 0;
    sl_plan weak = *strong;
    weak.variant_flags = want;
    weak.threads = counts;
    weak.nthreads = n;
    weak.sweep = 0;
    weak.nschedules = 0;
    weak.weak = 1;
    return sl_suite_add(suite, &weak, why, whylen);
}

int sl_bench_plan(sl_suite *suite, const sl_cli *cli, const char *tree,
                  const sl_kernel *const *kernels, char *why, size_t whylen)
{
    sl_plan plan = {
        .tree = tree, .kernels = kernels,
        .kernel_name = cli->kernel, .variant_name = cli->variant,
        .threads = cli->threads, .nthreads = cli->nthreads,
        .size = cli->size, .sizes = cli->sizes, .nsizes = cli->nsizes,
        .max_iter = cli->max_iter, .seed = cli->seed,
        .schedules = cli->schedules, .nschedules = cli->nschedules, .sweep = 1,
        .quick = cli->quick, .no_baseline = cli->no_baseline,
    };
    if (sl_suite_add(suite, &plan, why, whylen) != 0)
        return -1;
    return add_weak_study(suite, &plan, cli, why, whylen);
}

/* Whether the filter keeps name: the configuration's own, or with the
 * suffixes Google Benchmark adds for this run's settings. */
static int filter_keeps(const regex_t *re, int negate, const char *name,
                        const sl_bench_settings *s)
{
    char full[SL_PATH_BUF];
    snprintf(full, sizeof full, "%s/min_time:%0.3f/min_warmup_time:%0.3f/repeats:%d/real_time",
             name, s->min_time, s->min_time, s->reps);
    int found = regexec(re, name, 0, NULL, 0) == 0 || regexec(re, full, 0, NULL, 0) == 0;
    return found != negate;
}

int sl_bench_check_filter(const sl_suite *suite, const sl_cli *cli,
                          const sl_bench_settings *s, char *why, size_t whylen)
{
    static const char flag[] = "--benchmark_filter=";
    const char *filter = NULL;
    for (int i = 0; i < cli->gbargc; i++)
        if (strncmp(cli->gbargv[i], flag, sizeof flag - 1) == 0)
            filter = cli->gbargv[i] + sizeof flag - 1;
    if (!filter || !*filter || strcmp(filter, "all") == 0)
        return 0;
    int negate = filter[0] == '-';
    regex_t re;
    if (regcomp(&re, filter + negate, REG_EXTENDED | REG_NOSUB) != 0)
        return sl_fail(why, whylen, "--benchmark_filter: '%s' is not a regular expression", filter);
    size_t kept = 0;
    for (size_t i = 0; i < suite->count; i++)
        kept += filter_keeps(&re, negate, suite->configs[i].name, s);
    regfree(&re);
    if (kept == 0 && suite->count > 0)
        return sl_fail(why, whylen, "--benchmark_filter=%s matches none of the %zu planned "
                       "configurations (their names look like %s)", filter, suite->count,
                       suite->configs[0].name);
    return 0;
}

int sl_bench_check_import(const sl_suite *suite, const char *path, char *why, size_t whylen)
{
    sl_suite dry = { .count = suite->count, .cap = suite->count };
    dry.configs = malloc((suite->count ? suite->count : 1) * sizeof *dry.configs);
    if (!dry.configs)
        return sl_fail(why, whylen, "out of memory");
    memcpy(dry.configs, suite->configs, suite->count * sizeof *dry.configs);
    int skipped, rc = sl_suite_import(&dry, path, &skipped, why, whylen);
    free(dry.configs);
    sl_foreign_free(dry.foreign);
    sl_grid_free(&dry.grid);
    free(dry.first_calls);
    free(dry.first_calls_context);
    return rc < 0 ? -1 : 0;
}

int sl_bench_check_inputs(sl_suite *suite, const sl_cli *cli, const sl_bench_settings *set,
                          int participant, sl_breakdown *bd, char *why, size_t whylen)
{
    if (sl_bench_check_filter(suite, cli, set, why, whylen) != 0)
        return SL_EXIT_USAGE;
    for (int i = 0; i < cli->nimport; i++)
        if (sl_bench_check_import(suite, cli->import[i], why, whylen) != 0)
            return SL_EXIT_USAGE;
    if (participant)
        sl_isolate_child(suite);
    if (sl_suite_check_memory(suite, why, whylen) != 0)
        return SL_EXIT_USAGE;
    sl_breakdown_begin(bd, suite);
    if (sl_suite_named_skipped(suite, cli->variant, why, whylen))
        return SL_EXIT_MISSING;
    if (cli->require_device && sl_check_device(NULL, why, whylen) != 0)
        return SL_EXIT_MISSING;
    return -1;
}

void sl_bench_affinity_warnings(const sl_cli *cli, char *out, size_t len)
{
    int mask = sl_cores_available(), most = 0;
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < cli->nthreads; i++)
        most = cli->threads[i] > most ? cli->threads[i] : most;
    const char *env = getenv("OMP_NUM_THREADS");
    int from_env = env ? atoi(env) : 0;
    if (mask > 0 && cli->threads_given && most > mask)
        at += (size_t)snprintf(out + at, len - at, "warning: up to %d threads requested, but "
                               "the affinity mask has %d CPU(s): the points above %d share "
                               "CPUs (labelled oversubscribed)\n", most, mask, mask);
    if (mask > 0 && from_env > mask && at < len)
        at += (size_t)snprintf(out + at, len - at, "warning: OMP_NUM_THREADS=%d but the "
                               "affinity mask has %d CPU(s) (in a SLURM job: raise "
                               "--cpus-per-task)\n", from_env, mask);
    char slurm[512];
    if (sl_slurm_cpu_warning(slurm, sizeof slurm) && at < len)
        snprintf(out + at, len - at, "warning: %s\n", slurm);
}

double sl_bench_deadline(const sl_bench_settings *s, double start, double probe_seconds)
{
    return s->budget > 0.0 ? start + s->budget - (SL_AFTER_TIMING_SECONDS + probe_seconds) : 0.0;
}

void sl_bench_describe_target(const sl_bench_settings *s, char *out, size_t len)
{
    out[0] = '\0';
    if (s->target > 0.0)
        snprintf(out, len, "; then more, to +-%.3g%%, %s", 100.0 * s->target,
                 s->budget > 0.0 ? "within the time budget" : "with no time limit");
}

/* A configuration timed with fewer repetitions than asked (Google
 * Benchmark stopped it): 1 with why naming the first one, else 0. */
static int short_of_reps(const sl_suite *s, int reps, char *why, size_t whylen)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (c->valid && c->timed > 0 && c->timed < reps) {
            snprintf(why, whylen, "%s ended with %d of %d repetitions%s%.200s; nothing "
                     "is published", c->name, c->timed, reps, c->error[0] ? ": " : "",
                     c->error);
            return 1;
        }
    }
    return 0;
}

int sl_bench_after_timing(const sl_suite *s, const sl_bench_settings *set, size_t invalid,
                          int timed, int sig, char *why, size_t whylen)
{
    if (timed && !sig && short_of_reps(s, set->reps, why, whylen))
        return SL_EXIT_RUNTIME;
    if (sig && !timed) {
        sl_fail(why, whylen, "interrupted before anything was timed; nothing written");
        return 128 + sig;
    }
    if (invalid < s->count && !timed) {
        sl_fail(why, whylen, "nothing was timed (does --benchmark_filter match?)");
        return SL_EXIT_USAGE;
    }
    return -1;
}
