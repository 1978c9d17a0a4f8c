/* test_trend.c - the history's step rule (bench/history/trend.h), held to
 * planted series: a series 50% slower with its intervals apart is a slower
 * step at the run that brought it; intervals that overlap, or a change
 * under the threshold, are not steps; a faster step is marked, not counted;
 * points of different series are never compared, however far apart. And
 * make progress's line for one exercise (bench/history/progress.h).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "progress.h"
#include "trend.h"

/* A point of series `variant` (host box, tree solutions, kernel k,
 * 2 threads, size 1000) at `run`: median m seconds, interval m +- half. */
static sl_trend_point at(const char *variant, int run, double m, double half)
{
    sl_trend_point q;
    memset(&q, 0, sizeof q);
    snprintf(q.host, sizeof q.host, "box");
    snprintf(q.tree, sizeof q.tree, "solutions");
    snprintf(q.kernel, sizeof q.kernel, "k");
    snprintf(q.variant, sizeof q.variant, "%s", variant);
    snprintf(q.commit, sizeof q.commit, "c%d", run);
    q.threads = 2;
    q.size = 1000;
    q.run = run;
    q.median = m;
    q.lo = m - half;
    q.hi = m + half;
    return q;
}

static void check_planted(void)
{
    /* As sl_trend_load gives them: series by series, each in run order. */
    sl_trend_point p[] = {
        at("noisy", 1, 1.0, 0.2), at("noisy", 2, 1.3, 0.2),    /* intervals overlap */
        at("slowed", 1, 1.0, 0.05), at("slowed", 2, 1.0, 0.05),
        at("slowed", 3, 1.5, 0.05), at("slowed", 4, 1.5, 0.05), /* slower at run 3 */
        at("small", 1, 1.0, 0.01), at("small", 2, 1.05, 0.01), /* apart, but 5% */
        at("sped", 1, 2.0, 0.05), at("sped", 2, 1.0, 0.05),    /* faster at run 2 */
    };
    size_t n = sizeof p / sizeof p[0];
    CHECK_EQ_LL(sl_trend_find_steps(p, n, 0.10), 1);
    for (size_t i = 0; i < n; i++) {
        int want = 0;
        if (strcmp(p[i].variant, "slowed") == 0 && p[i].run == 3)
            want = 1;
        if (strcmp(p[i].variant, "sped") == 0 && p[i].run == 2)
            want = -1;
        CHECK_EQ_LL(p[i].step, want);
    }
    /* The threshold is a factor over the median: 60% hides the 1.5x step,
     * 4% shows the 5% one. */
    for (size_t i = 0; i < n; i++)
        p[i].step = 0;
    CHECK_EQ_LL(sl_trend_find_steps(p, n, 0.60), 0);
    for (size_t i = 0; i < n; i++)
        p[i].step = 0;
    CHECK_EQ_LL(sl_trend_find_steps(p, n, 0.04), 2);
}

static void check_series(void)
{
    sl_trend_point a = at("scalar", 1, 1.0, 0.01), b = a;
    CHECK(sl_trend_same_series(&a, &b));
    b.threads = 1;
    CHECK(!sl_trend_same_series(&a, &b));
    b = a, b.size = 2000;
    CHECK(!sl_trend_same_series(&a, &b));
    b = a, snprintf(b.host, sizeof b.host, "other");
    CHECK(!sl_trend_same_series(&a, &b));
    /* A series ends where the next begins: a slow first point of the next
     * series is not a step of the one before. */
    sl_trend_point p[] = { at("fast", 1, 1.0, 0.01), at("slow", 1, 9.0, 0.01) };
    CHECK_EQ_LL(sl_trend_find_steps(p, 2, 0.10), 0);
    CHECK_EQ_LL(p[1].step, 0);
    char name[160];
    sl_trend_series_name(&a, name, sizeof name);
    CHECK(strcmp(name, "solutions scalar x2") == 0);
    a.threads = 0;
    sl_trend_series_name(&a, name, sizeof name);
    CHECK(strcmp(name, "solutions scalar") == 0);
}

/* make progress's line: speedups in order, WRONG runs merged, busy ones
 * apart from them, the count. */
static void check_progress_line(void)
{
    sl_progress_row r[] = {
        { "k", "simd", 0, 1.04, 0, 0 }, { "k", "simd", 0, 4.2, 0, 0 },
        { "k", "simd", 0, 0.0, 0, 0 }, { "k", "simd", 0, 0.0, 0, 0 },
        { "k", "simd", 0, 1.94, 0, 0 }, { "k", "simd", 0, 0.0, 0, 0 },
    };
    char line[256];
    sl_progress_describe(r, 6, line, sizeof line);
    CHECK(strcmp(line, "1.0x -> 4.2x -> WRONG twice -> 1.9x -> WRONG (6 runs)") == 0);
    sl_progress_describe(&r[2], 2, line, sizeof line);
    CHECK(strcmp(line, "WRONG twice (2 runs)") == 0);
    sl_progress_row wrong[3] = { { "k", "v", 2, 0, 0, 0 }, { "k", "v", 2, 0, 0, 0 },
                                 { "k", "v", 2, 0, 0, 0 } };
    sl_progress_describe(wrong, 3, line, sizeof line);
    CHECK(strcmp(line, "WRONG 3 times (3 runs)") == 0);
    sl_progress_describe(r, 1, line, sizeof line);
    CHECK(strcmp(line, "1.0x (1 run)") == 0);
    /* Right with no speed verdict (a busy machine): said so, never WRONG. */
    sl_progress_row busy[4] = { { "k", "v", 2, 0, 1, 0 }, { "k", "v", 2, 0, 1, 0 },
                                { "k", "v", 2, 0, 0, 0 }, { "k", "v", 2, 1.9, 0, 0 } };
    sl_progress_describe(busy, 4, line, sizeof line);
    CHECK(strcmp(line, "busy, no speed verdict twice -> WRONG -> 1.9x (4 runs)") == 0);
    CHECK(sl_progress_same_exercise(&wrong[0], &wrong[1]));
    CHECK(!sl_progress_same_exercise(&r[0], &wrong[0]));
    wrong[1].threads = 1;
    CHECK(!sl_progress_same_exercise(&wrong[0], &wrong[1]));
}

/* A step into or out of a disturbed point is shown, not judged: no step,
 * unjudged set, not counted; a dirty point names its uncommitted changes. */
static void check_disturbed_and_dirty(void)
{
    sl_trend_point p[] = { at("into", 1, 1.0, 0.05), at("into", 2, 1.5, 0.05),
                           at("outof", 1, 1.0, 0.05), at("outof", 2, 1.5, 0.05),
                           at("dirty", 1, 1.0, 0.05), at("dirty", 2, 1.5, 0.05) };
    p[1].disturbed = 1;
    p[2].disturbed = 1;
    p[5].dirty = 1;
    CHECK_EQ_LL(sl_trend_find_steps(p, 6, 0.10), 1);
    CHECK(p[1].step == 0 && p[1].unjudged && p[3].step == 0 && p[3].unjudged);
    CHECK(p[5].step == 1 && !p[5].unjudged);
    char by[96];
    sl_trend_commit_label(&p[5], by, sizeof by);
    CHECK(strcmp(by, "uncommitted changes on c2") == 0);
    sl_trend_commit_label(&p[4], by, sizeof by);
    CHECK(strcmp(by, "c1") == 0);
}

int main(void)
{
    check_planted();
    check_disturbed_and_dirty();
    check_series();
    check_progress_line();
    return CHECK_DONE();
}
