/* test_story.c - the report's reading of a run's timeline (report/story.c):
 * a stretch of time in which every configuration ran slower together is
 * found, with its size and place; a steady machine is not accused. The
 * suites are made by hand, so the expected numbers are exact. */
#include <string.h>

#include "check.h"
#include "story.h"

enum { CONFIGS = 20, REPS = 6 };

/* Repetition k of the run (k = config + CONFIGS * rep) starts at second k;
 * those starting in [slow_from, slow_to) take `slow` seconds, others 1. */
static void make_suite(sl_suite *s, sl_config *configs, double slow, double slow_from,
                       double slow_to)
{
    memset(s, 0, sizeof *s);
    memset(configs, 0, CONFIGS * sizeof *configs);
    s->configs = configs;
    s->count = CONFIGS;
    for (int c = 0; c < CONFIGS; c++) {
        sl_config *x = &configs[c];
        x->valid = 1;
        x->timed = REPS;
        x->median = 1.0;
        x->others_cpu = 0.01;
        for (int r = 0; r < REPS; r++) {
            double start = c + CONFIGS * r;
            x->start[r] = start;
            x->seconds[r] = start >= slow_from && start < slow_to ? slow : 1.0;
            x->others[r] = 0.005;
            x->window[r] = 1.0;
        }
    }
}

int main(void)
{
    sl_suite s;
    sl_config configs[CONFIGS];
    sl_drift d;

    /* Steady: no slowdown found. */
    make_suite(&s, configs, 1.0, 0, 0);
    CHECK(sl_story_drift(&s, &d) == 0);
    CHECK(d.slowest == 1.0);

    /* 20% slower from second 40 to 80 (2 of each configuration's 6
     * repetitions, so every median stays 1): found, 1.2, its window (24
     * repetitions, in steps of 12) reaching into [40, 80). */
    make_suite(&s, configs, 1.2, 40, 80);
    CHECK(sl_story_drift(&s, &d) == 1);
    CHECK(d.slowest == 1.2);
    CHECK(d.from >= 40 - 12 && d.from < 80 && d.to >= 40 && d.to < 80 + 12);
    CHECK(d.others == 0.005);

    /* 3% slower: below the 5% that is worth a warning. */
    make_suite(&s, configs, 1.03, 40, 80);
    CHECK(sl_story_drift(&s, &d) == 0);
    return CHECK_DONE();
}
