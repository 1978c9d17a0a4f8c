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
/* The memory's passes pooled over a run's calls (before and after the
 * timing, and those between its cycles: ceiling.h). */
#define SL_BANDWIDTH_POOLED (16 * SL_BANDWIDTH_RUNS)

/* The cache levels with a roof of their own: L1, L2, L3. */
#define SL_CACHE_LEVELS 3

/* The roofs a probe measures (a bench: those its rows stand under). */
enum { SL_ROOF_MEMORY = 1u, SL_ROOF_CACHES = 2u };

/* A cache level's roof: the same loop with plain stores (a line in cache
 * is written where it lives) over half the level, at most 4x the level
 * below (sl_cache_probe_bytes), repeated inside one parallel region so
 * that no fork or join is timed, each thread over arrays of its own; the
 * compiler's loop and, with AVX-512, one of 512-bit vectors, the faster
 * kept. A private level is each thread's own (every core: each its
 * half); a shared one is split. */
typedef struct sl_cache_roof {
    int64_t cache_bytes;     /* one core's share of it, or the shared whole;
                                0: sysfs does not name this level */
    int shared_by;           /* CPUs sharing it (1: each core's own) */
    int64_t elements[2];     /* per array, in all (every thread's part) */
    double bytes_per_s[2];   /* 1 thread, every core: the faster call's */
    int disturbed[2];
    double window[2];        /* seconds that call's quiet window lasted */
} sl_cache_roof;

typedef struct sl_bandwidth {
    int measured;            /* times probed; 0: never */
    unsigned roofs;          /* those asked for (SL_ROOF_MEMORY, SL_ROOF_CACHES) */
    int64_t elements;        /* per array; 3 arrays; 0: the memory not probed */
    int threads[2];          /* 1, and every core */
    double bytes_per_s[2];   /* the loop's bytes per second (24 an element) */
    double spread[2];        /* (max - min) / median of the runs */
    int nontemporal[2];      /* 1: non-temporal stores were the faster */
    int disturbed[2];        /* a pooled pass ran while other processes
                                used the CPU (quiet.h): the roof may be low */
    double window[2];        /* seconds the shortest call's quiet window lasted */
    /* Every kept pass of every call, in the loop's bytes per second: the
     * figures above are their median. */
    double pass[2][SL_BANDWIDTH_POOLED];
    int npass[2];
    sl_cache_roof cache[SL_CACHE_LEVELS]; /* cache[0] is L1 */
    /* The last call's own figures, apart from the pooled and kept ones:
     * [0] the memory's, [level] a cache's; [.][k] 1 thread, every core;
     * 0 where that call did not probe it (ceiling.h's watch reads them). */
    double last[SL_CACHE_LEVELS + 1][2];
} sl_bandwidth;

/* Probe the roofs named (both: 2.5 s on a Zen 4; quick: 1.5 s): the
 * memory, then every cache level sysfs names, each window at least
 * quiet.h's SL_QUIET_MIN_WINDOW long (more passes when the planned ones
 * end sooner). Called again (the bench probes before and after the
 * timing), it pools the memory's passes: its bandwidth on a shared host
 * swings by 2x from second to second (neighbours share it), so that roof
 * is the median of every call's passes, comparable with the kernels'
 * medians, not the luckier call's peak. A cache is a core's own, where load only
 * slows: its roof is the faster call's. */
void sl_measure_bandwidth(sl_bandwidth *b, int quick, unsigned roofs);

/* The cache levels' sizes as sysfs gives them, and the thread counts, with
 * nothing measured: what sl_cache_level_of needs before a probe. */
void sl_bandwidth_sizes(sl_bandwidth *b);

/* Is the roof of every core (k 1) or of one thread (k 0) suspect: taken
 * while others used the CPU, or every core's below one thread's? */
int sl_bandwidth_disturbed(const sl_bandwidth *b, int k);

/* The bandwidth t threads can expect: t times one thread's, at most every
 * core's. 0 when not measured. */
double sl_bandwidth_for(const sl_bandwidth *b, int threads);

/* The same for cache level `level` (1..3); 0 when not measured. */
double sl_cache_bandwidth_for(const sl_bandwidth *b, int level, int threads);

/* The working set, in bytes (the 3 arrays, every thread's part), that
 * level `level`'s roof is measured over on `threads` threads, one a core:
 * half of what the level holds for them, at most 4x what the level below
 * holds. */
int64_t sl_cache_probe_bytes(const sl_bandwidth *b, int level, int threads);

/* The cache level whose roof a working set of `bytes` on `threads`
 * threads (each its equal part) stands under: the smallest, of those
 * sysfs names, it fits in (a private level holds one thread's part); 0:
 * none, the memory's. By the sizes alone, probed or not. */
int sl_cache_level_of(const sl_bandwidth *b, double bytes, int threads);

#endif
