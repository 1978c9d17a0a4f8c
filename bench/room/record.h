/* record.h - what a participant's runner tells the room, and the rules
 * the room server holds every arrival to (issue 50).
 *
 * A post is one runner run: who (a nickname the participant chose or was
 * given), what machine (CPU family, lanes, cores; not the model, not the
 * host), and one record per exercise step of the lesson. A record says
 * nothing the table did not print: the state, a wrong answer's class,
 * the speedup over the participant's own scalar, % of their own measured
 * ceiling, the time, and a hash of the exercise file (never its text).
 * The same rules parse a post from the network and from a shared folder.
 */
#ifndef SPEEDLAB_ROOM_RECORD_H
#define SPEEDLAB_ROOM_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* A step's state, worst first. NOT_STARTED: the exercise file is as
 * shipped (the server knows the shipped files' hashes). */
typedef enum sl_room_state {
    SL_ROOM_NOT_STARTED = 0,
    SL_ROOM_WRONG,
    SL_ROOM_BUSY,             /* right, and no speed verdict: the machine was
                                 too busy for one (suite.h's
                                 sl_speedup_unjudged); marked, never ranked */
    SL_ROOM_SLOWER,           /* right, slower than the participant's scalar */
    SL_ROOM_SLOW,             /* right, well behind the solution */
    SL_ROOM_CAUGHT_UP,        /* right, within reach of the solution */
    SL_ROOM_STATES
} sl_room_state;

/* "not_started", "wrong", ... and "not started", "WRONG", "right but slow". */
const char *sl_room_state_name(sl_room_state s);
const char *sl_room_state_words(sl_room_state s);
/* The state named name, or -1. */
int sl_room_state_parse(const char *name);

#define SL_ROOM_NICK 33       /* a nickname's bytes, with its end */
#define SL_ROOM_MAX_RECORDS 64
#define SL_ROOM_MAX_BODY 65536 /* bytes of one post */
/* A share of the solution's speed above this (ten times the solution's)
 * is no participant's code but a wrong figure: refused. */
#define SL_ROOM_MOST_SOLUTION_PCT 1000.0

typedef struct sl_room_record {
    char id[40];              /* unique per record: a resend is not a second */
    int lesson;
    char kernel[32], variant[32];
    int threads;
    int state;                /* sl_room_state */
    char hint[24];            /* a WRONG record's class (verdict.h's names), or "" */
    double speedup;           /* over the participant's own scalar; 0 when WRONG */
    double ceiling_pct;       /* of their own measured ceiling; -1: not measured */
    /* Their variant's speed as a share of the solution's on their own
     * machine, from repetitions taken side by side (suite.h's
     * sl_ratio_paired), so that neither the machine nor its load of the
     * moment counts: the leaderboard's figure. 100 is the solution's
     * speed; -1: not measured (no solution row, no pairs). */
    double solution_pct, solution_low, solution_high;
    double seconds;           /* the median time per call */
    double ran_at;            /* when the run ran, the participant's clock
                                 (seconds since 1970): a queued run keeps it */
    char source_hash[24];     /* FNV-1a 64 of the exercise file, hex */
} sl_room_record;

typedef struct sl_room_post {
    char nickname[SL_ROOM_NICK];
    char family[48];          /* "x86-64 AVX-512" */
    int lanes, cores;
    size_t count;
    sl_room_record records[SL_ROOM_MAX_RECORDS];
} sl_room_post;

/* The post as JSON (to free), or NULL when out of memory. */
char *sl_room_post_json(const sl_room_post *p);

/* Parse and check a post from len bytes of body: 0, or -1 with the reason
 * (the first rule it breaks) in why. Refused: more than SL_ROOM_MAX_BODY
 * bytes, JSON that does not parse or is not a post, a field missing or of
 * the wrong type, text too long or with control characters, an unknown
 * state or hint class, impossible numbers (a speedup from a WRONG record,
 * % of ceiling above 100, a negative or zero time). */
int sl_room_post_parse(const char *body, size_t len, sl_room_post *p, char *why,
                       size_t whylen);

/* FNV-1a, 64 bits, of a file's bytes as 16 hex digits in out (size 17 or
 * more): 0, or -1 when it cannot be read. */
int sl_room_hash_file(const char *path, char *out, size_t len);

/* Is variant one of lesson 5's GPU rungs (gpu, gpu_..., cuda)? Its
 * speedup is a GPU's (make submit), not the participant's CPU's. */
int sl_room_gpu_variant(const char *variant);

/* A random nickname ("quiet-otter-0042") from a seed. */
void sl_room_random_nickname(char *out, size_t len, uint64_t seed);

#endif
