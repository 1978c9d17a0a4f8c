/* test_hybrid_driver.c - lesson 6's grid rules (bench/hybrid/driver.h):
 * the cores a SLURM allocation grants (SLURM_JOB_CPUS_PER_NODE's
 * "4(x2),2" form, and this machine's cores for anything it cannot read),
 * OMP_THREAD_LIMIT against the thread list (given: refused; default:
 * trimmed), the sizes MPI cannot carry, and --kernel's choice; and the
 * launcher's words on which rank died, found past a NUL byte.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hybrid/driver.h"
#include "hybrid/launch.h"

static void check_job_cores(void)
{
    const int local = sl_cores_available();
    unsetenv("SLURM_JOB_CPUS_PER_NODE");
    CHECK_EQ_LL(sl_hybrid_job_cores(), local);
    static const struct { const char *text; int want; } cases[] = {
        { "4(x2),2", 10 }, { "8", 8 }, { "2,2,2", 6 }, { "16(x4)", 64 },
        /* Unreadable: this machine's cores, never a guess. */
        { "4(x2", -1 }, { "abc", -1 }, { "0", -1 }, { "4x", -1 },
        { "3(x0)", -1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("SLURM_JOB_CPUS_PER_NODE", cases[i].text, 1);
        int got = sl_hybrid_job_cores();
        if (got != (cases[i].want < 0 ? local : cases[i].want))
            fprintf(stderr, "SLURM_JOB_CPUS_PER_NODE=%s\n", cases[i].text);
        CHECK_EQ_LL(got, cases[i].want < 0 ? local : cases[i].want);
    }
    unsetenv("SLURM_JOB_CPUS_PER_NODE");
}

static void check_thread_limit(void)
{
    char why[256] = "";
    sl_cli c;
    memset(&c, 0, sizeof c);
    c.nthreads = 3, c.threads[0] = 1, c.threads[1] = 2, c.threads[2] = 4;
    unsetenv("OMP_THREAD_LIMIT");
    CHECK_EQ_LL(sl_hybrid_thread_limit(&c, why, sizeof why), 0);
    CHECK_EQ_LL(c.nthreads, 3);
    setenv("OMP_THREAD_LIMIT", "2", 1);
    CHECK_EQ_LL(sl_hybrid_thread_limit(&c, why, sizeof why), 0);   /* default list */
    CHECK_EQ_LL(c.nthreads, 2);
    CHECK_EQ_LL(c.threads[1], 2);
    c.nthreads = 2, c.threads[1] = 3, c.threads_given = 1;
    CHECK_EQ_LL(sl_hybrid_thread_limit(&c, why, sizeof why), -1);  /* asked for */
    CHECK_CONTAINS(why, "--threads 3 is more than OMP_THREAD_LIMIT=2");
    unsetenv("OMP_THREAD_LIMIT");
}

static void check_sizes(void)
{
    char why[256] = "";
    sl_problem_def image = { .name = "img", .default_size = 1000, .quick_size = 100,
                             .probe_size = 37, .max_size = 1 << 20, .image = 1 };
    sl_cli c;
    memset(&c, 0, sizeof c);
    int64_t s = 0;
    CHECK_EQ_LL(sl_hybrid_size(&c, &image, &s, why, sizeof why), 0);
    CHECK_EQ_LL(s, 1000);
    c.quick = 1;
    CHECK_EQ_LL(sl_hybrid_size(&c, &image, &s, why, sizeof why), 0);
    CHECK_EQ_LL(s, 100);
    c.check = 1;
    CHECK_EQ_LL(sl_hybrid_size(&c, &image, &s, why, sizeof why), 0);
    CHECK_EQ_LL(s, 37);
    c.size = 46340;   /* 46340^2 counts still fit one message */
    CHECK_EQ_LL(sl_hybrid_size(&c, &image, &s, why, sizeof why), 0);
    c.size = 46341;
    CHECK_EQ_LL(sl_hybrid_size(&c, &image, &s, why, sizeof why), -1);
    CHECK_CONTAINS(why, "more than one MPI message can gather");
    c.size = (1 << 20) + 1;
    CHECK_EQ_LL(sl_hybrid_size(&c, &image, &s, why, sizeof why), -1);
    CHECK_CONTAINS(why, "more than img allows");
}

/* --kernel: every kernel in lesson order, or the ones named, in the
 * order named; a name that is not one refused with the list. */
static void check_choose(void)
{
    static const sl_problem_def late = { .name = "late", .lesson = 4 },
                                early = { .name = "early", .lesson = 1 },
                                mid = { .name = "mid", .lesson = 2 };
    static const sl_hybrid_kernel k_late = { &late, NULL, 0, NULL },
                                  k_early = { &early, NULL, 0, NULL },
                                  k_mid = { &mid, NULL, 0, NULL };
    const sl_hybrid_kernel *const all[] = { &k_late, &k_early, &k_mid, NULL };
    const sl_hybrid_kernel *out[SL_HYBRID_MAX_JOBS];
    char why[256] = "";
    CHECK_EQ_LL(sl_hybrid_choose(all, NULL, out, why, sizeof why), 3);
    CHECK(out[0] == &k_early && out[1] == &k_mid && out[2] == &k_late);
    CHECK_EQ_LL(sl_hybrid_choose(all, "late,early", out, why, sizeof why), 2);
    CHECK(out[0] == &k_late && out[1] == &k_early);
    CHECK_EQ_LL(sl_hybrid_choose(all, "mid,ear", out, why, sizeof why), -1);
    CHECK_CONTAINS(why, "--kernel: 'ear' is not one of late, early, mid");
}

/* Debian 13's Open MPI 5.0.7, a rank killed on the second of two nodes:
 * the error handler's message on the first ends with a NUL, and the
 * launcher's notice comes after it, wrapped. */
static void check_culprit_past_nul(void)
{
    char *const argv[] = {
        "/bin/sh", "-c",
        "printf '[slnode1:00000] ***    and MPI will try to terminate your MPI job as well)\n"
        "\\000 [slnode1:23006] Delaying for 2 seconds before aborting\n"
        "prterun noticed that process rank 1 with PID 23023 on node slnode2 exited on\n"
        "signal 9 (Killed).\n' >&2; exit 137",
        NULL
    };
    sl_launch_end end;
    char why[256] = "", culprit[400] = "";
    CHECK_EQ_LL(sl_launch(argv, 30.0, 1, &end, why, sizeof why), 0);
    CHECK(end.exited && end.code == 137);
    CHECK_EQ_LL(sl_launch_culprit(&end, culprit, sizeof culprit), 1);
    CHECK_CONTAINS(culprit, "rank 1 on node slnode2 was killed by signal 9");
}

int main(void)
{
    check_culprit_past_nul();
    check_choose();
    check_job_cores();
    check_thread_limit();
    check_sizes();
    return CHECK_DONE();
}
