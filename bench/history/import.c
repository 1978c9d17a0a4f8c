/* import.c - a run folder the history lacks, added from its files
 * (results.csv and bench.json): speedlab-history --import-folders and
 * --record (make bench-commits).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "defaults.h"
#include "history.h"
#include "table.h"

/* A bench.json context value ("key": "value"), or "" without one. */
static void json_value(const char *json, const char *key, char *out, size_t len)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": \"", key);
    const char *at = json ? strstr(json, pattern) : NULL;
    out[0] = '\0';
    if (at == NULL)
        return;
    at += strlen(pattern);
    size_t n = strcspn(at, "\"");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), at);
}

int sl_history_import_folder(const char *db, const char *dir, const char *name,
                             const char *commit, char *why, size_t whylen)
{
    char path[SL_PATH_BUF];
    sl_table t;
    if (sl_path_join(path, sizeof path, dir, SL_FILE_RESULTS) != 0 ||
        sl_table_read(&t, path, why, whylen) != 0)
        return -1;
    static const char *const cols[] = { "tree", "kernel", "variant", "threads_requested",
                                        "size", "study", "median_s", "ci_low_s",
                                        "ci_high_s", "ci_level", "others_cpu",
                                        "contaminated", "valid", "speedup_vs_scalar" };
    int c[14];
    if (sl_table_need(&t, SL_FILE_RESULTS, cols, 14, c, why, whylen) != 0) {
        sl_table_free(&t);
        return -1;
    }
    sl_history_run run;
    memset(&run, 0, sizeof run);
    char *json = NULL;
    if (sl_path_join(path, sizeof path, dir, SL_FILE_CONTEXT) == 0)
        json = sl_slurp(path, NULL);
    snprintf(run.kind, sizeof run.kind, "import");
    snprintf(run.folder, sizeof run.folder, "%s", name);
    snprintf(run.commit, sizeof run.commit, "%s", commit ? commit : "unknown");
    char cores[32];
    json_value(json, "date_utc", run.started_utc, sizeof run.started_utc);
    json_value(json, "host", run.host, sizeof run.host);
    json_value(json, "cpu_model", run.cpu_model, sizeof run.cpu_model);
    json_value(json, "simd_isa", run.simd_isa, sizeof run.simd_isa);
    json_value(json, "compiler", run.compiler, sizeof run.compiler);
    json_value(json, "kernel_flags", run.flags, sizeof run.flags);
    json_value(json, "cores_available", cores, sizeof cores);
    run.cores = atoi(cores);
    free(json);
    if (run.started_utc[0] == '\0')   /* no bench.json: the folder's time */
        snprintf(run.started_utc, sizeof run.started_utc, "%.16s", name);
    if (run.host[0] == '\0')
        snprintf(run.host, sizeof run.host, "unknown");
    sl_history_row *rows = calloc(t.nrows ? (size_t)t.nrows : 1, sizeof *rows);
    int n = 0, rc = rows ? 0 : -1;
    for (int r = 0; rows && r < t.nrows && rc == 0; r++) {
        sl_history_row *h = &rows[n];
        long long threads, size, contaminated = 0;
        double v[6];
        rc = sl_table_int(&t, r, c[3], 0, 0, &threads, why, whylen) ||
             sl_table_int(&t, r, c[4], 0, 0, &size, why, whylen) ||
             sl_table_int(&t, r, c[11], 1, 0, &contaminated, why, whylen);
        for (int k = 0; k < 6 && rc == 0; k++)
            rc = sl_table_real(&t, r, c[(int[]){ 6, 7, 8, 9, 10, 13 }[k]], 1, 0.0, &v[k], why,
                               whylen);
        if (rc != 0)
            break;
        snprintf(h->tree, sizeof h->tree, "%s", sl_table_text(&t, r, c[0]));
        snprintf(h->kernel, sizeof h->kernel, "%s", sl_table_text(&t, r, c[1]));
        snprintf(h->variant, sizeof h->variant, "%s", sl_table_text(&t, r, c[2]));
        snprintf(h->study, sizeof h->study, "%s", sl_table_text(&t, r, c[5]));
        snprintf(run.tree, sizeof run.tree, "%s", h->tree);
        h->threads = (int)threads;
        h->size = size;
        h->valid = strcmp(sl_table_text(&t, r, c[12]), "yes") == 0;
        h->median = v[0], h->ci_low = v[1], h->ci_high = v[2], h->ci_level = v[3];
        h->others_cpu = sl_table_text(&t, r, c[10])[0] ? v[4] : -1;
        h->speedup = v[5];
        h->contaminated = (int)contaminated;
        n++;
    }
    sl_table_free(&t);
    if (rc == 0)
        rc = sl_history_add(db, &run, rows, (size_t)n, why, whylen);
    free(rows);
    return rc;   /* 0 added, 1 there already, -1 why */
}


int sl_history_import_all(const char *db, const char *results, sl_history_imported *got,
                          char *why, size_t whylen)
{
    memset(got, 0, sizeof *got);
    DIR *d = opendir(results);
    if (d == NULL)
        return sl_fail(why, whylen, "cannot read '%s': %s", results, strerror(errno));
    struct dirent *e;
    char dir[SL_PATH_BUF], csv[SL_PATH_BUF], one[SL_WHY_BUF];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "latest") == 0 ||
            sl_path_join(dir, sizeof dir, results, e->d_name) != 0 ||
            sl_path_join(csv, sizeof csv, dir, SL_FILE_RESULTS) != 0 ||
            access(csv, R_OK) != 0)
            continue;
        int rc = sl_history_import_folder(db, dir, e->d_name, NULL, one, sizeof one);
        if (rc < 0 && got->failed++ < SL_HISTORY_MAX_REFUSED)
            snprintf(got->refused[got->failed - 1], sizeof got->refused[0], "%.255s", one);
        got->added += rc == 0, got->had += rc == 1;
    }
    closedir(d);
    return 0;
}
