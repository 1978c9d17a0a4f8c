/* send.h - the participant's side of the room: a runner run goes to the
 * room the participant joined (SPEEDLAB_ROOM), over HTTP to the room
 * server (libcurl) or as a file into a shared folder (clusters).
 *
 * The runner never fails or waits long because the room is down: every
 * post is first kept under <results>/room/queue/, each send delivers the
 * whole queue oldest first, and what could not go stays for the next run,
 * said in one line. A post the server refuses (with its reason) is moved
 * to <results>/room/refused/, said once, and never resent.
 */
#ifndef SPEEDLAB_ROOM_SEND_H
#define SPEEDLAB_ROOM_SEND_H

#include <stddef.h>
#include <stdio.h>

#include "record.h"

/* The environment variable that joins a room: http://HOST:PORT/CODE, or
 * a shared folder's path. */
#define SL_ROOM_ENV "SPEEDLAB_ROOM"
/* A nickname of one's own (otherwise a random one, kept in
 * <results>/room/nickname). */
#define SL_ROOM_NICK_ENV "SPEEDLAB_NICKNAME"
/* How long a send may wait for a room that does not answer. */
#define SL_ROOM_CONNECT_S 2L
#define SL_ROOM_TIMEOUT_S 5L

/* The participant's nickname for results into out. */
void sl_room_nickname(const char *results, char *out, size_t len);

/* Queue post p and send the queue to room (the variable's value). Says
 * on f what the participant should know, one line at most per outcome.
 * Returns the posts still queued. */
int sl_room_send(const char *results, const char *room, const sl_room_post *p, FILE *f);

#endif
