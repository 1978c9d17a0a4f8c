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
#include "hybrid/driver.h"
#include "hybrid/launch.h"
#include "hybrid/worker.h"
#include "interrupt.h"
#include "isolate.h"
#include "omp_leftovers.h"
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

/* --check's fragments: a folder of their own under TMPDIR (a cluster
 * job's scratch, which the job's end cleans), else /tmp. */
static int make_check_dir(char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    if (sl_path_join(dir, len, tmp && *tmp ? tmp : "/tmp", "speedlab-mpi.XXXXXX") != 0) {
        snprintf(dir, len, "TMPDIR");
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static const sl_hybrid_kernel *find_kernel(const char *name, size_t len)
{
    for (int k = 0; hybrid_kernels[k]; k++)
        if (strlen(hybrid_kernels[k]->problem->name) == len &&
            strncmp(hybrid_kernels[k]->problem->name, name, len) == 0)
            return hybrid_kernels[k];
    return NULL;
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
    char why[SL_WHY_BUF];
    if (sl_hybrid_thread_limit(c, why, sizeof why) != 0 ||
        sl_hybrid_bindable(c, why, sizeof why) != 0)
        return fail(-1, "%s%s", why, "");
    o->nkernels = sl_hybrid_choose(hybrid_kernels, c->kernel, o->kernels, why, sizeof why);
    return o->nkernels < 0 ? fail(-1, "%s%s", why, "") : 0;
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
                            .min_time = strtod(argv[5], NULL), .baseline = atoi(argv[6]),
                            .program = PROGRAM };
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
    /* Before MPI_Init, which may take seconds: mpirun can end this rank
     * with SIGKILL, and then the driver removes what its runtime left. */
    char noted[SL_PATH_BUF];
    if (sl_hybrid_ranks_list(plan.frag, noted, sizeof noted) == 0)
        sl_note_for_forgetting(noted);
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    sl_forget_registration_when_signalled();   /* mpirun stops ranks with SIGTERM */
    sl_exit_guard(PROGRAM, NULL);   /* an exit() in a rank's call, named */
    char *gb_argv[] = { argv[0], NULL };
    int gb_argc = 1;
    char why[256];
    gb_initialize(&gb_argc, gb_argv, NULL, why, sizeof why);   /* no flags: nothing refused */
    int code = sl_hybrid_work(&plan);
    gb_shutdown();
    MPI_Finalize();
    return code;
}

/* ---- driver ------------------------------------------------------------- */

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

/* Open MPI's settings the driver's launches need; a user's value wins. */
static void open_mpi_defaults(void)
{
    /* A rank that called MPI_Finalize and returned 0 is still called
     * "exiting improperly" (mpirun exits 1) when mpirun acknowledges its
     * finalize after the 2 s PMIx 4.2 waits (Debian 12's; PMIx later made
     * it 10 s for loaded servers): a busy machine's mpirun can be that late.
     * Every other way out of a rank is a non-zero status (the exit guard,
     * a signal), so exit 0 needs no handshake here. Open MPI 5's launcher
     * (PRRTE) names it prte_allowed_exit_without_sync, and does not read
     * the old name (Debian 13's 5.0.7: "exiting improperly" without it). */
    setenv("OMPI_MCA_orte_allowed_exit_without_sync", "1", 0);
    setenv("PRTE_MCA_prte_allowed_exit_without_sync", "1", 0);
    /* A rank killed on another node: Open MPI 5's ranks that lose their
     * connection to it abort at once ("Socket closed"), and its launcher
     * then names only the first to abort (Debian 13's 5.0.7, two SLURM
     * nodes). Their abort waits 2 s, in which the launcher hears of the
     * killed rank and names it, as Open MPI 4.1 does. The kit never
     * aborts a rank itself. */
    setenv("OMPI_MCA_opal_abort_delay", "2", 0);
    /* PMIx 5 (Ubuntu 24.04's Open MPI) keeps the job's data in a shared
     * memory file in TMPDIR (gds/shmem), left behind when a rank ends the
     * job; its hash store, PMIx 4's way, keeps it in memory. */
    setenv("PMIX_MCA_gds", "hash", 0);
}

static int driver(options *o)
{
    char mpirun[SL_PATH_BUF], why[SL_WHY_BUF];
    if (sl_find_mpirun(mpirun, sizeof mpirun) != 0) {
        char hint[128];
        sl_install_hint(hint, sizeof hint, "openmpi-bin libopenmpi-dev", "openmpi");
        fprintf(stderr, PROGRAM ": mpirun not found (lesson 6 needs Open MPI); install it with: %s\n",
                hint);
        return SL_EXIT_MISSING;
    }
    open_mpi_defaults();
    int64_t sizes[SL_HYBRID_MAX_JOBS];
    for (int k = 0; k < o->nkernels; k++)
        if (sl_hybrid_size(&o->cli, o->kernels[k]->problem, &sizes[k], why, sizeof why) != 0)
            return fail(SL_EXIT_USAGE, "%s%s", why, "");
    char self[SL_PATH_BUF], warning[512];
    if (sl_self_exe(program_argv0, self, sizeof self) != 0)
        return fail(SL_EXIT_RUNTIME, "cannot find this program's file (%s)%s", program_argv0, "");
    if (sl_slurm_cpu_warning(warning, sizeof warning))
        fprintf(stderr, PROGRAM ": warning: %s\n", warning);
    /* Ctrl-C: mpirun runs in a process group of its own, so the launcher
     * stops it and its ranks (launch.h), and keeps nothing. */
    static sl_suite suite;
    sl_interrupt_install_saying("\nstopping: mpirun and its ranks, now; nothing of this run "
                                "is kept\n");
    sl_hybrid_grid grid = { .cli = &o->cli, .kernels = o->kernels, .sizes = sizes,
                            .nkernels = o->nkernels, .mpirun = mpirun, .self = self,
                            .tree = TREE_NAME, .progress = stdout };
    int tried = sl_hybrid_try_grid(&grid, why, sizeof why);
    if (tried != 0)
        return sl_interrupted() ? 128 + sl_interrupted() : fail(tried, "%s%s", why, "");
    /* Fragments go to the run's partial folder, or (--check) a temporary one. */
    sl_run_dir run = { 0 };
    char dir[SL_PATH_BUF];
    if (o->cli.check) {
        if (make_check_dir(dir, sizeof dir) != 0)
            return fail(SL_EXIT_RUNTIME, "cannot make a temporary folder (%s): %s", dir,
                        strerror(errno));
    } else {
        if (sl_run_dir_create(&run, o->cli.results, why, sizeof why) != 0)
            return fail(SL_EXIT_RUNTIME, "%s%s", why, "");
        snprintf(dir, sizeof dir, "%s", run.partial);
    }
    grid.dir = dir;
    int code = sl_hybrid_launch_grid(&grid, &suite.grid, why, sizeof why);
    int stopped = why[0] != '\0';   /* nothing of this run to keep */
    if (stopped && !sl_interrupted())
        fprintf(stderr, PROGRAM ": %s\n", why);
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
        if (!stopped)
            printf("%d configuration(s) checked, %d invalid\n", suite.grid.n, invalid);
    } else if (stopped) {
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
