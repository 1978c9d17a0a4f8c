/* interrupt.h - stop a long run cleanly on SIGINT or SIGTERM (Ctrl-C, or
 * SLURM's --signal before the time limit).
 *
 * The first signal only sets a flag: validation stops at the next
 * configuration, timing skips what is left, and the bench writes what it
 * measured, marked interrupted, before exiting 128 + the signal. A second
 * signal a second or more later ends the program at once (the run folder
 * then stays hidden as .partial and no earlier run is touched); one
 * sooner is the first delivered twice (timeout(1) signals the process and
 * its group) and changes nothing.
 */
#ifndef SPEEDLAB_INTERRUPT_H
#define SPEEDLAB_INTERRUPT_H

void sl_interrupt_install(void);

/* The same, saying msg (a line, newline included) on the first signal
 * instead: for a program whose clean stop is another. */
void sl_interrupt_install_saying(const char *msg);

/* Two signals that kill a run without a word for a write it could do
 * without, ignored: SIGXFSZ, a write past the file-size limit (ulimit -f),
 * which then fails with EFBIG and takes the program's error path (one line
 * naming the file, exit 1, earlier runs intact); and SIGPIPE, the console
 * piped into `head` that closed early, after which the console's lines are
 * dropped and the run goes on to its end (sl_note_closed_stdout says so). */
void sl_ignore_write_signals(void);

/* At the end of a run: when standard output stopped taking lines, one line
 * on stderr saying why (no space, a reader gone, an I/O error), that the
 * run went on, and where it is (saved may be NULL). Returns the exit code:
 * code itself when the console is fine or its reader went away (EPIPE: a
 * pipe into head), else at least SL_EXIT_RUNTIME (1: the console is an
 * output that failed; the run folder is complete all the same). */
int sl_note_closed_stdout(const char *prog, const char *saved, int code);

/* The signal that arrived (SIGINT, SIGTERM), or 0. */
int sl_interrupted(void);

#endif
