/* probe.h - loops that issue one packed instruction at its peak rate
 * (probe.c); ceiling.c times them. Each runs reps x its chains packed
 * operations of SPEEDLAB_SIMD_LANES lanes and returns a checksum. */
#ifndef SPEEDLAB_PROBE_H
#define SPEEDLAB_PROBE_H

#include <stdint.h>

#include "speedlab_config.h"

enum { SL_PROBE_FMA_CHAINS = 12, SL_PROBE_DIVIDE_CHAINS = 8, SL_PROBE_MUL64_CHAINS = 8,
       SL_PROBE_VECTOR_CHAINS = 12 };

double sl_probe_fma(int64_t reps);
double sl_probe_divide(int64_t reps);
/* The same divides in vectors of SL_PROBE_HALF_LANES lanes (half the
 * build's; one in a build of one or two): a core's divider may do more
 * lanes a second in narrower vectors (lesson 1). */
#define SL_PROBE_HALF_LANES (SPEEDLAB_SIMD_LANES >= 2 ? SPEEDLAB_SIMD_LANES / 2 : 1)
double sl_probe_divide_half(int64_t reps);
double sl_probe_mul64(int64_t reps);
double sl_probe_vector(int64_t reps);
/* The same xors in vectors of SL_PROBE_HALF_LANES lanes: a core may issue
 * more narrower instructions a cycle (mca_report.c counts each width's). */
double sl_probe_vector_half(int64_t reps);

/* The clock: reps x SL_PROBE_CLOCK_ADDS integer adds, each waiting for the
 * one before (one cycle each on every x86-64 and aarch64 core), so
 * cycles = adds; returns the chain's end. -1 where the kit has no such
 * chain for this CPU (the clock is then not measured). */
enum { SL_PROBE_CLOCK_ADDS = 32 };
/* No core runs that chain faster (the fastest boost to 6.2 GHz): a clock
 * above this is a chain the core shortened, and is not kept. */
#define SL_PROBE_CLOCK_MOST_HZ 7e9
double sl_probe_clock(int64_t reps);

/* A floor under that clock: no x86-64 core issues more than 2 FMA
 * instructions a cycle (two FMA pipes: Intel since Haswell, AMD's Zen
 * cores), and no aarch64 core more than 4 (Apple's M cores, Arm's
 * Neoverse V), so a core that ran F of them a second ran at least
 * F / SL_PROBE_MOST_FMAS cycles a second. A chain waits on every add, and
 * something a virtual machine cannot see can slow it while the vector
 * pipes run on: a clean clone's CI read a clock at which its AVX2 xors
 * ran 6.03 a cycle, half again what any core issues. */
#if defined(__x86_64__)
#define SL_PROBE_MOST_FMAS 2.0
#else
#define SL_PROBE_MOST_FMAS 4.0
#endif

#endif
