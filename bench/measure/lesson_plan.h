/* lesson_plan.h - what `make <lesson>` (the participant's runner,
 * runner_main.c) measures: the lesson's kernels, each planned in the
 * participant's exercises and in the solutions (or an exhibit alone), at
 * the lesson's rungs, with short repetitions a participant waits for.
 * Each returns its reason, never prints it.
 */
#ifndef SPEEDLAB_LESSON_PLAN_H
#define SPEEDLAB_LESSON_PLAN_H

#include <stddef.h>

#include "cli.h"
#include "suite.h"

/* The trees a lesson can come from. */
typedef struct sl_lesson_trees {
    const sl_kernel *const *exercises, *const *solutions, *const *exhibits;
} sl_lesson_trees;

/* A lesson's kernels: the one named, then those that declare themselves
 * its companions (a kernel's in-cache contrast after it); a child checking
 * one configuration (isolate.h) runs the one named. Returns the count. */
int sl_lesson_kernels(const sl_kernel *const *solutions, const char *name, const char **out,
                      int cap);

/* Plan kernel: an exhibit on its own, else the exercises' then the
 * solutions' (--tree narrows to one), at the quick size, each variant of
 * the kernel's own lesson (lesson 5, --all or --require-device add the
 * gpu stages). 0, or -1 with why. */
int sl_lesson_plan(sl_suite *suite, const sl_cli *cli, const char *kernel,
                   const sl_lesson_trees *trees, char *why, size_t whylen);

/* The timing's settings, from the options (cli.c's defaults for the
 * runner: short runs a participant waits for). */
sl_timing sl_lesson_timing(const sl_cli *cli);

/* On a hybrid machine, how many cores are fast and which thread counts the
 * threaded rows use (past the fast cores they slow): " (4 fast, 4 slow;
 * threads: 4)"; "" elsewhere. */
void sl_lesson_cores_note(const sl_cli *cli, char *out, size_t len);

#endif
