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
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_plan.h"
#include "cli.h"
#include "ending.h"
#include "exitcodes.h"
#include "foreign.h"
#include "gbench.h"
#include "history.h"
#include "report.h"
#include "interrupt.h"
#include "isolate.h"
#include "passes.h"
#include "platform.h"
#include "results.h"
#include "run_dir.h"
#include "story.h"
#include "suite.h"
#include "tree.h"

extern const sl_kernel *const SL_TREE_SYMBOL(kernels)[];

#define STR_(x) #x
#define STR(x) STR_(x)
#define TREE_NAME STR(SPEEDLAB_TREE)

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

/* One bench run as it moves through its stages. A stage returns CONTINUE
 * or the exit code that ends the run, with b->why saying why (empty when
 * the stage has said so itself); bench() then discards the run folder, if one
 * was made and not yet published: one cleanup path for every failure. */
enum { CONTINUE = -1 };

typedef struct bench_run {
    const char *prog;
    char **argv;
    sl_cli cli;
    sl_suite *suite;
    sl_bench_settings set;
    double start;                  /* sl_now() when the run began */
    sl_run_dir run;
    int have_folder;               /* run.partial exists and is ours */
    sl_passes passes;
    sl_breakdown breakdown;
    sl_context ctx;
    sl_ceilings ceilings;
    unsigned roofs;                /* the bandwidth roofs the rows stand under */
    size_t invalid;
    int timed, sig, plots;
    int published;                 /* the folder is in place (run.final) */
    sl_run_report report;
    char why[SL_WHY_BUF];          /* why a stage ended the run */
} bench_run;

/* Parse the options and plan the suite: the strong study, the weak one. */
static int plan(bench_run *b, int argc)
{
    sl_cli *cli = &b->cli;
    if (sl_check_omp_env(b->why, sizeof b->why) != 0)
        return SL_EXIT_USAGE;
    int rc = sl_cli_parse(cli, argc, b->argv, 1, 0, SL_CLI_BENCH, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    if (sl_bench_plan(b->suite, cli, rows_tree(cli), SL_TREE_SYMBOL(kernels), b->why,
                      sizeof b->why) != 0)
        return SL_EXIT_USAGE;
    sl_bench_settings_of(cli, &b->set);
    /* Real, or not at all: emulated times are not that machine's. */
    const char *emulated = sl_emulated();
    if (emulated) {
        sl_fail(b->why, sizeof b->why, "%s; emulated times say nothing about that machine, "
                "so nothing is timed (tests/test-<tree> --emulated validates every variant "
                "there)", emulated);
        return SL_EXIT_USAGE;
    }
    return CONTINUE;
}

/* Everything refused before a folder is made (bench_plan.h). */
static int check_inputs(bench_run *b)
{
    int code = sl_bench_check_inputs(b->suite, &b->cli, &b->set, participant_tree(),
                                     &b->breakdown, b->why, sizeof b->why);
    sl_exit_guard(b->prog, &b->run);
    return code;
}

/* The run folder (room checked, stale ones of killed runs removed), and
 * Google Benchmark told to write its JSON into it. */
static int make_folder(bench_run *b)
{
    if (sl_run_dir_create(&b->run, b->cli.results, b->why, sizeof b->why) != 0)
        return SL_EXIT_USAGE;
    b->have_folder = 1;
    if (b->run.cleaned)
        printf("removed %d unfinished run folder(s) left in %s by runs that were killed\n",
               b->run.cleaned, b->run.base);
    if (sl_passes_start(&b->passes, b->run.partial, b->argv[0], &b->cli, b->why,
                        sizeof b->why) != 0)
        return SL_EXIT_USAGE;
    return CONTINUE;
}

/* Every configuration checked against its reference before any is timed. */
static int validate(bench_run *b)
{
    sl_suite *suite = b->suite;
    char warnings[1536];
    sl_bench_affinity_warnings(&b->cli, warnings, sizeof warnings);
    fputs(warnings, stdout);
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
        sl_suite_out_of_memory_why(suite, oom, b->why, sizeof b->why);
        return SL_EXIT_RUNTIME;
    }
    sl_suite_print_validity(stdout, suite, b->invalid);
    if (b->cli.require_device && sl_check_device(suite, b->why, sizeof b->why) != 0)
        return SL_EXIT_MISSING;
    sl_context_collect(&b->ctx, suite, b->cli.threads, b->cli.nthreads);
    sl_passes_context(&b->ctx, rows_tree(&b->cli));
    return CONTINUE;
}

/* The host's noise, first: how much it slowed down in a few seconds of
 * a fixed piece of work, and the precision a speedup can reach in the
 * time left at that noise (noise.h). */
static void say_noise(bench_run *b, double probe_from)
{
    sl_suite *suite = b->suite;
    char text[512];
    /* 3 s (1 s quick), and no more than 30 repetitions' worth: the
     * tests' brief repetitions (SPEEDLAB_MIN_TIME=0.01) probe 0.3 s. */
    double probe = b->cli.quick ? 1.0 : 3.0;
    sl_noise_measure(&suite->noise, fmin(probe, 30.0 * b->set.min_time));
    sl_noise_text(&suite->noise, text, sizeof text);
    printf("host noise: %s\n", text);
    double deadline = sl_bench_deadline(&b->set, b->start, sl_now() - probe_from);
    sl_timing t = { .min_time = b->set.min_time };
    double cycle = sl_suite_cycle_seconds(suite, &t);
    if (deadline <= 0.0 || cycle <= 0.0 || suite->noise.calls == 0)
        return;
    double left = deadline - sl_now();
    /* Without a target the first pass's repetitions are all there are. */
    int pairs = b->set.target > 0.0 ? (int)(left / cycle) : b->set.reps;
    pairs = pairs > SL_MAX_REPS ? SL_MAX_REPS : pairs < b->set.reps ? b->set.reps : pairs;
    for (int all = 0; all < 2; all++)
        suite->noise_buys[all] = sl_noise_precision(&suite->noise, pairs, all);
    double worst = fmax(suite->noise_buys[0], suite->noise_buys[1]);
    printf("  at that noise, the %.0f s left for timing buy about \u00b1%.1f%% on a speedup "
           "on one core and \u00b1%.1f%% on %d (%d pairs of repetitions)%s\n",
           left > 0.0 ? left : 0.0, 100.0 * suite->noise_buys[0], 100.0 * suite->noise_buys[1],
           suite->noise.cores, pairs, b->set.target > 0.0 && worst > b->set.target
           ? ": this host's noise allows no better, short of the target" : "");
    fflush(stdout);
}

/* Between two cycles of a long pass (sl_timing.watch): the roofs again,
 * quick, pooled with the others (ceiling.h's watch). */
static void watch_roofs(void *ctx)
{
    bench_run *b = ctx;
    sl_measure_ceilings(&b->ceilings, 1, b->roofs);
}

/* Time the valid configurations, interleaved, and measure again those a
 * busy machine disturbed (timing.c). A signal ends the timing early. */
static int time_valid(bench_run *b)
{
    sl_suite *suite = b->suite;
    /* The probe runs before and after timing, and between cycles of a
     * long pass (SL_WATCH_SHARE of its time): a shared host's roofs move
     * through a run as its rows' times do. */
    b->roofs = sl_suite_memory_roofs(suite);
    double probe_from = sl_now();
    if (b->invalid < suite->count && !sl_interrupted())
        sl_measure_ceilings(&b->ceilings, b->cli.quick, b->roofs);
    /* A quick probe takes about 60% of a full one (1.8 of 3.0 s, Zen 5). */
    double probe_s = (sl_now() - probe_from) * (b->cli.quick ? 1.0 : 0.6);
    if (b->invalid < suite->count && !sl_interrupted()) {
        sl_timing calibration = { .min_time = b->set.min_time };
        sl_suite_calibrate(suite, &calibration);
        say_noise(b, probe_from);
    }
    double deadline = sl_bench_deadline(&b->set, b->start, sl_now() - probe_from);
    char more[128];
    sl_bench_describe_target(&b->set, more, sizeof more);
    printf("timing %zu valid configurations (%d repetitions, >= %.2g s each%s%s)\n",
           suite->count - b->invalid, b->set.reps, b->set.min_time,
           sl_cli_min_time_source(&b->cli), more);
    fflush(stdout);
    sl_timing timing = {
        .reps = b->set.reps, .min_time = b->set.min_time, .progress = stdout,
        .verbose = b->cli.verbose, .in_a_row = b->passes.in_a_row, .retry_busy = b->set.retry_busy, .target = b->set.target,
        .deadline = deadline,
        .shown_first = sl_story_is_rung,
        .after_pass = sl_passes_keep, .ctx = &b->passes,
        .watch = watch_roofs, .watch_ctx = b, .watch_seconds = probe_s,
        .watch_share = b->set.watch_share,
    };
    int rc = b->invalid < suite->count && !sl_interrupted() ? sl_suite_time(suite, &timing) : -1;
    if (rc == -2) {
        snprintf(b->why, sizeof b->why, "cannot write '%s': %s", b->passes.tmp, strerror(errno));
        return SL_EXIT_RUNTIME;
    }
    b->timed = rc == 0;
    b->sig = sl_interrupted();
    int code = sl_bench_after_timing(suite, &b->set, b->invalid, b->timed, b->sig, b->why,
                                     sizeof b->why);
    return code;
}

/* After a full timing: the GPU breakdown and the machine's ceilings. */
static int probe(bench_run *b)
{
    gb_shutdown();
    if (!b->timed || b->sig)
        return CONTINUE;
    b->invalid += (size_t)sl_breakdown_measure(&b->breakdown, b->suite, b->set.reps,
                                               b->cli.quick, stdout, b->cli.verbose);
    static const char *const bandwidths[] = {
        [SL_ROOF_MEMORY] = "; the memory's bandwidth on 1 and every core",
        [SL_ROOF_CACHES] = "; the caches' bandwidth on 1 and every core",
        [SL_ROOF_MEMORY | SL_ROOF_CACHES] = "; the memory's and caches' bandwidth on 1 and "
                                            "every core",
    };
    printf("probing the machine's ceilings (FMA, divide, 64-bit multiply, vector issue and the "
           "clock on one core%s)\n", b->roofs ? bandwidths[b->roofs] : "");
    fflush(stdout);
    sl_measure_ceilings(&b->ceilings, b->cli.quick, b->roofs);
#ifdef SPEEDLAB_MCA_CSV
    sl_mca_load(&b->ceilings.mca, SPEEDLAB_MCA_CSV);
#endif
    return CONTINUE;
}

/* Rows measured by other programs (numba's ladder, lesson 6's grid). */
static int import_rows(bench_run *b)
{
    for (int f = 0; f < b->cli.nimport && !b->sig; f++) {
        sl_imported got;
        if (sl_suite_import_counted(b->suite, b->cli.import[f], &got, b->why, sizeof b->why) != 0)
            return SL_EXIT_USAGE;
        b->invalid += (size_t)got.invalid;
        if (got.rows)
            printf("imported %d row(s) measured by another program from %s%s\n", got.rows,
                   b->cli.import[f], got.skipped ? " (rows of kernels this run did not "
                   "measure left out)" : "");
    }
    return CONTINUE;
}

/* The data files, the figures, then summary.md and index.html (which show
 * the figures that exist). A write that fails (a full disk, ulimit -f)
 * ends the run with its reason; earlier runs stay as they were. */
static int write_run(bench_run *b)
{
    char failed[SL_PATH_BUF];
    /* Google Benchmark's JSON holds skipped configurations as errors: an
     * interrupted run keeps only speedlab's own files. */
    if (sl_passes_publish(&b->passes, b->sig, b->why, sizeof b->why) != 0 ||
        sl_write_bench_data(b->run.partial, b->suite, &b->ctx, &b->breakdown, &b->ceilings,
                            b->why, sizeof b->why) != 0)
        return SL_EXIT_RUNTIME;
    b->plots = b->cli.plots ? sl_run_plots(b->run.partial) : -1;
    /* Ctrl-C reaches plot.sh and gnuplot too: some figures are missing. */
    if (b->plots > 0 && !b->sig && sl_interrupted())
        b->plots = SL_PLOTS_INTERRUPTED;
    b->report = (sl_run_report){
        .suite = b->suite, .ctx = &b->ctx, .run_name = b->run.name, .dir = b->run.partial,
        .breakdown = &b->breakdown, .ceilings = b->timed && !b->sig ? &b->ceilings : NULL,
        .plots = b->plots,
    };
    if (sl_write_report(&b->report, failed, sizeof failed) != 0) {
        snprintf(b->why, sizeof b->why, "cannot write '%s': %s", failed, strerror(errno));
        return SL_EXIT_RUNTIME;
    }
    return CONTINUE;
}

/* Rename the folder into place, then tell the story on the console. */
static int publish(bench_run *b)
{
    if (sl_run_dir_publish(&b->run, b->why, sizeof b->why) != 0)
        return SL_EXIT_RUNTIME;
    b->have_folder = 0;
    b->published = 1;
    if (sl_history_record(b->run.base, "bench", b->run.name, b->suite, b->why,
                          sizeof b->why) != 0)
        sl_print_warning(b->prog, b->why);
    b->why[0] = '\0';
    printf("\n");
    b->report.dir = b->run.final;
    sl_print_report(stdout, &b->report, b->cli.verbose);
    /* Ctrl-C while the history was locked by another run: the wait
     * stopped, the run stands in its folder, and the exit says so. */
    int late = !b->sig ? sl_interrupted() : 0;
    sl_ending end = { .final = b->run.final, .base = b->run.base, .plots = b->plots,
                      .sig = b->sig ? b->sig : late, .sig_now = sl_interrupted(),
                      .invalid = b->invalid, .late = late != 0 };
    return sl_print_ending(stdout, &end);
}

/* plan -> check inputs -> folder -> validate -> time (and re-measure) ->
 * probe -> import -> write -> publish. */
static int (*const stages[])(bench_run *) = {
    check_inputs, make_folder, validate, time_valid, probe, import_rows, write_run, publish,
};

static int bench(int argc, char **argv, sl_suite *suite)
{
    static bench_run b;
    b = (bench_run){ .prog = argv[0], .argv = argv, .suite = suite, .start = sl_now() };
    sl_bind_threads_restart(argv);
    sl_interrupt_install();
    sl_ignore_write_signals();
    int code = plan(&b, argc);
    /* A stage's why counts only when it ends the run. */
    for (size_t i = 0; code == CONTINUE && i < sizeof stages / sizeof stages[0]; i++) {
        b.why[0] = '\0';
        code = stages[i](&b);
    }
    if (code == CONTINUE)
        b.why[0] = '\0';
    if (b.have_folder)
        sl_run_dir_discard(&b.run);
    if (b.why[0])
        sl_print_error(b.prog, b.why);
    return sl_note_closed_stdout(b.prog, b.published ? b.run.final : NULL, code);
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
