/* query.h - reading results/history.sqlite back, read-only: what
 * speedlab-history's trend and progress pages are made from.
 */
#ifndef SPEEDLAB_HISTORY_QUERY_H
#define SPEEDLAB_HISTORY_QUERY_H

#include <stddef.h>
#include <sqlite3.h>

#include "trend.h"

/* Reads one row of a query into the item it is given. */
typedef void (*sl_history_reader)(sqlite3_stmt *st, void *item);

/* Column i of the row as text into out ("" for NULL). */
void sl_history_column_text(sqlite3_stmt *st, int i, char *out, size_t len);

/* Every row of one query of the history, read into a growing array of
 * items of `size` bytes. NULL with *n 0 and `why` empty is an empty answer;
 * with `why` set, the history could not be read (or memory ran out): no
 * half answer is returned. The caller frees the array. */
void *sl_history_query(const char *db_path, const char *sql, size_t size,
                       sl_history_reader read, size_t *n, char *why, size_t whylen);

/* A commit make bench-commits could not build, and when it tried. */
typedef struct sl_unbuilt {
    char commit[48], tried[32];
} sl_unbuilt;

/* Every such commit, in the order tried; as sl_history_query. */
sl_unbuilt *sl_history_unbuilt(const char *db_path, size_t *n, char *why, size_t whylen);

/* Every valid, timed strong-scaling point, series by series, in run order. */
sl_trend_point *sl_trend_load(const char *db_path, size_t *n, char *why, size_t whylen);

#endif
