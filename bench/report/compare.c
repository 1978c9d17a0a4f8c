/* compare.c - the decision about one configuration of two runs
 * (compare.h), unit-tested in tests/test_compare.c.
 */
#include "compare.h"

#include <stdint.h>
#include <string.h>

#include "stats.h"

/* Verdicts at the usual 5% level; the bootstrap's resamples and key. */
#define ALPHA 0.05
enum { RESAMPLES = 4000 };
#define BOOTSTRAP_SEED UINT64_C(20261121)

static double median_of(const sl_compare_series *s)
{
    double v[SL_MAX_REPS];
    memcpy(v, s->seconds, (size_t)s->n * sizeof *v);
    return sl_median(v, s->n);
}

void sl_compare_decide(sl_compare_pair *q)
{
    static const char *const words[] = { "no significant difference", "B faster",
                                         "B slower" };
    q->median_a = median_of(q->a);
    q->median_b = median_of(q->b);
    q->ratio = q->median_b / q->median_a;
    sl_bootstrap_ratio(q->a->seconds, q->a->n, q->b->seconds, q->b->n, RESAMPLES,
                       BOOTSTRAP_SEED, &q->low, &q->high);
    q->p = sl_mann_whitney_p(q->a->seconds, q->a->n, q->b->seconds, q->b->n);
    if (q->p >= ALPHA)
        q->outcome = SL_COMPARE_SAME;
    else
        q->outcome = q->ratio < 1.0 ? SL_COMPARE_FASTER : SL_COMPARE_SLOWER;
    q->verdict = words[q->outcome];
}
