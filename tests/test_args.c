/* test_args.c - strict parsing refuses what people mistype and accepts what
 * they mean (common/args.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "check.h"

static char why[512];

/* Parse text; return 1 when it was accepted and equals want. */
static int accepts(const char *text, int64_t want)
{
    int64_t v = -42;
    return sl_parse_i64("--size", text, 1, 1000000000000LL, &v, why, sizeof why) == 0 &&
           v == want;
}

static int refuses(const char *text)
{
    int64_t v = -42;
    int rc = sl_parse_i64("--size", text, 1, 1000000000000LL, &v, why, sizeof why);
    return rc == -1 && v == -42 && strstr(why, "--size") != NULL;
}

/* Parse a schedule; return 1 when accepted as (kind, chunk). */
static int schedule_is(const char *text, sl_schedule_kind kind, int chunk)
{
    sl_schedule s = { SL_SCHED_DEFAULT, -7 };
    return sl_parse_schedule("--schedule", text, &s, why, sizeof why) == 0 &&
           s.kind == kind && s.chunk == chunk;
}

static int schedule_refused(const char *text)
{
    sl_schedule s = { SL_SCHED_DEFAULT, -7 };
    return sl_parse_schedule("--schedule", text, &s, why, sizeof why) == -1 &&
           s.kind == SL_SCHED_DEFAULT && s.chunk == -7 && strstr(why, "--schedule");
}

static void test_schedules(void)
{
    char name[32];
    CHECK(schedule_is("static", SL_SCHED_STATIC, 0));
    CHECK(schedule_is("static,1", SL_SCHED_STATIC, 1));
    CHECK(schedule_is("dynamic,64", SL_SCHED_DYNAMIC, 64));
    CHECK(schedule_is("guided", SL_SCHED_GUIDED, 0));
    CHECK(schedule_refused("auto"));
    CHECK_CONTAINS(why, "not a schedule");
    CHECK(schedule_refused(""));
    CHECK(schedule_refused("Static"));
    CHECK(schedule_refused("static,"));
    CHECK(schedule_refused("static,0"));
    CHECK(schedule_refused("static,-1"));
    CHECK(schedule_refused("static,1x"));
    CHECK(schedule_refused("dynamic,99999999999"));
    CHECK(schedule_refused("staticx"));
    sl_schedule_name((sl_schedule){ SL_SCHED_STATIC, 1 }, name, sizeof name);
    CHECK_CONTAINS(name, "static,1");
    sl_schedule_name((sl_schedule){ SL_SCHED_GUIDED, 0 }, name, sizeof name);
    CHECK(strcmp(name, "guided") == 0);
}

static void test_numbers(void)
{
    CHECK(accepts("1", 1));
    CHECK(accepts("400000000", 400000000));
    CHECK(accepts("4e8", 400000000));
    CHECK(accepts("+12", 12));
    CHECK(accepts("1000000000000", 1000000000000LL));
    CHECK(refuses("abc"));
    CHECK_CONTAINS(why, "'abc' is not a whole number");
    CHECK(refuses("12abc"));
    CHECK(refuses("-1"));
    CHECK_CONTAINS(why, "negative");
    CHECK(refuses("0"));
    CHECK_CONTAINS(why, "out of range");
    CHECK(refuses(""));
    CHECK_CONTAINS(why, "missing value");
    CHECK(refuses("1000000000001"));
    CHECK(refuses("99999999999999999999999"));
    CHECK(refuses("9e99"));
    CHECK(refuses("1.5"));
    CHECK(refuses("1e"));
    CHECK(refuses(" 12"));
    CHECK(refuses("12 "));
    CHECK(refuses("0x10"));
}

static void test_thread_lists(void)
{
    int t[SL_MAX_THREAD_COUNTS], n = -1;
    CHECK(sl_parse_thread_list("--threads", "1,2,4", t, SL_MAX_THREAD_COUNTS, &n, why,
                               sizeof why) == 0);
    CHECK_EQ_LL(n, 3);
    CHECK_EQ_LL(t[2], 4);
    CHECK(sl_parse_thread_list("--threads", "3", t, SL_MAX_THREAD_COUNTS, &n, why,
                               sizeof why) == 0);
    CHECK_EQ_LL(n, 1);
    static const char *const bad[] = { "", "0", "-3", "abc", "4abc", "1,,2", "1,",
                                       ",1", "2,2", "99999999999", "1025" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        CHECK(sl_parse_thread_list("--threads", bad[i], t, SL_MAX_THREAD_COUNTS, &n,
                                   why, sizeof why) == -1);
        CHECK_CONTAINS(why, "--threads");
    }
    CHECK(sl_parse_thread_list("--threads", "1,2,3", t, 2, &n, why, sizeof why) == -1);
}

static void test_nearest(void)
{
    static const char *const names[] = { "scalar", "simd", "threads",
                                         "threads_simd", "gpu" };
    CHECK(sl_nearest("smid", names, 5) == names[1]);
    CHECK(sl_nearest("thread", names, 5) == names[2]);
    CHECK(sl_nearest("GPU", names, 5) == names[4]);
    CHECK(sl_nearest("mandelbrot", names, 5) == NULL);
}

/* Set one variable, check the verdict, unset it again. */
static int env_ok(const char *name, const char *value)
{
    setenv(name, value, 1);
    int rc = sl_check_omp_env(why, sizeof why);
    unsetenv(name);
    return rc == 0;
}

static void test_omp_env(void)
{
    unsetenv("OMP_NUM_THREADS");
    unsetenv("OMP_PROC_BIND");
    unsetenv("OMP_DYNAMIC");
    unsetenv("OMP_THREAD_LIMIT");
    unsetenv("OMP_PLACES");
    unsetenv("OMP_WAIT_POLICY");
    CHECK(sl_check_omp_env(why, sizeof why) == 0);
    CHECK(env_ok("OMP_NUM_THREADS", "4"));
    CHECK(env_ok("OMP_NUM_THREADS", "4,2"));
    CHECK(!env_ok("OMP_NUM_THREADS", "abc"));
    CHECK_CONTAINS(why, "OMP_NUM_THREADS");
    CHECK(!env_ok("OMP_NUM_THREADS", "0"));
    CHECK(!env_ok("OMP_NUM_THREADS", "-3"));
    CHECK(!env_ok("OMP_NUM_THREADS", "4abc"));
    CHECK(!env_ok("OMP_NUM_THREADS", "99999999999"));
    CHECK(!env_ok("OMP_NUM_THREADS", ""));
    CHECK(env_ok("OMP_PROC_BIND", "close"));
    CHECK(env_ok("OMP_PROC_BIND", "spread,close"));
    CHECK(!env_ok("OMP_PROC_BIND", "bogus"));
    CHECK_CONTAINS(why, "OMP_PROC_BIND: 'bogus'");
    CHECK(!env_ok("OMP_PROC_BIND", "close,"));
    CHECK(!env_ok("OMP_DYNAMIC", "maybe"));
    CHECK(env_ok("OMP_PLACES", "cores"));
    CHECK(env_ok("OMP_PLACES", "THREADS(4)"));
    CHECK(env_ok("OMP_PLACES", "{0,1},{2,3}"));
    CHECK(env_ok("OMP_PLACES", "{0:2}:4:2"));
    CHECK(env_ok("OMP_PLACES", "{0}:8:-1, !{3}"));
    CHECK(env_ok("OMP_PLACES", "0,1,2"));
    CHECK(env_ok("OMP_PLACES", "0:4"));
    CHECK(!env_ok("OMP_PLACES", "bogus"));
    CHECK_CONTAINS(why, "OMP_PLACES: 'bogus'");
    CHECK(!env_ok("OMP_PLACES", "cores(x)"));
    CHECK(!env_ok("OMP_PLACES", "{0,1"));
    CHECK(!env_ok("OMP_PLACES", "{0},"));
    CHECK(!env_ok("OMP_PLACES", ""));
    CHECK(env_ok("OMP_WAIT_POLICY", "passive"));
    CHECK(!env_ok("OMP_WAIT_POLICY", "spin"));
    CHECK(!env_ok("OMP_THREAD_LIMIT", "0"));
}

/* Paths are joined whole or not at all: a path cut short names another file. */
static void test_paths(void)
{
    char out[16];
    CHECK(sl_path_join(out, sizeof out, "results", "pi") == 0 && strcmp(out, "results/pi") == 0);
    CHECK(sl_path_join(out, sizeof out, "results", "mandelb") == 0);   /* 15 + NUL */
    errno = 0;
    CHECK(sl_path_join(out, sizeof out, "results", "mandelbr") == -1);
    CHECK(errno == ENAMETOOLONG && out[0] == '\0');
    CHECK(sl_check_path("--results", "short", why, sizeof why) == 0);
    char longer[SL_PATH_LIMIT + 2];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK(sl_check_path("--results", longer, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "path too long: 2001 > 2000");
}

int main(void)
{
    test_paths();
    test_numbers();
    test_schedules();
    test_thread_lists();
    test_nearest();
    test_omp_env();
    return CHECK_DONE();
}
