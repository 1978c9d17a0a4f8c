/* isolate.c - a participant's variant validated in a child process with a
 * time limit (isolate.h). */
#define _POSIX_C_SOURCE 200809L
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exitcodes.h"
#include "omp_leftovers.h"
#include "platform.h"
#include "sample.h"

extern char **environ;

/* The exit code of a child whose exec failed: not the variant's fault. */
enum { EXEC_FAILED = 127 };
/* The exit code of a child whose plan does not name the same
 * configuration at that index: it cannot say anything about it. */
enum { PLAN_DIFFERS = 126 };
/* The exit code of a child that validated its configuration: any other
 * (0 included) means the variant's own code ended the process. */
enum { CHILD_DONE = 120 };
/* The second variable: the configuration's name, checked by the child. */
#define SL_ISOLATE_NAME_ENV "SPEEDLAB_ISOLATE_NAME"

/* The CPUs the process started with, which its plan was made for
 * (omp_get_num_procs: thread counts, the schedule sweep). With
 * OMP_PROC_BIND set the OpenMP runtime pins this thread to its first place
 * as the program starts, so a child would inherit one CPU and plan a
 * smaller suite; the places together are the starting CPUs. Without
 * places nothing was pinned, and this thread's mask is the one. Returns 0
 * when there is no mask to give the child. */
static int starting_cpus(unsigned char mask[SL_MAX_CPUS])
{
    memset(mask, 0, SL_MAX_CPUS);
    int places = omp_get_num_places(), count = 0;
    for (int p = 0; p < places; p++) {
        int n = omp_get_place_num_procs(p), ids[SL_MAX_CPUS];
        if (n <= 0 || n > SL_MAX_CPUS)
            continue;
        omp_get_place_proc_ids(p, ids);
        for (int k = 0; k < n; k++)
            if (ids[k] >= 0 && ids[k] < SL_MAX_CPUS && !mask[ids[k]]) {
                mask[ids[k]] = 1;
                count++;
            }
    }
    return count > 0 ? count : sl_affinity_get(mask, SL_MAX_CPUS);
}

void sl_isolate_child(sl_suite *s)
{
    const char *v = getenv(SL_ISOLATE_ENV);
    if (v == NULL)
        return;
    char *end;
    unsigned long long i = strtoull(v, &end, 10);
    const char *name = getenv(SL_ISOLATE_NAME_ENV);
    if (*end != '\0' || i >= s->count || (name && strcmp(name, s->configs[i].name) != 0))
        _exit(PLAN_DIFFERS);
    sl_config_validate(&s->configs[i]);
    _exit(CHILD_DONE);
}

static const char *guard_prog;
static sl_run_dir *guard_run;

static void exit_guard(void)
{
    const char *variant = sl_calling_variant, *kernel = sl_calling_kernel;
    if (variant == NULL || kernel == NULL)
        return;
    fprintf(stderr, "%s: %s's %s called exit() inside its call: a variant returns its "
                    "answer, and its exit ended the whole run; remove it (nothing of this run "
                    "is kept); exit code %d\n", guard_prog, kernel, variant, SL_EXIT_INVALID);
    if (guard_run != NULL && guard_run->partial[0] != '\0')
        sl_run_dir_discard(guard_run);
    sl_forget_runtime_registration(getpid());
    _exit(SL_EXIT_INVALID);
}

void sl_exit_guard(const char *prog, sl_run_dir *run)
{
    static int installed;
    guard_prog = prog;
    guard_run = run;
    if (!installed)
        installed = atexit(exit_guard) == 0;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    default: return NULL;
    }
}

/* Whether entry is NAME=... */
static int is_var(const char *entry, const char *name)
{
    size_t len = strlen(name);
    return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

/* Start this program again on variant index (named name), its output
 * to /dev/null, on the CPUs this process started with. Returns its pid, or
 * -1. Everything the child needs is made before fork: after it, only
 * async-signal-safe calls. */
static pid_t start_child(char *const argv[], size_t index, const char *name)
{
    char var[64], named[sizeof ((sl_config *)0)->name + 32];
    snprintf(var, sizeof var, "%s=%zu", SL_ISOLATE_ENV, index);
    snprintf(named, sizeof named, "%s=%s", SL_ISOLATE_NAME_ENV, name);
    size_t n = 0;
    while (environ[n])
        n++;
    char **envp = malloc((n + 3) * sizeof *envp);
    if (envp == NULL)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_var(environ[i], SL_ISOLATE_ENV) && !is_var(environ[i], SL_ISOLATE_NAME_ENV))
            envp[k++] = environ[i];
    envp[k++] = var;
    envp[k++] = named;
    envp[k] = NULL;
    unsigned char cpus[SL_MAX_CPUS];
    int have_cpus = starting_cpus(cpus) > 0;
    /* This program's file; where it cannot be found, argv[0] as given. */
    char self[PATH_MAX];
    if (sl_self_exe(argv[0], self, sizeof self) != 0)
        snprintf(self, sizeof self, "%s", argv[0]);
    int devnull = open("/dev/null", O_WRONLY);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* Its own output (a crash's "malloc(): corrupted ...") would only
         * confuse: the parent says what happened. */
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        if (have_cpus)
            sl_affinity_set(cpus, SL_MAX_CPUS);
        execve(self, argv, envp);
        _exit(EXEC_FAILED);
    }
    free(envp);
    if (devnull >= 0)
        close(devnull);
    return pid;
}

/* What the child's end says about the variant. */
static sl_isolated verdict_of(int status, char *why, size_t whylen)
{
    /* Ctrl-C or a job's end reaches the child too: not the variant's doing. */
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM ||
                                WTERMSIG(status) == SIGHUP))
        return SL_ISOLATED_OK;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
        snprintf(why, whylen, "killed (SIGKILL: out of memory, or from outside)");
        return SL_ISOLATED_KILLED;
    }
    if (WIFSIGNALED(status)) {
        const char *name = signal_name(WTERMSIG(status));
        if (name)
            snprintf(why, whylen, "crashed (%s)", name);
        else
            snprintf(why, whylen, "crashed (signal %d)", WTERMSIG(status));
        return SL_ISOLATED_CRASHED;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == PLAN_DIFFERS) {
        snprintf(why, whylen, "could not be checked apart (the child planned another suite)");
        return SL_ISOLATED_CRASHED;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != CHILD_DONE &&
        WEXITSTATUS(status) != EXEC_FAILED) {
        snprintf(why, whylen, "called exit(%d) inside its call", WEXITSTATUS(status));
        return SL_ISOLATED_EXITED;
    }
    return SL_ISOLATED_OK;
}

/* In the parent: run configuration index (named name) of the same plan in
 * a child for at most limit seconds; offloads: its variant has a target
 * region (only such a child maps a device image). Returns SL_ISOLATED_OK when
 * the child finished (or could not be started: the check then happens in
 * this process, as before); otherwise how it ended, with why ("no answer
 * after 12 s", "crashed (SIGSEGV)"). seconds (may be NULL): how long the
 * child ran. */
static sl_isolated sl_isolate_check(char *const argv[], size_t index, const char *name,
                                    int offloads, double limit, char *why, size_t whylen,
                                    double *seconds)
{
    if (seconds)
        *seconds = 0.0;
    /* Until it execs, the child shows this process's pages: their image
     * files go first, so that what the child shows later is its own. */
    if (sl_device_is_host())
        sl_forget_device_image_files(0);
    int forgotten = !sl_device_is_host() || !offloads;
    pid_t pid = start_child(argv, index, name);
    if (pid < 0)
        return SL_ISOLATED_OK;
    double start = sl_now();
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        /* As soon as the child has its device image mapped: a child that
         * then hangs or crashes cannot remove the file (omp_leftovers.h). */
        if (!forgotten)
            forgotten = sl_forget_device_image_files(pid) > 0;
        if (r < 0 && errno != EINTR)
            return SL_ISOLATED_OK;
        if (sl_now() - start > limit) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            sl_forget_runtime_registration(pid);
            snprintf(why, whylen, "no answer after %.0f s", limit);
            return SL_ISOLATED_HUNG;
        }
        nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
    }
    sl_forget_runtime_registration(pid);   /* it ended by _exit(), or a crash */
    if (seconds)
        *seconds = sl_now() - start;
    return verdict_of(status, why, whylen);
}

/* The limit: this many times the slowest trusted validation, plus this
 * many seconds (a loaded machine, a slow start); without anything trusted,
 * the scalar configurations' limit. */
#define ISOLATE_FACTOR 20.0
#define ISOLATE_SLACK 5.0
#define ISOLATE_UNTRUSTED_LIMIT 600.0

/* Check configuration i in a child; mark it when it hung or crashed. */
static void check_one(sl_suite *s, char *const argv[], size_t i, double limit,
                      double *seconds)
{
    sl_config *c = &s->configs[i];
    char why[128];
    c->isolated_failure = sl_isolate_check(argv, i, c->name,
                                           (c->variant->flags & SL_USES_GPU) != 0, limit, why,
                                           sizeof why, seconds);
    if (c->isolated_failure == SL_ISOLATED_OK)
        return;
    c->validated = 1;
    c->valid = 0;
    snprintf(c->error, sizeof c->error, "%s", why);
}

/* An earlier configuration of c's variant (same tree and kernel) that
 * hung, or NULL. */
static const sl_config *hung_before(const sl_suite *s, size_t i)
{
    const sl_config *c = &s->configs[i];
    for (size_t j = 0; j < i; j++) {
        const sl_config *o = &s->configs[j];
        if (o->isolated_failure == SL_ISOLATED_HUNG && o->variant == c->variant &&
            o->kernel == c->kernel && strcmp(o->tree, c->tree) == 0)
            return o;
    }
    return NULL;
}

/* Check configuration i in a child, unless its variant already hung. */
static void check_or_skip(sl_suite *s, char *const argv[], size_t i, double limit)
{
    const sl_config *hung = hung_before(s, i);
    if (!hung) {
        check_one(s, argv, i, limit, NULL);
        return;
    }
    sl_config *c = &s->configs[i];
    c->isolated_failure = SL_ISOLATED_NOT_TRIED;
    c->validated = 1;
    c->valid = 0;
    if (hung->problem.threads > 0)
        snprintf(c->error, sizeof c->error, "not run: hung at %d thread(s)",
                 hung->problem.threads);
    else
        snprintf(c->error, sizeof c->error, "not run: hung at another size");
}

void sl_isolate_tree(sl_suite *s, char *const argv[], const char *tree)
{
    double slowest = 0.0;
    int trusted = 0;
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (strcmp(c->tree, tree) == 0)
            continue;
        sl_config_validate(c);
        trusted = 1;
        /* A validation is a probe, the call and the reference. */
        if (3.0 * c->call_seconds > slowest)
            slowest = 3.0 * c->call_seconds;
    }
    char *checked = calloc(s->count ? s->count : 1, 1);
    if (!trusted) {
        for (size_t i = 0; i < s->count; i++) {
            sl_config *c = &s->configs[i];
            if (strcmp(c->tree, tree) != 0 || strcmp(c->variant->name, SL_BASELINE_VARIANT) != 0)
                continue;
            double took = 0.0;
            check_one(s, argv, i, ISOLATE_UNTRUSTED_LIMIT, &took);
            if (checked)
                checked[i] = 1;
            if (took > slowest)
                slowest = took;
        }
    }
    double limit = slowest > 0.0 ? ISOLATE_SLACK + ISOLATE_FACTOR * slowest
                                 : ISOLATE_UNTRUSTED_LIMIT;
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->configs[i].tree, tree) == 0 && !(checked && checked[i]))
            check_or_skip(s, argv, i, limit);
    free(checked);
}

/* Whether a configuration was left out because configuration i hung. */
static int not_tried_after(const sl_suite *s, size_t i)
{
    for (size_t j = i + 1; j < s->count; j++)
        if (s->configs[j].isolated_failure == SL_ISOLATED_NOT_TRIED &&
            hung_before(s, j) == &s->configs[i])
            return 1;
    return 0;
}

void sl_isolate_print_hints(FILE *f, const sl_suite *s)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->isolated_failure || c->isolated_failure == SL_ISOLATED_NOT_TRIED)
            continue;
        const char *label = c->variant->name;
        if (c->isolated_failure == SL_ISOLATED_HUNG)
            fprintf(f, "%s/%s/%s: %s (an infinite loop? check each loop's exit test, e.g. "
                       "the escape test n < max_iter)%s\n", c->tree, c->kernel->problem->name,
                    label, c->error, not_tried_after(s, i) ? "; its other configurations "
                    "were not run" : "");
        else if (c->isolated_failure == SL_ISOLATED_EXITED)
            fprintf(f, "%s/%s/%s %s: a variant returns its answer; an exit() in it would end "
                       "the whole run: remove it\n", c->tree, c->kernel->problem->name, label,
                    c->error);
        else if (c->isolated_failure == SL_ISOLATED_KILLED)
            fprintf(f, "%s/%s/%s %s: the out-of-memory killer sends SIGKILL (dmesg names it); "
                       "so does kill -9\n", c->tree, c->kernel->problem->name, label, c->error);
        else
            fprintf(f, "%s/%s/%s %s: an out-of-bounds access? AddressSanitizer names "
                       "the line: make test SANITIZE=1\n", c->tree, c->kernel->problem->name,
                    label, c->error);
    }
}
