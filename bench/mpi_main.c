/* mpi_main.c - speedlab-mpi-<tree>: lesson 6, the MPI + OpenMP variants
 * validated and timed across a grid of ranks x threads per rank.
 *
 * Run plainly, it is the driver: it checks its input, then starts one
 * mpirun per (ranks, threads) pair on itself with --worker (a fresh
 * process each: nothing is forked from a process that ran OpenMP), each
 * within a time limit, and reads the workers' fragments into the suite's
 * grid (measure/grid.h), which the one report writes as a run folder, or,
 * with --check, into verdicts only. Under
 * mpirun with --worker it measures (bench/hybrid/worker.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "context.h"
#include "exitcodes.h"
#include "gbench.h"
#include "hybrid/launch.h"
#include "hybrid/worker.h"
#include "interrupt.h"
#include "platform.h"
#include "report.h"
#include "results.h"
#include "run_dir.h"
#include "suite.h"
#include "tree.h"

#define hybrid_kernels SL_TREE_SYMBOL(hybrid_kernels)
#define tree_kernels SL_TREE_SYMBOL(kernels)
extern const sl_hybrid_kernel *const hybrid_kernels[];
extern const sl_kernel *const tree_kernels[];

#define PROGRAM "speedlab-mpi"
#define TREE_NAME SL_STR(SPEEDLAB_TREE)
#define SL_STR_(x) #x
#define SL_STR(x) SL_STR_(x)

static const char intro[] =
    "usage: " PROGRAM " [options]\n"
    "Lesson 6: each kernel's MPI + OpenMP variants, validated against the\n"
    "single-process reference, then timed on a grid of ranks x threads per rank.\n";
static const char outro[] =
    "Exit: 0 ok, 1 a launch failed, 2 bad input, 3 a variant failed validation,\n"
    "4 MPI missing (mpirun not found).\n";

/* The driver's options: the kit's one table's (cli.c), defaults filled in,
 * and the kernels they name. */
typedef struct options {
    sl_cli cli;
    const sl_hybrid_kernel *kernels[SL_HYBRID_MAX_JOBS];
    int nkernels;
} options;

/* argv[0], for finding this program's file to launch it as the ranks. */
static const char *program_argv0;

static int fail(int code, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, PROGRAM ": ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return code;
}

static const sl_hybrid_kernel *find_kernel(const char *name, size_t len)
{
    for (int k = 0; hybrid_kernels[k]; k++)
        if (strlen(hybrid_kernels[k]->problem->name) == len &&
            strncmp(hybrid_kernels[k]->problem->name, name, len) == 0)
            return hybrid_kernels[k];
    return NULL;
}

/* The kernels text names (NULL: all). 0, or -1 after saying why. */
static int parse_kernels(options *o, const char *text)
{
    /* All of them, in lesson order (the list has its folders' order). */
    for (int k = 0; text == NULL && hybrid_kernels[k] && k < SL_HYBRID_MAX_JOBS; k++) {
        int at = o->nkernels++;
        for (; at > 0 && o->kernels[at - 1]->problem->lesson > hybrid_kernels[k]->problem->lesson;
             at--)
            o->kernels[at] = o->kernels[at - 1];
        o->kernels[at] = hybrid_kernels[k];
    }
    for (const char *s = text, *next; s != NULL; s = next) {
        size_t len = strcspn(s, ",");
        next = s[len] ? s + len + 1 : NULL;
        const sl_hybrid_kernel *k = find_kernel(s, len);
        if (k == NULL || o->nkernels == SL_HYBRID_MAX_JOBS) {
            fprintf(stderr, PROGRAM ": --kernel: '%.*s' is not one of",
                    (int)(len > 64 ? 64 : len), s);
            for (int n = 0; hybrid_kernels[n]; n++)
                fprintf(stderr, "%s %s", n ? "," : "", hybrid_kernels[n]->problem->name);
            fputc('\n', stderr);
            return -1;
        }
        o->kernels[o->nkernels++] = k;
    }
    return 0;
}

/* OMP_THREAD_LIMIT caps each rank's threads, so a row "1 x 2" would
 * claim a thread its rank never had: a given count above the limit is
 * refused, the default list keeps what fits. 0, or -1 after saying why. */
static int thread_limit(sl_cli *c)
{
    const char *text = getenv("OMP_THREAD_LIMIT");
    long limit = text ? strtol(text, NULL, 10) : 0;
    int kept = 0;
    for (int t = 0; limit > 0 && t < c->nthreads; t++) {
        if (c->threads[t] <= limit) {
            c->threads[kept++] = c->threads[t];
            continue;
        }
        if (c->threads_given) {
            char asked[16];
            snprintf(asked, sizeof asked, "%d", c->threads[t]);
            return fail(-1, "--threads %s is more than OMP_THREAD_LIMIT=%s lets a rank "
                        "have: its rows would claim threads that did not run", asked, text);
        }
    }
    if (limit > 0)
        c->nthreads = kept;
    return 0;
}

/* The options, and the driver's defaults for what is not given. 0, 1
 * (--help), or -1 after saying why. */
static int parse(options *o, int argc, char **argv)
{
    sl_cli *c = &o->cli;
    int rc = sl_cli_parse(c, argc, argv, 1, 0, SL_CLI_MPI, intro, outro);
    if (rc != 0)
        return rc;
    if (c->nsizes)
        return fail(-1, "--size KERNEL=N is the bench's; here one --size is every chosen "
                    "kernel's (choose them with --kernel)%s%s", "", "");
    static const int one_two[] = { 1, 2 };
    if (c->nranks == 0)
        memcpy(c->ranks, one_two, sizeof one_two), c->nranks = 2;
    if (thread_limit(c) != 0)
        return -1;
    c->reps = c->reps ? c->reps : 5;
    c->min_time = c->min_time > 0 ? c->min_time : 0.2;
    c->timeout = c->timeout > 0 ? c->timeout : 900;
    return parse_kernels(o, c->kernel);
}

/* The size of a kernel in this run, refused (exit 2) where MPI cannot
 * carry it: a fractal image is gathered in one message of int counts. */
static int size_for(const options *o, const sl_problem_def *def, int64_t *out)
{
    const sl_cli *c = &o->cli;
    int64_t s = c->size    ? c->size
                : c->check ? def->probe_size
                : c->quick ? def->quick_size
                           : def->default_size;
    if (s > def->max_size) {
        fprintf(stderr, PROGRAM ": --size: %lld is more than %s allows (%lld)\n", (long long)s,
                def->name, (long long)def->max_size);
        return -1;
    }
    if (def->image && s * s > INT_MAX) {
        fprintf(stderr, PROGRAM ": --size: a %lld x %lld %s image is more than one MPI message "
                "can gather (%d pixels); at most 46340\n", (long long)s, (long long)s, def->name, INT_MAX);
        return -1;
    }
    *out = s;
    return 0;
}

static const sl_kernel *single_of(const sl_problem_def *def)
{
    return sl_find_kernel(tree_kernels, def->name);
}

/* ---- worker ------------------------------------------------------------- */

/* Under mpirun: argv from the driver (run_launch below). */
static int worker(int argc, char **argv)
{
    /* The driver's words, in order: --worker FRAGMENT THREADS REPS MIN_TIME
     * BASELINE KERNEL=SIZE... (run_launch); not options a person types. */
    if (argc < 8)
        return SL_EXIT_USAGE;
    sl_hybrid_plan plan = { .frag = argv[2], .threads = atoi(argv[3]), .reps = atoi(argv[4]),
                            .min_time = strtod(argv[5], NULL), .baseline = atoi(argv[6]) };
    for (int i = 7; i < argc && plan.njobs < SL_HYBRID_MAX_JOBS; i++) {
        const char *eq = strchr(argv[i], '=');
        const sl_hybrid_kernel *k = eq ? find_kernel(argv[i], (size_t)(eq - argv[i])) : NULL;
        if (k == NULL)
            return SL_EXIT_USAGE;
        plan.jobs[plan.njobs++] = (sl_hybrid_job){ k, single_of(k->problem),
                                                   strtoll(eq + 1, NULL, 10) };
    }
    if (plan.threads < 1)
        return SL_EXIT_USAGE;
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    char *gb_argv[] = { argv[0], NULL };
    int gb_argc = 1;
    gb_initialize(&gb_argc, gb_argv, 0);
    int code = sl_hybrid_work(&plan);
    gb_shutdown();
    MPI_Finalize();
    return code;
}

/* ---- driver ------------------------------------------------------------- */

/* The cores mpirun places ranks on: under a SLURM allocation, every
 * node's (SLURM_JOB_CPUS_PER_NODE, e.g. "4(x2),2" for 4 + 4 + 2); else
 * this machine's, the CPUs this process may use. */
static int job_cores(void)
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

/* One mpirun: R ranks x T threads, into frag. Returns the worker's exit
 * code (0 or 3), or 1 after saying what went wrong. */
static int run_launch(const options *o, const char *mpirun, int ranks, int threads,
                      int baseline, const int64_t *sizes, const char *frag, char *line,
                      size_t linelen)
{
    char *argv[64];
    int n = 0;
    static char np[16], pe[48], self[SL_PATH_BUF], thr[16], reps[16], mt[32], base[4];
    static char jobs[SL_HYBRID_MAX_JOBS][96];
    snprintf(np, sizeof np, "%d", ranks);
    argv[n++] = (char *)mpirun;
    if (geteuid() == 0)
        argv[n++] = "--allow-run-as-root";
    argv[n++] = "-np";
    argv[n++] = np;
    int cores = job_cores();
    int core = o->cli.bind == 1 || (o->cli.bind == -1 && ranks * threads <= cores);
    if (ranks > cores || (core && o->cli.bind == 1 && ranks > cores))
        argv[n++] = "--oversubscribe";
    if (core && o->cli.bind == -1) {
        snprintf(pe, sizeof pe, "slot:PE=%d", threads);
        argv[n++] = "--map-by";
        argv[n++] = pe;
    }
    argv[n++] = "--bind-to";
    argv[n++] = core ? "core" : "none";
    if (sl_self_exe(program_argv0, self, sizeof self) != 0)
        return fail(SL_EXIT_RUNTIME, "cannot find this program's file (%s)%s", program_argv0, "");
    argv[n++] = self;
    argv[n++] = "--worker";
    argv[n++] = (char *)frag;
    snprintf(thr, sizeof thr, "%d", threads);
    snprintf(reps, sizeof reps, "%d", o->cli.check ? 0 : o->cli.reps);
    snprintf(mt, sizeof mt, "%.17g", o->cli.min_time);
    snprintf(base, sizeof base, "%d", baseline);
    char *more[] = { thr, reps, mt, base };
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++)
        argv[n++] = more[k];
    for (int k = 0; k < o->nkernels; k++) {
        snprintf(jobs[k], sizeof jobs[k], "%s=%lld", o->kernels[k]->problem->name,
                 (long long)sizes[k]);
        argv[n++] = jobs[k];
    }
    argv[n] = NULL;
    /* The launch as the run's context records it, and as printed. */
    size_t at = (size_t)snprintf(line, linelen, "launch %d x %d: mpirun", ranks, threads);
    for (int k = 1; argv[k] && argv[k] != self && at < linelen; k++)
        if (strcmp(argv[k], "--allow-run-as-root") != 0)
            at += (size_t)snprintf(line + at, linelen - at, " %s", argv[k]);
    printf("== %d rank(s) x %d thread(s): %s%s\n", ranks, threads, strchr(line, ':') + 2,
           geteuid() == 0 ? " (as root: with --allow-run-as-root)" : "");
    fflush(stdout);
    sl_launch_end end;
    char why[512];
    if (sl_launch(argv, o->cli.timeout, &end, why, sizeof why) != 0)
        return fail(SL_EXIT_RUNTIME, "%s%s", why, "");
    if (end.interrupted)
        return SL_EXIT_RUNTIME;
    if (end.timed_out) {
        fprintf(stderr, PROGRAM ": %d rank(s) x %d thread(s) did not finish within %g s: "
                "stopped (a rank hung, or --timeout is too short for these sizes)\n",
                ranks, threads, o->cli.timeout);
        return SL_EXIT_RUNTIME;
    }
    if (end.exited && end.code == SL_EXIT_OK)
        return SL_EXIT_OK;
    char culprit[400];
    if (end.exited && sl_launch_culprit(&end, culprit, sizeof culprit))
        fprintf(stderr, PROGRAM ": %d rank(s) x %d thread(s): %s; mpirun exited with status "
                "%d; nothing of this run is kept\n", ranks, threads, culprit, end.code);
    else if (end.exited)
        fprintf(stderr, PROGRAM ": %d rank(s) x %d thread(s): mpirun exited with status %d: "
                "a rank failed or was killed (see above); nothing of this run is kept\n",
                ranks, threads, end.code);
    else
        fprintf(stderr, PROGRAM ": %d rank(s) x %d thread(s): mpirun was killed by signal %d\n",
                ranks, threads, end.code);
    return SL_EXIT_RUNTIME;
}

/* The run folder from the grid, by the one report: results.csv, the
 * figures' data and figures, summary.md and index.html, then published.
 * Returns code, or 1 when a file cannot be written. */
static int publish(sl_suite *suite, sl_run_dir *run, const options *o, int code)
{
    char why[SL_WHY_BUF], failed[SL_PATH_BUF];
    sl_context ctx;
    sl_context_collect(&ctx, suite, o->cli.threads, o->cli.nthreads);
    sl_run_report report = { .suite = suite, .ctx = &ctx, .run_name = run->name,
                             .dir = run->partial };
    if (sl_write_run_data(run->partial, suite, &ctx, failed, sizeof failed) != 0 ||
        (report.plots = sl_run_plots(run->partial),
         sl_write_report(&report, failed, sizeof failed) != 0)) {
        fprintf(stderr, PROGRAM ": cannot write '%s': %s\n", failed, strerror(errno));
        sl_run_dir_discard(run);
        return SL_EXIT_RUNTIME;
    }
    if (sl_run_dir_publish(run, why, sizeof why) != 0)
        return fail(SL_EXIT_RUNTIME, "%s%s", why, "");
    sl_print_report(stdout, &report, 0);
    printf("\nreport: %s/index.html and summary.md, figures hybrid-<kernel>.png%s (also "
           "%s/latest)\n", run->final, report.plots == 0 ? "" : " (not drawn: see above)",
           run->base);
    if (code == SL_EXIT_INVALID)
        printf("a configuration failed validation: see above; exit code 3\n");
    return code;
}

/* One point of the grid: its launch, then its fragment read into the
 * grid (a baseline-only launch keeps its scalar rows alone). Returns 0, 3
 * when a configuration was wrong, or 1 after saying what failed. */
static int launch_point(const options *o, const char *mpirun, const int64_t *sizes,
                        const char *dir, int ranks, int threads, int baseline_only,
                        sl_grid *grid)
{
    char frag[SL_PATH_BUF], line[1024], why[SL_WHY_BUF], name[64];
    snprintf(name, sizeof name, ".fragment-%dx%d.csv", ranks, threads);
    if (sl_path_join(frag, sizeof frag, dir, name) != 0)
        return fail(SL_EXIT_RUNTIME, "the results folder's path is too long%s%s", "", "");
    int baseline = !o->cli.check && ranks == 1 && (baseline_only || threads == o->cli.threads[0]);
    int rc = run_launch(o, mpirun, ranks, threads, baseline, sizes, frag, line, sizeof line);
    sl_grid_note(grid, line);
    sl_grid_note(grid, "\n");
    if (rc == SL_EXIT_RUNTIME)
        return rc;
    int before = grid->n, code = SL_EXIT_OK;
    if (sl_grid_read_fragment(grid, frag, TREE_NAME, why, sizeof why) < 0) {
        fprintf(stderr, PROGRAM ": %s\n", why);
        code = SL_EXIT_RUNTIME;
    }
    unlink(frag);
    for (int i = before; i < grid->n; i++) {
        sl_grid_row *row = &grid->rows[i];
        row->oversubscribed = ranks * threads > job_cores();
        const sl_hybrid_kernel *k = find_kernel(row->kernel, strlen(row->kernel));
        snprintf(row->unit, sizeof row->unit, "%s", k ? k->problem->work_unit : "");
        if (!row->valid && code == SL_EXIT_OK)
            code = SL_EXIT_INVALID;
    }
    if (baseline_only)
        for (int i = grid->n - 1; i >= before; i--)
            if (strcmp(grid->rows[i].variant, SL_BASELINE_VARIANT) != 0)
                grid->rows[i] = grid->rows[--grid->n];
    return code;
}

/* Under SLURM: the job's facts in the context, and the CPU mismatch
 * warning the single-process bench gives. */
static void note_slurm(sl_grid *grid)
{
    const char *job = getenv("SLURM_JOB_ID");
    if (job != NULL) {
        char slurm[512];
        snprintf(slurm, sizeof slurm,
                 "slurm: job %.32s, nodes %.200s, tasks %.16s, cpus per task %.16s\n", job,
                 getenv("SLURM_JOB_NODELIST") ? getenv("SLURM_JOB_NODELIST") : "?",
                 getenv("SLURM_NTASKS") ? getenv("SLURM_NTASKS") : "?",
                 getenv("SLURM_CPUS_PER_TASK") ? getenv("SLURM_CPUS_PER_TASK") : "?");
        sl_grid_note(grid, slurm);
    }
    char warning[512];
    if (sl_slurm_cpu_warning(warning, sizeof warning))
        fprintf(stderr, PROGRAM ": warning: %s\n", warning);
}

/* Every point of the grid into suite's grid (a 1-rank launch first when the
 * grid has none: the baseline comes from one). Returns 0, 3 or 1. */
static int launch_grid(const options *o, const char *mpirun, const int64_t *sizes,
                       const char *dir, sl_suite *suite)
{
    int code = SL_EXIT_OK, have_one = 0;
    note_slurm(&suite->grid);
    for (int r = 0; r < o->cli.nranks; r++)
        have_one |= o->cli.ranks[r] == 1;
    if (!have_one)
        code = launch_point(o, mpirun, sizes, dir, 1, o->cli.threads[0], 1, &suite->grid);
    for (int r = 0; r < o->cli.nranks && code != SL_EXIT_RUNTIME; r++)
        for (int t = 0; t < o->cli.nthreads && code != SL_EXIT_RUNTIME; t++) {
            int rc = launch_point(o, mpirun, sizes, dir, o->cli.ranks[r], o->cli.threads[t], 0,
                                  &suite->grid);
            code = rc != SL_EXIT_OK ? rc : code;
        }
    return code;
}

static int driver(options *o)
{
    char mpirun[SL_PATH_BUF], why[SL_WHY_BUF];
    if (sl_find_mpirun(mpirun, sizeof mpirun) != 0) {
        char hint[128];
        sl_install_hint(hint, sizeof hint, "openmpi-bin libopenmpi-dev");
        fprintf(stderr, PROGRAM ": mpirun not found (lesson 6 needs Open MPI); install it with: %s\n",
                hint);
        return SL_EXIT_MISSING;
    }
    int64_t sizes[SL_HYBRID_MAX_JOBS];
    for (int k = 0; k < o->nkernels; k++)
        if (size_for(o, o->kernels[k]->problem, &sizes[k]) != 0)
            return SL_EXIT_USAGE;
    /* Fragments go to the run's partial folder, or (--check) a temporary one. */
    sl_run_dir run = { 0 };
    char dir[SL_PATH_BUF];
    if (o->cli.check) {
        char tmpl[] = "/tmp/speedlab-mpi.XXXXXX";
        if (mkdtemp(tmpl) == NULL)
            return fail(SL_EXIT_RUNTIME, "cannot make a temporary folder: %s%s", strerror(errno), "");
        snprintf(dir, sizeof dir, "%s", tmpl);
    } else {
        if (sl_run_dir_create(&run, o->cli.results, why, sizeof why) != 0)
            return fail(SL_EXIT_RUNTIME, "%s%s", why, "");
        snprintf(dir, sizeof dir, "%s", run.partial);
    }
    static sl_suite suite;
    /* Ctrl-C: mpirun runs in a process group of its own, so the launcher
     * stops it and its ranks (launch.h), and keeps nothing. */
    sl_interrupt_install_saying("\nstopping: mpirun and its ranks, now; nothing of this run "
                                "is kept\n");
    int code = launch_grid(o, mpirun, sizes, dir, &suite);
    if (sl_interrupted()) {
        if (o->cli.check)
            rmdir(dir);
        else
            sl_run_dir_discard(&run);
        sl_suite_free(&suite);
        return 128 + sl_interrupted();
    }
    if (o->cli.check) {
        rmdir(dir);
        int invalid = 0;
        for (int i = 0; i < suite.grid.n; i++)
            invalid += !suite.grid.rows[i].valid;
        if (code != SL_EXIT_RUNTIME)
            printf("%d configuration(s) checked, %d invalid\n", suite.grid.n, invalid);
    } else if (code == SL_EXIT_RUNTIME) {
        /* Nothing half-done is published; earlier runs are untouched. */
        sl_run_dir_discard(&run);
    } else {
        code = publish(&suite, &run, o, code);
    }
    sl_suite_free(&suite);
    return code;
}

int main(int argc, char **argv)
{
    program_argv0 = argv[0];
    if (argc >= 3 && strcmp(argv[1], "--worker") == 0)
        return worker(argc, argv);
    static options o;
    int p = parse(&o, argc, argv);
    if (p != 0)
        return p > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    char why[512];
    if (sl_check_omp_env(why, sizeof why) != 0)
        return fail(SL_EXIT_USAGE, "%s%s", why, "");
    return driver(&o);
}
