/* interrupt.c - the flag behind a clean stop (interrupt.h). */
#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"

#include "exitcodes.h"
#include "omp_leftovers.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
static struct timespec first;
static const char *message = "\nstopping: finishing the repetition in progress, "
                             "then writing what was measured (again to stop at once)\n";

/* A second signal within this long of the first is the same request
 * delivered twice: coreutils' timeout signals its child and then the
 * child's process group, and a batch system may signal every process of
 * a job step; a person's second Ctrl-C comes later than that. */
#define SL_SAME_REQUEST_S 1.0

static double since_first_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);   /* async-signal-safe */
    return (double)(now.tv_sec - first.tv_sec) + (double)(now.tv_nsec - first.tv_nsec) * 1e-9;
}

static void on_signal(int sig)
{
    if (caught) {
        /* Later: end the program at once, its OpenMP runtime's
         * registration removed (omp_leftovers.h). */
        if (since_first_s() >= SL_SAME_REQUEST_S)
            sl_forget_registration_and_end(sig);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &first);
    caught = sig;
    /* write(2) is safe in a handler; stdio is not. */
    if (write(STDERR_FILENO, message, strlen(message)) < 0)
        caught = sig;
}

void sl_interrupt_install_saying(const char *msg)
{
    message = msg;
    sl_interrupt_install();
}

void sl_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sl_forget_registration_when_signalled();
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void sl_ignore_write_signals(void)
{
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
}

/* Why standard output failed: the last flush's errno, or, when stdio had
 * already dropped what failed, that of one more byte written directly
 * (the same device answers the same way: full, a reader gone, an I/O
 * error). */
static int console_errno(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && errno != 0)
        return errno;
    clearerr(stdout);
    errno = 0;
    return write(STDOUT_FILENO, "\n", 1) < 0 ? errno : 0;
}

int sl_note_closed_stdout(const char *prog, const char *saved, int code)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return code;
    int err = console_errno();
    const char *at = saved ? ": " : "", *where = saved ? saved : "";
    /* A reader that stopped reading (a pipe into head) chose to: the run
     * stands, and so does its exit code. */
    if (err == EPIPE) {
        fprintf(stderr, "%s: the console's reader went away (a pipe into head that closed?); "
                        "the run went on to its end%s%s\n", prog, at, where);
        return code;
    }
    fprintf(stderr, "%s: the console could not be written: %s; the run went on to its "
                    "end%s%s; exit code %d\n", prog,
            err ? strerror(err) : "an error its stream kept no reason for", at, where,
            code > SL_EXIT_RUNTIME ? code : SL_EXIT_RUNTIME);
    return code > SL_EXIT_RUNTIME ? code : SL_EXIT_RUNTIME;
}

int sl_interrupted(void)
{
    return caught;
}
