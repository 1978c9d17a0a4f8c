/* results.c - writers for a run folder's data files (results.h). Invalid
 * configurations are written and flagged in the CSV and the summary, but
 * never get a speedup and never reach the plot data. */
#define _DEFAULT_SOURCE
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "defaults.h"
#include "atomic_file.h"
#include "columns.h"
#include "labels.h"
#include "omp_leftovers.h"
#include "speedlab_config.h"
#include "evidence.h"
#include "first_calls.h"
#include "grid_report.h"
#include "interrupt.h"
#include "scaling.h"
#include "story.h"

/* One ladder row, by column (columns.def). */
static void ladder_row(sl_csv_row *r, const sl_config *c)
{
    int t = c->valid && c->timed > 0;
    const sl_problem_def *k = c->kernel->problem;
    sl_csv_row_clear(r);
    sl_csv_cell(r, SL_COL_tree, "%s", c->tree);
    sl_csv_cell(r, SL_COL_kernel, "%s", k->name);
    sl_csv_cell(r, SL_COL_variant, "%s", c->variant->name);
    sl_csv_cell(r, SL_COL_threads_requested, "%d", c->problem.threads);
    sl_csv_cell(r, SL_COL_threads_used, "%d", c->threads_used);
    sl_csv_cell(r, SL_COL_oversubscribed, "%d", c->oversubscribed);
    if (c->variant->flags & SL_USES_SCHEDULE)
        sl_schedule_name(c->problem.schedule, r->cell[SL_COL_schedule], SL_CELL_MAX);
    sl_csv_cell(r, SL_COL_size, "%lld", (long long)c->problem.size);
    sl_csv_cell(r, SL_COL_work_unit, "%s", k->work_unit);
    sl_csv_cell(r, SL_COL_repetitions, "%d", t ? c->kept : 0);
    /* Timing columns: empty for a configuration that was not timed. */
    sl_csv_num(r, SL_COL_median_s, "%.9g", c->median, t);
    sl_csv_num(r, SL_COL_min_s, "%.9g", c->min, t);
    sl_csv_num(r, SL_COL_max_s, "%.9g", c->max, t);
    sl_csv_num(r, SL_COL_stddev_s, "%.9g", c->stddev, t);
    sl_csv_num(r, SL_COL_cv, "%.4f", c->cv, t);
    sl_csv_num(r, SL_COL_rate_per_s, "%.6g", c->rate, t);
    sl_csv_num(r, SL_COL_speedup_vs_scalar, "%.4f", c->speedup, c->speedup > 0.0);
    /* Every number a reader may compare is written to read back exactly
     * (an import judges it again against its own run's). */
    sl_csv_num(r, SL_COL_result, "%.17g", c->outcome.value, 1);
    sl_csv_num(r, SL_COL_expected, "%.17g", c->verdict.expected, 1);
    sl_csv_num(r, SL_COL_abs_error, "%.17g", c->verdict.error, 1);
    sl_csv_num(r, SL_COL_tolerance, "%.17g", c->verdict.tolerance, 1);
    sl_csv_cell(r, SL_COL_valid, "%s", c->interrupted ? "interrupted" : c->valid ? "yes" : "no");
    sl_csv_cell(r, SL_COL_ran_on, "%s", sl_config_where(c));
    /* Sampling kernels: the standard error, and the error in sigmas. */
    double se = k->std_error ? k->std_error(&c->problem) : 0.0;
    sl_csv_num(r, SL_COL_std_error, "%.6g", se, se > 0.0);
    sl_csv_num(r, SL_COL_error_sigmas, "%.4f", se > 0.0 ? c->verdict.error / se : 0.0,
               se > 0.0 && c->valid);
    /* Scaling study, shape and work: weak points grow with threads. */
    sl_csv_cell(r, SL_COL_study, "%s", c->weak ? "weak" : "strong");
    sl_csv_cell(r, SL_COL_height, "%lld",
                (long long)(k->image ? sl_problem_height(&c->problem) : 0));
    sl_csv_num(r, SL_COL_work_per_call, "%.17g", c->outcome.work, 1);
    sl_csv_num(r, SL_COL_ci_low_s, "%.9g", c->ci_low, t);
    sl_csv_num(r, SL_COL_ci_high_s, "%.9g", c->ci_high, t);
    sl_csv_num(r, SL_COL_ci_level, "%.4f", c->ci_level, t);
    /* Quietness: others' CPU in cores while it ran (empty: not measured
     * on this system), disturbed repetitions, the flag. */
    sl_csv_num(r, SL_COL_others_cpu, "%.3f", c->others_cpu, t && c->others_cpu >= 0.0);
    sl_csv_cell(r, SL_COL_disturbed_reps, "%d", c->disturbed + c->stalled);
    sl_csv_cell(r, SL_COL_contaminated, "%d", c->contaminated);
    sl_csv_cell(r, SL_COL_remeasured, "%d", c->remeasured);
    /* The interval's wider side, relative, and why it missed the target
     * ("" at it, or with no target); the check: the kernel's own, exact
     * (another program's rows may say "statistical"). Not a lesson 6
     * row: no ranks, no MPI split. */
    sl_csv_num(r, SL_COL_precision, "%.4f", c->precision, t);
    sl_csv_cell(r, SL_COL_short_of_target, "%s", t ? sl_short_of_name(c->short_of) : "");
    sl_csv_cell(r, SL_COL_check, "exact");
}

static int sl_write_csv(const char *path, const sl_suite *s)
{
    sl_atomic_file af;
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    sl_csv_header(af.fp);
    sl_csv_row row;
    for (size_t i = 0; i < s->count; i++) {
        ladder_row(&row, &s->configs[i]);
        sl_csv_row_write(af.fp, &row);
    }
    sl_grid_csv_rows(af.fp, &s->grid);
    return sl_atomic_commit(&af);
}

/* Why a repetition is not in its median: "disturbed+slow"; "" when it is. */
static void left_out_names(FILE *f, unsigned bits)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        { SL_LEFT_DISTURBED, "disturbed" }, { SL_LEFT_STALLED, "stalled" },
        { SL_LEFT_SLOW, "slow" } };
    const char *sep = "";
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (bits & names[k].bit) {
            fprintf(f, "%s%s", sep, names[k].name);
            sep = "+";
        }
}

/* samples.csv: every repetition's time, one row each, so that two runs can
 * be compared sample by sample (speedlab-compare). */
static int sl_write_samples(const char *path, const sl_suite *s)
{
    sl_atomic_file af;
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "tree,kernel,variant,threads_used,schedule,study,size,height,"
                   "repetition,seconds,others_cpu,start_s,left_out,window_s\n");
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->valid || c->foreign)
            continue;
        char sched[32] = "";
        if (c->variant->flags & SL_USES_SCHEDULE)
            sl_schedule_name(c->problem.schedule, sched, sizeof sched);
        for (int r = 0; r < c->timed; r++) {
            fprintf(af.fp, "%s,%s,%s,%d,\"%s\",%s,%lld,%lld,%d,%.9g,", c->tree,
                    c->kernel->problem->name, c->variant->name, c->threads_used, sched,
                    c->weak ? "weak" : "strong", (long long)c->problem.size,
                    (long long)(c->kernel->problem->image ? sl_problem_height(&c->problem)
                                                          : 0), r, c->seconds[r]);
            if (c->others[r] >= 0.0 && c->window[r] > 0.0)
                fprintf(af.fp, "%.3f", c->others[r] / c->window[r]);
            fprintf(af.fp, ",%.3f,", c->start[r]);
            /* A configuration short of clean repetitions keeps them all. */
            left_out_names(af.fp, c->kept < c->timed ? c->left_out[r] : 0);
            /* How long the repetition lasted: below quiet.h's floor of
             * others' CPU-seconds, its share could not be judged. */
            if (c->window[r] > 0.0)
                fprintf(af.fp, ",%.4f\n", c->window[r]);
            else
                fputs(",\n", af.fp);
        }
    }
    return sl_atomic_commit(&af);
}

/* Write one kernel's speedup bars and thread-scaling blocks. */
static int plot_data_kernel(const char *dir, const sl_suite *s, const sl_problem_def *k)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;

    if (sl_path_format(path, sizeof path, "%s/speedup-%s.dat", dir, k->name) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# %s: speedup vs scalar, one bar per rung (story.h: the most "
                   "threads with a core each, the fastest schedule)\n"
                   "# variant\tspeedup\tthreads\tran_on\tspeedup_low\tspeedup_high\t"
                   "mark\tdetail\n# mark: 0 measured, +1 host fallback (not a GPU), "
                   "+2 disturbed by other processes (3: both)\n", k->name);
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (c->kernel->problem != k || c->speedup <= 0.0 || !sl_story_is_rung(s, c))
            continue;
        char detail[96] = "", sched[32];
        /* Both marks can hold: a disturbed host fallback is still no GPU. */
        int n = 0, mark = sl_gpu_stand_in(c->outcome.where) | (c->contaminated ? 2 : 0);
        /* Another program's or compiler's rows name it. */
        if (sl_config_shows_tree(c))
            n += snprintf(detail, sizeof detail, "%s", c->tree);
        if (c->problem.threads > 0)
            n += snprintf(detail + n, sizeof detail - (size_t)n, "%sx%d", n ? ", " : "",
                          c->threads_used);
        if (c->variant->flags & SL_USES_SCHEDULE) {
            sl_schedule_name(c->problem.schedule, sched, sizeof sched);
            n += snprintf(detail + n, sizeof detail - (size_t)n, "%s%s", n ? ", " : "", sched);
        }
        if (c->variant->flags & SL_FALLBACK)
            n += snprintf(detail + n, sizeof detail - (size_t)n, "%sfallback code", n ? ", " : "");
        if (mark & 1)
            n += snprintf(detail + n, sizeof detail - (size_t)n, "%s%s", n ? ", " : "",
                          sl_where_name(c->outcome.where));
        if (mark & 2)
            snprintf(detail + n, sizeof detail - (size_t)n, "%sdisturbed", n ? ", " : "");
        /* The interval of the paired ratios; unpaired (an imported row),
         * the ratio's from the two medians' intervals. */
        const sl_config *base = sl_suite_baseline(s, c);
        double low = c->up.n > 0 ? c->up.low : base->ci_low / c->ci_high;
        double high = c->up.n > 0 ? c->up.high : base->ci_high / c->ci_low;
        fprintf(af.fp, "\"%s\"\t%.4f\t%d\t\"%s\"\t%.4f\t%.4f\t%d\t\"%s\"\n",
                c->variant->name, c->speedup, c->threads_used, sl_config_where(c),
                low, high, mark, detail);
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;

    return sl_write_scaling_data(dir, s, k);
}

static int sl_write_plot_data(const char *dir, const sl_suite *s, const sl_context *ctx)
{
    char path[SL_PATH_BUF], text[512];
    for (size_t i = 0; i < s->count; i++)
        if (sl_suite_first_of_kernel(s, i) &&
            plot_data_kernel(dir, s, s->configs[i].kernel->problem) != 0)
            return -1;
    if (sl_grid_write_data(dir, &s->grid) != 0 || sl_first_calls_write_data(dir, s) != 0)
        return -1;
    char interval[64];
    sl_interval_label(s, interval, sizeof interval);
    if (sl_path_format(path, sizeof path, "%s/run.gp", dir) != 0)
        return -1;
    snprintf(text, sizeof text,
             "# reference lines for plots/*.gp, from this run's context\n"
             "lanes = %s\ncores = %s\nfast_cores = %s\nmachine = \"%s, %s\"\ninterval = \"%s\"\n",
             sl_context_get(ctx, "simd_lanes_f64"), sl_context_get(ctx, "cores_available"),
             sl_context_get(ctx, "fast_cores")[0] ? sl_context_get(ctx, "fast_cores") : "0",
             sl_context_get(ctx, "cpu_model"), sl_context_get(ctx, "compiler"), interval);
    return sl_atomic_write(path, text);
}

int sl_write_run_data(const char *dir, const sl_suite *s, const sl_context *ctx,
                      char *failed, size_t failedlen)
{
    static const char *const names[] = { SL_FILE_RESULTS, SL_FILE_SAMPLES };
    int (*const writers[])(const char *, const sl_suite *) = { sl_write_csv, sl_write_samples };
    for (int k = 0; k < 2; k++) {
        if (sl_path_join(failed, failedlen, dir, names[k]) != 0) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (writers[k](failed, s) != 0)
            return -1;
    }
    snprintf(failed, failedlen, "%s/(plot data)", dir);
    return sl_write_plot_data(dir, s, ctx);
}

/* Run plots/plot.sh on the run folder. Returns its exit status, 127 when
 * it could not be started, 3 without gnuplot (plot.sh's own status then:
 * the caller says so once, in its last lines). */
int sl_run_plots(const char *dir)
{
    if (!sl_on_path(getenv("PATH"), "gnuplot"))
        return 3;
    char script[SL_PATH_BUF];
    if (sl_path_join(script, sizeof script, SPEEDLAB_SOURCE_DIR, "plots/plot.sh") != 0)
        return 127;
    fflush(NULL);
#ifdef __linux__
    pid_t parent = getpid();
#endif
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
#ifdef __linux__
        /* Killed, the run takes its plotting along (plot.sh stops its
         * gnuplot on TERM); a parent already gone means that moment passed. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(127);
#endif
        /* Its few lines go with gnuplot's to stderr: a console piped into
         * head that closed early never stops the figures. */
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execlp("sh", "sh", script, dir, (char *)NULL);
        _exit(127);
    }
    /* A stop signal for the bench stops the plotting too (plot.sh takes
     * its gnuplot along on TERM): Ctrl-C from a script or SIGTERM reaches
     * the bench alone, and background jobs ignore SIGINT. */
    int status, stopped = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return 127;
        if (sl_interrupted() && !stopped++)
            kill(pid, SIGTERM);
    }
    /* libomp registered the forked child before it exec'd plot.sh. */
    sl_forget_runtime_registration(pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

int sl_write_bench_data(const char *dir, const sl_suite *s, const sl_context *ctx,
                        const sl_breakdown *bd, const sl_ceilings *ceilings, char *why,
                        size_t whylen)
{
    char path[SL_PATH_BUF];         /* the file that failed, for the message */
    if (sl_write_run_data(dir, s, ctx, path, sizeof path) == 0) {
        const char *failed = NULL;
        if (sl_write_ceilings(dir, ceilings, s) != 0)
            failed = "ceiling.csv or evidence.csv";
        else if (sl_write_roofline(dir, ceilings, s) != 0)
            failed = "roofline.dat";
        else if (sl_breakdown_write(dir, bd) != 0)
            failed = "breakdown.csv";
        else if (sl_write_evidence(dir, s) != 0)
            failed = "(image evidence)";
        else
            return 0;
        int err = errno;
        sl_path_join(path, sizeof path, dir, failed);
        errno = err;
    }
    return sl_fail(why, whylen, "cannot write '%s': %s", path, strerror(errno));
}
