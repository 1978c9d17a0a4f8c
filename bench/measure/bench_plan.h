/* bench_plan.h - what `make bench` measures and how hard, decided from its
 * options before anything runs: the statistics' defaults, the strong and
 * weak studies, and the refusals that cost nothing when made early (a
 * Google Benchmark filter that keeps nothing, an import that does not
 * fit). The bench program (bench_main.c) calls these in order; each
 * returns its reason, never prints it. Unit-tested in tests/test_plan.c.
 */
#ifndef SPEEDLAB_BENCH_PLAN_H
#define SPEEDLAB_BENCH_PLAN_H

#include <stddef.h>

#include "breakdown.h"
#include "cli.h"
#include "suite.h"

/* The settings a run times with, once the options' defaults are filled. */
typedef struct sl_bench_settings {
    int reps;             /* repetitions per configuration */
    double min_time;      /* seconds per repetition, at least */
    double target;        /* relative interval to narrow to (0: none) */
    double budget;        /* seconds for the whole run (0: no limit) */
    int retry_busy;       /* rounds that replace disturbed repetitions */
    double watch_share;   /* of a pass's time, for re-probing the roofs
                             between its cycles (sl_timing.watch) */
} sl_bench_settings;

/* The roofs re-probed through a pass take at most this share of it: 2%
 * of a full run's 8-minute first pass buys 5 quick probes (1.8 s each on
 * a 2-vCPU Zen 5), none in a test's second-long passes.
 * SL_WATCH_SHARE_ENV, a number from 0, stands in for it (a test's short
 * passes: 100, a probe between every two cycles). */
#define SL_WATCH_SHARE 0.02
#define SL_WATCH_SHARE_ENV "SPEEDLAB_WATCH_SHARE"

/* cli's settings (their defaults are cli.c's) in the units timing takes:
 * the target as a fraction, the budget in seconds. */
void sl_bench_settings_of(const sl_cli *cli, sl_bench_settings *out);

/* What follows the timing (the GPU breakdown, the ceilings' second probe,
 * the files and figures) besides the probe's own time: seconds a budget
 * keeps back. */
#define SL_AFTER_TIMING_SECONDS 45.0

/* Plan the strong study (every kernel, variant, thread count and
 * schedule cli names) and then the weak one: the best CPU rung (threads
 * and SIMD, no teaching stage), or the variant named when it takes
 * threads, at every thread count with a core to itself, when there are
 * two such counts. 0, or -1 with why. */
int sl_bench_plan(sl_suite *suite, const sl_cli *cli, const char *tree,
                  const sl_kernel *const *kernels, char *why, size_t whylen);

/* A --benchmark_filter (the last one given wins, as in Google Benchmark;
 * POSIX extended, searched in the name and in the name with the suffixes
 * Google Benchmark adds for s; a leading '-' negates) that keeps none of
 * the planned configurations: -1 with why; else 0. */
int sl_bench_check_filter(const sl_suite *suite, const sl_cli *cli,
                          const sl_bench_settings *s, char *why, size_t whylen);

/* Read an --import file against the plan, on a copy, so that a bad file
 * is refused before anything is measured. 0, or -1 with why. */
int sl_bench_check_import(const sl_suite *suite, const char *path, char *why, size_t whylen);

/* Everything that can be refused before a run folder is made, in order:
 * the filter, each --import file, the memory the plan needs (the
 * participant's tree first told to check each variant in a child:
 * isolate.h), a variant asked for that this machine cannot run, and
 * --require-device without a device. The GPU breakdown's clock starts
 * here (bd), before anything else offloads: lesson 5 shows what starting
 * the device costs. -1 to go on, or the exit code with why. */
int sl_bench_check_inputs(sl_suite *suite, const sl_cli *cli, const sl_bench_settings *set,
                          int participant, sl_breakdown *bd, char *why, size_t whylen);

/* More threads asked for than the affinity mask has CPUs (a SLURM job
 * with too small --cpus-per-task, taskset), OMP_NUM_THREADS above it, or
 * SLURM's own mismatch: one line each ("warning: ...\n") into out, ""
 * when none. The default list's one oversubscribed point is planned, not
 * a mistake. */
void sl_bench_affinity_warnings(const sl_cli *cli, char *out, size_t len);

/* The clock time the timing must end by (0: none): the budget from start,
 * less what follows the timing (SL_AFTER_TIMING_SECONDS and a second
 * ceiling probe as long as the first, probe_seconds). */
double sl_bench_deadline(const sl_bench_settings *s, double start, double probe_seconds);

/* The timing line's tail: "; then more, to +-5%, within the time budget",
 * or "" without a target. */
void sl_bench_describe_target(const sl_bench_settings *s, char *out, size_t len);

/* After the timing (timed: it ran to the end; sig: the signal that
 * stopped it, or 0): -1 to go on, or the exit code that ends the run with
 * why: a configuration short of its repetitions has no median worth
 * publishing (1); a signal before anything was timed (128 + sig); nothing
 * timed though configurations were valid (2: the filter). */
int sl_bench_after_timing(const sl_suite *s, const sl_bench_settings *set, size_t invalid,
                          int timed, int sig, char *why, size_t whylen);

#endif
