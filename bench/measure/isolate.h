/* isolate.h - check a participant's variant in a child process first, so
 * that an infinite loop or a crash ends with the variant's name and the
 * other variants still report, instead of freezing or killing the runner.
 *
 * The child is this program again, started by exec (GNU libgomp is not
 * fork-safe once a parallel region has run), with the same arguments and
 * SL_ISOLATE_ENV naming the configuration: it plans the same suite,
 * validates that one configuration and exits.
 */
#ifndef SPEEDLAB_ISOLATE_H
#define SPEEDLAB_ISOLATE_H

#include <stddef.h>
#include <stdio.h>

#include "run_dir.h"
#include "suite.h"

#define SL_ISOLATE_ENV "SPEEDLAB_ISOLATE"

/* How an isolated check ended. */
typedef enum sl_isolated {
    SL_ISOLATED_OK = 0,      /* finished (or could not be isolated) */
    SL_ISOLATED_HUNG,        /* no answer within the limit: killed */
    SL_ISOLATED_CRASHED,     /* killed by a signal of its own making */
    SL_ISOLATED_NOT_TRIED,   /* another configuration of its variant hung:
                                not run, so that a hang costs its limit once */
    SL_ISOLATED_EXITED,      /* its code called exit() inside the call */
    SL_ISOLATED_KILLED       /* SIGKILL: out of memory, or from outside */
} sl_isolated;

/* From here on, an exit() inside a variant's call (common/kernel.h's
 * sl_calling_variant) ends the program with one line naming the variant
 * and exit code 3, and discards run's unfinished folder (run may be NULL,
 * or not yet made), instead of ending it as if the run were done. */
void sl_exit_guard(const char *prog, sl_run_dir *run);

/* In the child (SL_ISOLATE_ENV set): validate that configuration of s and
 * exit. Returns at once in any other process. Call it right after planning,
 * before anything is printed or written. */
void sl_isolate_child(sl_suite *s);

/* Check every configuration of tree (the participant's) in a child. The
 * other trees' configurations are trusted: validated here, their slowest
 * call sets the limit (20 times a probe, the call and the reference, plus
 * a few seconds). Without them, the tree's own scalar configurations go
 * first, with ten minutes each, and their time sets the limit. A hung or
 * crashed configuration is marked validated and wrong, with why in its
 * error; once a variant hung, its other configurations are not tried (a
 * loop that never ends at one thread count rarely ends at another) and are
 * marked so. The others are validated as usual afterwards. */
void sl_isolate_tree(sl_suite *s, char *const argv[], const char *tree);

/* One line per hung or crashed configuration: its name, what happened and
 * what to look for. */
void sl_isolate_print_hints(FILE *f, const sl_suite *s);

#endif
