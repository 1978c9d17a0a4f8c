/* progress.c - the participant's afternoon, read from the history
 * (progress.h). */
#include "progress.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

static void read_row(sqlite3_stmt *st, void *item)
{
    sl_progress_row *r = item;
    sl_history_column_text(st, 0, r->kernel, sizeof r->kernel);
    sl_history_column_text(st, 1, r->variant, sizeof r->variant);
    r->threads = sqlite3_column_int(st, 2);
    /* The run's own figure (suite.h's sl_speedup_paired, which the
     * verdict read too), never a ratio of medians taken apart. */
    const double up = sqlite3_column_type(st, 4) == SQLITE_NULL ? 0.0
                                                                : sqlite3_column_double(st, 4);
    r->speedup = sqlite3_column_int(st, 3) && up > 0 ? up : 0.0;
    r->busy = sqlite3_column_int(st, 3) && !(up > 0);
    r->run = sqlite3_column_int64(st, 5);
}

sl_progress_row *sl_progress_load(const char *db_path, size_t *n, char *why, size_t whylen)
{
    return sl_history_query(db_path,
        "SELECT c.kernel, c.variant, c.threads, c.valid, c.speedup, r.id"
        " FROM configs c JOIN runs r ON c.run = r.id"
        " WHERE r.kind = 'lesson' AND c.tree = 'exercises' AND c.study = 'strong'"
        " ORDER BY c.kernel, (SELECT min(x.rowid) FROM configs x WHERE x.tree = 'exercises'"
        "  AND x.kernel = c.kernel AND x.variant = c.variant), c.threads, r.id",
        sizeof(sl_progress_row), read_row, n, why, whylen);
}

int sl_progress_same_exercise(const sl_progress_row *a, const sl_progress_row *b)
{
    return strcmp(a->kernel, b->kernel) == 0 && strcmp(a->variant, b->variant) == 0 &&
           a->threads == b->threads;
}

void sl_progress_describe(const sl_progress_row *r, size_t n, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && at < len; i++) {
        const char *arrow = i ? " -> " : "";
        if (r[i].speedup > 0) {
            at += (size_t)snprintf(out + at, len - at, "%s%.1fx", arrow, r[i].speedup);
            continue;
        }
        size_t k = i;
        while (k + 1 < n && r[k + 1].speedup <= 0 && r[k + 1].busy == r[i].busy)
            k++;
        const size_t times = k - i + 1;
        const char *what = r[i].busy ? "busy, no speed verdict" : "WRONG";
        if (times == 1)
            at += (size_t)snprintf(out + at, len - at, "%s%s", arrow, what);
        else if (times == 2)
            at += (size_t)snprintf(out + at, len - at, "%s%s twice", arrow, what);
        else
            at += (size_t)snprintf(out + at, len - at, "%s%s %zu times", arrow, what, times);
        i = k;
    }
    if (at < len)
        snprintf(out + at, len - at, " (%zu run%s)", n, n == 1 ? "" : "s");
}
