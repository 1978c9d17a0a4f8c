/* isolate.c - a participant's variant validated in a child process with a
 * time limit (isolate.h). */
#define _GNU_SOURCE
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sample.h"

extern char **environ;

/* The exit code of a child whose exec failed: not the variant's fault. */
enum { EXEC_FAILED = 127 };

void sl_isolate_child(sl_suite *s)
{
    const char *v = getenv(SL_ISOLATE_ENV);
    if (v == NULL)
        return;
    char *end;
    unsigned long long i = strtoull(v, &end, 10);
    if (*end != '\0' || i >= s->count)
        _exit(2);
    sl_config_validate(&s->configs[i]);
    _exit(0);
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

sl_isolated sl_isolate_check(char *const argv[], size_t index, double limit, char *why,
                             size_t whylen)
{
    /* Everything the child needs is made here: after fork only
     * async-signal-safe calls. */
    char var[64];
    snprintf(var, sizeof var, "%s=%zu", SL_ISOLATE_ENV, index);
    size_t n = 0;
    while (environ[n])
        n++;
    char **envp = malloc((n + 2) * sizeof *envp);
    if (envp == NULL)
        return SL_ISOLATED_OK;
    size_t k = 0, prefix = strlen(SL_ISOLATE_ENV);
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], SL_ISOLATE_ENV, prefix) != 0 || environ[i][prefix] != '=')
            envp[k++] = environ[i];
    envp[k++] = var;
    envp[k] = NULL;
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
        execve("/proc/self/exe", argv, envp);
        execve(argv[0], argv, envp);
        _exit(EXEC_FAILED);
    }
    free(envp);
    if (devnull >= 0)
        close(devnull);
    if (pid < 0)
        return SL_ISOLATED_OK;
    double start = sl_now();
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return SL_ISOLATED_OK;
        if (sl_now() - start > limit) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            snprintf(why, whylen, "no answer after %.0f s", limit);
            return SL_ISOLATED_HUNG;
        }
        nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
    }
    /* Ctrl-C or a job's end reaches the child too: not the variant's doing. */
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM ||
                                WTERMSIG(status) == SIGHUP))
        return SL_ISOLATED_OK;
    if (WIFSIGNALED(status)) {
        const char *name = signal_name(WTERMSIG(status));
        if (name)
            snprintf(why, whylen, "crashed (%s)", name);
        else
            snprintf(why, whylen, "crashed (signal %d)", WTERMSIG(status));
        return SL_ISOLATED_CRASHED;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
        WEXITSTATUS(status) != EXEC_FAILED) {
        snprintf(why, whylen, "stopped with exit code %d", WEXITSTATUS(status));
        return SL_ISOLATED_CRASHED;
    }
    return SL_ISOLATED_OK;
}
