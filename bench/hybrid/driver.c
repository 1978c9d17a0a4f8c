/* driver.c - lesson 6's grid and its launches (driver.h). */
#define _GNU_SOURCE
#include "driver.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "context.h"
#include "exitcodes.h"
#include "launch.h"
#include "omp_leftovers.h"

int sl_hybrid_job_cores(void)
{
    const char *s = getenv("SLURM_JOB_CPUS_PER_NODE");
    int local = sl_cores_available();
    long total = 0;
    while (s != NULL && *s) {
        char *end;
        long n = strtol(s, &end, 10), times = 1;
        if (end == s || n <= 0)
            return local;
        if (strncmp(end, "(x", 2) == 0) {
            times = strtol(end + 2, &end, 10);
            if (*end++ != ')' || times <= 0)
                return local;
        }
        total += n * times;
        if (*end == ',')
            end++;
        else if (*end != '\0' || total > 1 << 20)
            return local;
        s = end;
    }
    return total > 0 ? (int)total : local;
}

int sl_hybrid_thread_limit(sl_cli *c, char *why, size_t whylen)
{
    const char *text = getenv("OMP_THREAD_LIMIT");
    long limit = text ? strtol(text, NULL, 10) : 0;
    int kept = 0;
    for (int t = 0; limit > 0 && t < c->nthreads; t++) {
        if (c->threads[t] <= limit) {
            c->threads[kept++] = c->threads[t];
            continue;
        }
        if (c->threads_given)
            return sl_fail(why, whylen, "--threads %d is more than OMP_THREAD_LIMIT=%s lets "
                           "a rank have: its rows would claim threads that did not run",
                           c->threads[t], text);
    }
    if (limit > 0)
        c->nthreads = kept;
    return 0;
}

int sl_hybrid_bindable(const sl_cli *c, char *why, size_t whylen)
{
    int cores = sl_hybrid_job_cores();
    for (int r = 0; c->bind == 1 && r < c->nranks; r++)
        if (c->ranks[r] > cores)
            return sl_fail(why, whylen, "--bind core with %d ranks: this job has %d core(s), "
                           "and Open MPI binds no two ranks to one core; give --ranks up to %d, "
                           "or leave --bind out (the kit binds to cores where they fit)",
                           c->ranks[r], cores, cores);
    return 0;
}

int sl_hybrid_size(const sl_cli *c, const sl_problem_def *def, int64_t *out, char *why,
                   size_t whylen)
{
    int64_t s = c->size    ? c->size
                : c->check ? def->probe_size
                : c->quick ? def->quick_size
                           : def->default_size;
    if (s > def->max_size)
        return sl_fail(why, whylen, "--size: %lld is more than %s allows (%lld)", (long long)s,
                       def->name, (long long)def->max_size);
    if (def->image && s * s > INT_MAX)
        return sl_fail(why, whylen, "--size: a %lld x %lld %s image is more than one MPI "
                       "message can gather (%d pixels); at most 46340", (long long)s,
                       (long long)s, def->name, INT_MAX);
    *out = s;
    return 0;
}

/* mpirun's words for R ranks x T threads (the placement: a core per
 * thread when they fit, --bind given or not), then the worker's: --worker
 * FRAGMENT THREADS REPS MIN_TIME BASELINE KERNEL=SIZE..., into argv (room
 * for 64); text holds the numbers. Returns the count. */
typedef struct launch_words {
    char np[16], pe[48], thr[16], reps[16], mt[32], base[4];
    char jobs[SL_HYBRID_MAX_JOBS][96];
} launch_words;

static int launch_argv(const sl_hybrid_grid *g, int ranks, int threads, int baseline,
                       const char *frag, launch_words *w, char **argv)
{
    const sl_cli *c = g->cli;
    int n = 0, cores = sl_hybrid_job_cores();
    int core = c->bind == 1 || (c->bind == -1 && ranks * threads <= cores);
    snprintf(w->np, sizeof w->np, "%d", ranks);
    argv[n++] = (char *)g->mpirun;
    if (geteuid() == 0)
        argv[n++] = "--allow-run-as-root";
    argv[n++] = "-np";
    argv[n++] = w->np;
    if (ranks > cores)
        argv[n++] = "--oversubscribe";
    if (core && c->bind == -1) {
        snprintf(w->pe, sizeof w->pe, "slot:PE=%d", threads);
        argv[n++] = "--map-by";
        argv[n++] = w->pe;
    }
    argv[n++] = "--bind-to";
    argv[n++] = core ? "core" : "none";
    argv[n++] = (char *)g->self;
    argv[n++] = "--worker";
    argv[n++] = (char *)frag;
    snprintf(w->thr, sizeof w->thr, "%d", threads);
    snprintf(w->reps, sizeof w->reps, "%d", c->check ? 0 : c->reps);
    snprintf(w->mt, sizeof w->mt, "%.17g", c->min_time);
    snprintf(w->base, sizeof w->base, "%d", baseline);
    char *more[] = { w->thr, w->reps, w->mt, w->base };
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++)
        argv[n++] = more[k];
    for (int k = 0; k < g->nkernels; k++) {
        snprintf(w->jobs[k], sizeof w->jobs[k], "%s=%lld", g->kernels[k]->problem->name,
                 (long long)g->sizes[k]);
        argv[n++] = w->jobs[k];
    }
    argv[n] = NULL;
    return n;
}

/* How a launch that did not end well ended, in words. */
static int launch_failure(const sl_launch_end *end, int ranks, int threads, double timeout,
                          char *why, size_t whylen)
{
    char culprit[400];
    if (end->interrupted)
        return sl_fail(why, whylen, "%d rank(s) x %d thread(s): interrupted", ranks, threads);
    if (end->timed_out)
        return sl_fail(why, whylen, "%d rank(s) x %d thread(s) did not finish within %g s: "
                       "stopped (a rank hung, or --timeout is too short for these sizes)",
                       ranks, threads, timeout);
    /* The worker itself exits 0 (its rows say what was wrong): a 3 is a
     * rank's exit guard, which named the call on its own line. */
    if (end->exited && end->code == SL_EXIT_INVALID)
        return sl_fail(why, whylen, "%d rank(s) x %d thread(s): a rank's call ended the "
                       "program with exit() (named above); nothing of this run is kept",
                       ranks, threads);
    if (end->exited && sl_launch_culprit(end, culprit, sizeof culprit))
        return sl_fail(why, whylen, "%d rank(s) x %d thread(s): %s; mpirun exited with status "
                       "%d; nothing of this run is kept", ranks, threads, culprit, end->code);
    if (end->exited)
        return sl_fail(why, whylen, "%d rank(s) x %d thread(s): mpirun exited with status %d: "
                       "a rank failed or was killed (see above); nothing of this run is kept",
                       ranks, threads, end->code);
    return sl_fail(why, whylen, "%d rank(s) x %d thread(s): mpirun was killed by signal %d",
                   ranks, threads, end->code);
}

/* One mpirun: R ranks x T threads, into frag; the launch as the run's
 * context records it into line. Returns 0, or 1 with why. */
static int run_launch(const sl_hybrid_grid *g, int ranks, int threads, int baseline,
                      const char *frag, char *line, size_t linelen, char *why, size_t whylen)
{
    char *argv[64];
    launch_words w;
    launch_argv(g, ranks, threads, baseline, frag, &w, argv);
    size_t at = (size_t)snprintf(line, linelen, "launch %d x %d: mpirun", ranks, threads);
    for (int k = 1; argv[k] && argv[k] != g->self && at < linelen; k++)
        if (strcmp(argv[k], "--allow-run-as-root") != 0)
            at += (size_t)snprintf(line + at, linelen - at, " %s", argv[k]);
    fprintf(g->progress, "== %d rank(s) x %d thread(s): %s%s\n", ranks, threads,
            strchr(line, ':') + 2, geteuid() == 0 ? " (as root: with --allow-run-as-root)" : "");
    fflush(g->progress);
    sl_launch_end end;
    int launched = sl_launch(argv, g->cli->timeout, 0, &end, why, whylen);
    char noted[SL_PATH_BUF];   /* the ranks' runtime registrations: omp_leftovers.h */
    if (sl_hybrid_ranks_list(frag, noted, sizeof noted) == 0)
        sl_forget_noted(noted);
    if (launched != 0)
        return SL_EXIT_RUNTIME;
    if (end.exited && end.code == SL_EXIT_OK && !end.interrupted && !end.timed_out)
        return SL_EXIT_OK;
    launch_failure(&end, ranks, threads, g->cli->timeout, why, whylen);
    return end.exited && end.code == SL_EXIT_INVALID ? SL_EXIT_INVALID : SL_EXIT_RUNTIME;
}

/* Whether mpirun places R ranks x T threads here with the words the grid
 * will use: the same launch, quiet, with true as the program (nothing is
 * measured). 0; SL_EXIT_USAGE with mpirun's reason in why; SL_EXIT_RUNTIME
 * when even that launch ran past --timeout (a busy machine's mpirun can
 * take longer than a short limit to start): said as any launch's would be. */
static int try_launch(const sl_hybrid_grid *g, int ranks, int threads, char *why, size_t whylen)
{
    char *argv[64], reason[600];
    launch_words w;
    launch_argv(g, ranks, threads, 0, "-", &w, argv);
    for (int k = 0; argv[k]; k++)
        if (argv[k] == g->self) {
            argv[k] = "true";
            argv[k + 1] = NULL;
        }
    sl_launch_end end;
    double limit = g->cli->timeout < 60 ? g->cli->timeout : 60;
    if (sl_launch(argv, limit, 1, &end, why, whylen) != 0)
        return SL_EXIT_RUNTIME;
    if (end.exited && end.code == 0)
        return 0;
    if (end.interrupted || end.timed_out) {
        launch_failure(&end, ranks, threads, limit, why, whylen);
        return SL_EXIT_RUNTIME;
    }
    if (!sl_launch_reason(&end, reason, sizeof reason))
        snprintf(reason, sizeof reason, "%s %d", end.exited ? "exit status" : "signal", end.code);
    sl_fail(why, whylen, "%d rank(s) x %d thread(s): mpirun cannot launch them here (%s); "
            "nothing was measured: give --ranks/--threads this machine or job can hold%s",
            ranks, threads, reason, g->cli->bind == 1 ? ", or leave --bind out" : "");
    return SL_EXIT_USAGE;
}

int sl_hybrid_try_grid(const sl_hybrid_grid *g, char *why, size_t whylen)
{
    const sl_cli *c = g->cli;
    int have_one = 0, rc = 0;
    for (int r = 0; r < c->nranks; r++)
        have_one |= c->ranks[r] == 1;
    if (!have_one)
        rc = try_launch(g, 1, c->threads[0], why, whylen);
    for (int r = 0; r < c->nranks && rc == 0; r++)
        for (int t = 0; t < c->nthreads && rc == 0; t++)
            rc = try_launch(g, c->ranks[r], c->threads[t], why, whylen);
    return rc;
}

/* The unit of a grid row's kernel, from the kernels launched. */
static const char *unit_of(const sl_hybrid_grid *g, const char *kernel)
{
    for (int k = 0; k < g->nkernels; k++)
        if (strcmp(g->kernels[k]->problem->name, kernel) == 0)
            return g->kernels[k]->problem->work_unit;
    return "";
}

/* One point of the grid: its launch, then its fragment read into the
 * grid (a baseline-only launch keeps its scalar rows alone). Returns 0, 3
 * when a configuration was wrong, or 1 with why. */
static int launch_point(const sl_hybrid_grid *g, int ranks, int threads, int baseline_only,
                        sl_grid *grid, char *why, size_t whylen)
{
    char frag[SL_PATH_BUF], line[1024], name[64];
    snprintf(name, sizeof name, ".fragment-%dx%d.csv", ranks, threads);
    if (sl_path_join(frag, sizeof frag, g->dir, name) != 0) {
        sl_fail(why, whylen, "the results folder's path is too long");
        return SL_EXIT_RUNTIME;
    }
    int baseline = !g->cli->check && ranks == 1 &&
                   (baseline_only || threads == g->cli->threads[0]);
    int rc = run_launch(g, ranks, threads, baseline, frag, line, sizeof line, why, whylen);
    sl_grid_note(grid, line);
    sl_grid_note(grid, "\n");
    if (rc != SL_EXIT_OK) {
        unlink(frag);   /* what a failed launch began is not kept */
        return rc;
    }
    int before = grid->n, code = SL_EXIT_OK, cores = sl_hybrid_job_cores();
    if (sl_grid_read_fragment(grid, frag, g->tree, why, whylen) < 0)
        code = SL_EXIT_RUNTIME;
    unlink(frag);
    for (int i = before; i < grid->n; i++) {
        sl_grid_row *row = &grid->rows[i];
        row->oversubscribed = ranks * threads > cores;
        snprintf(row->unit, sizeof row->unit, "%s", unit_of(g, row->kernel));
        if (!row->valid && code == SL_EXIT_OK)
            code = SL_EXIT_INVALID;
    }
    if (baseline_only)
        for (int i = grid->n - 1; i >= before; i--)
            if (strcmp(grid->rows[i].variant, SL_BASELINE_VARIANT) != 0)
                grid->rows[i] = grid->rows[--grid->n];
    return code;
}

/* Under SLURM: the job's facts in the grid's notes. */
static void note_slurm(sl_grid *grid)
{
    const char *job = getenv("SLURM_JOB_ID");
    if (job == NULL)
        return;
    char slurm[512];
    snprintf(slurm, sizeof slurm,
             "slurm: job %.32s, nodes %.200s, tasks %.16s, cpus per task %.16s\n", job,
             getenv("SLURM_JOB_NODELIST") ? getenv("SLURM_JOB_NODELIST") : "?",
             getenv("SLURM_NTASKS") ? getenv("SLURM_NTASKS") : "?",
             getenv("SLURM_CPUS_PER_TASK") ? getenv("SLURM_CPUS_PER_TASK") : "?");
    sl_grid_note(grid, slurm);
}

int sl_hybrid_launch_grid(const sl_hybrid_grid *g, sl_grid *grid, char *why, size_t whylen)
{
    why[0] = '\0';
    const sl_cli *c = g->cli;
    int code = SL_EXIT_OK, have_one = 0;
    note_slurm(grid);
    for (int r = 0; r < c->nranks; r++)
        have_one |= c->ranks[r] == 1;
    if (!have_one)
        code = launch_point(g, 1, c->threads[0], 1, grid, why, whylen);
    for (int r = 0; r < c->nranks && !why[0]; r++)
        for (int t = 0; t < c->nthreads && !why[0]; t++) {
            int rc = launch_point(g, c->ranks[r], c->threads[t], 0, grid, why, whylen);
            code = rc != SL_EXIT_OK ? rc : code;
        }
    return code;
}

/* The kernel of all named name[0..len), or NULL. */
static const sl_hybrid_kernel *named(const sl_hybrid_kernel *const *all, const char *name,
                                     size_t len)
{
    for (int k = 0; all[k]; k++)
        if (strlen(all[k]->problem->name) == len &&
            strncmp(all[k]->problem->name, name, len) == 0)
            return all[k];
    return NULL;
}

int sl_hybrid_choose(const sl_hybrid_kernel *const *all, const char *text,
                     const sl_hybrid_kernel **out, char *why, size_t whylen)
{
    int n = 0;
    /* All of them, in lesson order (the list has its folders' order). */
    for (int k = 0; text == NULL && all[k] && k < SL_HYBRID_MAX_JOBS; k++) {
        int at = n++;
        for (; at > 0 && out[at - 1]->problem->lesson > all[k]->problem->lesson; at--)
            out[at] = out[at - 1];
        out[at] = all[k];
    }
    for (const char *s = text, *next; s != NULL; s = next) {
        size_t len = strcspn(s, ",");
        next = s[len] ? s + len + 1 : NULL;
        const sl_hybrid_kernel *k = named(all, s, len);
        if (k == NULL || n == SL_HYBRID_MAX_JOBS) {
            size_t at = (size_t)snprintf(why, whylen, "--kernel: '%.*s' is not one of",
                                         (int)(len > 64 ? 64 : len), s);
            for (int i = 0; all[i] && at < whylen; i++)
                at += (size_t)snprintf(why + at, whylen - at, "%s %s", i ? "," : "",
                                       all[i]->problem->name);
            return -1;
        }
        out[n++] = k;
    }
    return n;
}
