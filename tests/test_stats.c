/* test_stats.c - the report's statistics against values worked out by hand:
 * the median's order-statistic interval and the runs test that says when
 * repetitions came in stretches (bench/measure/sample.c), Karp-Flatt
 * (bench/report/scaling.c), the Mann-Whitney U test and the bootstrap of a ratio
 * of medians (bench/report/stats.c). Each expected value would change if the
 * formula behind it were wrong. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "scaling.h"
#include "stats.h"
#include "suite.h"

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

static void median_interval(void)
{
    const double six[] = { 1, 2, 3, 4, 5, 6 };
    const double nine[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    double lo, hi;
    /* n = 6: only [min, max] reaches 95%: 1 - 2/64. */
    CHECK(near(sl_median_ci(six, 6, &lo, &hi), 1.0 - 2.0 / 64.0, 1e-12));
    CHECK(lo == 1 && hi == 6);
    /* n = 9: [x(2), x(8)] covers 1 - 2 (1 + 9)/512 = 0.9609. */
    CHECK(near(sl_median_ci(nine, 9, &lo, &hi), 1.0 - 20.0 / 512.0, 1e-12));
    CHECK(lo == 2 && hi == 8);
    /* n = 5: too few for 95%, so [min, max] and its true coverage. */
    CHECK(near(sl_median_ci(six, 5, &lo, &hi), 1.0 - 2.0 / 32.0, 1e-12));
    CHECK(lo == 1 && hi == 5);
}

/* The runs test: 12 values, 6 below their median and 6 above, give 7 runs
 * on average and a variance of 72 * 60 / (144 * 11) = 2.7273. */
static void runs_test(void)
{
    const double stretches[] = { 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3 };
    const double turns[] = { 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3 };
    const double thirds[] = { 1, 1, 1, 3, 3, 3, 1, 1, 1, 3, 3, 3 };
    const double with_median[] = { 1, 1, 1, 2, 3, 3, 3 };
    const double same[] = { 2, 2, 2, 2, 2, 2 };
    double sd = sqrt(72.0 * 60.0 / (144.0 * 11.0));
    CHECK(near(sl_runs_z(stretches, 12), (2.0 - 7.0) / sd, 1e-12));
    CHECK(near(sl_runs_z(turns, 12), (12.0 - 7.0) / sd, 1e-12));
    CHECK(near(sl_runs_z(thirds, 12), (4.0 - 7.0) / sd, 1e-12));
    CHECK(sl_runs_z(stretches, 12) <= SL_SHIFT_Z && sl_runs_z(thirds, 12) > SL_SHIFT_Z);
    /* The value at the median is left out: 3 below, 3 above, 2 runs:
     * E = 18 / 6 + 1 = 4, V = 18 * 12 / (36 * 5) = 1.2. */
    CHECK(near(sl_runs_z(with_median, 7), (2.0 - 4.0) / sqrt(1.2), 1e-12));
    CHECK(sl_runs_z(same, 6) == 0.0 && sl_runs_z(stretches, 1) == 0.0);
}

static void karp_flatt(void)
{
    CHECK(near(sl_karp_flatt(2.0, 2), 0.0, 1e-12));
    /* Amdahl with serial fraction 0.1 on 4 threads gives e = 0.1 back. */
    CHECK(near(sl_karp_flatt(1.0 / (0.1 + 0.9 / 4.0), 4), 0.1, 1e-12));
    CHECK(near(sl_karp_flatt(1.0, 8), 1.0, 1e-12));
}

static void mann_whitney(void)
{
    const double low3[] = { 1, 2, 3 }, high3[] = { 4, 5, 6 };
    const double odd3[] = { 1, 3, 5 }, even3[] = { 2, 4, 6 };
    /* Completely separated 3 vs 3: P(U = 0) = 1/C(6,3) = 1/20, two-sided. */
    CHECK(near(sl_mann_whitney_p(low3, 3, high3, 3), 0.1, 1e-12));
    CHECK(near(sl_mann_whitney_p(high3, 3, low3, 3), 0.1, 1e-12));
    /* Interleaved: U = 3, P(U <= 3) = 7/20 for 3 vs 3. */
    CHECK(near(sl_mann_whitney_p(odd3, 3, even3, 3), 0.7, 1e-12));
    /* 6 vs 6 separated: 2 / C(12,6) = 2/924 (the bench's default reps). */
    double a6[6], b6[6];
    for (int i = 0; i < 6; i++)
        a6[i] = 1.0 + i, b6[i] = 1.1 + i * 0.01 + 10.0;
    CHECK(near(sl_mann_whitney_p(a6, 6, b6, 6), 2.0 / 924.0, 1e-12));
    /* Large samples: the normal approximation, separated and identical. */
    double a30[30], b30[30];
    for (int i = 0; i < 30; i++)
        a30[i] = i, b30[i] = 100 + i;
    CHECK(sl_mann_whitney_p(a30, 30, b30, 30) < 1e-9);
    CHECK(near(sl_mann_whitney_p(a30, 30, a30, 30), 1.0, 1e-12));
    /* All tied: no evidence of any difference. */
    const double same[] = { 1, 1, 1 };
    CHECK(near(sl_mann_whitney_p(same, 3, same, 3), 1.0, 1e-12));
}

static void bootstrap(void)
{
    double a[6] = { 1.0, 1.1, 0.9, 1.05, 0.95, 1.0 }, b[6], lo, hi;
    for (int i = 0; i < 6; i++)
        b[i] = 2.0 * a[i];
    /* Every resample pairs the same indices' scale: B/A is exactly 2 only
     * when both resample medians come from matching values, so the
     * interval must contain 2 and stay within the samples' ratios. */
    sl_bootstrap_ratio(a, 6, b, 6, 4000, 1, &lo, &hi);
    CHECK(lo <= 2.0 && hi >= 2.0);
    CHECK(lo >= 2.0 * 0.9 / 1.1 && hi <= 2.0 * 1.1 / 0.9);
    /* The same seed gives the same interval. */
    double lo2, hi2;
    sl_bootstrap_ratio(a, 6, b, 6, 4000, 1, &lo2, &hi2);
    CHECK(lo == lo2 && hi == hi2);
    /* Constant samples: the ratio is exact. */
    const double one[] = { 1, 1, 1, 1 }, three[] = { 3, 3, 3, 3 };
    sl_bootstrap_ratio(one, 4, three, 4, 1000, 7, &lo, &hi);
    CHECK(lo == 3.0 && hi == 3.0);
}

int main(void)
{
    median_interval();
    runs_test();
    karp_flatt();
    mann_whitney();
    bootstrap();
    return CHECK_DONE();
}
