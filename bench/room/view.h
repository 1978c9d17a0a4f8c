/* view.h - what the instructor reads off the room, as rules over the
 * stored records (store.h), so that a unit test can hold them: per lesson
 * step, how many participants are at each state; who is stuck; the
 * commonest mistakes; speedups per CPU family; the leaderboard by each
 * participant's speed as a share of the solution's on their own machine,
 * in rank bands where their intervals overlap. A participant's state on a step is
 * their latest record's; a file as shipped (its hash among the shipped
 * files') is "not started" whatever it ran like.
 */
#ifndef SPEEDLAB_ROOM_VIEW_H
#define SPEEDLAB_ROOM_VIEW_H

#include <stddef.h>

#include "record.h"

/* One stored record with who sent it and when. */
typedef struct sl_room_row {
    double received;
    char nickname[SL_ROOM_NICK], family[48];
    sl_room_record r;
} sl_room_row;

#define SL_ROOM_MAX_STEPS 64
#define SL_ROOM_MAX_PEOPLE 256

typedef struct sl_room_step {
    int lesson;
    char kernel[32], variant[32];
    int count[SL_ROOM_STATES];        /* participants at each state */
} sl_room_step;

typedef struct sl_room_stuck {
    char nickname[SL_ROOM_NICK];
    int step;                          /* index into steps */
    int state;
    char hint[24];
    double minutes;                    /* from the first of the same runs to the latest */
    int runs;
} sl_room_stuck;

typedef struct sl_room_mistake { char hint[24]; int count; } sl_room_mistake;

typedef struct sl_room_family {
    char family[48];
    int people;
    double median_best;                /* of each one's best right speedup */
} sl_room_family;

/* A participant's best right step by their speed as a share of the
 * solution's on their own machine, measured side by side (record.h), and
 * the band of ranks it shares with every leader whose interval overlaps
 * its own: identical code on machines loaded differently shares a band. */
typedef struct sl_room_leader {
    char nickname[SL_ROOM_NICK], family[48];
    int step;
    double pct, low, high;             /* of the solution's speed */
    int rank_from, rank_to;            /* 1-based; equal when alone */
} sl_room_leader;

typedef struct sl_room_view {
    int people;
    size_t nsteps, nstuck, nmistakes, nfamilies, nleaders;
    sl_room_step steps[SL_ROOM_MAX_STEPS];
    sl_room_stuck stuck[SL_ROOM_MAX_PEOPLE];
    sl_room_mistake mistakes[8];
    sl_room_family families[16];
    sl_room_leader leaders[SL_ROOM_MAX_PEOPLE];    /* best first, all of them */
} sl_room_view;

/* The view of rows[0 .. n) (oldest run first: store.h's order). shipped: the shipped
 * exercise files' hashes (nshipped); stuck_minutes: the same state on a
 * step over at least two runs whose ran_at span this long is stuck (the
 * runs' own times: a queue sent late still tells how long it took). */
void sl_room_view_make(const sl_room_row *rows, size_t n, const char *const *shipped,
                       size_t nshipped, double stuck_minutes, sl_room_view *v);

#endif
