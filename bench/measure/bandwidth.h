/* bandwidth.h - the memory roof: sustained bandwidth of a = b + s*c over
 * arrays well past the last-level cache, on 1 thread and on every core,
 * with plain stores and with non-temporal ones (the faster kept). The
 * report's roofline and the memory ceiling of a kernel that declares its
 * bytes (sl_problem_def.bytes_moved) stand on it.
 *
 * Bytes are counted one way, everywhere in the kit: those the loop itself
 * reads and writes, each once (a = b + s*c: 24 an element), as STREAM and
 * likwid-bench count them. A plain store also reads the line it writes
 * first (write-allocate), which the count leaves out: where non-temporal
 * stores are the faster (the roof is then theirs), a loop with plain
 * stores reaches at most (reads + writes) / (reads + 2 writes) of it
 * (a = b + s*c: 24/32), and a loop with non-temporal stores all of it.
 */
#ifndef SPEEDLAB_BANDWIDTH_H
#define SPEEDLAB_BANDWIDTH_H

#include <stdint.h>

/* Passes per probe call and thread count (quick: fewer). */
#define SL_BANDWIDTH_RUNS 12

typedef struct sl_bandwidth {
    int measured;            /* times probed; 0: never (or no memory) */
    int64_t elements;        /* per array; 3 arrays */
    int threads[2];          /* 1, and every core */
    double bytes_per_s[2];   /* the loop's bytes per second (24 an element) */
    double spread[2];        /* (max - min) / median of the runs */
    int nontemporal[2];      /* 1: non-temporal stores were the faster */
    int disturbed[2];        /* a pooled pass ran while other processes
                                used the CPU (quiet.h): the roof may be low */
    /* Every kept pass of every call, in the loop's bytes per second: the
     * figures above are their median. */
    double pass[2][2 * SL_BANDWIDTH_RUNS];
    int npass[2];
} sl_bandwidth;

/* Probe (about a quarter of a second; quick: fewer runs). Called again
 * (the bench probes before and after the timing), it pools the passes:
 * the memory's bandwidth on a shared host swings by 2x from second to
 * second (neighbours share it), so the roof is the median of both calls,
 * comparable with the kernels' medians, not the luckier call's peak. */
void sl_measure_bandwidth(sl_bandwidth *b, int quick);

/* Is the roof of every core (k 1) or of one thread (k 0) suspect: taken
 * while others used the CPU, or every core's below one thread's? */
int sl_bandwidth_disturbed(const sl_bandwidth *b, int k);

/* The bandwidth t threads can expect: t times one thread's, at most every
 * core's. 0 when not measured. */
double sl_bandwidth_for(const sl_bandwidth *b, int threads);

#endif
