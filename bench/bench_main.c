/* bench_main.c - `make bench`: validate, time and report one tree.
 *
 * Built once per tree (speedlab-bench-solutions, speedlab-bench-exercises).
 * Order: parse and check every input; create the run folder; validate every
 * configuration; time the valid ones with Google Benchmark; write the data
 * files; plot; publish the folder; print the summary. Exit codes follow
 * common/exitcodes.h: 3 when any configuration failed validation.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "breakdown_report.h"
#include "ceiling_report.h"
#include "cli.h"
#include "context.h"
#include "evidence.h"
#include "exitcodes.h"
#include "foreign.h"
#include "gbench.h"
#include "history.h"
#include "report.h"
#include "interrupt.h"
#include "isolate.h"
#include "platform.h"
#include "results.h"
#include "run_dir.h"
#include "speedlab_config.h"
#include "story.h"
#include "suite.h"
#include "tree.h"

extern const sl_kernel *const SL_TREE_SYMBOL(kernels)[];

#define STR_(x) #x
#define STR(x) STR_(x)
#define TREE_NAME STR(SPEEDLAB_TREE)

/* Default statistics: enough repetitions for the median's 95% interval
 * (suite.h), in quick mode too. */
enum { DEFAULT_REPS = SL_CI_MIN_REPS, QUICK_REPS = SL_CI_MIN_REPS };

/* The weak-scaling study times the best CPU rung: threads and SIMD. */
#define WEAK_FLAGS (SL_USES_THREADS | SL_USES_SIMD)

/* Left-out repetitions are replaced in up to two rounds by default. */
enum { DEFAULT_RETRY_BUSY = 2 };

/* Short repetitions, as many as the target needs: a full run on 2 cores
 * spends about 6 minutes on its first pass (AMD EPYC Zen 5, 127
 * configurations), the rest of the budget on the noisy ones. */
#define DEFAULT_MIN_TIME 0.1
#define QUICK_MIN_TIME 0.05
#define DEFAULT_TARGET 0.05
#define DEFAULT_BUDGET_MIN 10.0
/* What follows the timing (the GPU breakdown, the ceilings' second probe,
 * the files and figures) besides the probe's own time: seconds kept
 * back from the budget. */
#define AFTER_TIMING_SECONDS 45.0

static const char intro[] =
    "usage: speedlab-bench-" TREE_NAME " [options] [--benchmark_* flags]\n"
    "Validate every variant of the " TREE_NAME " tree, time the valid ones and\n"
    "write a run folder <results>/<UTC time>-<host>/ plus <results>/latest.\n";
static const char outro[] =
    "Google Benchmark flags honoured: --benchmark_filter=REGEX (a configuration's\n"
    "name, e.g. solutions/<kernel>/simd), --benchmark_context=KEY=VALUE,\n"
    "--benchmark_enable_random_interleaving=false; the others are refused.\n"
    "Exit: 0 ok, 1 runtime/I-O failure, 2 bad input, 3 a variant failed validation,\n"
    "4 --require-device and no device.\n";

/* Google Benchmark writes each pass's JSON to one temporary name: the
 * first pass becomes bench.json, each later round (repetitions that
 * replace disturbed ones, or narrow an interval) bench-round-N.json. */
typedef struct json_passes {
    const char *partial, *tmp;
    int npasses;
} json_passes;

/* 0, or -1 (ENAMETOOLONG) when the name does not fit. */
static int pass_name(const json_passes *p, int pass, int final, char *out, size_t len)
{
    if (final && pass == 0)
        return sl_path_format(out, len, "%s/" SL_FILE_CONTEXT, p->partial);
    if (final)
        return sl_path_format(out, len, "%s/bench-round-%d.json", p->partial, pass);
    return sl_path_format(out, len, "%s/.bench-%d.json.tmp", p->partial, pass);
}

static void keep_json(int pass, void *ctx)
{
    json_passes *p = ctx;
    char held[SL_PATH_BUF];
    if (pass_name(p, pass, 0, held, sizeof held) == 0 && rename(p->tmp, held) == 0)
        p->npasses = pass + 1;
}

/* Publish the passes' JSON under their names, or drop them (a signal). */
static int publish_json(const json_passes *p, int drop, char *why, size_t whylen)
{
    char held[SL_PATH_BUF], final[SL_PATH_BUF];
    unlink(p->tmp);
    for (int pass = 0; pass < p->npasses; pass++) {
        if (pass_name(p, pass, 0, held, sizeof held) != 0 ||
            pass_name(p, pass, 1, final, sizeof final) != 0) {
            return sl_fail(why, whylen, "a JSON file's path in '%s' is too long", p->partial);
        }
        if (drop) {
            unlink(held);
        } else if (sl_atomic_publish(held, final) != 0) {
            return sl_fail(why, whylen, "cannot write '%s': %s", final, strerror(errno));
        }
    }
    return 0;
}

/* Write every data file into the partial folder (the summary and the page
 * come after the plots: they show the figures that exist). */
static int write_files(const sl_run_dir *run, const sl_suite *suite,
                       const sl_context *ctx, const sl_breakdown *bd,
                       const sl_ceilings *ceilings, char *why, size_t whylen)
{
    char path[SL_PATH_BUF];         /* the file that failed, for the message */
    if (sl_write_run_data(run->partial, suite, ctx, path, sizeof path) == 0) {
        const char *failed = NULL;
        if (sl_write_ceilings(run->partial, ceilings, suite) != 0)
            failed = "ceiling.csv or evidence.csv";
        else if (sl_write_roofline(run->partial, ceilings, suite) != 0)
            failed = "roofline.dat";
        else if (sl_breakdown_write(run->partial, bd) != 0)
            failed = "breakdown.csv";
        else if (sl_write_evidence(run->partial, suite) != 0)
            failed = "(image evidence)";
        else
            return 0;
        int err = errno;
        sl_path_join(path, sizeof path, run->partial, failed);
        errno = err;
    }
    return sl_fail(why, whylen, "cannot write '%s': %s", path, strerror(errno));
}

/* A configuration that was timed but got fewer repetitions than asked
 * (Google Benchmark stopped it) has no median worth publishing. Returns 1
 * with why naming the first one, else 0. */
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

/* What the rows call their tree: the tree, or --label's name (the
 * compiler, when another run imports them beside its own). */
static const char *rows_tree(const sl_cli *cli)
{
    return cli->label[0] ? cli->label[0] : TREE_NAME;
}

/* The exercises are the participant's code: a hang or a crash there must
 * name the variant, not freeze or kill the bench (isolate.h). */
static int participant_tree(void)
{
    return strcmp(TREE_NAME, "exercises") == 0;
}

/* Pin threads unless the user chose a binding: unpinned threads migrate
 * and scaling figures wobble. The OpenMP runtime reads its environment
 * when it starts, before main, so the program starts itself again with
 * the binding set (the first start has run no OpenMP code yet). */
static void bind_threads(char **argv)
{
    char why[256];
    /* A bad OpenMP environment is reported once, by this process. */
    if (getenv("OMP_PROC_BIND") || getenv("OMP_PLACES") ||
        sl_check_omp_env(why, sizeof why) != 0)
        return;
    char self[SL_PATH_BUF];
    if (sl_self_exe(argv[0], self, sizeof self) != 0 ||
        setenv("OMP_PROC_BIND", "close", 1) != 0 || setenv("OMP_PLACES", "cores", 1) != 0)
        return;
    execv(self, argv);
    /* Not started again: run unbound; the context records the binding. */
    unsetenv("OMP_PROC_BIND");
    unsetenv("OMP_PLACES");
}

/* Read --import's rows against the plan before anything is measured, so
 * that a bad file costs nothing; the real import comes after the timing. */
static int check_import(const sl_suite *suite, const char *path, char *why, size_t whylen)
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

/* More threads asked for than the affinity mask has CPUs (a SLURM job
 * with too small --cpus-per-task, taskset): say so before measuring. The
 * default list's one oversubscribed point is planned, not a mistake. */
static void warn_affinity(const sl_cli *cli)
{
    int mask = sl_cores_available(), most = 0;
    for (int i = 0; i < cli->nthreads; i++)
        most = cli->threads[i] > most ? cli->threads[i] : most;
    const char *env = getenv("OMP_NUM_THREADS");
    int from_env = env ? atoi(env) : 0;
    if (mask > 0 && cli->threads_given && most > mask)
        printf("warning: up to %d threads requested, but the affinity mask has %d CPU(s): "
               "the points above %d share CPUs (labelled oversubscribed)\n", most, mask, mask);
    if (mask > 0 && from_env > mask)
        printf("warning: OMP_NUM_THREADS=%d but the affinity mask has %d CPU(s) (in a "
               "SLURM job: raise --cpus-per-task)\n", from_env, mask);
    char slurm[512];
    if (sl_slurm_cpu_warning(slurm, sizeof slurm))
        printf("warning: %s\n", slurm);
}

/* Plan the weak-scaling study: the best CPU rung (threads and SIMD), or
 * the variant named when it takes threads, at every thread count that has
 * a core to itself. */
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
        threaded |= (v->flags & want) == want && !(v->flags & SL_STAGE) &&
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

/* One bench run as it moves through its stages. A stage returns CONTINUE
 * or the exit code that ends the run, with why saying why (empty when the
 * stage has said so itself); bench() then discards the run folder, if one
 * was made and not yet published: one cleanup path for every failure. */
enum { CONTINUE = -1 };

typedef struct bench_run {
    const char *prog;
    char **argv;
    sl_cli cli;
    sl_suite *suite;
    int reps;
    double min_time;
    double start;                  /* sl_now() when the run began */
    double target, budget;         /* relative; seconds (0: no limit) */
    sl_run_dir run;
    int have_folder;               /* run.partial exists and is ours */
    char json_tmp[SL_PATH_BUF], out_flag[SL_PATH_BUF + 32];
    json_passes passes;
    sl_breakdown breakdown;
    sl_context ctx;
    sl_ceilings ceilings;
    int memory;                    /* a kernel moves memory: probe the bus too */
    size_t invalid;
    int timed, sig, plots;
    int published;                 /* the folder is in place (run.final) */
    char why[SL_WHY_BUF];
} bench_run;

static int fail(bench_run *b, int code, const char *why)
{
    snprintf(b->why, sizeof b->why, "%s", why);
    return code;
}

/* Parse the options and plan the suite: the strong study, the weak one. */
static int plan(bench_run *b, int argc)
{
    sl_cli *cli = &b->cli;
    char why[SL_WHY_BUF];
    if (sl_check_omp_env(why, sizeof why) != 0)
        return fail(b, SL_EXIT_USAGE, why);
    int rc = sl_cli_parse(cli, argc, b->argv, 1, 0, SL_CLI_BENCH, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    sl_plan plan = {
        .tree = rows_tree(cli), .kernels = SL_TREE_SYMBOL(kernels),
        .kernel_name = cli->kernel, .variant_name = cli->variant,
        .threads = cli->threads, .nthreads = cli->nthreads,
        .size = cli->size, .sizes = cli->sizes, .nsizes = cli->nsizes,
        .max_iter = cli->max_iter, .seed = cli->seed,
        .schedules = cli->schedules, .nschedules = cli->nschedules, .sweep = 1,
        .quick = cli->quick,
    };
    if (sl_suite_add(b->suite, &plan, why, sizeof why) != 0 ||
        add_weak_study(b->suite, &plan, cli, why, sizeof why) != 0)
        return fail(b, SL_EXIT_USAGE, why);
    b->reps = cli->reps ? cli->reps : cli->quick ? QUICK_REPS : DEFAULT_REPS;
    b->min_time = cli->min_time > 0 ? cli->min_time
                  : cli->quick ? QUICK_MIN_TIME : DEFAULT_MIN_TIME;
    /* Asking for fewer repetitions than a 95% interval needs (or a quick
     * run) asks for speed: no target unless one is given. */
    b->target = cli->target >= 0 ? cli->target / 100.0
                : cli->quick || b->reps < SL_CI_MIN_REPS ? 0.0 : DEFAULT_TARGET;
    b->budget = 60.0 * (cli->budget >= 0 ? cli->budget : DEFAULT_BUDGET_MIN);
    return CONTINUE;
}

/* Everything that can be refused before a folder is made: the imported
 * rows, the memory the plan needs, variants asked for that cannot run. */
/* Whether Google Benchmark's filter (POSIX extended, searched in the
 * name; a leading '-' negates it) keeps name: the configuration's own, or
 * with the suffixes Google Benchmark adds for this run's settings. */
static int filter_keeps(const regex_t *re, int negate, const char *name, const bench_run *b)
{
    char full[SL_PATH_BUF];
    snprintf(full, sizeof full, "%s/min_time:%0.3f/min_warmup_time:%0.3f/repeats:%d/real_time",
             name, b->min_time, b->min_time, b->reps);
    int found = regexec(re, name, 0, NULL, 0) == 0 || regexec(re, full, 0, NULL, 0) == 0;
    return found != negate;
}

/* A --benchmark_filter that keeps no planned configuration: refused now,
 * before anything is validated, rather than after (17 s for a quick run
 * of every kernel). The last one given wins, as in Google Benchmark.
 * 0, or -1 with why. */
static int check_filter(const bench_run *b, char *why, size_t whylen)
{
    static const char flag[] = "--benchmark_filter=";
    const char *filter = NULL;
    for (int i = 0; i < b->cli.gbargc; i++)
        if (strncmp(b->cli.gbargv[i], flag, sizeof flag - 1) == 0)
            filter = b->cli.gbargv[i] + sizeof flag - 1;
    if (!filter || !*filter || strcmp(filter, "all") == 0)
        return 0;
    int negate = filter[0] == '-';
    regex_t re;
    if (regcomp(&re, filter + negate, REG_EXTENDED | REG_NOSUB) != 0)
        return sl_fail(why, whylen, "--benchmark_filter: '%s' is not a regular expression", filter);
    size_t kept = 0;
    for (size_t i = 0; i < b->suite->count; i++)
        kept += filter_keeps(&re, negate, b->suite->configs[i].name, b);
    regfree(&re);
    if (kept == 0 && b->suite->count > 0)
        return sl_fail(why, whylen, "--benchmark_filter=%s matches none of the %zu planned "
                       "configurations (their names look like %s)", filter, b->suite->count,
                       b->suite->configs[0].name);
    return 0;
}

static int check_inputs(bench_run *b)
{
    char why[SL_WHY_BUF];
    if (check_filter(b, why, sizeof why) != 0)
        return fail(b, SL_EXIT_USAGE, why);
    for (int i = 0; i < b->cli.nimport; i++)
        if (check_import(b->suite, b->cli.import[i], why, sizeof why) != 0)
            return fail(b, SL_EXIT_USAGE, why);
    if (participant_tree())
        sl_isolate_child(b->suite);
    if (sl_suite_check_memory(b->suite, why, sizeof why) != 0)
        return fail(b, SL_EXIT_USAGE, why);
    /* Before anything else offloads: the first target region pays for
     * starting the device, and lesson 5 shows that cost. */
    sl_breakdown_begin(&b->breakdown, b->suite);
    if (sl_suite_named_skipped(b->suite, b->cli.variant, why, sizeof why))
        return fail(b, SL_EXIT_MISSING, why);
    if (b->cli.require_device && sl_check_device(NULL, why, sizeof why) != 0)
        return fail(b, SL_EXIT_MISSING, why);
    return CONTINUE;
}

/* The run folder (room checked, stale ones of killed runs removed), and
 * Google Benchmark told to write its JSON into it. */
static int make_folder(bench_run *b)
{
    char why[SL_WHY_BUF];
    if (sl_run_dir_create(&b->run, b->cli.results, why,
                          sizeof why) != 0)
        return fail(b, SL_EXIT_USAGE, why);
    b->have_folder = 1;
    if (b->run.cleaned)
        printf("removed %d unfinished run folder(s) left in %s by runs that were killed\n",
               b->run.cleaned, b->run.base);
    if (sl_path_join(b->json_tmp, sizeof b->json_tmp, b->run.partial, "." SL_FILE_CONTEXT ".tmp") != 0)
        return fail(b, SL_EXIT_USAGE, "the results folder's path is too long");
    snprintf(b->out_flag, sizeof b->out_flag, "--benchmark_out=%s", b->json_tmp);
    b->passes = (json_passes){ .partial = b->run.partial, .tmp = b->json_tmp };
    static char format_flag[] = "--benchmark_out_format=json";
    int gbargc = 0;
    char *gbargv[SL_MAX_GB_FLAGS + 4];
    gbargv[gbargc++] = b->argv[0];
    for (int i = 0; i < b->cli.gbargc; i++)
        gbargv[gbargc++] = b->cli.gbargv[i];
    gbargv[gbargc++] = b->out_flag;
    gbargv[gbargc++] = format_flag;
    /* gb_initialize says why when it refuses. */
    if (gb_initialize(&gbargc, gbargv, 1) != 0)
        return SL_EXIT_USAGE;
    if (gbargc > 1) {
        snprintf(why, sizeof why, "Google Benchmark did not understand '%.200s'", gbargv[1]);
        return fail(b, SL_EXIT_USAGE, why);
    }
    return CONTINUE;
}

/* Every configuration checked against its reference before any is timed. */
static int validate(bench_run *b)
{
    char why[SL_WHY_BUF];
    sl_suite *suite = b->suite;
    warn_affinity(&b->cli);
    printf("speedlab bench (%s tree%s%s): validating %zu configurations\n", TREE_NAME,
           b->cli.label[0] ? ", its rows labelled " : "", b->cli.label[0] ? b->cli.label[0] : "",
           suite->count);
    if (b->cli.verbose)
        sl_suite_print_skipped(suite, stdout);
    if (participant_tree()) {
        printf("  each of your variants is checked first in a child process: a hang or "
               "a crash names the variant\n");
        fflush(stdout);
        sl_isolate_tree(suite, b->argv, TREE_NAME);
        sl_isolate_print_hints(stdout, suite);
    }
    b->invalid = sl_suite_validate(suite, stdout, b->cli.verbose);
    const sl_config *oom = sl_suite_out_of_memory(suite);
    if (oom) {
        sl_suite_out_of_memory_why(suite, oom, why, sizeof why);
        return fail(b, SL_EXIT_RUNTIME, why);
    }
    printf("  %zu of %zu valid", suite->count - b->invalid, suite->count);
    if (suite->nskipped)
        printf("; %d variant(s) skipped (%s%s): %s", suite->nskipped, suite->skipped[0],
               suite->nskipped > 1 ? ", ..." : "", suite->skip_reason);
    printf("\n");
    if (b->cli.require_device && sl_check_device(suite, why, sizeof why) != 0)
        return fail(b, SL_EXIT_MISSING, why);
    sl_context_collect(&b->ctx, suite, b->cli.threads, b->cli.nthreads);
    for (int i = 0; i < b->ctx.count; i++)
        gb_add_context(b->ctx.key[i], b->ctx.value[i]);
    gb_add_context("tree", rows_tree(&b->cli));
    return CONTINUE;
}

/* Time the valid configurations, interleaved, and measure again those a
 * busy machine disturbed (timing.c). A signal ends the timing early. */
static int time_valid(bench_run *b)
{
    char why[SL_WHY_BUF];
    sl_suite *suite = b->suite;
    /* The probe runs before and after timing; the faster is kept. The
     * memory's only when a kernel of the run moves memory (a quarter of a
     * second and a few hundred MiB that a run of compute-bound kernels alone does without). */
    for (size_t i = 0; i < suite->count; i++)
        b->memory |= suite->configs[i].kernel->problem->bytes_moved != NULL;
    double probe_from = sl_now();
    if (b->invalid < suite->count && !sl_interrupted())
        sl_measure_ceilings(&b->ceilings, b->cli.quick, b->memory);
    /* The probe runs again after timing: keep its time back too. */
    double after = AFTER_TIMING_SECONDS + (sl_now() - probe_from);
    char more[128] = "";
    if (b->target > 0.0)
        snprintf(more, sizeof more, "; then more, to +-%.3g%%, %s", 100.0 * b->target,
                 b->budget > 0.0 ? "within the time budget" : "with no time limit");
    printf("timing %zu valid configurations (%d repetitions, >= %.2g s each%s)\n",
           suite->count - b->invalid, b->reps, b->min_time, more);
    fflush(stdout);
    sl_timing timing = {
        .reps = b->reps, .min_time = b->min_time, .progress = stdout,
        .verbose = b->cli.verbose,
        .retry_busy = b->cli.retry_busy >= 0 ? b->cli.retry_busy : DEFAULT_RETRY_BUSY,
        .target = b->target,
        .deadline = b->budget > 0.0 ? b->start + b->budget - after : 0.0,
        .shown_first = sl_story_is_rung,
        .after_pass = keep_json, .ctx = &b->passes,
    };
    int rc = b->invalid < suite->count && !sl_interrupted() ? sl_suite_time(suite, &timing) : -1;
    if (rc == -2) {
        snprintf(why, sizeof why, "cannot write '%s': %s", b->json_tmp, strerror(errno));
        return fail(b, SL_EXIT_RUNTIME, why);
    }
    b->timed = rc == 0;
    b->sig = sl_interrupted();
    if (b->timed && !b->sig && short_of_reps(suite, b->reps, why, sizeof why))
        return fail(b, SL_EXIT_RUNTIME, why);
    if (b->sig && !b->timed)
        return fail(b, 128 + b->sig, "interrupted before anything was timed; nothing written");
    if (b->invalid < suite->count && !b->timed)
        return fail(b, SL_EXIT_USAGE, "nothing was timed (does --benchmark_filter match?)");
    return CONTINUE;
}

/* After a full timing: the GPU breakdown and the machine's ceilings. */
static int probe(bench_run *b)
{
    gb_shutdown();
    if (!b->timed || b->sig)
        return CONTINUE;
    b->invalid += (size_t)sl_breakdown_measure(&b->breakdown, b->suite, b->reps,
                                               b->cli.quick, stdout, b->cli.verbose);
    printf("probing the machine's ceilings (FMA, divide, 64-bit multiply on one "
           "core%s)\n", b->memory ? "; memory bandwidth on 1 and every core" : "");
    fflush(stdout);
    sl_measure_ceilings(&b->ceilings, b->cli.quick, b->memory);
    return CONTINUE;
}

/* Rows measured by other programs (numba's ladder, lesson 6's grid). */
static int import_rows(bench_run *b)
{
    char why[SL_WHY_BUF];
    sl_suite *suite = b->suite;
    for (int f = 0; f < b->cli.nimport && !b->sig; f++) {
        int skipped = 0, grid = suite->grid.n;
        int added = sl_suite_import(suite, b->cli.import[f], &skipped, why, sizeof why);
        if (added < 0)
            return fail(b, SL_EXIT_USAGE, why);
        for (size_t i = suite->count - (size_t)added; i < suite->count; i++)
            b->invalid += !suite->configs[i].valid;
        for (int i = grid; i < suite->grid.n; i++)
            b->invalid += !suite->grid.rows[i].valid;
        grid = suite->grid.n - grid;
        if (added + grid)
            printf("imported %d row(s) measured by another program from %s%s\n",
                   added + grid, b->cli.import[f], skipped ? " (rows of kernels this run "
                   "did not measure left out)" : "");
    }
    return CONTINUE;
}

/* The data files, the figures, then summary.md and index.html (which show
 * the figures that exist). A write that fails (a full disk, ulimit -f)
 * ends the run with its reason; earlier runs stay as they were. */
static int write_run(bench_run *b, sl_run_report *report)
{
    char why[SL_WHY_BUF], failed[SL_PATH_BUF];
    /* Google Benchmark's JSON holds skipped configurations as errors: an
     * interrupted run keeps only speedlab's own files. */
    if (publish_json(&b->passes, b->sig, why, sizeof why) != 0 ||
        write_files(&b->run, b->suite, &b->ctx, &b->breakdown, &b->ceilings, why,
                    sizeof why) != 0)
        return fail(b, SL_EXIT_RUNTIME, why);
    b->plots = b->cli.plots ? sl_run_plots(b->run.partial) : -1;
    /* Ctrl-C reaches plot.sh and gnuplot too: some figures are missing. */
    if (b->plots > 0 && !b->sig && sl_interrupted())
        b->plots = SL_PLOTS_INTERRUPTED;
    *report = (sl_run_report){
        .suite = b->suite, .ctx = &b->ctx, .run_name = b->run.name, .dir = b->run.partial,
        .breakdown = &b->breakdown, .ceilings = b->timed && !b->sig ? &b->ceilings : NULL,
        .plots = b->plots,
    };
    if (sl_write_report(report, failed, sizeof failed) != 0) {
        snprintf(why, sizeof why, "cannot write '%s': %s", failed, strerror(errno));
        return fail(b, SL_EXIT_RUNTIME, why);
    }
    return CONTINUE;
}

/* Rename the folder into place, then tell the story on the console. */
static int publish(bench_run *b, sl_run_report *report)
{
    char why[SL_WHY_BUF];
    if (sl_run_dir_publish(&b->run, why, sizeof why) != 0)
        return fail(b, SL_EXIT_RUNTIME, why);
    b->have_folder = 0;
    b->published = 1;
    sl_history_record(b->run.base, "bench", b->run.name, b->suite);
    printf("\n");
    report->dir = b->run.final;
    sl_print_report(stdout, report, b->cli.verbose);
    printf("report: %s/index.html and summary.md (also %s/latest)\n", b->run.final,
           b->run.base);
    char install[96];
    sl_install_hint(install, sizeof install, "gnuplot-nox");
    if (b->plots == 3)
        printf("plots: gnuplot is not installed, so the data is written but not "
               "plotted; install it with: %s, then run: sh %s/plots/plot.sh %s\n",
               install, SPEEDLAB_SOURCE_DIR, b->run.final);
    else if (b->plots == SL_PLOTS_INTERRUPTED) {
        printf("interrupted by signal %d while plotting: the data and the report are "
               "complete, some figures are not; draw them with: sh %s/plots/plot.sh %s; "
               "exit code %d\n", sl_interrupted(), SPEEDLAB_SOURCE_DIR, b->run.final,
               128 + sl_interrupted());
        return 128 + sl_interrupted();
    }
    else if (b->plots > 0)
        printf("plots: gnuplot failed (see above); the data files are complete\n");
    if (b->sig) {
        printf("interrupted by signal %d: what was measured is written and marked "
               "interrupted; exit code %d\n", b->sig, 128 + b->sig);
        return 128 + b->sig;
    }
    if (b->invalid) {
        printf("%zu configuration(s) failed validation: see above; exit code 3\n",
               b->invalid);
        return SL_EXIT_INVALID;
    }
    return SL_EXIT_OK;
}

/* plan -> check inputs -> folder -> validate -> time (and re-measure) ->
 * probe -> import -> write -> publish. */
static int bench(int argc, char **argv, sl_suite *suite)
{
    static bench_run b;
    b = (bench_run){ .prog = argv[0], .argv = argv, .suite = suite, .start = sl_now() };
    sl_run_report report;
    bind_threads(argv);
    sl_interrupt_install();
    sl_ignore_write_signals();
    int code = plan(&b, argc);
    const char *emulated = code == CONTINUE ? sl_emulated() : NULL;
    if (emulated) {
        /* Real, or not at all: emulated times are not that machine's. */
        snprintf(b.why, sizeof b.why, "%s; emulated times say nothing about that "
                 "machine, so nothing is timed (tests/test-<tree> --emulated validates "
                 "every variant there)", emulated);
        code = SL_EXIT_USAGE;
    }
    if (code == CONTINUE)
        code = check_inputs(&b);
    if (code == CONTINUE)
        code = make_folder(&b);
    if (code == CONTINUE)
        code = validate(&b);
    if (code == CONTINUE)
        code = time_valid(&b);
    if (code == CONTINUE)
        code = probe(&b);
    if (code == CONTINUE)
        code = import_rows(&b);
    if (code == CONTINUE)
        code = write_run(&b, &report);
    if (code == CONTINUE)
        code = publish(&b, &report);
    if (b.have_folder)
        sl_run_dir_discard(&b.run);
    if (b.why[0])
        sl_print_error(b.prog, b.why);
    sl_note_closed_stdout(b.prog, b.published ? b.run.final : NULL);
    return code;
}

/* The suite is freed here whatever way bench() ends, so that no exit path
 * leaks it (the sanitizer build checks). */
int main(int argc, char **argv)
{
    sl_suite suite = { 0 };
    int rc = bench(argc, argv, &suite);
    sl_suite_free(&suite);
    return rc;
}
