/* test_compare.c - speedlab-compare's decision (bench/report/compare.h):
 * a run against itself is no difference, with an interval around 1; ten
 * times as slow, or half the time, is significant, with an interval that
 * excludes 1 on the right side; noise that overlaps is no difference; the
 * same samples always give the same interval.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compare.h"

/* Six repetitions around `m` seconds, spread +-2% (or +-`spread`). */
static sl_compare_series around(double m, double spread)
{
    static const double jitter[] = { 0.0, 0.5, -0.5, 1.0, -1.0, 0.25 };
    sl_compare_series s;
    memset(&s, 0, sizeof s);
    snprintf(s.label, sizeof s.label, "toy");
    for (int i = 0; i < 6; i++)
        s.seconds[i] = m * (1.0 + spread * jitter[i]);
    s.n = 6;
    return s;
}

static sl_compare_pair decide(const sl_compare_series *a, const sl_compare_series *b)
{
    sl_compare_pair q = { .a = a, .b = b };
    sl_compare_decide(&q);
    return q;
}

int main(void)
{
    sl_compare_series a = around(1.0, 0.02);
    sl_compare_series slow = around(10.0, 0.02), fast = around(0.5, 0.02);
    sl_compare_series noisy = around(1.05, 0.4);

    sl_compare_pair q = decide(&a, &a);
    CHECK(q.outcome == SL_COMPARE_SAME);
    CHECK(strcmp(q.verdict, "no significant difference") == 0);
    CHECK(q.ratio == 1.0 && q.low <= 1.0 && q.high >= 1.0);

    q = decide(&a, &slow);
    CHECK(q.outcome == SL_COMPARE_SLOWER);
    CHECK(strcmp(q.verdict, "B slower") == 0);
    CHECK(q.ratio > 9.99 && q.ratio < 10.01 && q.low > 1.0);

    q = decide(&a, &fast);
    CHECK(q.outcome == SL_COMPARE_FASTER);
    CHECK(q.ratio > 0.499 && q.ratio < 0.501 && q.high < 1.0);

    q = decide(&a, &noisy);
    CHECK(q.outcome == SL_COMPARE_SAME);

    sl_compare_pair again = decide(&a, &noisy);
    CHECK(again.low == q.low && again.high == q.high);
    return CHECK_DONE();
}
