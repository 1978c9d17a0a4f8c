/* ending.h - the last lines of a bench run and the exit code they
 * announce: where the report is, what became of the figures (gnuplot
 * missing, failed, or stopped by a signal), an interrupted run, failed
 * validations. One place decides the code, so the words and the code
 * never disagree.
 */
#ifndef SPEEDLAB_ENDING_H
#define SPEEDLAB_ENDING_H

#include <stddef.h>
#include <stdio.h>

typedef struct sl_ending {
    const char *final;   /* the published run folder */
    const char *base;    /* the results folder (its latest) */
    int plots;           /* plot.sh's status (report.h's plots) */
    int sig;             /* the signal that ended the timing, or 0 */
    int sig_now;         /* the signal seen since (sl_interrupted()) */
    size_t invalid;      /* configurations that failed validation */
    int late;                /* the signal came after the run was written,
                                while the history was locked: not marked */
} sl_ending;

/* The lines, on out; returns the exit code: 128 + the signal for a run
 * stopped while plotting or timing, 3 for a failed validation, else 0. */
int sl_print_ending(FILE *out, const sl_ending *e);

#endif
