/* verdict.h - the words a participant acts on: the runner's verdict column.
 *
 * On a quiet machine a row is judged by its median against scalar's and
 * the solution's. On a busy one the medians mislead (the load came and
 * went), but the repetitions were interleaved: each of a variant's
 * repetitions ran beside one of scalar's and one of the solution's, under
 * the same load. The ratio of such a pair, in the CPU time each used,
 * still measures the speedup, so a busy row is judged by the median of its
 * paired ratios, with an interval, and held back only when that interval
 * is too wide to say anything.
 */
#ifndef SPEEDLAB_VERDICT_H
#define SPEEDLAB_VERDICT_H

#include <stddef.h>

#include "suite.h"

/* Below this speedup a faster variant has not paid off yet. */
#define SL_NOT_FASTER_YET 1.2
/* Slower than the solution by more than this: there is more to gain. */
#define SL_BEHIND_SOLUTION 1.25

/* The same variant and threads in the other tree of the runner's suite
 * (the participant's and the solution's), or NULL. */
const sl_config *sl_counterpart(const sl_suite *s, const sl_config *c);

/* The verdict column for c in suite s: "ok", "not faster yet", "right;
 * solution is 7.9x", "WRONG: 94 wrong pixels", "right; busy: 3.1x [2.7,
 * 3.5], solution 7.9x", ... */
void sl_verdict_words(const sl_suite *s, const sl_config *c, char *out, size_t len);

/* What kind of mistake a wrong answer most likely is, from what the
 * checks could tell: the room groups the room's mistakes by it
 * (bench/room/), the lesson table says the same in words. */
typedef enum sl_wrong_class {
    SL_WRONG_NONE = 0,        /* the answer is right */
    SL_WRONG_CRASHED,         /* crashed or hung in its isolated check */
    SL_WRONG_WHOLE_LOOP,      /* T threads, T times the answer: parallel without for */
    SL_WRONG_CHECKED,         /* the kernel's own check named the cause (its hint) */
    SL_WRONG_RACE,            /* a threaded variant otherwise wrong: a data race */
    SL_WRONG_OTHER,           /* wrong, and nothing tells why */
    SL_WRONG_CLASSES
} sl_wrong_class;

sl_wrong_class sl_wrong_class_of(const sl_config *c);

/* Its short name, as the room's records carry it ("race", ...), and its
 * words ("race on a shared sum", ...). */
const char *sl_wrong_class_name(sl_wrong_class k);
const char *sl_wrong_class_words(sl_wrong_class k);


/* Did any busy row get a verdict from its pairs (1), or was every busy row
 * held back (0)? For the table's note. */
int sl_verdict_paired(const sl_suite *s, const sl_config *c);

#endif
