/* test_compare.c - speedlab-compare's decision (bench/report/compare.h):
 * a run against itself is no difference, with an interval around 1; ten
 * times as slow, or half the time, is significant, with an interval that
 * excludes 1 on the right side; noise that overlaps is no difference; the
 * same samples always give the same interval; too few repetitions give
 * neither interval nor verdict; a verdict never disagrees with its interval;
 * a threaded row is not claimed for what the host's cores at once explain.
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
    /* 3% apart with tight repetitions: the test finds it, but two runs of
     * the same code differ by that much: not claimed (SL_COMPARE_MARGIN). */
    sl_compare_series near = around(1.03, 0.005), tight = around(1.0, 0.005);
    q = decide(&tight, &near);
    CHECK(q.p < 0.05 && q.low > 1.0);
    CHECK(q.outcome != SL_COMPARE_SLOWER && q.outcome != SL_COMPARE_FASTER);

    /* Too few repetitions for the test ever to reach 5%: no interval and
     * no verdict, however far apart (1 against 6, 3 against 3). */
    sl_compare_series one = slow, three = slow;
    one.n = 1;
    three.n = 3;
    sl_compare_series a3 = a;
    a3.n = 3;
    const sl_compare_pair few[] = { decide(&one, &a), decide(&a3, &three), decide(&one, &one) };
    for (size_t i = 0; i < sizeof few / sizeof few[0]; i++) {
        CHECK(few[i].outcome == SL_COMPARE_FEW && !SL_COMPARE_HAS_INTERVAL(&few[i]));
        CHECK(few[i].low == few[i].ratio && few[i].high == few[i].ratio);
        CHECK(strcmp(few[i].verdict, "too few samples to judge") == 0);
    }
    /* 4 against 4 can: ten times as slow is a difference. */
    sl_compare_series a4 = a, slow4 = slow;
    a4.n = slow4.n = 4;
    CHECK(decide(&a4, &slow4).outcome == SL_COMPARE_SLOWER);

    /* The host's cores at once (sl_compare_host): at 85% of one core's
     * speed each in A and 98% in B, B's threaded times may be 13% shorter
     * for the host alone. A crowded row 20% faster stays a claim; one 12%
     * faster is the host's; the allowance is on the host's side only. */
    CHECK(sl_compare_together(402.0, 680.0, 2) > 0.845 && sl_compare_together(402.0, 680.0, 2) < 0.846);
    CHECK(sl_compare_together(400.0, 832.0, 2) == 1.0);   /* 104%: the probes' noise */
    sl_compare_run ra = { .together = 0.85, .together_threads = 2 };
    sl_compare_run rb = { .together = 0.98, .together_threads = 2 };
    double host = sl_compare_host(&ra, &rb);
    CHECK(host > 0.86 && host < 0.87);
    CHECK(sl_compare_host(&rb, &ra) > 1.15);
    sl_compare_run near_b = { .together = 0.87, .together_threads = 2 };
    sl_compare_run four = { .together = 0.98, .together_threads = 4 }, none = { 0 };
    CHECK(sl_compare_host(&ra, &near_b) == 1.0);   /* within the margin */
    CHECK(sl_compare_host(&ra, &four) == 1.0);     /* other core counts */
    CHECK(sl_compare_host(&ra, &none) == 1.0);     /* no ceiling.csv */
    sl_compare_series b88 = around(0.88, 0.005), b80 = around(0.80, 0.005);
    sl_compare_pair h = { .a = &tight, .b = &b88, .host = host };
    sl_compare_decide(&h);
    CHECK(h.outcome == SL_COMPARE_HOST);
    CHECK(strcmp(h.verdict, "as the host differed (its cores at once)") == 0);
    CHECK(decide(&tight, &b88).outcome == SL_COMPARE_FASTER);   /* a one-core row */
    h = (sl_compare_pair){ .a = &tight, .b = &b80, .host = host };
    sl_compare_decide(&h);
    CHECK(h.outcome == SL_COMPARE_FASTER);
    h = (sl_compare_pair){ .a = &b88, .b = &tight, .host = host };   /* B slower */
    sl_compare_decide(&h);
    CHECK(h.outcome == SL_COMPARE_SLOWER);

    /* The verdict and the interval never disagree, across pairs at many
     * distances and spreads. */
    int disagree = 0;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 8; j++) {
            sl_compare_series x = around(1.0, 0.02 * (1 + j)), y = around(1.0 + 0.01 * i, 0.3);
            sl_compare_pair d = decide(&x, &y);
            double lo = 1.0 / (1.0 + SL_COMPARE_MARGIN), hi = 1.0 + SL_COMPARE_MARGIN;
            int excludes = d.high < lo || d.low > hi;
            disagree += (d.outcome == SL_COMPARE_SAME && excludes) ||
                        (d.outcome == SL_COMPARE_FASTER && !(d.high < lo)) ||
                        (d.outcome == SL_COMPARE_SLOWER && !(d.low > hi));
        }
    CHECK(disagree == 0);
    return CHECK_DONE();
}
