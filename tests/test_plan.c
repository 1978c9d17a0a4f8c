/* test_plan.c - the bench's plan (bench/measure/bench_plan.h), decided
 * before anything runs: each default where an option is not given, the
 * weak study beside the strong one, a filter that keeps nothing refused,
 * the deadline a time budget sets, and the exit code after the timing;
 * and the participant's lesson (bench/measure/lesson_plan.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bench_plan.h"
#include "check.h"
#include "exhibits.h"
#include "exitcodes.h"
#include "lesson_plan.h"

extern const sl_kernel *const solutions_kernels[];
extern const sl_kernel *const exercises_kernels[];

/* A program's options from words, as it parses them. */
static int parse_as(sl_cli *cli, unsigned program, const char *const *words, int n)
{
    char *argv[16] = { "speedlab-test" };
    for (int i = 0; i < n; i++)
        argv[i + 1] = (char *)words[i];
    return sl_cli_parse(cli, n + 1, argv, 1, program == SL_CLI_RUNNER, program, "", "");
}

static int parse(sl_cli *cli, const char *const *words, int n)
{
    return parse_as(cli, SL_CLI_BENCH, words, n);
}

static void check_settings(void)
{
    sl_cli cli;
    sl_bench_settings s;
    CHECK(parse(&cli, NULL, 0) == 0);
    sl_bench_settings_of(&cli, &s);
    CHECK_EQ_LL(s.reps, SL_CI_MIN_REPS);        /* enough for the 95% interval */
    CHECK(s.min_time == 0.1 && s.target == 0.05 && s.budget == 600.0);
    CHECK_EQ_LL(s.retry_busy, 2);
    const char *quick[] = { "--quick" };
    CHECK(parse(&cli, quick, 1) == 0);
    sl_bench_settings_of(&cli, &s);
    CHECK(s.min_time == 0.05 && s.target == 0.0);   /* quick asks for speed */
    CHECK_EQ_LL(s.reps, SL_CI_MIN_REPS);
    const char *few[] = { "--reps", "3", "--budget", "2" };
    CHECK(parse(&cli, few, 4) == 0);
    sl_bench_settings_of(&cli, &s);
    CHECK(s.reps == 3 && s.target == 0.0 && s.budget == 120.0);
    const char *target[] = { "--reps", "3", "--target", "2" };
    CHECK(parse(&cli, target, 4) == 0);
    sl_bench_settings_of(&cli, &s);
    CHECK(s.target == 0.02);                        /* given: kept */
    /* The deadline keeps back what follows the timing and a second probe. */
    s.budget = 600.0;
    CHECK(sl_bench_deadline(&s, 100.0, 5.0) == 100.0 + 600.0 - SL_AFTER_TIMING_SECONDS - 5.0);
    s.budget = 0.0;
    CHECK(sl_bench_deadline(&s, 100.0, 5.0) == 0.0);
}

static size_t count_weak(const sl_suite *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++)
        n += s->configs[i].weak != 0;
    return n;
}

static void check_studies(void)
{
    char why[512];
    sl_cli cli;
    sl_suite s = { 0 };
    const char *words[] = { "--kernel", "pi", "--threads", "1,2", "--quick" };
    CHECK(parse(&cli, words, 5) == 0);
    CHECK(sl_bench_plan(&s, &cli, "test", solutions_kernels, why, sizeof why) == 0);
    /* Weak points only where two thread counts have a core each. */
    if (sl_cores_available() >= 2)
        CHECK(count_weak(&s) >= 2);
    else
        CHECK_EQ_LL(count_weak(&s), 0);
    for (size_t i = 0; i < s.count; i++)
        if (s.configs[i].weak)
            CHECK((s.configs[i].variant->flags & (SL_USES_THREADS | SL_USES_SIMD)) ==
                  (SL_USES_THREADS | SL_USES_SIMD));
    sl_suite_free(&s);
    memset(&s, 0, sizeof s);
    const char *no_weak[] = { "--kernel", "pi", "--threads", "1,2", "--no-weak" };
    CHECK(parse(&cli, no_weak, 5) == 0);
    CHECK(sl_bench_plan(&s, &cli, "test", solutions_kernels, why, sizeof why) == 0);
    CHECK_EQ_LL(count_weak(&s), 0);

    /* The filter: none kept is refused before anything runs. */
    sl_bench_settings set;
    sl_bench_settings_of(&cli, &set);
    static const struct { const char *flag; int ok; const char *says; } f[] = {
        { "--benchmark_filter=pi/simd", 0, "" },
        { "--benchmark_filter=no_such_thing", -1, "matches none of the" },
        { "--benchmark_filter=-.", -1, "matches none of the" },
        { "--benchmark_filter=(", -1, "is not a regular expression" },
        { "--benchmark_filter=all", 0, "" },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        const char *w[] = { "--kernel", "pi", f[i].flag };
        CHECK(parse(&cli, w, 3) == 0);
        why[0] = '\0';
        CHECK_EQ_LL(sl_bench_check_filter(&s, &cli, &set, why, sizeof why), f[i].ok);
        CHECK_CONTAINS(why, f[i].says);
    }

    /* After the timing: the code that ends the run, or -1 to go on. */
    CHECK_EQ_LL(sl_bench_after_timing(&s, &set, 0, 1, 0, why, sizeof why), -1);
    CHECK_EQ_LL(sl_bench_after_timing(&s, &set, 0, 0, 2, why, sizeof why), 130);
    CHECK_CONTAINS(why, "interrupted before anything was timed");
    CHECK_EQ_LL(sl_bench_after_timing(&s, &set, 0, 0, 0, why, sizeof why), SL_EXIT_USAGE);
    CHECK_EQ_LL(sl_bench_after_timing(&s, &set, s.count, 0, 0, why, sizeof why), -1);
    s.configs[0].valid = 1;
    s.configs[0].timed = set.reps - 1;
    CHECK_EQ_LL(sl_bench_after_timing(&s, &set, 0, 1, 0, why, sizeof why), SL_EXIT_RUNTIME);
    CHECK_CONTAINS(why, "repetitions; nothing is published");
    sl_suite_free(&s);
}

/* The expert rung alone: planned, and no weak study, which times the
 * ladder's rungs only (it was refused as "unknown variant 'expert'"). */
static void check_expert_alone(void)
{
    char why[512];
    sl_cli cli;
    sl_suite s = { 0 };
    const char *expert[] = { "--kernel", "pi", "--threads", "1,2", "--variant", "expert" };
    CHECK(parse(&cli, expert, 6) == 0);
    CHECK(sl_bench_plan(&s, &cli, "test", solutions_kernels, why, sizeof why) == 0);
    CHECK(s.count >= 2);
    CHECK_EQ_LL(count_weak(&s), 0);
    sl_suite_free(&s);
}

/* make <lesson>: companions after the kernel named, both trees (or one,
 * or an exhibit alone), the participant's short timing. */
static void check_lesson(void)
{
    const char *names[8];
    CHECK_EQ_LL(sl_lesson_kernels(solutions_kernels, "triad", names, 8), 2);
    CHECK(strcmp(names[0], "triad") == 0 && strcmp(names[1], "triad_cache") == 0);
    CHECK_EQ_LL(sl_lesson_kernels(solutions_kernels, "pi", names, 8), 1);
    char why[512];
    sl_cli cli;
    const char *words[] = { "--threads", "1" };
    CHECK(parse_as(&cli, SL_CLI_RUNNER, words, 2) == 0);
    const sl_lesson_trees trees = { exercises_kernels, solutions_kernels, sl_exhibits() };
    sl_suite s = { 0 };
    CHECK(sl_lesson_plan(&s, &cli, "pi", &trees, why, sizeof why) == 0);
    size_t mine = 0;
    for (size_t i = 0; i < s.count; i++)
        mine += strcmp(s.configs[i].tree, "exercises") == 0;
    CHECK(mine > 0 && mine < s.count);            /* both trees, the participant's first */
    CHECK(strcmp(s.configs[0].tree, "exercises") == 0);
    sl_suite_free(&s);
    memset(&s, 0, sizeof s);
    CHECK(sl_lesson_plan(&s, &cli, sl_exhibits()[0]->problem->name, &trees, why,
                         sizeof why) == 0);
    for (size_t i = 0; i < s.count; i++)
        CHECK(strcmp(s.configs[i].tree, "exhibits") == 0);
    sl_suite_free(&s);
    sl_timing t = sl_lesson_timing(&cli);
    CHECK(t.reps == 3 && t.min_time == 0.1 && t.retry_busy == 1);
}

int main(void)
{
    check_settings();
    check_studies();
    check_expert_alone();
    check_lesson();
    return CHECK_DONE();
}
