/* progress.h - a participant's afternoon from the history (make progress):
 * each exercise row of each lesson run, and the line that tells one
 * exercise's story run after run.
 */
#ifndef SPEEDLAB_PROGRESS_H
#define SPEEDLAB_PROGRESS_H

#include <stddef.h>

/* One exercise row of one lesson run: its speedup over the same run's
 * solution scalar, or 0: WRONG, or (busy) right with no speed verdict
 * (suite.h's sl_speedup_unjudged: the history keeps no figure). */
typedef struct sl_progress_row {
    char kernel[64], variant[64];
    int threads;
    double speedup;
    int busy;
    long long run;        /* the history's run id (its order in time) */
} sl_progress_row;

/* Every exercise row of every lesson run, lesson by lesson in the lesson's
 * order (where a variant first appears), then run after run; as
 * sl_history_query (NULL with why set: the history could not be read). */
sl_progress_row *sl_progress_load(const char *db_path, size_t *n, char *why, size_t whylen);

/* Do a and b record the same exercise (kernel, variant, threads)? */
int sl_progress_same_exercise(const sl_progress_row *a, const sl_progress_row *b);

/* One exercise's runs as "1.0x -> 4.2x -> WRONG twice -> 1.9x (4 runs)":
 * consecutive WRONG runs merged, so a long struggle stays one line, and
 * consecutive busy ones ("busy, no speed verdict"). */
void sl_progress_describe(const sl_progress_row *r, size_t n, char *out, size_t len);

#endif
