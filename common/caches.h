/* caches.h - this machine's cache sizes, read from sysfs, for sizes that
 * must sit in a cache or well past it (the triad's, the bandwidth probe's).
 */
#ifndef SPEEDLAB_CACHES_H
#define SPEEDLAB_CACHES_H

#include <stdint.h>

/* cpu0's cache of that level in bytes (level 0: the last level, the
 * largest at level 2 or above); 0 when sysfs does not say. Where sysfs
 * has no cache folder at all (some VMs), a core's own levels 1 and 2
 * come from CPUID (sysconf's _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE);
 * not L3 (a VM's CPUID gives the socket's), and level 0 stays 0. */
int64_t sl_cache_bytes(int level);

/* How many CPUs share cpu0's data cache of that level (1: a core's own;
 * 1 when sysfs does not say). */
int sl_cache_shared_by(int level);

/* The elements n of a double array such that three of them (a triad's)
 * are at least 4x the last-level cache (32 MiB assumed when unknown): the
 * smallest power of two, at least 2^22, at most `most`, and, past 2^22,
 * the three at most 1/16 of the memory this process may have (the
 * physical memory, or its cgroup's limit: then they may be less than 4x a
 * large L3: 768 MiB for 480 MiB on a 24 GiB machine). */
int64_t sl_past_cache_elements(int64_t most);

/* The same rule for a last-level cache of llc bytes (0: unknown) and
 * memory bytes of memory (0: unknown, no bound). */
int64_t sl_past_cache_fit(int64_t llc, int64_t memory, int64_t most);

/* The lowest memory limit of this process's cgroup and its parents, read
 * as self lists them (/proc/self/cgroup) under root (/sys/fs/cgroup):
 * cgroup v2's memory.max, v1's memory.limit_in_bytes; 0 when none. */
int64_t sl_cgroup_memory_limit(const char *self, const char *root);

#endif
