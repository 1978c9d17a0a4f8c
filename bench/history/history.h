/* history.h - every run remembered: results/history.sqlite, one SQLite
 * database that each bench run, each runner lesson and `speedlab-history
 * --import` add to (issue 33's store; the trend and regression reports
 * read it).
 *
 * Safe against two writers and a killed run: write-ahead log, a busy
 * timeout, and one transaction per run, so a run is in the history whole
 * or not at all.
 */
#ifndef SPEEDLAB_HISTORY_H
#define SPEEDLAB_HISTORY_H

#include <stddef.h>

#include "suite.h"

/* What a run ran on and from. */
typedef struct sl_history_run {
    char kind[16];            /* "bench", "lesson", "import" */
    char folder[256];         /* the run folder's name, or "" */
    char started_utc[32];     /* 2026-11-25T03:20:47Z */
    char commit[48];          /* the kit's git commit, or "unknown" */
    int dirty;                /* 1: uncommitted changes in the tree */
    char tree[32];            /* solutions, exercises, ... */
    char host[128], cpu_model[160], simd_isa[32], compiler[128], flags[320];
    int cores;
    int interrupted;
} sl_history_run;

/* One configuration's numbers, as results.csv has them. */
typedef struct sl_history_row {
    char tree[32], kernel[64], variant[64], study[16];
    int threads;              /* requested; 0: the variant takes none */
    long long size;
    double median, ci_low, ci_high, ci_level, others_cpu, speedup;
    int contaminated, valid;
} sl_history_row;

/* The database file for a results folder: <results>/history.sqlite. */
void sl_history_path(char *out, size_t len, const char *results);

/* The run's machine, build and commit, for a run of tree now. */
void sl_history_describe(sl_history_run *run, const char *kind, const char *tree,
                         const char *folder);

/* Add one run and its rows in one transaction. Returns 0, 1 when the
 * history has that host's folder already (nothing added), or -1 with why. */
int sl_history_add(const char *db, const sl_history_run *run, const sl_history_row *rows,
                   size_t nrows, char *why, size_t whylen);

/* One run folder (results.csv, and bench.json where there is one) into
 * the history, under `commit` (NULL: "unknown"). Returns as sl_history_add:
 * 0 added, 1 there already (left alone), -1 with why. */
int sl_history_import_folder(const char *db, const char *dir, const char *name,
                             const char *commit, char *why, size_t whylen);

/* What sl_history_import_all did: folders added, already there, refused
 * (the first few refusals' reasons kept, one line each). */
#define SL_HISTORY_MAX_REFUSED 8
typedef struct sl_history_imported {
    int added, had, failed;
    char refused[SL_HISTORY_MAX_REFUSED][256];
} sl_history_imported;

/* Every run folder under results (not latest, not hidden): 0 with *got
 * filled, or -1 with why when results cannot be read. */
int sl_history_import_all(const char *db, const char *results, sl_history_imported *got,
                          char *why, size_t whylen);

/* Record a finished suite (bench or runner). 0, or -1 with why: the
 * caller warns, and the run itself has not failed. */
int sl_history_record(const char *results, const char *kind, const char *folder,
                      const sl_suite *s, char *why, size_t whylen);

#endif
