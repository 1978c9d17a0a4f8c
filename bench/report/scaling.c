/* scaling.c - the strong- and weak-scaling studies (scaling.h).
 *
 * A study's points are the suite's timed, valid configurations of one tree
 * and variant; a strong study also keeps one schedule (the 1-thread one),
 * so the fractals' schedule sweep does not put several points on one
 * thread count.
 */
#define _DEFAULT_SOURCE
#include "scaling.h"

#include <string.h>

#include "atomic_file.h"
#include "labels.h"

double sl_karp_flatt(double speedup, int threads)
{
    double p = (double)threads;
    return (1.0 / speedup - 1.0 / p) / (1.0 - 1.0 / p);
}

static int timed_ok(const sl_config *c)
{
    return c->valid && c->timed > 0 && c->problem.threads > 0;
}

/* Is c a point of the study that starts at the 1-thread point one? */
static int same_study(const sl_config *one, const sl_config *c)
{
    /* Mandelbrot and Julia share one variant table: compare kernels too. */
    return timed_ok(c) && c->kernel == one->kernel && c->variant == one->variant &&
           c->weak == one->weak && !sl_config_short_of_threads(c) &&
           strcmp(c->tree, one->tree) == 0 &&
           sl_schedule_equal(c->problem.schedule, one->problem.schedule);
}

/* Does configuration i start a study of kernel k (weak or strong)? */
static int starts_study(const sl_config *c, const sl_problem_def *k, int weak)
{
    return c->kernel->problem == k && timed_ok(c) && c->problem.threads == 1 &&
           c->weak == weak && (c->variant->flags & SL_USES_THREADS);
}

/* Work per thread of a weak point, in the kernel's work unit. */
static double work_per_thread(const sl_config *c)
{
    return c->outcome.work / (double)c->threads_used;
}

/* Weak efficiency: time per unit of a thread's work on 1 thread over the
 * same on p threads, so work that did not grow exactly (fractal rows
 * differ) does not count as scaling. */
static double weak_efficiency(const sl_config *one, const sl_config *c)
{
    return (one->median / work_per_thread(one)) / (c->median / work_per_thread(c));
}

/* What a study's figure says about its schedule: the threaded variants
 * with a schedule keep one (their 1-thread point's) across thread counts. */
static const char *schedule_note(const sl_suite *s, const sl_problem_def *k, int weak)
{
    static char note[64];
    note[0] = '\0';
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (starts_study(c, k, weak) && (c->variant->flags & SL_USES_SCHEDULE)) {
            char sched[32];
            sl_schedule_name(c->problem.schedule, sched, sizeof sched);
            snprintf(note, sizeof note, ", schedule %s", sched);
        }
    }
    return note;
}

static int write_strong(const char *dir, const sl_suite *s, const sl_problem_def *k)
{
    char path[SL_PATH_BUF], text[1024];
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/scaling-%s.dat", dir, k->name) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# %s: strong scaling, speedup vs the same variant on 1 thread\n"
                   "# threads\tspeedup\tefficiency\tspeedup_low\tspeedup_high\t"
                   "karp_flatt\toversubscribed\n", k->name);
    int blocks = 0, fit_points = -1;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *one = &s->configs[i];
        if (!starts_study(one, k, 0))
            continue;
        fprintf(af.fp, "%s\"%s\"\n", blocks++ ? "\n\n" : "", one->variant->name);
        int in_core = 0;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *c = &s->configs[j];
            if (!same_study(one, c))
                continue;
            double sp = one->median / c->median;
            /* The interval of a ratio of two intervals, conservatively. */
            double lo = one->ci_low / c->ci_high, hi = one->ci_high / c->ci_low;
            fprintf(af.fp, "%d\t%.4f\t%.4f\t%.4f\t%.4f\t", c->threads_used, sp,
                    sp / c->threads_used, lo, hi);
            if (c->threads_used > 1)
                fprintf(af.fp, "%.4f", sl_karp_flatt(sp, c->threads_used));
            else
                fprintf(af.fp, "NaN");
            fprintf(af.fp, "\t%d\n", c->oversubscribed);
            in_core += !c->oversubscribed;
        }
        if (fit_points < 0 || in_core < fit_points)
            fit_points = in_core;
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;

    /* The Amdahl fit's condition, for plots/scaling.gp. */
    if (sl_path_format(path, sizeof path, "%s/scaling-%s.gp", dir, k->name) != 0)
        return -1;
    snprintf(text, sizeof text,
             "# scaling-%s.dat's labels, from the run\n"
             "fit_points = %d\nfit_min = %d\n"
             "fit_note = \"Amdahl fit skipped: %d thread count(s) with a core each, "
             "it needs %d\"\nschedule_note = \"%s\"\n", k->name,
             fit_points < 0 ? 0 : fit_points, SL_FIT_MIN_POINTS,
             fit_points < 0 ? 0 : fit_points, SL_FIT_MIN_POINTS, schedule_note(s, k, 0));
    return sl_atomic_write(path, text);
}

static int write_weak(const char *dir, const sl_suite *s, const sl_problem_def *k)
{
    char path[SL_PATH_BUF];
    int blocks = 0;
    for (size_t i = 0; i < s->count; i++)
        blocks += starts_study(&s->configs[i], k, 1);
    if (blocks == 0)
        return 0;   /* no weak study this run */
    if (sl_path_format(path, sizeof path, "%s/weak-%s.dat", dir, k->name) != 0)
        return -1;
    sl_atomic_file af;
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# %s: weak scaling, work per thread held constant\n"
                   "# threads\tmedian_ms\tlow_ms\thigh_ms\twork_per_thread\t"
                   "efficiency\tideal_ms\n", k->name);
    blocks = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *one = &s->configs[i];
        if (!starts_study(one, k, 1))
            continue;
        fprintf(af.fp, "%s\"%s\"\n", blocks++ ? "\n\n" : "", one->variant->name);
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *c = &s->configs[j];
            if (same_study(one, c))
                fprintf(af.fp, "%d\t%.6f\t%.6f\t%.6f\t%.6g\t%.4f\t%.6f\n",
                        c->threads_used, c->median * 1e3, c->ci_low * 1e3,
                        c->ci_high * 1e3, work_per_thread(c), weak_efficiency(one, c),
                        one->median * 1e3);
        }
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;
    /* Its labels: plots/weak.gp says which schedule the study used. */
    char text[256];
    if (sl_path_format(path, sizeof path, "%s/weak-%s.gp", dir, k->name) != 0)
        return -1;
    snprintf(text, sizeof text, "# weak-%s.dat's labels, from the run\n"
             "schedule_note = \"%s\"\n", k->name, schedule_note(s, k, 1));
    return sl_atomic_write(path, text);
}

int sl_write_scaling_data(const char *dir, const sl_suite *s, const sl_problem_def *k)
{
    return write_strong(dir, s, k) == 0 && write_weak(dir, s, k) == 0 ? 0 : -1;
}

/* An efficiency as a reader should take it: above 100% only by noise
 * (the interval reaches 100%) reads "ideal within noise". */
static void efficiency_text(double eff, double eff_low, char *out, size_t len)
{
    if (eff > 1.0 && eff_low <= 1.0)
        snprintf(out, len, "ideal within noise");
    else if (eff > 1.0)
        snprintf(out, len, "%.0f%% (superlinear: caches?)", 100.0 * eff);
    else
        snprintf(out, len, "%.0f%%", 100.0 * eff);
}

/* One row of the strong table. */
static void strong_row(FILE *f, const sl_config *one, const sl_config *c)
{
    double sp = one->median / c->median, lo = one->ci_low / c->ci_high;
    double hi = one->ci_high / c->ci_low;
    char kf[48] = "-", threads[48], eff[48];
    if (c->threads_used > 1 && !c->oversubscribed) {
        double e = sl_karp_flatt(sp, c->threads_used);
        /* A negative serial fraction is a speedup past p: noise when the
         * interval reaches p. */
        if (e < 0.0 && lo <= c->threads_used)
            snprintf(kf, sizeof kf, "0 (ideal within noise)");
        else if (hi >= c->threads_used && e > 0.0 && e < 0.01)
            snprintf(kf, sizeof kf, "%.3f (ideal within noise)", e);
        else
            snprintf(kf, sizeof kf, "%.3f", e);
    }
    sl_config_threads(c, threads, sizeof threads);
    efficiency_text(sp / c->threads_used, lo / c->threads_used, eff, sizeof eff);
    char median[80];
    sl_interval_text(median, sizeof median, c->median, c->ci_low, c->ci_high);
    fprintf(f, "| %s | %s | %s | %s | %.2fx | %s | %s |\n", c->kernel->problem->name,
            c->variant->name, threads, median, sp, eff, kf);
}

/* One row of the weak table. */
static void weak_row(FILE *f, const sl_config *one, const sl_config *c)
{
    const sl_problem_def *k = c->kernel->problem;
    char shape[64];
    if (k->image)
        snprintf(shape, sizeof shape, "%lld x %lld", (long long)c->problem.size,
                 (long long)sl_problem_height(&c->problem));
    else
        snprintf(shape, sizeof shape, "%lld", (long long)c->problem.size);
    /* The efficiency's low end: 1 thread's best time over p threads' worst. */
    double low = (one->ci_low / work_per_thread(one)) / (c->ci_high / work_per_thread(c));
    char eff[48];
    efficiency_text(weak_efficiency(one, c), low, eff, sizeof eff);
    char median[80];
    sl_interval_text(median, sizeof median, c->median, c->ci_low, c->ci_high);
    fprintf(f, "| %s | %s | %d | %s | %.4g %s | %s | %s |\n", k->name, c->variant->name,
            c->threads_used, shape, work_per_thread(c), k->work_unit, median, eff);
}

void sl_print_scaling(FILE *f, const sl_suite *s)
{
    char interval[64];
    sl_interval_label(s, interval, sizeof interval);
    int cores = sl_cores_available(), header = 0, few = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *one = &s->configs[i];
        if (!starts_study(one, one->kernel->problem, 0))
            continue;
        if (!header++)
            fprintf(f, "\n## Strong scaling\n\nEach threaded variant at a fixed size, "
                       "against itself on 1 thread. This machine has %d core(s): "
                       "points beyond are oversubscribed and say nothing about scaling. "
                       "Karp-Flatt is the serial fraction that would explain the "
                       "speedup; if it grows with threads, overhead grows with them.\n\n"
                       "| kernel | variant | threads | median [%s] | speedup | "
                       "efficiency | Karp-Flatt |\n|---|---|---|--:|--:|--:|--:|\n", cores,
                    interval);
        int in_core = 0;
        for (size_t j = 0; j < s->count; j++)
            if (same_study(one, &s->configs[j])) {
                strong_row(f, one, &s->configs[j]);
                in_core += !s->configs[j].oversubscribed;
            }
        few |= in_core < SL_FIT_MIN_POINTS;
    }
    if (few)
        fprintf(f, "\nThe Amdahl fit of the scaling plots needs %d thread counts with a "
                   "core each; this run had fewer (the machine has %d core(s)), so the "
                   "plots say it was skipped. More cores (a cluster node: "
                   "scripts/slurm/) or a longer --threads list give it.\n",
                SL_FIT_MIN_POINTS, cores);

    header = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *one = &s->configs[i];
        if (!starts_study(one, one->kernel->problem, 1))
            continue;
        if (!header++)
            fprintf(f, "\n## Weak scaling\n\nThe work per thread held constant: N "
                       "grows with the threads (fractals: the rows). Ideal is a flat "
                       "time; efficiency compares the time per unit of a thread's "
                       "work actually done with 1 thread's.\n\n"
                       "| kernel | variant | threads | size | work per thread | "
                       "median [%s] | efficiency |\n|---|---|---|--:|--:|--:|--:|\n",
                    interval);
        for (size_t j = 0; j < s->count; j++)
            if (same_study(one, &s->configs[j]))
                weak_row(f, one, &s->configs[j]);
    }
}
