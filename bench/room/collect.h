/* collect.h - a runner run as a room post (record.h): one record per
 * exercise step the participant ran, from the same numbers and rules as
 * the table they were shown (report/verdict.h).
 */
#ifndef SPEEDLAB_ROOM_COLLECT_H
#define SPEEDLAB_ROOM_COLLECT_H

#include "ceiling.h"
#include "record.h"
#include "suite.h"

/* The state of exercise configuration c: WRONG, right but too busy to
 * time (suite.h's sl_speedup_unjudged: no figure, so not ranked), clearly
 * slower than
 * scalar (below 1 / SL_NOT_FASTER_YET),
 * right but behind the solution (by verdict.h's SL_BEHIND_SOLUTION, or
 * not faster where the solution is), or caught up. A file as shipped is
 * the server's to call "not started" (it knows the shipped hashes). */
sl_room_state sl_room_state_of(const sl_suite *s, const sl_config *c);

/* The post for suite s: nickname and machine, and for each exercise
 * variant past the baseline, its configuration with the most threads:
 * those that ran on the host or on a GPU, and wrong ones anywhere (a gpu
 * variant right on a CPU standing in for a GPU has no time to tell).
 * m: the measured ceilings (NULL: % of ceiling not measured); source:
 * the checkout the exercises are in; stamp: makes the records' ids unique
 * (the run's time and process). Returns the records. */
size_t sl_room_collect(const sl_suite *s, const sl_ceilings *m, const char *nickname,
                       const char *source, const char *stamp, sl_room_post *p);

#endif
