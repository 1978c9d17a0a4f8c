/* quiet.h - how quiet the machine was while something was timed: the CPU
 * time that *other* processes used, from the kernel's count of busy time on
 * every CPU (/proc/stat, steal time included: a hypervisor's other guests
 * interfere too) minus this process's own (getrusage).
 *
 * Steady load from another process shifts a whole configuration's times
 * and leaves its spread low, so a coefficient of variation cannot see it;
 * this can. The bench flags a repetition as disturbed, the runner holds
 * back its speed verdicts. Where the system does not count busy time
 * (platform.h: the POSIX fallback) the answer is "not measured", never
 * "quiet".
 */
#ifndef SPEEDLAB_QUIET_H
#define SPEEDLAB_QUIET_H

/* A repetition is disturbed when others used more than this share of one
 * core on average while it ran... */
#define SL_BUSY_CORES 0.25
/* ...and more than this many CPU-seconds in all: the kernel counts CPU
 * time in ticks of 10 ms, so a shorter window cannot tell a quarter of a
 * core from rounding. */
#define SL_BUSY_MIN_SECONDS 0.03
/* So a window shorter than this cannot tell a busy machine from a quiet
 * one: a measurement judged on its own keeps going until it lasts this
 * long (a preempted calibration can leave its runs far shorter than
 * planned). */
#define SL_QUIET_MIN_WINDOW (SL_BUSY_MIN_SECONDS / SL_BUSY_CORES)

/* Threads of this process a mark follows one by one; more are not counted. */
#define SL_QUIET_THREADS 64

typedef struct sl_quiet_mark {
    int ok;             /* 0: not measurable here */
    double wall;        /* seconds (sl_now) */
    double all_busy;    /* CPU-seconds every process used, all CPUs */
    double self;        /* CPU-seconds this process used */
    int nthreads;       /* -1: per-thread CPU not measurable here */
    int tid[SL_QUIET_THREADS];
    double thread_cpu[SL_QUIET_THREADS]; /* CPU-seconds each has run */
} sl_quiet_mark;

/* Read the counters now. */
void sl_quiet_mark_now(sl_quiet_mark *m);

/* The same, counting only the CPUs i with on[i] nonzero (i < n): the CPUs
 * a set of processes may use, e.g. one node's ranks (lesson 6), so that
 * other processes elsewhere on the machine do not count. */
void sl_quiet_mark_on(sl_quiet_mark *m, const unsigned char *on, int n);

/* CPU-seconds other processes used between two marks (>= 0), or -1 when
 * either mark could not be read. */
double sl_quiet_others(const sl_quiet_mark *from, const sl_quiet_mark *to);

/* Is a window of `wall` seconds in which others used `others` CPU-seconds
 * disturbed (see SL_BUSY_CORES)? */
int sl_quiet_disturbed(double others, double wall);

/* Is the window opened at `from` still shorter than SL_QUIET_MIN_WINDOW?
 * A measurement keeps running while it is, so that its mark means
 * something (its sl_sample keeps the first SL_MAX_REPS runs). */
int sl_quiet_too_short(const sl_quiet_mark *from);

/* A repetition in which this process itself ran for less than this share
 * of one core was stalled: the bench was stopped (SIGSTOP, Ctrl-Z), its
 * virtual machine suspended, its CPU quota spent. A CPU-bound variant
 * keeps at least one core busy whatever its threads do, and other
 * processes' CPU does not show any of these. */
#define SL_STALL_SHARE 0.5

/* CPU-seconds this process used between two marks, or -1. */
double sl_quiet_self(const sl_quiet_mark *from, const sl_quiet_mark *to);

/* The CPU-seconds that this process's busiest thread ran between two
 * marks, or -1. On cores of its own a parallel loop takes about this
 * long however much of the machine others took meanwhile; threads that
 * idle while one works do not shorten it. */
double sl_quiet_busiest(const sl_quiet_mark *from, const sl_quiet_mark *to);

/* Is a window of `wall` seconds in which this process used `self`
 * CPU-seconds stalled? (self < 0: not measured, so no.) */
int sl_quiet_stalled(double self, double wall);

/* The whole machine's speed: windows of this many consecutive repetitions
 * (interleaved, from at least SL_DRIFT_CONFIGS configurations) whose
 * median repetition is SL_DRIFT_SLOWER than its configuration's median
 * ran while the machine itself was slower (a neighbour on a shared host,
 * the clock): the bench leaves those repetitions out and times them again. */
#define SL_DRIFT_WINDOW 24
#define SL_DRIFT_CONFIGS 4
#define SL_DRIFT_SLOWER 1.05

#endif
