/* server.h - the room server (speedlab-room, `make room`): HTTP through
 * libmicrohttpd, the records in the room's SQLite store (store.h), of
 * which it is the only writer, and the pages (page.h) rewritten as runs
 * arrive.
 *
 *   POST /CODE/runs   a runner's post (record.h): 200 "stored N records"
 *                     once committed; 403 wrong room code, 413 too big,
 *                     400 malformed or impossible (with the rule broken),
 *                     429 a participant posting too often.
 *   GET  /CODE/       room.html (what the room may see: no stuck list)
 *
 * Nothing received is run; every refusal says why in one line.
 */
#ifndef SPEEDLAB_ROOM_SERVER_H
#define SPEEDLAB_ROOM_SERVER_H

#include <stddef.h>
#include <stdio.h>

#include "store.h"

/* A participant may post this many runs at once, then one per
 * SL_ROOM_REFILL_S seconds (a lesson is one post per kernel: a runner
 * never comes close; a loop posting does). */
#define SL_ROOM_BURST 10
#define SL_ROOM_REFILL_S 6.0
#define SL_ROOM_MAX_SHIPPED 256

typedef struct sl_room_bucket { char nickname[SL_ROOM_NICK]; double tokens, at; } sl_room_bucket;

typedef struct sl_room_limit {
    size_t n;
    sl_room_bucket b[4 * SL_ROOM_MAX_PEOPLE];
} sl_room_limit;

/* May nickname post at time now (seconds)? 1, taking a token; 0 not now. */
int sl_room_allow(sl_room_limit *l, const char *nickname, double now);

/* Is code a room code: 4 to 32 letters or digits? */
int sl_room_code_ok(const char *code);

typedef struct sl_room_server {
    char code[40];
    char dir[4096];                   /* <results>/room: store and pages */
    const char *folder;               /* shared folder to import, or NULL */
    double stuck_minutes;
    int top, refresh_s;
    char *shipped[SL_ROOM_MAX_SHIPPED];
    size_t nshipped;
    sl_room_db *db;                   /* the HTTP thread's */
    sl_room_limit limit;
    volatile int changed;             /* runs arrived since the last pages */
    long accepted, refused;
    int said_plots;                   /* the figure's failure said once */
    char **taken;                     /* the folder's files already taken */
    size_t ntaken;
    void *daemon;
} sl_room_server;

/* The hashes of the shipped exercise files under dir (record.h's hash),
 * so that a file as shipped reads "not started". */
void sl_room_shipped(sl_room_server *s, const char *dir);

/* Take one post's body from a participant: the HTTP status, and the
 * line that goes back in reply. Holds every rule (size, record.h's,
 * the rate) and stores it; folder: no rate (the folder is the cluster's
 * own, and a file taken twice is not counted twice). */
int sl_room_take(sl_room_server *s, sl_room_db *db, const char *body, size_t len,
                 int from_folder, double now, char *reply, size_t replylen);

/* The runs in the shared folder (files NICK-*.json not yet taken; a
 * file taken again adds nothing). Returns runs taken, -1 when the folder
 * cannot be read (why). */
int sl_room_import(sl_room_server *s, sl_room_db *db, char *why, size_t whylen);

/* The pages and the console view from the store, and with plots the
 * figure (gnuplot through plots/plot.sh: a second or so, so not at every
 * arrival): 0, or -1 with why. */
int sl_room_refresh(sl_room_server *s, sl_room_db *db, FILE *console, int plots, char *why,
                    size_t whylen);

/* Listen on port (all interfaces): 0, or -1 with why. */
int sl_room_listen(sl_room_server *s, int port, char *why, size_t whylen);
void sl_room_stop(sl_room_server *s);

#endif
