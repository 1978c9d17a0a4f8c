/* test_story.c - the report's reading of a run's timeline (report/story.c):
 * a stretch of time in which every configuration ran slower together is
 * found, with its size and place; a steady machine is not accused. And
 * its roofs (report/ceiling_report.c): a ceiling is the lower of the
 * compute and the memory roof, names which, and a rate past it by more
 * than 10% is marked "!" with its footnote; the bench probes only the
 * bandwidth roofs its rows stand under, and a roof probed at two vector
 * widths says which it came from. The suites are made by hand,
 * so the expected numbers are exact. And the page's tables (report/html.c)
 * take only a table's second line for its separator, as the console does. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceiling_report.h"
#include "check.h"
#include "html.h"
#include "story.h"

enum { CONFIGS = 20, REPS = 6 };

/* Repetition k of the run (k = config + CONFIGS * rep) starts at second k;
 * those starting in [slow_from, slow_to) take `slow` seconds, others 1. */
static void make_suite(sl_suite *s, sl_config *configs, double slow, double slow_from,
                       double slow_to)
{
    memset(s, 0, sizeof *s);
    memset(configs, 0, CONFIGS * sizeof *configs);
    s->configs = configs;
    s->count = CONFIGS;
    for (int c = 0; c < CONFIGS; c++) {
        sl_config *x = &configs[c];
        x->valid = 1;
        x->timed = REPS;
        x->median = 1.0;
        x->others_cpu = 0.01;
        for (int r = 0; r < REPS; r++) {
            double start = c + CONFIGS * r;
            x->start[r] = start;
            x->seconds[r] = start >= slow_from && start < slow_to ? slow : 1.0;
            x->others[r] = 0.005;
            x->window[r] = 1.0;
        }
    }
}

/* A one-rung kernel: 1 FMA per unit; a call of 1000 units moves 8000
 * bytes when it declares them. */
static double eight_bytes(const sl_problem *p)
{
    return 8.0 * (double)p->size;
}
static const sl_problem_def roof_compute = {
    .name = "compute", .work_unit = "units", .ceiling = SL_CEILING_FMA, .ceiling_ops = 1,
    .ceiling_why = "1 FMA per unit",
};
static const sl_problem_def roof_memory = {
    .name = "memory", .work_unit = "units", .ceiling = SL_CEILING_FMA, .ceiling_ops = 1,
    .ceiling_why = "1 FMA per unit", .bytes_moved = eight_bytes,
};
/* The same, its arrays (8 bytes a unit) held in a cache when small. */
static const sl_problem_def roof_cached = {
    .name = "cached", .work_unit = "units", .ceiling = SL_CEILING_FMA, .ceiling_ops = 1,
    .ceiling_why = "1 FMA per unit", .bytes_moved = eight_bytes, .bytes_held = eight_bytes,
};
static const sl_variant roof_variants[] = { { "scalar", NULL, 0, NULL, NULL, NULL } };

/* The headline of one configuration at `rate` units/s, in Markdown. */
static char *headline_sized(const sl_problem_def *def, const sl_ceilings *m, double rate,
                            int64_t size, sl_bound *bound, double *ceiling)
{
    sl_kernel k = { def, roof_variants, 1 };
    sl_config c;
    memset(&c, 0, sizeof c);
    c.kernel = &k;
    c.variant = &roof_variants[0];
    c.tree = "solutions";
    c.problem.size = size;
    c.valid = 1, c.timed = 6, c.threads_used = 1;
    c.outcome.work = (double)size;
    c.rate = rate, c.median = (double)size / rate, c.speedup = 1.0;
    sl_suite s = { .configs = &c, .count = 1 };
    *bound = sl_config_bound(m, &c);
    *ceiling = sl_config_ceiling(m, &c);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sl_story_headline_md(f, &s, m);
    fclose(f);
    return text;
}

static char *headline_at(const sl_problem_def *def, const sl_ceilings *m, double rate,
                         sl_bound *bound, double *ceiling)
{
    return headline_sized(def, m, rate, 1000, bound, ceiling);
}

static void roofs(void)
{
    sl_ceilings m;
    memset(&m, 0, sizeof m);
    m.measured = 1;
    m.per_core[SL_CEILING_FMA] = 1e9;      /* 1e9 units/s on one core */
    m.memory.measured = 1;
    m.memory.threads[0] = 1, m.memory.threads[1] = 2;
    m.memory.bytes_per_s[0] = 4e9;         /* 4e9 / 8 bytes = 5e8 units/s */
    m.memory.bytes_per_s[1] = 6e9;
    sl_bound b;
    double ceil;
    /* No bytes declared: the compute roof, 1e9. 1.05e9 is "~100%". */
    char *t = headline_at(&roof_compute, &m, 1.05e9, &b, &ceil);
    CHECK(b == SL_BOUND_COMPUTE && ceil == 1e9);
    CHECK(strstr(t, "~100%") != NULL && strstr(t, "! above") == NULL);
    free(t);
    /* 8 bytes a unit: the memory roof, 5e8, is the lower; named. */
    t = headline_at(&roof_memory, &m, 4e8, &b, &ceil);
    CHECK(b == SL_BOUND_MEMORY && ceil == 5e8);
    CHECK(strstr(t, "80%") != NULL && strstr(t, "memory: 3.2 of the 4.0 GB/s") != NULL);
    free(t);
    /* 150% of it: marked, with the footnote. */
    t = headline_at(&roof_memory, &m, 7.5e8, &b, &ceil);
    CHECK(strstr(t, "150%!") != NULL && strstr(t, "! above the ceiling") != NULL);
    free(t);
    /* Arrays that fit a core's L2 (1 MiB; no L1 measured): held against
     * its roof, 6.4e9 / 8 = 8e8 units/s, below the compute roof; arrays
     * past it, against the memory's again. */
    m.memory.cache[1].cache_bytes = 1 << 20, m.memory.cache[1].shared_by = 1;
    m.memory.cache[1].bytes_per_s[0] = 6.4e9, m.memory.cache[1].bytes_per_s[1] = 12e9;
    t = headline_sized(&roof_cached, &m, 4e8, 1000, &b, &ceil);
    CHECK(b == SL_BOUND_MEMORY && ceil == 8e8);
    CHECK(strstr(t, "| 50% |") != NULL &&
          strstr(t, "L2 bandwidth: 3.2 of the 6.4 GB/s measured there (its 8 KiB live in L2)"));
    free(t);
    t = headline_sized(&roof_cached, &m, 4e8, 1 << 20, &b, &ceil);
    CHECK(b == SL_BOUND_MEMORY && ceil == 5e8 && strstr(t, "memory: 3.2 of the 4.0 GB/s"));
    free(t);
    /* Without the memory probe, the compute roof again. */
    m.memory.measured = 0;
    t = headline_at(&roof_memory, &m, 4e8, &b, &ceil);
    CHECK(b == SL_BOUND_COMPUTE && ceil == 1e9);
    free(t);
}

/* A roof probed at two widths (the divide's and the xor's) says which
 * won and the other's figure, in the summary and in ceiling.csv's lanes. */
static void roofs_at_two_widths(const sl_ceilings *m, const sl_suite *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sl_print_ceilings(f, m, s);
    fclose(f);
    CHECK_CONTAINS(text, "divide 2.08 G lane-ops/s in 4-lane vectors (1.93 G in 8-lane "
                         "ones; spread 1%)");
    CHECK_CONTAINS(text, "vector instruction 66.6 G lane-ops/s (49.9 G in 4-lane "
                         "vectors; spread 0%)");
    CHECK_CONTAINS(text, "FMA 61.5 G lane-ops/s (spread 0%)");
    free(text);
    char dir[] = "/tmp/speedlab-test-story.XXXXXX", path[64], csv[2048];
    CHECK(mkdtemp(dir) != NULL && sl_write_ceilings(dir, m, s) == 0);
    snprintf(path, sizeof path, "%s/ceiling.csv", dir);
    check_read_file(path, csv, sizeof csv);
    CHECK_CONTAINS(csv, "\ndivide,4,1,2.08e+09,");
    CHECK_CONTAINS(csv, "\nvector instruction,8,1,6.66e+10,");
    CHECK_CONTAINS(csv, "\nFMA,8,1,6.15e+10,");
    unlink(path);
    snprintf(path, sizeof path, "%s/evidence.csv", dir);
    unlink(path);
    rmdir(dir);
}

/* The bench probes only the bandwidth roofs its rows stand under: none
 * for a kernel that declares no bytes, the memory's for one without its
 * arrays' size or with arrays past the last cache, the caches' for arrays
 * that fit one; and the summary says which it left out. */
static void probed_roofs(void)
{
    sl_kernel kernels[3] = { { &roof_compute, roof_variants, 1 },
                             { &roof_memory, roof_variants, 1 },
                             { &roof_cached, roof_variants, 1 } };
    sl_config c[2];
    memset(c, 0, sizeof c);
    for (int i = 0; i < 2; i++)
        c[i].variant = &roof_variants[0], c[i].threads_used = 1, c[i].problem.size = 1000;
    sl_suite s = { .configs = c, .count = 1 };
    c[0].kernel = &kernels[0];
    CHECK(sl_suite_memory_roofs(&s) == 0);
    c[0].kernel = &kernels[1];
    CHECK(sl_suite_memory_roofs(&s) == SL_ROOF_MEMORY);
    /* 8 KB of arrays: in a cache wherever sysfs names one that large. */
    sl_bandwidth sizes;
    sl_bandwidth_sizes(&sizes);
    int64_t largest = 0;
    for (int level = 0; level < SL_CACHE_LEVELS; level++)
        largest = sizes.cache[level].cache_bytes > largest ? sizes.cache[level].cache_bytes
                                                           : largest;
    c[0].kernel = &kernels[2];
    CHECK(sl_suite_memory_roofs(&s) == (largest >= 8000 ? SL_ROOF_CACHES : SL_ROOF_MEMORY));
    /* Past the last cache, and beside arrays that fit: both. */
    c[1].kernel = &kernels[2];
    c[1].problem.size = largest + 1;
    CHECK(sl_suite_memory_roofs(&s) == (largest >= 8000 ? SL_ROOF_CACHES : SL_ROOF_MEMORY));
    s.count = 2;
    CHECK(sl_suite_memory_roofs(&s) ==
          (largest >= 8000 ? SL_ROOF_MEMORY | SL_ROOF_CACHES : SL_ROOF_MEMORY));

    sl_ceilings m;
    memset(&m, 0, sizeof m);
    m.measured = 1, m.lanes = 8, m.half_lanes = 4, m.memory.measured = 1;
    /* A 2-core Intel Xeon VM's (family 6 model 167) probes. */
    m.per_core[SL_CEILING_DIVIDE] = m.by_width[SL_CEILING_DIVIDE][1] = 2.08e9;
    m.by_width[SL_CEILING_DIVIDE][0] = 1.93e9;
    m.spread[SL_CEILING_DIVIDE] = 0.01;
    m.per_core[SL_CEILING_VECTOR] = m.by_width[SL_CEILING_VECTOR][0] = 66.6e9;
    m.by_width[SL_CEILING_VECTOR][1] = 49.9e9;
    m.per_core[SL_CEILING_FMA] = 61.5e9;
    for (unsigned roofs = SL_ROOF_MEMORY; roofs <= (SL_ROOF_MEMORY | SL_ROOF_CACHES); roofs++) {
        m.memory.roofs = roofs;
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        s.count = 0;
        sl_print_ceilings(f, &m, &s);
        fclose(f);
        CHECK((strstr(text, "caches' roofs were not probed") != NULL) == (roofs == SL_ROOF_MEMORY));
        CHECK((strstr(text, "memory's bandwidth was not probed") != NULL) ==
              (roofs == SL_ROOF_CACHES));
        free(text);
    }
    roofs_at_two_widths(&m, &s);
}

/* Each cache roof is measured over half its level, at most 4x the level
 * below: a 2-core VM's 48 KiB L1 and 2 MiB L2 each core's own, and a
 * 480 MiB L3 shared by both, on 1 and 2 threads; then a small L3. */
static void cache_probe_sets(void)
{
    sl_bandwidth b;
    memset(&b, 0, sizeof b);
    b.cache[0] = (sl_cache_roof){ .cache_bytes = 48 << 10, .shared_by = 1 };
    b.cache[1] = (sl_cache_roof){ .cache_bytes = 2 << 20, .shared_by = 1 };
    b.cache[2] = (sl_cache_roof){ .cache_bytes = INT64_C(480) << 20, .shared_by = 2 };
    CHECK(sl_cache_probe_bytes(&b, 1, 1) == 24 << 10);
    CHECK(sl_cache_probe_bytes(&b, 1, 2) == 48 << 10);
    CHECK(sl_cache_probe_bytes(&b, 2, 1) == 192 << 10);
    CHECK(sl_cache_probe_bytes(&b, 2, 2) == 384 << 10);
    CHECK(sl_cache_probe_bytes(&b, 3, 1) == 8 << 20);
    CHECK(sl_cache_probe_bytes(&b, 3, 2) == 16 << 20);
    /* 4 MiB of L3: its half is below 4x the L2. An L2 sysfs does not
     * name: half the L3. */
    b.cache[2].cache_bytes = 4 << 20;
    CHECK(sl_cache_probe_bytes(&b, 3, 1) == 2 << 20);
    b.cache[1].cache_bytes = 0;
    b.cache[2].cache_bytes = INT64_C(480) << 20;
    CHECK(sl_cache_probe_bytes(&b, 3, 2) == INT64_C(240) << 20);
}

/* An expert rung built without the instructions it needs runs the rung
 * below's code: labelled as a fallback, and held against the kernel's own
 * limit (1 FMA a unit: 50% at 5e8), not the expert's (4: 200%). */
static const sl_problem_def roof_expert = {
    .name = "expertise", .work_unit = "units", .ceiling = SL_CEILING_FMA, .ceiling_ops = 1,
    .ceiling_why = "1 FMA per unit", .expert_ceiling = SL_CEILING_FMA,
    .expert_ceiling_ops = 4, .expert_ceiling_why = "4 FMAs per unit",
};
static void fallback_rung(void)
{
    static const sl_variant v[] = {
        { "expert", NULL, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT | SL_FALLBACK, NULL,
          NULL, NULL } };
    sl_ceilings m;
    memset(&m, 0, sizeof m);
    m.measured = 1;
    m.per_core[SL_CEILING_FMA] = 1e9;
    sl_kernel k = { &roof_expert, v, 1 };
    sl_config c;
    memset(&c, 0, sizeof c);
    c.kernel = &k, c.variant = &v[0], c.tree = "solutions";
    c.problem.size = 1000, c.problem.threads = 1;
    c.valid = 1, c.timed = 6, c.threads_used = 1;
    c.outcome.work = 1000.0;
    c.rate = 5e8, c.median = 2e-6, c.speedup = 1.0;
    sl_suite s = { .configs = &c, .count = 1 };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sl_story_headline_md(f, &s, &m);
    fclose(f);
    CHECK(strstr(text, "expert (fallback)") != NULL);
    CHECK(strstr(text, "fallback: this build lacks the instructions") != NULL);
    CHECK(strstr(text, "50%") != NULL && strstr(text, "200%") == NULL);
    free(text);
}

/* A data row of dashes (a cell "---") is a row, not a second separator. */
static void page_tables(void)
{
    static const char md[] = "| a | b |\n|---|--:|\n|---| 1 |\n| c | 2 |\n";
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sl_html_markdown(f, md, sizeof md - 1, NULL);
    fclose(f);
    int rows = 0;
    for (const char *p = text; (p = strstr(p, "<tr>")) != NULL; p++)
        rows++;
    CHECK_EQ_LL(rows, 3);
    CHECK(strstr(text, "<th>a</th>") != NULL && strstr(text, ">---</td>") != NULL);
    free(text);
}

int main(void)
{
    page_tables();
    fallback_rung();
    roofs();
    probed_roofs();
    cache_probe_sets();
    sl_suite s;
    sl_config configs[CONFIGS];
    sl_drift d;

    /* Steady: no slowdown found. */
    make_suite(&s, configs, 1.0, 0, 0);
    CHECK(sl_suite_drift(&s, &d) == 0);
    CHECK(d.slowest == 1.0);

    /* 20% slower from second 40 to 80 (2 of each configuration's 6
     * repetitions, so every median stays 1): found, 1.2, its window (24
     * repetitions, in steps of 12) reaching into [40, 80). */
    make_suite(&s, configs, 1.2, 40, 80);
    CHECK(sl_suite_drift(&s, &d) == 1);
    CHECK(d.slowest == 1.2);
    CHECK(d.from >= 40 - 12 && d.from < 80 && d.to >= 40 && d.to < 80 + 12);
    CHECK(d.others == 0.005);
    /* ... and said among the warnings, in whole percent. */
    sl_kernel k = { &roof_compute, roof_variants, 1 };
    for (int c = 0; c < CONFIGS; c++) {
        configs[c].kernel = &k, configs[c].variant = &roof_variants[0];
        configs[c].tree = "solutions", configs[c].problem.size = 1000 + c;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    sl_story_warnings(f, &s, NULL);
    fclose(f);
    CHECK(strstr(text, "**the machine itself slowed down**") != NULL &&
          strstr(text, "ran 20% slower") != NULL);
    free(text);

    /* 3% slower: below the 5% that is worth a warning. */
    make_suite(&s, configs, 1.03, 40, 80);
    CHECK(sl_suite_drift(&s, &d) == 0);
    return CHECK_DONE();
}
