/* suite.h - plan, validate and time configurations (tree, kernel, variant,
 * threads) taken from the kernel tables; shared by the bench and the runner.
 *
 * Order is the contract: every configuration is validated before anything is
 * timed, and only valid ones are timed, so a wrong answer never becomes a
 * speedup.
 */
#ifndef SPEEDLAB_SUITE_H
#define SPEEDLAB_SUITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "grid.h"
#include "kernel.h"
#include "noise.h"
#include "sample.h"


typedef struct sl_config {
    const char *tree;             /* "solutions", "exercises" */
    const sl_kernel *kernel;
    const sl_variant *variant;
    sl_problem problem;           /* threads 0: the variant does not take threads */
    int threads_used;             /* granted by the runtime for num_threads(); 0: n/a */
    int oversubscribed;           /* more threads than available cores */
    char name[192];               /* tree/kernel/variant/threads:T */

    int valid;                    /* passed both checks below */
    sl_outcome outcome;           /* at the timed size */
    sl_verdict verdict;
    sl_outcome probe_outcome;     /* at the kernel's probe size */
    sl_verdict probe_verdict;

    int timed;                    /* repetitions received */
    double seconds[SL_MAX_REPS];  /* wall time per call, per repetition */
    char error[256];              /* a timing error, if any */
    double median, min, max, stddev, cv, rate;
    double ci_low, ci_high;       /* a distribution-free interval for the median */
    double ci_level;              /* its coverage (0.95 or more from 6 reps) */
    int weak;                     /* a weak-scaling point: size grows with threads */
    int interrupted;              /* not validated or timed: a signal stopped the run */
    int out_of_memory;            /* validation could not allocate its image or
                                     reference: no verdict, the run fails (exit 1) */
    int validated;                /* validation has run (valid says how it went) */
    long printed;                 /* lines its code printed while checked and
                                     timed (capture.h), kept apart */
    int isolated_failure;         /* 0, or how its isolated check ended
                                     (isolate.h's sl_isolated: hung or
                                     crashed; error says more): never run
                                     in this process */
    int started;                  /* timed in this pass already (its first
                                     call warmed up) */
    int foreign;                  /* measured by another program and read
                                     from its results.csv (foreign.h): its
                                     statistics only, no per-repetition
                                     times (seconds[], start[] are empty) */
    double speedup;               /* vs its baseline (sl_suite_baseline):
                                     the median of the paired ratios, or
                                     the ratio of the medians where there
                                     are no pairs (imported rows); 0: n/a */
    sl_paired up;                 /* those pairs (timing.c): the speedup's
                                     interval; n 0: unpaired */
    double up_precision;          /* that interval's wider side / speedup */

    /* Quietness (quiet.h): other processes' CPU while each repetition ran. */
    double others[SL_MAX_REPS];   /* CPU-seconds; -1: not measured */
    double window[SL_MAX_REPS];   /* the repetition's wall seconds */
    double others_cpu;            /* their mean share, in cores; -1: not measured */
    double self_cpu[SL_MAX_REPS]; /* the bench's own CPU-seconds; -1: not measured */
    double busiest[SL_MAX_REPS];  /* CPU-seconds of its busiest thread
                                     (quiet.h); -1: not measured */
    int disturbed;                /* repetitions with others above SL_BUSY_CORES */
    int stalled;                  /* repetitions in which the bench itself
                                     hardly ran (quiet.h: stopped, suspended) */
    int contaminated;             /* its median still holds disturbed or stalled
                                     repetitions (too few clean ones) */
    int remeasured;               /* rounds that replaced left-out repetitions */
    int kept;                     /* repetitions in the median: the clean ones,
                                     or all when fewer than the first pass's */
    unsigned char left_out[SL_MAX_REPS]; /* SL_LEFT_* bits: why a repetition
                                     is not in the median (0: it is) */
    double precision;             /* the interval's wider side / median:
                                     0.03 is +-3% */
    int short_of;                 /* sl_short_of: why it missed the target */
    int64_t iterations[SL_MAX_REPS]; /* calls timed in each repetition */
    double start[SL_MAX_REPS];    /* when each repetition began, seconds
                                     after the suite's timing began */
    /* Every body call's quietness and start, the last SL_MAX_REPS of them. */
    double call_others[SL_MAX_REPS], call_window[SL_MAX_REPS], call_start[SL_MAX_REPS];
    double call_self[SL_MAX_REPS], call_busiest[SL_MAX_REPS];
    int ncalls;
    double call_seconds;          /* one validation call at the timed size:
                                     for the progress estimate only */

    /* Image kernels, from the validation run at the timed size (NULL for
     * other kernels): the evidence the bench draws without clocks. */
    double *row_work;             /* iterations in each row */
    int32_t *row_thread;          /* the thread that computed each row */
    int32_t *counts;              /* the image, kept only when it was wrong */
} sl_config;

/* Why a repetition is left out of its configuration's median: other
 * processes used a core's share (quiet.h), the bench itself hardly ran,
 * or it fell in a stretch when every configuration ran slower. */
enum { SL_LEFT_DISTURBED = 1, SL_LEFT_STALLED = 2, SL_LEFT_SLOW = 4 };
/* The reasons that keep a repetition out of its pairs too (a slow stretch
 * of the whole host slowed both sides of a pair: no reason). */
#define SL_LEFT_UNPAIRED (SL_LEFT_DISTURBED | SL_LEFT_STALLED)

/* Why a configuration's interval is wider than the target: it was not
 * asked (no target), its repetitions were spent and it stayed too noisy,
 * the time budget ran out first, too few clean repetitions, its times
 * came in stretches (sample.h's sl_runs_z: the machine's speed shifted
 * while it ran, whatever else ran short), a signal. */
typedef enum sl_short_of {
    SL_AT_TARGET, SL_NO_TARGET, SL_SHORT_NOISY, SL_SHORT_BUDGET, SL_SHORT_DISTURBED,
    SL_SHORT_SHIFTED, SL_SHORT_INTERRUPTED
} sl_short_of;

/* "too noisy", "budget spent", ...; "" at the target or without one. */
const char *sl_short_of_name(int why);

/* Variants a suite leaves out because the machine cannot run them (CUDA
 * variants without a CUDA device), so reports can say so. */
#define SL_MAX_SKIPPED 16


typedef struct sl_suite {
    sl_config *configs;
    size_t count, cap;
    int nskipped;
    char skipped[SL_MAX_SKIPPED][96]; /* tree/kernel/variant */
    const char *skip_reason;          /* why, for all of them */
    double epoch;                     /* sl_now() when timing began */
    double target;                    /* the timing's precision target
                                         (sl_timing), 0: none */
    int calibrated;                   /* sl_suite_calibrate has run */
    sl_noise noise;                   /* the host's, probed before timing
                                         (calls 0: not probed) */
    double noise_buys[2];             /* the speedup precision the time
                                         left buys at that noise, on one
                                         core and on all (0: not said) */
    /* The noise the first pass's pairs met (timing.c): the median
     * rung's spread of log-ratios and the noisiest's, and how many of
     * the rungs the time left could bring to the target at their own
     * spread (n_rungs 0: not said). */
    double seen_spread, seen_worst;
    int seen_rungs, seen_reachable;
    void *foreign;                    /* what imported rows point into
                                         (foreign.h), and how to free it */
    void (*free_foreign)(void *foreign);
    sl_grid grid;                     /* lesson 6's rows (grid.h): a ranks
                                         dimension beside the ladder */
    struct sl_first_call *first_calls; /* imported first calls (foreign.h) */
    int nfirst;
    char *first_calls_context;        /* what they ran on: "key: value" lines */
} sl_suite;

/* What to add to a suite from one tree. */
/* A plan by flags (sl_plan.variant_flags: the weak study) never takes
 * these: the teaching stages and the expert rung, off the ladder. */
#define SL_NOT_BY_FLAGS (SL_STAGE | SL_EXPERT)

typedef struct sl_plan {
    const char *tree;
    const sl_kernel *const *kernels;  /* the tree's NULL-terminated list */
    const char *kernel_name;          /* NULL: every kernel */
    const char *variant_name;         /* NULL: every variant; else one name
                                         or a comma list ("gpu,cuda"); the
                                         scalar baseline comes along, unless
                                         no_baseline */
    unsigned variant_flags;           /* only variants with all these flags
                                         and none of SL_NOT_BY_FLAGS;
                                         0: no filter */
    const int *threads;               /* counts for threaded variants */
    int nthreads;
    int64_t size;                     /* 0: the kernel's default (or quick) */
    const sl_kernel_size *sizes;      /* per-kernel sizes, which win over */
    int nsizes;                       /* size for their kernel */
    int max_iter;                     /* image kernels; 0: their default */
    uint64_t seed;                    /* a sampling kernel's generator seed */
    const sl_schedule *schedules;     /* for SL_USES_SCHEDULE variants, at */
    int nschedules;                   /* every thread count, after their own
                                         pragma (as-written); 0: see below */
    int sweep;                        /* no schedules given: at the
                                         largest thread count, the
                                         variant's own pragma and the
                                         SL_SWEEP_SCHEDULES (1), or its own
                                         pragma only (0) */
    int quick;
    int own_lesson;                   /* 1: stages of another lesson
                                         (sl_variant_lesson) are left out
                                         unless named: the runner's view of
                                         one lesson */
    int weak;                         /* weak scaling: size grows with the
                                         threads from size / cores (rows for
                                         image kernels); no baseline added */
    int no_baseline;                  /* the named variants only: rows for
                                         another run to import */
} sl_plan;

/* The schedules a bench sweeps by default: equal blocks, round robin, a
 * row at a time on demand, shrinking blocks on demand. */
extern const sl_schedule SL_SWEEP_SCHEDULES[4];

/* The first configuration whose validation ran out of memory, or NULL;
 * and the line that says so, with what the run needs. */
const sl_config *sl_suite_out_of_memory(const sl_suite *s);
void sl_suite_out_of_memory_why(const sl_suite *s, const sl_config *c, char *why,
                                size_t whylen);

/* Is there memory for the planned images (image kernels)? Returns 0, or
 * -1 with why: "out of memory: ... needs about N MiB ..., and the
 * address-space limit leaves M MiB" (the caller exits 2 before measuring). */
int sl_suite_check_memory(const sl_suite *s, char *why, size_t whylen);

/* Bytes of one image of c (its counts); 0 for a kernel without an image. */
int64_t sl_image_bytes(const sl_config *c);

/* One more configuration, zeroed, at the end of the suite; NULL when out
 * of memory. */
sl_config *sl_suite_push(sl_suite *s);

/* Add the plan's configurations. Returns 0, or -1 with a reason (an unknown
 * kernel or variant name, with the nearest name suggested). */
int sl_suite_add(sl_suite *s, const sl_plan *p, char *why, size_t whylen);

/* Did the plan name a variant that this machine cannot run (--variant cuda
 * without a CUDA device)? Then 1, with the line to print in why, and the
 * caller exits 4. */
int sl_suite_named_skipped(const sl_suite *s, const char *variant_name, char *why,
                           size_t whylen);

/* Print one "skipped" line per skipped variant to f. */
void sl_suite_print_skipped(const sl_suite *s, FILE *f);

/* Validate every configuration; say on progress (may be NULL) which
 * failed, and with verbose which passed too. Returns the number that
 * failed. */
size_t sl_suite_validate(sl_suite *s, FILE *progress, int verbose);

/* Validate one configuration (sets validated, valid and its verdicts);
 * sl_suite_validate skips the configurations already validated. Returns
 * 0, or -1 when it could not run (out of memory; error says so). */
int sl_config_validate(sl_config *c);

/* How to time a suite. */
typedef struct sl_timing {
    int reps;                     /* repetitions per configuration in the
                                     first pass, and clean ones at least */
    double min_time;              /* seconds per repetition, at least */
    int retry_busy;               /* rounds that replace left-out
                                     (disturbed, stalled, slow) repetitions */
    double target;                /* more rounds, repetitions doubling, until
                                     the median's interval is within
                                     +-target (0.05: 5%); 0: none */
    double deadline;              /* sl_now() by which added rounds end;
                                     0: no limit */
    /* The rows a reader sees first (the report's headline), which get
     * their rounds before the others when time is short. May be NULL. */
    int (*shown_first)(const sl_suite *s, const sl_config *c);
    FILE *progress;               /* progress; may be NULL */
    int verbose;                  /* a line per configuration as it ends */
    int in_a_row;                 /* 1: each configuration's repetitions in
                                     a row (--benchmark_enable_random_
                                     interleaving=false); 0: interleaved
                                     in cycles, each rung beside its
                                     baseline (timing.c) */
    /* Called after each pass of Google Benchmark (pass 0 is the first),
     * e.g. to keep that pass's JSON before the next overwrites it. May be
     * NULL. */
    void (*after_pass)(int pass, void *ctx);
    void *ctx;
    /* Called between two cycles of an interleaved pass, before a
     * repetition's clock starts, as often as watch_share of the pass's
     * estimated time allows at watch_seconds a call (the bench re-probes
     * the host's roofs: ceiling.h's watch). NULL: never. */
    void (*watch)(void *ctx);
    void *watch_ctx;
    double watch_seconds, watch_share;
} sl_timing;

/* Time the valid configurations with Google Benchmark, repetitions
 * interleaved across configurations in cycles: in each cycle every
 * baseline is timed in the middle of the rungs whose speedup it gives,
 * so that each speedup is a ratio of repetitions taken seconds apart
 * (sl_config.up), and the groups come in a random order.
 * Returns 0, -1 when nothing could be timed, or -2 (errno set) when
 * Google Benchmark's --benchmark_out file stopped taking writes. */
int sl_suite_time(sl_suite *s, const sl_timing *t);

/* The one figure for c's speed against its baseline (sl_suite_baseline),
 * which the bench's tables, the participant's verdict, results.csv, the
 * history, make progress and the room all read: the ratio of c's
 * repetitions to the baseline's timed nearest to each (sample.h's
 * sl_pair_ratios; timing.c times each rung beside its baseline). Wall
 * time, leaving out the repetitions another process disturbed. Where
 * too few were clean (a busy machine: contaminated), all of them, and on
 * one thread in the CPU time of its busiest thread (quiet.h): a share of
 * the core lost to another process then costs neither side, so the ratio
 * is the one a core of its own would give. Threads stay in wall time:
 * they need cores at the same time, and on too few granted cores (an
 * affinity mask, a cgroup quota) or beside a busy process they take
 * turns, which CPU time does not count (it claimed 2.1x from three
 * threads on two cores, and hid false sharing). Returns the number of
 * pairs; 0 (out zeroed) for the baseline itself, a weak-scaling point,
 * an imported row, or nothing timed. */
int sl_speedup_paired(const sl_suite *s, const sl_config *c, sl_paired *out);

/* A paired interval whose ends differ by more than this factor says
 * nothing a participant could act on: no verdict. Short threaded calls
 * spread almost this far under load (a thread spins, and counts, while
 * its partner waits for a core): measured 6.6x to 9.9x for a 2 ms call
 * beside two busy loops on 2 cores. */
#define SL_PAIRED_TOO_WIDE 2.0

/* Is the interval too wide to judge (or were there too few pairs)? */
int sl_paired_too_wide(const sl_paired *p);

/* A right, timed rung past the baseline, on the host, whose speed no
 * figure can give: more threads than the cores granted on a machine that
 * was busy or held back while it or its baseline ran (the threads' wall
 * time then counts the share of a core they took from other programs:
 * two threads beside a loop on one core get two thirds of it, scalar
 * half, "1.3x" from one core), or a busy run whose pairs are too few or
 * too wide (threads most of all: they need cores at the same time). The
 * verdict says "no speed verdict"; the history, make progress and the
 * room keep no speedup for it (sl_speedup_judged: 0). */
int sl_speedup_unjudged(const sl_suite *s, const sl_config *c);

/* The one speedup over scalar a row shows, wherever it is shown (the
 * runner's table and verdict, the history, make progress, the room): on
 * a quiet machine its median's; on a busy one its paired ratios' median
 * (the load stretches a busy run's medians and not its pairs: a scalar
 * baseline 7.6x with two runners at once in e2e.room, Zen 4); 0 where
 * sl_speedup_unjudged (no figure at all, not the pairs' nor the walls').
 * at_most (NULL: not wanted): the most the run shows it could be, the
 * pairs' interval's top on a busy machine, else the same: the room calls
 * a run "slower" only when all of its interval is (e2e.room once saw a
 * right simd.c, 2x when quiet, classed "slower" beside make test's other
 * tests). */
double sl_speedup_judged(const sl_suite *s, const sl_config *c, double *at_most);

/* More threads than the cores granted, on a machine busy or held back
 * while c or its baseline ran (sl_speedup_unjudged's first case). */
int sl_threads_took_others_share(const sl_suite *s, const sl_config *c);

/* The same ratio, base's time over c's, for any two configurations timed
 * in one suite (c as a share of the solution's speed: base is the
 * solution's row); 0 pairs for either not timed, imported, or the same. */
int sl_ratio_paired(const sl_config *base, const sl_config *c, sl_paired *out);

/* Before timing: each valid host configuration's call timed warm (a
 * first call, then calls for a tenth of t->min_time; validation's call
 * also made its arrays), for the fixed count of calls each repetition
 * makes. sl_suite_time does it when the caller has not. */
void sl_suite_calibrate(sl_suite *s, const sl_timing *t);

/* Seconds one repetition of every valid configuration takes (a cycle
 * of the timing's interleaved order, warm-ups left out), from
 * validation's calls: what the budget is divided by. */
double sl_suite_cycle_seconds(const sl_suite *s, const sl_timing *t);

/* The machine's own speed over the run: the slowest stretch of time in
 * which repetitions of every configuration ran slower than their medians
 * together (which other processes' CPU time does not explain when
 * `others` is low); every repetition counts, the left-out ones too. */
typedef struct sl_drift {
    double slowest;         /* that stretch's median time / median, e.g. 1.08 */
    double from, to;        /* seconds after timing began */
    double others;          /* the most other processes used then, cores */
} sl_drift;

/* Fill d; returns 1 when the machine was at least 5% slower for a while. */
int sl_suite_drift(const sl_suite *s, sl_drift *d);

/* Is configuration i the first of its kernel (so per-kernel files are
 * written once)? */
int sl_suite_first_of_kernel(const sl_suite *s, size_t i);

/* The scalar configuration c's speedup is against, or NULL: the solutions'
 * scalar of the same kernel when the suite has one (the runner plans both
 * trees: one baseline for both, measured in the same interleaved run, so
 * equal times read as equal speedups), else its own tree's; for a row
 * imported from another program, this run's own (sl_suite_own_baseline). */
const sl_config *sl_suite_baseline(const sl_suite *s, const sl_config *c);

/* This run's own scalar of kernel k at the strong study (not imported),
 * or NULL: what an imported row is judged and sped up against. */
const sl_config *sl_suite_own_baseline(const sl_suite *s, const sl_kernel *k);

void sl_suite_free(sl_suite *s);

/* "  5 of 6 valid; 1 variant(s) skipped (cuda): why" on f. */
void sl_suite_print_validity(FILE *f, const sl_suite *s, size_t invalid);

/* Threads the OpenMP runtime grants for num_threads(requested). */
int sl_threads_granted(int requested);

/* For --require-device: 0 when an offload device is there and every valid
 * gpu configuration ran on it; otherwise -1 with the reason in why (no
 * device at all, or a gpu variant that fell back to the host). Call it
 * before measuring (suite may be NULL) and again after validation. */
int sl_check_device(const sl_suite *suite, char *why, size_t whylen);

/* Did the OpenMP runtime grant a threaded configuration fewer threads
 * than it asked for (OMP_THREAD_LIMIT, OMP_DYNAMIC)? Its time is then
 * not the thread count it is filed under. */
static inline int sl_config_short_of_threads(const sl_config *c)
{
    return (c->variant->flags & SL_USES_THREADS) && c->threads_used > 0 &&
           c->threads_used < c->problem.threads;
}

/* Why the runtime grants fewer threads than asked: "OMP_THREAD_LIMIT=1",
 * "OMP_DYNAMIC=true", or "the OpenMP runtime". */
const char *sl_threads_short_cause(void);

#endif
