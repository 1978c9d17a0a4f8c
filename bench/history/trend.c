/* trend.c - the history's rule for a step in a series (trend.h): pure,
 * so that tests/test_trend.c holds it to planted series.
 */
#include "trend.h"

#include <stdio.h>
#include <string.h>

int sl_trend_same_series(const sl_trend_point *a, const sl_trend_point *b)
{
    return strcmp(a->host, b->host) == 0 && strcmp(a->tree, b->tree) == 0 &&
           strcmp(a->kernel, b->kernel) == 0 && strcmp(a->variant, b->variant) == 0 &&
           a->threads == b->threads && a->size == b->size;
}

/* Flag the steps: intervals apart and the medians more than min_change apart. */
int sl_trend_find_steps(sl_trend_point *p, size_t n, double min_change)
{
    int slower = 0;
    for (size_t i = 1; i < n; i++) {
        if (!sl_trend_same_series(&p[i - 1], &p[i]))
            continue;
        const sl_trend_point *a = &p[i - 1];
        double ratio = p[i].median / a->median;
        int step = p[i].lo > a->hi && ratio > 1 + min_change    ? 1
                   : p[i].hi < a->lo && ratio < 1 / (1 + min_change) ? -1
                                                                     : 0;
        /* Load from other processes moves a median: shown, not judged. */
        if (step != 0 && (a->disturbed || p[i].disturbed)) {
            p[i].unjudged = 1;
            continue;
        }
        p[i].step = step;
        slower += step > 0;
    }
    return slower;
}

void sl_trend_commit_label(const sl_trend_point *q, char *out, size_t len)
{
    if (q->dirty)
        snprintf(out, len, "uncommitted changes on %s", q->commit);
    else
        snprintf(out, len, "%s", q->commit);
}

void sl_trend_series_name(const sl_trend_point *q, char *out, size_t len)
{
    if (q->threads > 0)
        snprintf(out, len, "%s %s x%d", q->tree, q->variant, q->threads);
    else
        snprintf(out, len, "%s %s", q->tree, q->variant);
}
