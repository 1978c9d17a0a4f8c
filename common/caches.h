/* caches.h - this machine's cache sizes, read from sysfs, for sizes that
 * must sit in a cache or well past it (the triad's, the bandwidth probe's).
 */
#ifndef SPEEDLAB_CACHES_H
#define SPEEDLAB_CACHES_H

#include <stdint.h>

/* cpu0's cache of that level in bytes (level 0: the last level, the
 * largest at level 2 or above); 0 when sysfs does not say. */
int64_t sl_cache_bytes(int level);

/* How many CPUs share cpu0's data cache of that level (1: a core's own;
 * 1 when sysfs does not say). */
int sl_cache_shared_by(int level);

/* The elements n of a double array such that three of them (a triad's)
 * are at least 4x the last-level cache (32 MiB assumed when unknown): the
 * smallest power of two, at least 2^22, at most `most`. */
int64_t sl_past_cache_elements(int64_t most);

#endif
