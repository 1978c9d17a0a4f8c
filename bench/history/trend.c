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
        if (p[i].lo > a->hi && ratio > 1 + min_change)
            p[i].step = 1, slower++;
        else if (p[i].hi < a->lo && ratio < 1 / (1 + min_change))
            p[i].step = -1;
    }
    return slower;
}

void sl_trend_series_name(const sl_trend_point *q, char *out, size_t len)
{
    if (q->threads > 0)
        snprintf(out, len, "%s %s x%d", q->tree, q->variant, q->threads);
    else
        snprintf(out, len, "%s %s", q->tree, q->variant);
}
