/* page.h - the room as the instructor sees it: Markdown made once from
 * the view (view.h), shown as room.html (projected: states per step,
 * the commonest mistakes, speedups per CPU family, the leaderboard) and
 * on the server's console, which alone also lists who is stuck
 * (instructor.html too). Nicknames are the participants' own text: made
 * harmless for the Markdown here, and HTML-escaped by report/html.c.
 */
#ifndef SPEEDLAB_ROOM_PAGE_H
#define SPEEDLAB_ROOM_PAGE_H

#include <stddef.h>

#include "view.h"

/* The room as Markdown (to free): with_stuck for the instructor's view;
 * top: the leaderboard's length. */
char *sl_room_markdown(const sl_room_view *v, int with_stuck, int top, size_t *len);

/* The figure's data in dir (room-states.dat, and run.gp), which
 * plots/room.gp draws: 0, or -1 with errno. */
int sl_room_figure_data(const char *dir, const sl_room_view *v);

/* room.html and instructor.html in dir, each reloading itself every
 * refresh_s seconds: 0, or -1 with errno. */
int sl_room_pages(const char *dir, const sl_room_view *v, int top, int refresh_s);

#endif
