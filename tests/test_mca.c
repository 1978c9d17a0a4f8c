/* test_mca.c - the static model beside the measurement (measure/mca.c,
 * report/mca_report.c): a planted analysis file is read, the row of a
 * variant's limit class is found, the measured cycles per iteration come
 * from the rate, the cores and the clock (exact numbers: the suite is
 * made by hand), "what limits it" names what binds and says when the two
 * disagree, and a loop llvm-mca could not model is shown as such. Where
 * a loop's vector instructions need more cycles at the probed issue rate
 * than llvm-mca simulates, that bound is the prediction; and a kernel's
 * issue roof binds its ceiling where it is the lower. A run probes only
 * the instructions its rows are held against. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ceiling_report.h"
#include "mca_report.h"

static const sl_problem_def divides = {
    .name = "divides", .work_unit = "steps", .ceiling = SL_CEILING_DIVIDE, .ceiling_ops = 1,
    .ceiling_why = "1 divide per step",
};
static const sl_variant variants[] = {
    { "simd", NULL, SL_USES_SIMD, NULL, NULL, NULL },
    { "threads_simd", NULL, SL_USES_SIMD, NULL, NULL, NULL },
    { "scalar", NULL, 0, NULL, NULL, NULL },
};
static const sl_kernel kernel = { &divides, variants, 3 };
static const sl_problem_def draws = {
    .name = "draws", .work_unit = "samples", .ceiling = SL_CEILING_MUL64, .ceiling_ops = 4,
    .ceiling_why = "4 multiplies per sample", .issue_ops = 27,
    .issue_why = "27 vector instructions per sample",
};
static const sl_kernel draws_kernel = { &draws, variants, 3 };

/* A configuration of variant v at `rate` steps/s on `threads`. */
static sl_config config(int v, double rate, int threads)
{
    sl_config c;
    memset(&c, 0, sizeof c);
    c.kernel = &kernel;
    c.variant = &variants[v];
    c.tree = "solutions";
    c.problem.size = 1000;
    c.valid = 1, c.timed = 6, c.threads_used = threads;
    c.outcome.work = 1000.0;
    c.outcome.where = SL_RAN_HOST;
    c.rate = rate, c.median = 1000.0 / rate, c.speedup = 1.0;
    return c;
}

int main(void)
{
    char path[] = "/tmp/speedlab-test-mca.XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "kernel,variant,class,loop,instructions,lanes,cycles_per_iteration,"
               "block_rthroughput,bound,resource,resource_cycles,instruction,chain,cpu,note,"
               "zmm,ymm,xmm\n"
               "divides,simd,div,.L4,12,8,10.000,10.0,ports,Zn4FP1,10.10,vdivpd,vdivpd,znver4,,"
               "12,0,0\n"
               "divides,simd,fma,.L4,12,16,10.000,10.0,ports,Zn4FP1,10.10,vdivpd,vdivpd,znver4,,"
               "12,0,0\n"
               "divides,threads_simd,div,.L5,12,8,10.000,4.0,latency,Zn4FP1,4.00,vdivpd,vaddpd,"
               "znver4,via simd.c's row,12,18,0\n"
               "divides,scalar,div,.L3,10,1,,,,,,,,znver3,llvm-mca failed: error: found an "
               "unsupported instruction\n");
    fclose(f);
    sl_ceilings m;
    memset(&m, 0, sizeof m);
    m.measured = 1;
    m.clock_hz = 4e9;
    CHECK(sl_mca_load(&m.mca, path) == 0);
    CHECK(m.mca.count == 4);
    CHECK(sl_mca_load(&m.mca, "/nonexistent/mca.csv") == -1 && m.mca.count == 0);
    CHECK(sl_mca_load(&m.mca, path) == 0);
    unlink(path);
    CHECK(m.mca.rows[2].vectors[0] == 12 && m.mca.rows[2].vectors[1] == 18 &&
          m.mca.rows[2].vectors[2] == 0);

    /* simd's divide row: 8 steps an iteration; at 3.2e9 steps/s on one
     * core of a 4 GHz clock, 4e9 x 8 / 3.2e9 = 10 cycles: as predicted. */
    sl_config c = config(0, 3.2e9, 1);
    const sl_mca_row *r = sl_config_mca(&m, &c);
    CHECK(r != NULL && strcmp(r->cls, "div") == 0 && r->lanes == 8.0);
    CHECK(sl_config_measured_cycles(&m, &c, r) == 10.0);
    char text[512];
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "llvm-mca: Zn4FP1 ports, most of all vdivpd; 10.0 cycles an "
                         "iteration (8 steps) predicted, 10.0 measured");
    CHECK(strstr(text, "(time outside") == NULL);
    /* Half that rate: 20 cycles, twice the model: where to look. */
    c = config(0, 1.6e9, 1);
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "20.0 measured (time outside the loop");
    /* On 2 cores the cycles are per core: 4e9 x 2 x 8 / 6.4e9 = 10. A
     * latency-bound loop names its chain. */
    c = config(1, 6.4e9, 2);
    r = sl_config_mca(&m, &c);
    CHECK(r != NULL && sl_config_measured_cycles(&m, &c, r) == 10.0);
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "a dependency chain from vaddpd (ports alone: 4.0 cycles)");
    /* Not modelled: no "what limits it" from it; the section says why. */
    c = config(2, 4e8, 1);
    CHECK(sl_config_mca(&m, &c) != NULL && sl_mca_limit_text(&m, &c, text, sizeof text) == 0);
    sl_config all[3] = { config(0, 3.2e9, 1), config(1, 6.4e9, 2), config(2, 4e8, 1) };
    sl_suite s = { .configs = all, .count = 3 };
    char *page = NULL;
    size_t len = 0;
    f = open_memstream(&page, &len);
    sl_print_mca(f, &m, &s);
    fclose(f);
    CHECK_CONTAINS(page, "## Predicted and measured cycles");
    CHECK_CONTAINS(page, "(4.00 GHz)");
    CHECK(strstr(page, "issue rate") == NULL); /* none probed: no bound claimed */
    CHECK_CONTAINS(page, "| divides | simd | 1 | .L4, 12 instructions, 8-lane vectors | 8 | "
                         "10.0 | 10.0 | 1.00 | Zn4FP1 ports, most of all vdivpd |");
    CHECK_CONTAINS(page, "| divides | scalar | 1 | .L3, 10 instructions | 1 | - | 10.0 | - | "
                         "not modelled: llvm-mca failed");
    free(page);
    /* The probe issues 2 512-bit xors a cycle (8 lanes, 4 GHz): simd's 12
     * need 6 cycles, under llvm-mca's 10, which stand. threads_simd's loop
     * has 12 512-bit and 18 256-bit ones: 6 + 9 = 15 cycles while the
     * narrower width is not probed (each at the full width's rate), over
     * its 10: the prediction is 15, and what binds is the issue. */
    m.lanes = 8, m.half_lanes = 4;
    m.by_width[SL_CEILING_VECTOR][0] = 2.0 * 8 * 4e9;
    c = config(0, 3.2e9, 1);
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "vdivpd; 10.0 cycles an iteration");
    c = config(1, 4e9 * 2 * 8 / 15.0, 2);
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "llvm-mca: vector issue: 12 512-bit instructions at the 2.00 a "
                         "cycle measured, 18 256-bit at 2.00 (llvm-mca: 10.0 cycles); 15.0 "
                         "cycles an iteration (8 steps) predicted, 15.0 measured");
    CHECK(strstr(text, "(time outside") == NULL);
    /* A core that issues 3 256-bit ones a cycle (an Intel core's xors):
     * 6 + 6 = 12 cycles; one that issues twice as many as 512-bit ones
     * (Zen 4's halves): 6 + 4.5 = 10.5. */
    m.by_width[SL_CEILING_VECTOR][1] = 3.0 * 4 * 4e9;
    c = config(1, 4e9 * 2 * 8 / 12.0, 2);
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "vector issue: 12 512-bit instructions at the 2.00 a cycle measured, "
                         "18 256-bit at 3.00 (llvm-mca: 10.0 cycles); 12.0 cycles");
    m.by_width[SL_CEILING_VECTOR][1] = 4.0 * 4 * 4e9;
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "18 256-bit at 4.00 (llvm-mca: 10.0 cycles); 10.5 cycles");
    f = open_memstream(&page, &len);
    sl_print_mca(f, &m, &s);
    fclose(f);
    CHECK_CONTAINS(page, "the issue rate the probe measured for it (a cycle: 512-bit 2.00, "
                         "256-bit 4.00, 128-bit 4.00), need more cycles");
    free(page);
    m.by_width[SL_CEILING_VECTOR][1] = 0.0;
    /* A simd loop built with 256-bit vectors on an AVX-512 build (GCC's
     * tuning for Intel's AVX-512 cores) says so, in its row and its text. */
    m.mca.rows[0].vectors[0] = 0, m.mca.rows[0].vectors[1] = 12;
    m.mca.rows[3].vectors[2] = 7; /* scalar's: on xmm registers, a lane each */
    c = config(0, 3.2e9, 1);
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 1);
    CHECK_CONTAINS(text, "llvm-mca, 4-lane vectors (the ISA's have 8): Zn4FP1 ports");
    f = open_memstream(&page, &len);
    sl_print_mca(f, &m, &s);
    fclose(f);
    CHECK_CONTAINS(page, "| .L4, 12 instructions, 4-lane vectors (of 8) | 8 |");
    CHECK_CONTAINS(page, "Some vectorised loops use 4-lane vectors where the ISA has 8");
    CHECK(strstr(page, "| scalar | 1 | .L3, 10 instructions |") != NULL); /* xmm: no lanes */
    free(page);

    /* The issue roof: 27 instructions at 6.4e10 lane-ops/s, 2.37e9
     * samples/s, under the multiplies' 2.4e10 / 4 = 6e9: it binds. */
    m.per_core[SL_CEILING_VECTOR] = 6.4e10;
    m.per_core[SL_CEILING_MUL64] = 2.4e10;
    c = config(0, 1e9, 1);
    c.kernel = &draws_kernel;
    sl_limit l = sl_config_limit(&m, &c);
    CHECK(l.kind == SL_CEILING_VECTOR && strcmp(l.why, draws.issue_why) == 0);
    CHECK(sl_config_ceiling(&m, &c) == 6.4e10 / 27);
    /* Issued 10x faster, the multiplies bind again. */
    m.per_core[SL_CEILING_VECTOR] = 6.4e11;
    l = sl_config_limit(&m, &c);
    CHECK(l.kind == SL_CEILING_MUL64 && sl_config_ceiling(&m, &c) == 6e9);
    /* A kernel that counts no issue: its own instruction only. */
    m.per_core[SL_CEILING_VECTOR] = 1.0;
    c.kernel = &kernel;
    CHECK(sl_config_limit(&m, &c).kind == SL_CEILING_DIVIDE);

    /* The probes a run needs: its rows' own instructions, and the issue
     * roof's where a kernel counts one; only those are measured. */
    sl_config two[2] = { config(0, 1e9, 1), config(2, 1e9, 1) };
    sl_suite run = { .configs = two, .count = 2 };
    CHECK(sl_suite_ceiling_kinds(&run) == 1u << SL_CEILING_DIVIDE);
    two[1].kernel = &draws_kernel;
    CHECK(sl_suite_ceiling_kinds(&run) ==
          (1u << SL_CEILING_DIVIDE | 1u << SL_CEILING_MUL64 | 1u << SL_CEILING_VECTOR));
    sl_ceilings probed;
    memset(&probed, 0, sizeof probed);
    sl_measure_ceiling_kinds(&probed, 1u << SL_CEILING_DIVIDE);
    CHECK(probed.measured == 1 && probed.per_core[SL_CEILING_DIVIDE] > 0.0);
    CHECK(probed.per_core[SL_CEILING_FMA] == 0.0 && probed.per_core[SL_CEILING_VECTOR] == 0.0);
    CHECK(probed.clock_hz == 0.0);

    /* Another tree's rung, or no clock: nothing claimed. */
    c = config(0, 3.2e9, 1);
    c.tree = "exercises";
    CHECK(sl_config_mca(&m, &c) == NULL);
    c.tree = "solutions";
    m.clock_hz = 0.0;
    CHECK(sl_mca_limit_text(&m, &c, text, sizeof text) == 0);
    free(m.mca.rows);
    return CHECK_DONE();
}
