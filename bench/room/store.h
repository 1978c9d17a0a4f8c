/* store.h - the room's records in SQLite (<results>/room/room.sqlite),
 * written by the room server alone: one transaction per post, answered
 * only once committed (write-ahead log, synchronous=FULL), so a server
 * killed mid-session keeps every post it acknowledged. A post resent
 * (the participant did not hear the answer) is not counted twice: a
 * record is its nickname and id.
 */
#ifndef SPEEDLAB_ROOM_STORE_H
#define SPEEDLAB_ROOM_STORE_H

#include <stddef.h>

#include "record.h"
#include "view.h"

typedef struct sqlite3 sl_room_db;

/* Open (create) the store: the handle, or NULL with why. */
sl_room_db *sl_room_store_open(const char *path, char *why, size_t whylen);
void sl_room_store_close(sl_room_db *db);

/* Add post p as received at `received` (seconds, the server's clock):
 * 0, or -1 with why (nothing added). */
int sl_room_store_add(sl_room_db *db, const sl_room_post *p, double received, char *why,
                      size_t whylen);

/* Every record, oldest run first (by when it ran: a participant's runs in
 * their order, however late a queue or a folder delivered them; to free),
 * *n set; NULL with why on error (an empty room is a non-NULL array with
 * *n 0). */
sl_room_row *sl_room_store_load(sl_room_db *db, size_t *n, char *why, size_t whylen);

#endif
