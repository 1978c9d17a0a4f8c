/* store.c - the room's records in SQLite (store.h). */
#define _DEFAULT_SOURCE
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char schema[] =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    "CREATE TABLE IF NOT EXISTS records ("
    " nickname TEXT NOT NULL, id TEXT NOT NULL, received REAL NOT NULL,"
    " family TEXT, lanes INTEGER, cores INTEGER, lesson INTEGER, kernel TEXT,"
    " variant TEXT, threads INTEGER, state TEXT, hint TEXT, speedup REAL,"
    " ceiling_pct REAL, seconds REAL, ran_at REAL, source_hash TEXT,"
    " solution_pct REAL, solution_low REAL, solution_high REAL,"
    " PRIMARY KEY (nickname, id));";

/* A store made before the share of the solution's speed: its columns,
 * added at the end (an error for each that is there already: ignored). */
static const char *const added[] = {
    "ALTER TABLE records ADD COLUMN solution_pct REAL DEFAULT -1",
    "ALTER TABLE records ADD COLUMN solution_low REAL DEFAULT -1",
    "ALTER TABLE records ADD COLUMN solution_high REAL DEFAULT -1",
};

sl_room_db *sl_room_store_open(const char *path, char *why, size_t whylen)
{
    sqlite3 *db = NULL;
    char *err = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        snprintf(why, whylen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 30000);
    if (sqlite3_exec(db, schema, NULL, NULL, &err) != SQLITE_OK) {
        snprintf(why, whylen, "%s is not a room's store: %s", path, err ? err : "?");
        sqlite3_free(err);
        sqlite3_close(db);
        return NULL;
    }
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++)
        sqlite3_exec(db, added[i], NULL, NULL, NULL);
    return db;
}

void sl_room_store_close(sl_room_db *db)
{
    sqlite3_close(db);
}

static int add_one(sqlite3_stmt *st, const sl_room_post *p, const sl_room_record *r,
                   double received)
{
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, p->nickname, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, received);
    sqlite3_bind_text(st, 4, p->family, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, p->lanes);
    sqlite3_bind_int(st, 6, p->cores);
    sqlite3_bind_int(st, 7, r->lesson);
    sqlite3_bind_text(st, 8, r->kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, r->variant, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 10, r->threads);
    sqlite3_bind_text(st, 11, sl_room_state_name(r->state), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, r->hint, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 13, r->speedup);
    sqlite3_bind_double(st, 14, r->ceiling_pct);
    sqlite3_bind_double(st, 15, r->seconds);
    sqlite3_bind_double(st, 16, r->ran_at);
    sqlite3_bind_text(st, 17, r->source_hash, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 18, r->solution_pct);
    sqlite3_bind_double(st, 19, r->solution_low);
    sqlite3_bind_double(st, 20, r->solution_high);
    return sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
}

int sl_room_store_add(sl_room_db *db, const sl_room_post *p, double received, char *why,
                      size_t whylen)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK &&
             sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO records VALUES "
                                "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL) == SQLITE_OK
                 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < p->count; i++)
        rc = add_one(st, p, &p->records[i], received + 1e-6 * (double)i);
    sqlite3_finalize(st);
    if (rc == 0 && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    snprintf(why, whylen, "the store refused the post: %s", sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static void text_col(sqlite3_stmt *st, int col, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

sl_room_row *sl_room_store_load(sl_room_db *db, size_t *n, char *why, size_t whylen)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 256;
    sl_room_row *rows = malloc(cap * sizeof *rows);
    *n = 0;
    if (rows == NULL || sqlite3_prepare_v2(db, "SELECT received, nickname, family, id, lesson,"
            " kernel, variant, threads, state, hint, speedup, ceiling_pct, seconds, ran_at,"
            " source_hash, solution_pct, solution_low, solution_high"
            " FROM records ORDER BY ran_at, received, rowid", -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, whylen, "cannot read the room's store: %s", sqlite3_errmsg(db));
        free(rows);
        return NULL;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            sl_room_row *more = realloc(rows, 2 * cap * sizeof *rows);
            if (more == NULL)
                break;
            rows = more, cap *= 2;
        }
        sl_room_row *w = &rows[(*n)++];
        memset(w, 0, sizeof *w);
        char state[16];
        w->received = sqlite3_column_double(st, 0);
        text_col(st, 1, w->nickname, sizeof w->nickname);
        text_col(st, 2, w->family, sizeof w->family);
        text_col(st, 3, w->r.id, sizeof w->r.id);
        w->r.lesson = sqlite3_column_int(st, 4);
        text_col(st, 5, w->r.kernel, sizeof w->r.kernel);
        text_col(st, 6, w->r.variant, sizeof w->r.variant);
        w->r.threads = sqlite3_column_int(st, 7);
        text_col(st, 8, state, sizeof state);
        w->r.state = sl_room_state_parse(state) < 0 ? SL_ROOM_WRONG : sl_room_state_parse(state);
        text_col(st, 9, w->r.hint, sizeof w->r.hint);
        w->r.speedup = sqlite3_column_double(st, 10);
        w->r.ceiling_pct = sqlite3_column_double(st, 11);
        w->r.seconds = sqlite3_column_double(st, 12);
        w->r.ran_at = sqlite3_column_double(st, 13);
        text_col(st, 14, w->r.source_hash, sizeof w->r.source_hash);
        w->r.solution_pct = sqlite3_column_double(st, 15);
        w->r.solution_low = sqlite3_column_double(st, 16);
        w->r.solution_high = sqlite3_column_double(st, 17);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        snprintf(why, whylen, "cannot read the room's store: %s", sqlite3_errmsg(db));
        free(rows);
        return NULL;
    }
    return rows;
}
