/* interrupt.c - the flag behind a clean stop (interrupt.h). */
#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
static const char *message = "\nstopping: finishing the configuration in progress, "
                             "then writing what was measured (again to stop at once)\n";

static void on_signal(int sig)
{
    caught = sig;
    /* write(2) is safe in a handler; stdio is not. */
    if (write(STDERR_FILENO, message, strlen(message)) < 0)
        caught = sig;
    /* The next one is not caught: a second Ctrl-C stops at once. */
    signal(sig, SIG_DFL);
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
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void sl_ignore_write_signals(void)
{
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
}

void sl_note_closed_stdout(const char *prog, const char *saved)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return;
    fprintf(stderr, "%s: the console's output closed early (a pipe into head?); the run "
                    "went on to its end%s%s\n", prog, saved ? ": " : "", saved ? saved : "");
}

int sl_interrupted(void)
{
    return caught;
}
