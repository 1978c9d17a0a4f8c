/* ceiling.h - how fast one core can go: a small probe measures, on one
 * core, the peak throughput of the instructions the kernels cannot do
 * without: packed double FMAs, packed double divides and packed 64-bit
 * multiplies, and the cheapest vector instruction's (lane-operations per
 * second); and the memory's sustained
 * bandwidth (bandwidth.h). The report turns them into each configuration's
 * ceiling (report/ceiling_report.h).
 */
#ifndef SPEEDLAB_CEILING_H
#define SPEEDLAB_CEILING_H

#include "bandwidth.h"
#include "mca.h"
#include "kernel.h"

/* Probe runs per instruction; the median is kept. */
#define SL_PROBE_RUNS 6

/* The run's roofs through time: each probe call's own figure for every
 * roof, kept apart from the pooled and kept ones, so that a roof has an
 * interval (how far the host's speed moved through the run) and a drift
 * (its first calls against its last). The bench probes before and after
 * the timing and, in a long pass, between its cycles (sl_timing.watch).
 * A roof's slot: an instruction's (sl_ceiling_kind), then the memory's
 * and each cache level's on 1 thread and every core (sl_roof_slot). */
#define SL_WATCH_CALLS 24
#define SL_ROOF_SLOTS (SL_CEILING_KINDS + 2 * (SL_CACHE_LEVELS + 1))
typedef struct sl_roof_watch {
    int n;                                    /* calls recorded, in order */
    double v[SL_ROOF_SLOTS][SL_WATCH_CALLS];  /* 0: not probed in that call */
} sl_roof_watch;

typedef struct sl_ceilings {
    int measured;               /* times probed (the faster kept) */
    int lanes;                  /* doubles per vector the probe used */
    int half_lanes;             /* and in its narrower vectors (probe.h) */
    double per_core[SL_CEILING_KINDS]; /* lane-operations/s, by sl_ceiling_kind */
    double by_width[SL_CEILING_KINDS][2]; /* the same at lanes [0] and half_lanes
                                   [1], each the faster of the calls; 0: not
                                   probed at that width */
    double spread[SL_CEILING_KINDS];   /* (max - min) / median of the probe runs */
    double ci_low[SL_CEILING_KINDS], ci_high[SL_CEILING_KINDS]; /* the median's interval */
    int disturbed[SL_CEILING_KINDS];           /* the kept probe ran while other processes
                                   used the CPU (quiet.h): its peak may be low */
    double others[SL_CEILING_KINDS]; /* their CPU in its window, in cores on
                                        average; -1: not known */
    double window[SL_CEILING_KINDS]; /* seconds the kept probe's window lasted */
    sl_bandwidth memory;        /* the memory roof (bandwidth.h) */
    double clock_hz;            /* one core's clock under load (probe.h); 0:
                                   not measured */
    sl_mca mca;                 /* the static model, loaded after the probes
                                   (their first call clears the struct) */
    sl_roof_watch watch;        /* every call's own figures */
} sl_ceilings;

/* The slot of level's bandwidth roof (0: the memory, 1..3: a cache) on
 * 1 thread (k 0) or every core (k 1). */
int sl_roof_slot(int level, int k);

/* Slot's spread through the run: the interval of its calls' median,
 * relative to that median (low <= 1 <= high), and the calls it stands
 * on. With fewer than 2 calls: 1 and 1. Returns the calls. */
int sl_roof_interval(const sl_ceilings *m, int slot, double *low, double *high);

/* Slot's drift: the median of the later half of its calls over the
 * earlier half's, minus 1 (0.16: 16% faster later); 0 with fewer than
 * 4 calls. */
double sl_roof_drift(const sl_ceilings *m, int slot);

/* Run the probes on the calling thread (about a second in all; quick:
 * half of that, each probe's window no shorter than quiet.h's
 * SL_QUIET_MIN_WINDOW), and the bandwidth roofs named in `roofs`
 * (bandwidth.h: SL_ROOF_MEMORY, SL_ROOF_CACHES; 0: none), on every core.
 * Called again on the same struct, it keeps per instruction the faster
 * median: the bench probes before and after timing, so a slow moment of
 * the machine does not lower the ceiling. */
void sl_measure_ceilings(sl_ceilings *m, int quick, unsigned roofs);
/* Was kind k also probed in narrower vectors (half_lanes, fewer than
 * lanes), so that by_width[k][1] holds a second width's rate? */
int sl_ceiling_has_half(const sl_ceilings *m, int k);

/* Only the instructions in kinds (bit k: sl_ceiling_kind k), quick, and
 * neither the clock nor the memory: what a run that holds its rows
 * against their own roofs needs (the room's; report/ceiling_report.h
 * says which), in a fraction of the time. */
void sl_measure_ceiling_kinds(sl_ceilings *m, unsigned kinds);

/* One of probe.h's loops, timed: the seconds one run of reps takes, and
 * the repetitions (at least 1024) for a run to last about target seconds. */
typedef double sl_probe_fn(int64_t reps);
double sl_probe_seconds(sl_probe_fn *fn, int64_t reps);
int64_t sl_probe_reps(sl_probe_fn *fn, double target);

#endif
