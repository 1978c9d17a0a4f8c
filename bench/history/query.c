/* query.c - reading the history back (query.h): any query into an array
 * of items, and the trend's points.
 */
#include "query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sl_history_column_text(sqlite3_stmt *st, int i, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

/* Every row of one query of the history, read into a growing array of
 * items of `size` bytes. NULL with *n 0 and `why` empty is an empty answer;
 * with `why` set, the history could not be read (or memory ran out): no
 * half answer is returned. */
void *sl_history_query(const char *db_path, const char *sql, size_t size,
                       sl_history_reader read, size_t *n, char *why, size_t whylen)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *items = NULL;
    size_t cap = 0;
    *n = 0;
    why[0] = '\0';
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(db, 30000) != SQLITE_OK ||
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, whylen, "cannot read the history '%s': %s", db_path,
                 db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            char *more = realloc(items, (cap = cap ? 2 * cap : 64) * size);
            if (more == NULL) {
                snprintf(why, whylen, "reading the history: out of memory");
                break;
            }
            items = more;
        }
        void *item = items + (*n)++ * size;
        memset(item, 0, size);
        read(st, item);
    }
    if (rc != SQLITE_DONE && !why[0])
        snprintf(why, whylen, "reading the history: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (why[0]) {
        free(items);
        *n = 0;
        return NULL;
    }
    return items;
}

static void read_point(sqlite3_stmt *st, void *item)
{
    sl_trend_point *q = item;
    sl_history_column_text(st, 0, q->host, sizeof q->host);
    sl_history_column_text(st, 1, q->tree, sizeof q->tree);
    sl_history_column_text(st, 2, q->kernel, sizeof q->kernel);
    sl_history_column_text(st, 3, q->variant, sizeof q->variant);
    q->threads = sqlite3_column_int(st, 4);
    q->size = sqlite3_column_int64(st, 5);
    sl_history_column_text(st, 6, q->started, sizeof q->started);
    sl_history_column_text(st, 7, q->commit, sizeof q->commit);
    q->dirty = sqlite3_column_int(st, 8);
    q->median = sqlite3_column_double(st, 9);
    q->lo = sqlite3_column_double(st, 10);
    q->hi = sqlite3_column_double(st, 11);
    q->run = sqlite3_column_int64(st, 12);
    q->disturbed = sqlite3_column_int(st, 13);
}

/* Every valid, timed strong-scaling point, series by series, in run order. */
sl_trend_point *sl_trend_load(const char *db_path, size_t *n, char *why, size_t whylen)
{
    return sl_history_query(db_path,
        "SELECT r.host, c.tree, c.kernel, c.variant, c.threads, c.size, r.started_utc,"
        " r.commit_id, r.dirty, c.median_s, c.ci_low_s, c.ci_high_s, r.id, c.contaminated"
        " FROM configs c JOIN runs r ON c.run = r.id"
        " WHERE c.valid = 1 AND c.median_s > 0 AND c.study = 'strong'"
        " ORDER BY r.host, c.kernel, c.tree, c.variant, c.threads, c.size, r.id",
        sizeof(sl_trend_point), read_point, n, why, whylen);
}

static void read_unbuilt(sqlite3_stmt *st, void *item)
{
    sl_unbuilt *u = item;
    sl_history_column_text(st, 0, u->commit, sizeof u->commit);
    sl_history_column_text(st, 1, u->tried, sizeof u->tried);
}

sl_unbuilt *sl_history_unbuilt(const char *db_path, size_t *n, char *why, size_t whylen)
{
    return sl_history_query(db_path, "SELECT commit_id, started_utc FROM runs"
                            " WHERE kind = 'unbuilt' ORDER BY id",
                            sizeof(sl_unbuilt), read_unbuilt, n, why, whylen);
}
