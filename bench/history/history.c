/* history.c - the history store (history.h): SQLite in WAL mode, one
 * transaction per run. */
#define _DEFAULT_SOURCE
#include "history.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "context.h"
#include "run_dir.h"
#include "interrupt.h"
#include "platform.h"
#include "speedlab_config.h"

/* The history's version (SQLite's user_version), and the statements that
 * bring a history from version k to k + 1, migrations[k], run in the
 * writer's transaction: an older history is migrated in one piece, a newer
 * one (a later kit's) is read where its columns allow and never written.
 * A new column comes as a new version's ALTER TABLE, never by changing
 * what is here. */
enum { HISTORY_VERSION = 1 };

/* Two tables: a run, and its configurations (version 1). */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS runs ("
    " id INTEGER PRIMARY KEY, kind TEXT NOT NULL, folder TEXT NOT NULL,"
    " started_utc TEXT NOT NULL, commit_id TEXT NOT NULL, dirty INTEGER NOT NULL,"
    " tree TEXT NOT NULL, host TEXT NOT NULL, cpu_model TEXT NOT NULL, cores INTEGER NOT NULL,"
    " simd_isa TEXT NOT NULL, compiler TEXT NOT NULL, flags TEXT NOT NULL,"
    " interrupted INTEGER NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS runs_folder ON runs(host, folder) WHERE folder <> '';"
    "CREATE TABLE IF NOT EXISTS configs ("
    " run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " tree TEXT NOT NULL, kernel TEXT NOT NULL, variant TEXT NOT NULL, threads INTEGER NOT NULL,"
    " size INTEGER NOT NULL, study TEXT NOT NULL, median_s REAL, ci_low_s REAL, ci_high_s REAL,"
    " ci_level REAL, others_cpu REAL, contaminated INTEGER NOT NULL, valid INTEGER NOT NULL,"
    " speedup REAL);"
    "CREATE INDEX IF NOT EXISTS configs_series ON configs(kernel, variant, threads, tree);";

static const char *const migrations[HISTORY_VERSION] = { schema };

void sl_history_path(char *out, size_t len, const char *results)
{
    snprintf(out, len, "%s/history.sqlite", results);
}

/* The kit's commit, and whether its tree has uncommitted changes: git
 * runs as its own program (popen: fork and exec at once, which libgomp
 * allows). */
static void git_commit(char *commit, size_t len, int *dirty)
{
    snprintf(commit, len, "unknown");
    *dirty = 0;
    FILE *p = popen("git -C '" SPEEDLAB_SOURCE_DIR "' rev-parse --short=12 HEAD 2>/dev/null && "
                    "git -C '" SPEEDLAB_SOURCE_DIR "' status --porcelain "
                    "--untracked-files=no 2>/dev/null | head -1", "r");
    if (p == NULL)
        return;
    char line[256];
    if (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            snprintf(commit, len, "%.40s", line);
        *dirty = fgets(line, sizeof line, p) != NULL;
    }
    pclose(p);
}

void sl_history_describe(sl_history_run *run, const char *kind, const char *tree,
                         const char *folder)
{
    memset(run, 0, sizeof *run);
    snprintf(run->kind, sizeof run->kind, "%s", kind);
    snprintf(run->folder, sizeof run->folder, "%s", folder ? folder : "");
    snprintf(run->tree, sizeof run->tree, "%s", tree);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(run->started_utc, sizeof run->started_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    git_commit(run->commit, sizeof run->commit, &run->dirty);
    /* One name for machines that change every run (a forge's hosted
     * runners), so that their history is one series. */
    const char *named = getenv("SPEEDLAB_HOST");
    if (named && named[0])
        snprintf(run->host, sizeof run->host, "%s", named);
    else if (gethostname(run->host, sizeof run->host) != 0)
        snprintf(run->host, sizeof run->host, "unknown");
    run->host[sizeof run->host - 1] = '\0';
    sl_cpu_model(run->cpu_model, sizeof run->cpu_model);
    run->cores = sl_cores_available();
    snprintf(run->simd_isa, sizeof run->simd_isa, "%s", SPEEDLAB_SIMD_ISA);
    snprintf(run->compiler, sizeof run->compiler, "%s", SPEEDLAB_COMPILER);
    snprintf(run->flags, sizeof run->flags, "%s", SPEEDLAB_KERNEL_FLAGS);
}

/* The rows of a suite's configurations that were validated. */
static size_t sl_history_rows(const sl_suite *s, sl_history_row *rows, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->count && n < max; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->validated || c->foreign)
            continue;
        sl_history_row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        snprintf(r->tree, sizeof r->tree, "%s", c->tree);
        snprintf(r->kernel, sizeof r->kernel, "%s", c->kernel->problem->name);
        snprintf(r->variant, sizeof r->variant, "%s", c->variant->name);
        snprintf(r->study, sizeof r->study, "%s", c->weak ? "weak" : "strong");
        r->threads = c->problem.threads;
        r->size = (long long)c->problem.size;
        r->valid = c->valid;
        r->contaminated = c->contaminated;
        r->others_cpu = c->others_cpu;
        /* The figure the verdict gave, none where it gave none (make
         * progress: busy). */
        r->speedup = c->valid ? sl_speedup_judged(s, c, NULL) : c->speedup;
        if (c->timed > 0 && c->valid) {
            r->median = c->median;
            r->ci_low = c->ci_low;
            r->ci_high = c->ci_high;
            r->ci_level = c->ci_level;
        }
    }
    return n;
}

static int say(sqlite3 *db, const char *what, char *why, size_t whylen)
{
    return sl_fail(why, whylen, "history %s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

/* A number, or NULL where there is none (not timed: 0). */
static void bind_real(sqlite3_stmt *st, int i, double v, int has)
{
    if (has)
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static int insert_rows(sqlite3 *db, sqlite3_int64 run, const sl_history_row *rows,
                       size_t nrows, char *why, size_t whylen)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO configs (run, tree, kernel, variant, threads, size,"
                           " study, median_s, ci_low_s, ci_high_s, ci_level, others_cpu,"
                           " contaminated, valid, speedup)"
                           " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
                           &st, NULL) != SQLITE_OK)
        return say(db, "insert", why, whylen);
    for (size_t i = 0; i < nrows; i++) {
        const sl_history_row *r = &rows[i];
        const int timed = r->median > 0;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run);
        sqlite3_bind_text(st, 2, r->tree, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, r->kernel, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, r->variant, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 5, r->threads);
        sqlite3_bind_int64(st, 6, r->size);
        sqlite3_bind_text(st, 7, r->study, -1, SQLITE_STATIC);
        bind_real(st, 8, r->median, timed);
        bind_real(st, 9, r->ci_low, timed);
        bind_real(st, 10, r->ci_high, timed);
        bind_real(st, 11, r->ci_level, timed);
        bind_real(st, 12, r->others_cpu, r->others_cpu >= 0);
        sqlite3_bind_int(st, 13, r->contaminated);
        sqlite3_bind_int(st, 14, r->valid);
        bind_real(st, 15, r->speedup, r->speedup > 0);
        if (sqlite3_step(st) != SQLITE_DONE) {
            sqlite3_finalize(st);
            return say(db, "insert", why, whylen);
        }
    }
    sqlite3_finalize(st);
    return 0;
}

/* Inside the writer's transaction: migrate an older history to this
 * kit's version; refuse a newer one (0, or -1 with why). */
static int bring_to_version(sqlite3 *db, const char *path, char *why, size_t whylen)
{
    sqlite3_stmt *st = NULL;
    int version = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version < 0)
        return say(db, "version", why, whylen);
    if (version > HISTORY_VERSION)
        return sl_fail(why, whylen, "%s was written by a newer speedlab (history version %d; "
                       "this kit writes %d): left as it is, so that nothing in it is lost; "
                       "update the kit, or give another RESULTS", path, version,
                       HISTORY_VERSION);
    for (int v = version; v < HISTORY_VERSION; v++)
        if (sqlite3_exec(db, migrations[v], NULL, NULL, NULL) != SQLITE_OK)
            return say(db, "migration", why, whylen);
    char set[48];
    snprintf(set, sizeof set, "PRAGMA user_version = %d", HISTORY_VERSION);
    if (version < HISTORY_VERSION && sqlite3_exec(db, set, NULL, NULL, NULL) != SQLITE_OK)
        return say(db, "migration", why, whylen);
    return 0;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* SQLite's wait for another writer's lock: up to 30 s, in short sleeps,
 * and not at all once Ctrl-C or TERM arrived (sl_interrupted). */
static int wait_for_lock(void *start, int tries)
{
    (void)tries;
    if (sl_interrupted() || seconds_now() - *(const double *)start > 30.0)
        return 0;
    sqlite3_sleep(20);
    return 1;
}

int sl_history_add(const char *path, const sl_history_run *run, const sl_history_row *rows,
                   size_t nrows, char *why, size_t whylen)
{
    sqlite3 *db = NULL;
    /* SQLite's own limit (SQLITE_MAX_PATHNAME in Debian's build), with room
     * for the write-ahead log's "-wal". */
    if (strlen(path) > 500)
        return sl_fail(why, whylen, "SQLite opens files at paths of at most 512 characters, "
                       "this one has %zu: keep results/ at a shorter path", strlen(path));
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        say(db, "open", why, whylen);
        sqlite3_close(db);
        return -1;
    }
    /* Another writer holds the lock for a moment: wait for it. */
    double start = seconds_now();
    sqlite3_busy_handler(db, wait_for_lock, &start);
    int rc = -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;", NULL, NULL,
                     NULL) != SQLITE_OK ||
        sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        if (sl_interrupted())
            sl_fail(why, whylen, "interrupted while waiting for another run's lock on it");
        else
            say(db, "open", why, whylen);
        goto done;
    }
    if (bring_to_version(db, path, why, whylen) != 0)
        goto rollback;
    if (sqlite3_prepare_v2(db,
                           "INSERT OR IGNORE INTO runs (kind, folder, started_utc, commit_id,"
                           " dirty, tree, host, cpu_model, cores, simd_isa, compiler, flags,"
                           " interrupted) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK) {
        say(db, "schema", why, whylen);
        goto rollback;
    }
    const char *text[] = { run->kind, run->folder, run->started_utc, run->commit };
    for (int i = 0; i < 4; i++)
        sqlite3_bind_text(st, i + 1, text[i], -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, run->dirty);
    sqlite3_bind_text(st, 6, run->tree, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, run->host, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, run->cpu_model, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 9, run->cores);
    sqlite3_bind_text(st, 10, run->simd_isa, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, run->compiler, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, run->flags, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 13, run->interrupted);
    if (sqlite3_step(st) != SQLITE_DONE) {
        say(db, "insert", why, whylen);
        goto rollback;
    }
    /* A folder already imported stays as it was (OR IGNORE): no second copy. */
    const int added = sqlite3_changes(db) == 1;
    if (added && insert_rows(db, sqlite3_last_insert_rowid(db), rows, nrows, why, whylen) != 0)
        goto rollback;
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        say(db, "commit", why, whylen);
        goto rollback;
    }
    rc = added ? 0 : 1;
    goto done;
rollback:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

int sl_history_record(const char *results, const char *kind, const char *folder,
                      const sl_suite *s, char *why, size_t whylen)
{
    char path[SL_PATH_BUF];
    sl_make_folders(results);   /* the runner's first lesson may find none */
    sl_history_path(path, sizeof path, results);
    sl_history_run run;
    sl_history_describe(&run, kind, s->count ? s->configs[0].tree : "", folder);
    for (size_t i = 0; i < s->count; i++)
        run.interrupted |= s->configs[i].interrupted;
    sl_history_row *rows = calloc(s->count ? s->count : 1, sizeof *rows);
    if (rows == NULL)
        return sl_fail(why, whylen, "the run is not in the history (out of memory)");
    size_t n = sl_history_rows(s, rows, s->count);
    char add_why[SL_WHY_BUF];
    int rc = sl_history_add(path, &run, rows, n, add_why, sizeof add_why) < 0 ? -1 : 0;
    if (rc != 0)
        sl_fail(why, whylen, "the run is not in the history (%s): %s", path, add_why);
    free(rows);
    return rc;
}
