/* grid.c - lesson 6's rows, read through the one reader (grid.h). */
#define _DEFAULT_SOURCE
#include "grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sl_grid_row *new_row(sl_grid *g)
{
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 64;
        sl_grid_row *grown = realloc(g->rows, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        g->rows = grown;
        g->cap = cap;
    }
    sl_grid_row *r = &g->rows[g->n];
    memset(r, 0, sizeof *r);
    return r;
}

int sl_grid_note(sl_grid *g, const char *text)
{
    size_t len = strlen(text);
    char *grown = realloc(g->context, g->context_len + len + 1);
    if (grown == NULL)
        return -1;
    g->context = grown;
    memcpy(g->context + g->context_len, text, len + 1);
    g->context_len += len;
    return 0;
}

void sl_grid_free(sl_grid *g)
{
    free(g->rows);
    free(g->context);
    memset(g, 0, sizeof *g);
}

/* The columns a row is made of. */
enum field {
    F_KERNEL, F_VARIANT, F_RANKS, F_THREADS, F_SIZE, F_HEIGHT, F_WORK, F_REPS, F_MEDIAN,
    F_CI_LOW, F_CI_HIGH, F_MIN, F_MAX, F_COMPUTE, F_COMPUTE_MEAN, F_COMM, F_BALANCE,
    F_WORK_BALANCE, F_VALID, F_VALUE, F_EXPECTED, F_ERROR, F_TOLERANCE, F_OTHERS,
    F_DISTURBED, F_NOTE, F_OVERSUB, F_TREE, F_UNIT, NFIELDS
};

/* results.csv's names; a worker's fragment has the first SL_GRID_FRAGMENT_COLUMNS. */
const char *const sl_grid_columns[] = {
    "kernel", "variant", "ranks", "threads_requested", "size", "height", "work_per_call",
    "repetitions", "median_s", "ci_low_s", "ci_high_s", "min_s", "max_s", "compute_s",
    "compute_mean_s", "communication_s", "balance", "work_balance", "valid", "result",
    "expected", "abs_error", "tolerance", "others_cpu", "disturbed_reps", "note",
    "oversubscribed", "tree", "work_unit",
};
_Static_assert(sizeof sl_grid_columns / sizeof sl_grid_columns[0] == NFIELDS, "a name a field");
_Static_assert(F_NOTE + 1 == SL_GRID_FRAGMENT_COLUMNS, "a fragment ends at the note");

/* Row i of t into r, given each field's column (-1: not in this file). */
static int fill(sl_grid_row *r, const sl_table *t, int i, const int *col, char *why,
                size_t whylen)
{
    long long v[6];
    const int ints[6] = { F_RANKS, F_THREADS, F_SIZE, F_HEIGHT, F_REPS, F_DISTURBED };
    for (int k = 0; k < 6; k++)
        if (sl_table_int(t, i, col[ints[k]], 1, 0, &v[k], why, whylen) != 0)
            return -1;
    r->ranks = (int)v[0];
    r->threads = (int)v[1];
    r->size = v[2];
    r->height = v[3];
    r->reps = (int)v[4];
    r->disturbed = (int)v[5];
    double *d[] = { &r->work, &r->median, &r->ci_low, &r->ci_high, &r->min, &r->max,
                    &r->compute, &r->compute_mean, &r->comm, &r->balance, &r->work_balance,
                    &r->value, &r->expected, &r->error, &r->tolerance, &r->others };
    const int reals[] = { F_WORK, F_MEDIAN, F_CI_LOW, F_CI_HIGH, F_MIN, F_MAX, F_COMPUTE,
                          F_COMPUTE_MEAN, F_COMM, F_BALANCE, F_WORK_BALANCE, F_VALUE,
                          F_EXPECTED, F_ERROR, F_TOLERANCE, F_OTHERS };
    for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++)
        if (sl_table_real(t, i, col[reals[k]], 1, NAN, d[k], why, whylen) != 0)
            return -1;
    const char *valid = sl_table_text(t, i, col[F_VALID]);
    if (strcmp(valid, "yes") != 0 && strcmp(valid, "no") != 0)
        return sl_fail(why, whylen, "'%s' line %d: valid '%.20s' is not yes or no", t->path,
                       t->line[i], valid);
    r->valid = valid[0] == 'y';
    if (r->ranks < 1 || r->threads < 1)
        return sl_fail(why, whylen, "'%s' line %d: %d rank(s) x %d thread(s) is not a grid point",
                       t->path, t->line[i], r->ranks, r->threads);
    if (col[F_OVERSUB] >= 0)
        r->oversubscribed = strcmp(sl_table_text(t, i, col[F_OVERSUB]), "1") == 0;
    snprintf(r->kernel, sizeof r->kernel, "%s", sl_table_text(t, i, col[F_KERNEL]));
    snprintf(r->variant, sizeof r->variant, "%s", sl_table_text(t, i, col[F_VARIANT]));
    snprintf(r->unit, sizeof r->unit, "%s", sl_table_text(t, i, col[F_UNIT]));
    snprintf(r->note, sizeof r->note, "%s", sl_table_text(t, i, col[F_NOTE]));
    if (col[F_TREE] >= 0)
        snprintf(r->tree, sizeof r->tree, "%s", sl_table_text(t, i, col[F_TREE]));
    if (sl_grid_timed(r) && !(r->ci_low > 0 && r->ci_high >= r->ci_low))
        return sl_fail(why, whylen, "'%s' line %d: %s %s has a median but no interval", t->path,
                       t->line[i], r->kernel, r->variant);
    return 0;
}

/* Every row of t (only those with a rank count, when only_ranked). */
static int add_rows(sl_grid *g, const sl_table *t, const int *col, int only_ranked,
                    const char *tree, char *why, size_t whylen)
{
    int added = 0;
    for (int i = 0; i < t->nrows; i++) {
        if (only_ranked && sl_table_text(t, i, col[F_RANKS])[0] == '\0')
            continue;
        sl_grid_row *r = new_row(g);
        if (r == NULL)
            return sl_fail(why, whylen, "out of memory reading '%s'", t->path);
        if (fill(r, t, i, col, why, whylen) != 0)
            return -1;
        if (tree)
            snprintf(r->tree, sizeof r->tree, "%s", tree);
        g->n++;
        added++;
    }
    return added;
}

int sl_grid_read_fragment(sl_grid *g, const char *path, const char *tree, char *why,
                          size_t whylen)
{
    sl_table t;
    int col[NFIELDS];
    if (sl_table_read(&t, path, why, whylen) != 0)
        return -1;
    int n = -1;
    if (sl_table_need(&t, "a lesson 6 fragment", sl_grid_columns, SL_GRID_FRAGMENT_COLUMNS, col,
                      why, whylen) == 0) {
        for (int k = F_NOTE + 1; k < NFIELDS; k++)
            col[k] = -1;
        n = add_rows(g, &t, col, 0, tree, why, whylen);
    }
    if (n >= 0 && t.comments && sl_grid_note(g, t.comments) != 0) {
        snprintf(why, whylen, "out of memory reading '%s'", path);
        n = -1;
    }
    sl_table_free(&t);
    return n;
}

int sl_grid_read_results(sl_grid *g, const sl_table *t, char *why, size_t whylen)
{
    int col[NFIELDS];
    if (sl_table_need(t, "a results.csv with a ranks column", sl_grid_columns, NFIELDS,
                      col, why, whylen) != 0)
        return -1;
    return add_rows(g, t, col, 1, NULL, why, whylen);
}

int sl_grid_timed(const sl_grid_row *r)
{
    return r->valid && r->reps > 0 && isfinite(r->median) && r->median > 0;
}

const sl_grid_row *sl_grid_baseline(const sl_grid *g, const char *kernel)
{
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->rows[i].kernel, kernel) == 0 &&
            strcmp(g->rows[i].variant, SL_BASELINE_VARIANT) == 0)
            return &g->rows[i];
    return NULL;
}

double sl_grid_speedup(const sl_grid *g, const sl_grid_row *r)
{
    const sl_grid_row *b = sl_grid_baseline(g, r->kernel);
    return b != NULL && sl_grid_timed(b) && sl_grid_timed(r) ? b->median / r->median : NAN;
}
