/* ceiling.c - time the probe (probe.c): one core's peak throughput of the
 * instructions the kernels cannot do without (ceiling.h). The report holds
 * every configuration's rate against it (report/ceiling_report.c).
 */
#include "ceiling.h"

#include <string.h>

#include "probe.h"
#include "quiet.h"
#include "sample.h"
#include "speedlab_config.h"

/* Seconds one probe run should last (quick: a quarter): long enough to
 * swamp the clock's resolution, short enough that the probes' runs cost
 * about a second and a quarter in all (2.5 s when the calibration
 * overshot: 5 s of every bench run, which probes twice; Zen 4). */
#define PROBE_SECONDS 0.04

/* half: the same instruction in vectors of half the lanes, where a core
 * may do more lanes a second (the divide: probe.c) or issue more
 * instructions a cycle (the xor: mca_report.c reads each width's); the
 * faster per lane is the roof. */
static const struct {
    sl_probe_fn *fn;
    int chains;
    sl_probe_fn *half;
} PROBES[SL_CEILING_KINDS] = {
    [SL_CEILING_FMA] = { sl_probe_fma, SL_PROBE_FMA_CHAINS, NULL },
    [SL_CEILING_DIVIDE] = { sl_probe_divide, SL_PROBE_DIVIDE_CHAINS, sl_probe_divide_half },
    [SL_CEILING_MUL64] = { sl_probe_mul64, SL_PROBE_MUL64_CHAINS, NULL },
    [SL_CEILING_VECTOR] = { sl_probe_vector, SL_PROBE_VECTOR_CHAINS, sl_probe_vector_half },
};

/* The probes' checksums land here, so no probe loop can be dropped. */
volatile double sl_probe_sink;

double sl_probe_seconds(sl_probe_fn *fn, int64_t reps)
{
    double t0 = sl_now();
    sl_probe_sink = fn(reps);
    return sl_now() - t0;
}

int64_t sl_probe_reps(sl_probe_fn *fn, double target)
{
    /* Doubled only to an eighth of the target, then scaled to it: doubled
     * all the way, a run lasted up to twice the target (1.5x on average),
     * and every run after the calibration paid for that. */
    int64_t reps = 1024, most = INT64_C(1) << 40;
    double t;
    while ((t = sl_probe_seconds(fn, reps)) < target / 8 && reps < most)
        reps *= 2;
    double scaled = t > 0.0 ? (double)reps * target / t : (double)most;
    return scaled > (double)most ? most : scaled > 1024.0 ? (int64_t)scaled : 1024;
}

/* The core's clock while it runs (probe.h: cycles are adds), never below
 * what the FMA probe's rate implies (probe.h: SL_PROBE_MOST_FMAS); the
 * faster of the calls, as for the peaks. */
static void measure_clock(sl_ceilings *m, double target)
{
    if (sl_probe_clock(1) < 0.0)
        return;
    int64_t reps = sl_probe_reps(sl_probe_clock, target);
    sl_sample hz = { 0 };
    for (int r = 0; r < SL_PROBE_RUNS; r++)
        sl_sample_add(&hz, (double)reps * SL_PROBE_CLOCK_ADDS /
                               sl_probe_seconds(sl_probe_clock, reps));
    sl_sample_summarise(&hz);
    double floor_hz = m->per_core[SL_CEILING_FMA] / m->lanes / SL_PROBE_MOST_FMAS;
    double clock = hz.median > floor_hz ? hz.median : floor_hz;
    if (clock > m->clock_hz && clock < SL_PROBE_CLOCK_MOST_HZ)
        m->clock_hz = clock;
}

/* The probes of the kinds in the mask (bit k: sl_ceiling_kind k), each
 * run for target seconds. */
static void measure_kinds(sl_ceilings *m, double target, unsigned kinds)
{
    /* A second measurement keeps, per instruction, the faster of the two:
     * outside load (a neighbour on a shared host included) can only slow
     * a peak down, never speed it up. */
    int again = m->measured;
    if (!again)
        memset(m, 0, sizeof *m);
    m->lanes = SPEEDLAB_SIMD_LANES;
    m->half_lanes = SL_PROBE_HALF_LANES;
    for (int k = SL_CEILING_DIVIDE; k < SL_CEILING_KINDS; k++) {
        if (!(kinds & (1u << k)))
            continue;
        /* Both widths' runs interleaved in one quiet window. */
        sl_probe_fn *fn[2] = { PROBES[k].fn, PROBES[k].half };
        double lanes[2] = { m->lanes, m->half_lanes };
        int widths = fn[1] ? 2 : 1;
        sl_quiet_mark from, to;
        sl_quiet_mark_now(&from);
        int64_t reps[2];
        for (int w = 0; w < widths; w++)
            reps[w] = sl_probe_reps(fn[w], target);
        sl_sample rates[2] = { { 0 }, { 0 } };
        for (int r = 0; r < SL_PROBE_RUNS || sl_quiet_too_short(&from); r++)
            for (int w = 0; w < widths; w++)
                sl_sample_add(&rates[w], (double)reps[w] * PROBES[k].chains * lanes[w] /
                                             sl_probe_seconds(fn[w], reps[w]));
        for (int w = 0; w < widths; w++) {
            sl_sample_summarise(&rates[w]);
            if (rates[w].median > m->by_width[k][w])
                m->by_width[k][w] = rates[w].median;
        }
        sl_quiet_mark_now(&to);
        const sl_sample rate = widths == 2 && rates[1].median > rates[0].median ? rates[1]
                                                                                : rates[0];
        if (m->watch.n < SL_WATCH_CALLS)
            m->watch.v[k][m->watch.n] = rate.median;
        if (again && rate.median <= m->per_core[k])
            continue;
        double others = sl_quiet_others(&from, &to), wall = to.wall - from.wall;
        m->disturbed[k] = sl_quiet_disturbed(others, wall);
        m->others[k] = others >= 0.0 && wall > 0.0 ? others / wall : -1.0;
        m->window[k] = wall;
        m->per_core[k] = rate.median;
        m->spread[k] = (rate.max - rate.min) / rate.median;
        m->ci_low[k] = rate.ci_low;
        m->ci_high[k] = rate.ci_high;
    }
}

int sl_roof_slot(int level, int k)
{
    return SL_CEILING_KINDS + 2 * level + k;
}

/* This call's bandwidth figures into the watch. */
static void watch_call(sl_ceilings *m)
{
    sl_roof_watch *w = &m->watch;
    if (w->n >= SL_WATCH_CALLS)
        return;
    for (int level = 0; level <= SL_CACHE_LEVELS; level++)
        for (int k = 0; k < 2; k++)
            w->v[sl_roof_slot(level, k)][w->n] = m->memory.last[level][k];
    w->n++;
}

void sl_measure_ceilings(sl_ceilings *m, int quick, unsigned roofs)
{
    double target = quick ? PROBE_SECONDS / 4 : PROBE_SECONDS;
    measure_kinds(m, target, (1u << SL_CEILING_KINDS) - 1);
    measure_clock(m, target);
    if (roofs)
        sl_measure_bandwidth(&m->memory, quick, roofs);
    else
        memset(m->memory.last, 0, sizeof m->memory.last);
    watch_call(m);
    m->measured++;
}

/* Slot's figures from calls [from, to), into s, summarised. */
static void watch_sample(const sl_ceilings *m, int slot, int from, int to, sl_sample *s)
{
    memset(s, 0, sizeof *s);
    for (int i = from; i < to; i++)
        if (m->watch.v[slot][i] > 0.0)
            sl_sample_add(s, m->watch.v[slot][i]);
    if (s->n > 0)
        sl_sample_summarise(s);
}

int sl_roof_interval(const sl_ceilings *m, int slot, double *low, double *high)
{
    sl_sample s;
    *low = *high = 1.0;
    if (slot < 0 || slot >= SL_ROOF_SLOTS)
        return 0;
    watch_sample(m, slot, 0, m->watch.n, &s);
    if (s.n >= 2 && s.median > 0.0) {
        *low = s.ci_low / s.median;
        *high = s.ci_high / s.median;
    }
    return s.n;
}

double sl_roof_drift(const sl_ceilings *m, int slot)
{
    sl_sample early, late;
    if (slot < 0 || slot >= SL_ROOF_SLOTS)
        return 0.0;
    int half = m->watch.n / 2;
    watch_sample(m, slot, 0, half, &early);
    watch_sample(m, slot, m->watch.n - half, m->watch.n, &late);
    return early.n >= 2 && late.n >= 2 && early.median > 0.0 ? late.median / early.median - 1.0
                                                              : 0.0;
}

int sl_ceiling_has_half(const sl_ceilings *m, int k)
{
    return m->half_lanes > 0 && m->half_lanes < m->lanes && m->by_width[k][1] > 0.0;
}

void sl_measure_ceiling_kinds(sl_ceilings *m, unsigned kinds)
{
    measure_kinds(m, PROBE_SECONDS / 4, kinds);
    m->measured++;
}
