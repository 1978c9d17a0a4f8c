/* test_probe.c - the ceiling probe's loops (measure/probe.c) issue the
 * instructions they count, whichever compiler built them. A compiler may
 * regroup integer multiplies and xors: clang 14 turned eight multiplies
 * by k into one by k^8, and reported 8 64-bit multiplies per cycle on a
 * Zen 4 that issues 1. Each probe is timed beside the clock probe (one
 * add per cycle, itself held below any core's clock) and must not issue
 * more than MAX_PER_CYCLE of its instruction per cycle.
 *
 * Not a speed target: a slow or busy machine only lowers the figure.
 * Noise can raise it only by slowing a clock run, so each probe keeps the
 * lowest of several pairs taken back to back, and the clock never counts
 * below what the FMA probe's rate implies (probe.h: SL_PROBE_MOST_FMAS; a
 * clean clone's CI once read the xor at 6.03 a cycle against a slowed
 * clock in all five pairs). A folded loop is too fast in every pair.
 *
 * Each probe's quiet window (quiet.h), the memory's and every cache
 * level's included, lasts long enough to be judged, however short its
 * runs: a window under SL_QUIET_MIN_WINDOW would call a machine quiet
 * that was busy throughout (a clean clone's CI once wrote a probe at 1.15
 * other cores unmarked; the cache levels' windows were 1 to 70 ms).
 *
 * And the roofs through a run (ceiling.h's watch): each call's own
 * figures are kept apart from the kept peak, and a host that moved
 * between calls gives its roof an interval and a drift.
 */
#include <math.h>
#include <stdio.h>

#include "ceiling.h"
#include "check.h"
#include "platform.h"
#include "probe.h"
#include "quiet.h"
#include "speedlab_config.h"

/* No core issues more than 4 of one vector instruction per cycle (Zen 4
 * and 5, Apple's M cores: 4 vector pipes), with a quarter for the clock
 * probe's own error. */
#define MAX_PER_CYCLE 5.0
#define PAIRS 5
#define RUN_SECONDS 0.01

/* One run of the clock probe, in cycles (adds) per second. */
static double clock_hz(int64_t reps)
{
    return (double)reps * SL_PROBE_CLOCK_ADDS / sl_probe_seconds(sl_probe_clock, reps);
}

/* The fastest of a probe's runs, in instructions per second. */
static double fastest_per_s(sl_probe_fn *fn, int chains)
{
    int64_t reps = sl_probe_reps(fn, RUN_SECONDS);
    double fastest = 0.0;
    for (int r = 0; r < PAIRS; r++) {
        double per_s = (double)reps * chains / sl_probe_seconds(fn, reps);
        fastest = per_s > fastest ? per_s : fastest;
    }
    return fastest;
}

static void at_most_the_issue_width(const char *name, sl_probe_fn *fn, int chains,
                                    double floor_hz)
{
    int64_t clock_reps = sl_probe_reps(sl_probe_clock, RUN_SECONDS);
    int64_t reps = sl_probe_reps(fn, RUN_SECONDS);
    double lowest = 1e300;
    for (int p = 0; p < PAIRS; p++) {
        double hz = clock_hz(clock_reps);
        hz = hz > floor_hz ? hz : floor_hz;
        double per_s = (double)reps * chains / sl_probe_seconds(fn, reps);
        if (per_s / hz < lowest)
            lowest = per_s / hz;
    }
    printf("%-8s %.2f per cycle\n", name, lowest);
    CHECK(lowest > 0.0);
    if (lowest > MAX_PER_CYCLE) {
        char cpu[256];
        sl_cpu_model(cpu, sizeof cpu);
        fprintf(stderr,
                "%s: %.2f per cycle (%s; the clock at least %.2f GHz): the compiler folded "
                "the probe's chains\n",
                name, lowest, cpu, floor_hz * 1e-9);
    }
    CHECK(lowest <= MAX_PER_CYCLE);
}

static void windows_long_enough_to_judge(void)
{
    sl_ceilings m = { 0 };
    sl_measure_ceilings(&m, 1, SL_ROOF_MEMORY | SL_ROOF_CACHES);
    for (int k = SL_CEILING_DIVIDE; k < SL_CEILING_KINDS; k++) {
        printf("probe %d: window %.3f s\n", k, m.window[k]);
        CHECK(m.window[k] >= SL_QUIET_MIN_WINDOW);
    }
    /* Both widths of the xor kept, the roof the faster per lane. */
    const double *xor = m.by_width[SL_CEILING_VECTOR];
    printf("xor: %.3g and %.3g lane-ops/s at %d and %d lanes\n", xor[0], xor[1], m.lanes,
           m.half_lanes);
    CHECK(xor[0] > 0.0 && xor[1] > 0.0 && m.half_lanes == SL_PROBE_HALF_LANES);
    CHECK(m.per_core[SL_CEILING_VECTOR] == (xor[0] > xor[1] ? xor[0] : xor[1]));
    CHECK(m.memory.measured == 1);
    for (int k = 0; k < 2; k++) {
        printf("memory, %d thread(s): window %.3f s\n", m.memory.threads[k], m.memory.window[k]);
        CHECK(m.memory.window[k] >= SL_QUIET_MIN_WINDOW);
        for (int level = 1; level <= SL_CACHE_LEVELS; level++) {
            const sl_cache_roof *r = &m.memory.cache[level - 1];
            if (r->bytes_per_s[k] <= 0.0)
                continue;   /* sysfs does not name this level */
            printf("L%d, %d thread(s): window %.3f s\n", level, m.memory.threads[k], r->window[k]);
            CHECK(r->window[k] >= SL_QUIET_MIN_WINDOW);
        }
    }
}

/* The clock probe measures a clock: one add a cycle, below any core's
 * fastest boost. A chain the core shortens reads faster (23.5 GHz on an
 * Intel Xeon VM that ran `add $1` at 9 a cycle), and every per-cycle
 * figure, the issue-width checks below included, reads low by as much. */
static void clock_is_a_clock(void)
{
    int64_t reps = sl_probe_reps(sl_probe_clock, RUN_SECONDS);
    double fastest = 0.0;
    for (int r = 0; r < PAIRS; r++) {
        double hz = clock_hz(reps);
        fastest = hz > fastest ? hz : fastest;
    }
    printf("clock  %.2f GHz\n", fastest * 1e-9);
    CHECK(fastest > 1e8 && fastest < SL_PROBE_CLOCK_MOST_HZ);
}

/* The divide probes divide every lane they count: after an even number
 * of steps each chain is back where it started (a = n / a twice), so the
 * checksum is that start summed over the lanes, SPEEDLAB_SIMD_LANES for
 * the full width, half of them (one for one or two) for the other. */
static void divides_every_lane(void)
{
    const double start = 8 * 1.0000001 + (0.1 + 0.2 + 0.3 + 0.4 + 0.5 + 0.6 + 0.7 + 0.8);
    const int half = SL_PROBE_HALF_LANES;
    double full_sum = sl_probe_divide(1000), half_sum = sl_probe_divide_half(1000);
    printf("divide checksums %.9g (%d lanes), %.9g (%d)\n", full_sum, SPEEDLAB_SIMD_LANES,
           half_sum, half);
    CHECK(fabs(full_sum - SPEEDLAB_SIMD_LANES * start) < 1e-9 * SPEEDLAB_SIMD_LANES * start);
    CHECK(fabs(half_sum - half * start) < 1e-9 * half * start);
}

/* The xor probes run the same chains on every lane (each lane starts
 * alike), so the narrower one's checksum is the full one's per lane. */
static void xors_every_lane(void)
{
    const int half = SL_PROBE_HALF_LANES;
    double full_sum = sl_probe_vector(1001), half_sum = sl_probe_vector_half(1001);
    printf("xor checksums %.17g (%d lanes), %.17g (%d)\n", full_sum, SPEEDLAB_SIMD_LANES,
           half_sum, half);
    CHECK(full_sum > 0.0);
    CHECK(fabs(full_sum / SPEEDLAB_SIMD_LANES - half_sum / half) <= 1e-12 * full_sum);
}

static void roofs_through_the_run(void)
{
    sl_ceilings m = { 0 };
    sl_measure_ceilings(&m, 1, 0);
    sl_measure_ceilings(&m, 1, 0);
    CHECK_EQ_LL(m.watch.n, 2);
    for (int k = SL_CEILING_DIVIDE; k < SL_CEILING_KINDS; k++)
        CHECK(m.watch.v[k][0] > 0.0 && m.watch.v[k][1] > 0.0 &&
              fmax(m.watch.v[k][0], m.watch.v[k][1]) <= m.per_core[k] * 1.000001);
    CHECK(m.watch.v[sl_roof_slot(0, 0)][0] == 0.0);  /* no memory probe asked for */
    double lo, hi;
    CHECK_EQ_LL(sl_roof_interval(&m, sl_roof_slot(0, 0), &lo, &hi), 0);
    CHECK(lo == 1.0 && hi == 1.0);
    /* A memory that ran 30 GB/s for three calls, then 41: +37% later, and
     * an interval around the median that holds both. */
    const double planted[] = { 30e9, 30e9, 30e9, 41e9, 41e9, 41e9 };
    m.watch.n = 6;
    for (int i = 0; i < 6; i++)
        m.watch.v[sl_roof_slot(0, 0)][i] = planted[i];
    CHECK(fabs(sl_roof_drift(&m, sl_roof_slot(0, 0)) - (41.0 / 30.0 - 1.0)) < 1e-9);
    CHECK_EQ_LL(sl_roof_interval(&m, sl_roof_slot(0, 0), &lo, &hi), 6);
    CHECK(fabs(lo - 30.0 / 35.5) < 1e-9 && fabs(hi - 41.0 / 35.5) < 1e-9);
}

int main(void)
{
    divides_every_lane();
    xors_every_lane();
    windows_long_enough_to_judge();
    roofs_through_the_run();
    if (sl_probe_clock(1) < 0.0) {
        puts("no clock probe for this CPU: nothing to hold the probes to");
        return CHECK_DONE() ? 1 : 77;
    }
    clock_is_a_clock();
    /* Floating point cannot be regrouped: the FMA probe is never folded. */
    double floor_hz = fastest_per_s(sl_probe_fma, SL_PROBE_FMA_CHAINS) / SL_PROBE_MOST_FMAS;
    printf("clock  at least %.2f GHz (FMA)\n", floor_hz * 1e-9);
    at_most_the_issue_width("FMA", sl_probe_fma, SL_PROBE_FMA_CHAINS, floor_hz);
    at_most_the_issue_width("divide", sl_probe_divide, SL_PROBE_DIVIDE_CHAINS, floor_hz);
    at_most_the_issue_width("divide/2", sl_probe_divide_half, SL_PROBE_DIVIDE_CHAINS, floor_hz);
    at_most_the_issue_width("multiply", sl_probe_mul64, SL_PROBE_MUL64_CHAINS, floor_hz);
    at_most_the_issue_width("xor", sl_probe_vector, SL_PROBE_VECTOR_CHAINS, floor_hz);
    at_most_the_issue_width("xor/2", sl_probe_vector_half, SL_PROBE_VECTOR_CHAINS, floor_hz);
    return CHECK_DONE();
}
