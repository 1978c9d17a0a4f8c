/* probe.h - loops that issue one packed instruction at its peak rate
 * (probe.c); ceiling.c times them. Each runs reps x its chains packed
 * operations of SPEEDLAB_SIMD_LANES lanes and returns a checksum. */
#ifndef SPEEDLAB_PROBE_H
#define SPEEDLAB_PROBE_H

#include <stdint.h>

enum { SL_PROBE_FMA_CHAINS = 12, SL_PROBE_DIVIDE_CHAINS = 8, SL_PROBE_MUL64_CHAINS = 8 };

double sl_probe_fma(int64_t reps);
double sl_probe_divide(int64_t reps);
double sl_probe_mul64(int64_t reps);

#endif
