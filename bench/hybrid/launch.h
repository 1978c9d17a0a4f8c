/* launch.h - start one mpirun and wait for it, within a time limit.
 *
 * The driver (bench/mpi_main.c) runs one mpirun per (ranks, threads per
 * rank) pair, in a process group of its own, so a hung or half-dead job
 * is stopped when the limit passes: TERM, then KILL two seconds later.
 * Open MPI 4.1 puts each rank in a group of its own; mpirun stops them
 * (TERM, then KILL a second later), and they end when mpirun does, even
 * when KILL ends mpirun (measured). A rank that dies takes mpirun down
 * with it (Open MPI aborts the job), which this reports as it is.
 * mpirun's standard error passes through as it comes, and its last lines
 * are kept, so that the driver can name the rank and node that failed
 * (sl_launch_culprit).
 */
#ifndef SPEEDLAB_HYBRID_LAUNCH_H
#define SPEEDLAB_HYBRID_LAUNCH_H

#include <stddef.h>

/* How a launch ended. */
typedef struct sl_launch_end {
    int exited;         /* 1: exit status in code; 0: killed by signal */
    int code;           /* exit status, or the signal */
    int timed_out;      /* 1: stopped by the limit */
    int interrupted;    /* 1: stopped because a signal stopped this program
                           (interrupt.h): mpirun and its ranks go too */
    char tail[4096];    /* the end of mpirun's standard error */
} sl_launch_end;

/* Find the launcher: $SPEEDLAB_MPIRUN, else mpirun on PATH. 0 with its
 * path in out, or -1. */
int sl_find_mpirun(char *out, size_t len);

/* Run argv (argv[0] a path) and wait at most limit seconds; quiet: its
 * standard error only kept in end->tail, not passed through. Returns 0, or
 * -1 when it could not be started (why says so). */
int sl_launch(char *const argv[], double limit, int quiet, sl_launch_end *end, char *why,
              size_t len);

/* mpirun's own reason for refusing a launch, from end->tail: the first
 * paragraph of its message, on one line, into out; 1, or 0 when none. */
int sl_launch_reason(const sl_launch_end *end, char *out, size_t len);

/* Which rank on which node ended the launch, from Open MPI's own words in
 * end->tail ("process rank R with PID P on node H exited on signal S", or
 * a remote daemon lost "on node H"): one phrase into out, 1; 0 when mpirun
 * named none. */
int sl_launch_culprit(const sl_launch_end *end, char *out, size_t len);

#endif
