/* interrupt.h - stop a long run cleanly on SIGINT or SIGTERM (Ctrl-C, or
 * SLURM's --signal before the time limit).
 *
 * The first signal only sets a flag: validation stops at the next
 * configuration, timing skips what is left, and the bench writes what it
 * measured, marked interrupted, before exiting 128 + the signal. A second
 * signal ends the program at once (the run folder then stays hidden as
 * .partial and no earlier run is touched).
 */
#ifndef SPEEDLAB_INTERRUPT_H
#define SPEEDLAB_INTERRUPT_H

void sl_interrupt_install(void);

/* A write past the file-size limit (ulimit -f) raises SIGXFSZ, which
 * kills the process without a word and loses the run. Ignored, the write
 * fails with EFBIG instead and takes the program's error path: one line
 * naming the file, exit 1, earlier runs intact. */
void sl_ignore_file_size_signal(void);

/* The signal that arrived (SIGINT, SIGTERM), or 0. */
int sl_interrupted(void);

#endif
