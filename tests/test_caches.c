/* test_caches.c - the size "past the caches" (common/caches.h) that the
 * triad and the memory probe use: 4x the last-level cache, bounded by the
 * memory, on machines described by their cache and memory sizes; and the
 * memory a cgroup (a SLURM job, a container) allows, from fake trees.
 * And the cache sizes of a VM that hides sysfs's cache folder: from CPUID
 * (the C library's sysconf) for levels 1 and 2, where a planted sysfs with
 * a cache folder wins.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "caches.h"
#include "check.h"

#define MIB (INT64_C(1) << 20)
#define GIB (INT64_C(1) << 30)
#define MOST (INT64_C(1) << 33)

/* Write text to the file at top/rel, making its folders. */
static void put(const char *top, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", top, rel);
    for (char *p = path + strlen(top) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

/* A job's memory limit, from fake /proc/self/cgroup and /sys/fs/cgroup
 * trees: the lowest on the way up counts; "max" and unlimited v1 values
 * are no limit below the physical memory. */
static void test_cgroup_limit(void)
{
    char top[] = "/tmp/speedlab-caches.XXXXXX", self[600], root[600];
    if (mkdtemp(top) == NULL) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(self, sizeof self, "%s/self", top);
    snprintf(root, sizeof root, "%s/fs", top);
    /* v2, a SLURM step in a job with --mem=2G. */
    put(top, "self", "0::/job_7/step_0\n");
    put(top, "fs/memory.max", "max\n");
    put(top, "fs/job_7/memory.max", "2147483648\n");
    put(top, "fs/job_7/step_0/memory.max", "max\n");
    CHECK_EQ_LL(sl_cgroup_memory_limit(self, root), INT64_C(2147483648));
    /* v1 (this VM's kind): the memory line among others, 4 GiB below an
     * unlimited parent. */
    put(top, "self", "9:name=systemd:/\n4:memory:/slurm/job_8\n1:cpu,cpuacct:/\n");
    put(top, "fs/memory/slurm/memory.limit_in_bytes", "9223372036854771712\n");
    put(top, "fs/memory/slurm/job_8/memory.limit_in_bytes", "4294967296\n");
    CHECK_EQ_LL(sl_cgroup_memory_limit(self, root), INT64_C(4294967296));
    /* No limit set anywhere, no memory controller, no file: none. */
    put(top, "self", "0::/free\n");
    CHECK_EQ_LL(sl_cgroup_memory_limit(self, root), 0);
    put(top, "self", "3:cpuset:/x\n");
    CHECK_EQ_LL(sl_cgroup_memory_limit(self, root), 0);
    CHECK_EQ_LL(sl_cgroup_memory_limit("/nonexistent/cgroup", root), 0);
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf '%s'", top);
    CHECK(system(rm) == 0);
}

/* A planted sysfs without a cache folder: CPUID's sizes; with one: its. */
static void test_cache_sources(void)
{
    char top[] = "/tmp/speedlab-sysfs.XXXXXX";
    CHECK(mkdtemp(top) != NULL);
    setenv("SPEEDLAB_SYSFS_ROOT", top, 1);
#ifdef _SC_LEVEL1_DCACHE_SIZE
    long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l1 > 0 && l2 > 0) {
        CHECK_EQ_LL(sl_cache_bytes(1), l1);
        CHECK_EQ_LL(sl_cache_bytes(2), l2);
        CHECK_EQ_LL(sl_cache_shared_by(1), 1);
    } else {
        printf("test_caches: this C library knows no cache sizes: CPUID's half untested\n");
    }
#endif
    CHECK_EQ_LL(sl_cache_bytes(0), 0);      /* the last level never from CPUID */
    CHECK_EQ_LL(sl_cache_bytes(3), 0);      /* nor L3: a VM's CPUID gives the socket's */
    put(top, "devices/system/cpu/cpu0/cache/index0/level", "1\n");
    put(top, "devices/system/cpu/cpu0/cache/index0/type", "Data\n");
    put(top, "devices/system/cpu/cpu0/cache/index0/size", "32K\n");
    put(top, "devices/system/cpu/cpu0/cache/index1/level", "2\n");
    put(top, "devices/system/cpu/cpu0/cache/index1/type", "Unified\n");
    put(top, "devices/system/cpu/cpu0/cache/index1/size", "2048K\n");
    put(top, "devices/system/cpu/cpu0/cache/index1/shared_cpu_list", "0-1\n");
    CHECK_EQ_LL(sl_cache_bytes(1), 32 * 1024);
    CHECK_EQ_LL(sl_cache_bytes(2), 2 * MIB);
    CHECK_EQ_LL(sl_cache_bytes(3), 0);      /* sysfs says there is none */
    CHECK_EQ_LL(sl_cache_shared_by(2), 2);
    unsetenv("SPEEDLAB_SYSFS_ROOT");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    CHECK(system(cmd) == 0);
}

int main(void)
{
    /* A laptop or a Zen 4 CCD, 32 MiB of L3: 3 x 64 MiB, the memory no bound. */
    CHECK_EQ_LL(sl_past_cache_fit(32 * MIB, 16 * GIB, MOST), INT64_C(1) << 23);
    /* Unknown caches count as 32 MiB. */
    CHECK_EQ_LL(sl_past_cache_fit(0, 16 * GIB, MOST), INT64_C(1) << 23);
    /* A server's 480 MiB L3 wants 2^27 (3 GiB); the three arrays stop at
     * 1/16 of the memory: 2^26 (1.5 GiB) in 24 GiB, 2^25 in the 23.4 GiB
     * a "24 GiB" VM's kernel counts. */
    CHECK_EQ_LL(sl_past_cache_fit(480 * MIB, 24 * GIB, MOST), INT64_C(1) << 26);
    CHECK_EQ_LL(sl_past_cache_fit(480 * MIB, 23 * GIB + 400 * MIB, MOST), INT64_C(1) << 25);
    /* With 256 GiB, 4x the cache is reached first; unknown memory bounds nothing. */
    CHECK_EQ_LL(sl_past_cache_fit(480 * MIB, 256 * GIB, MOST), INT64_C(1) << 27);
    CHECK_EQ_LL(sl_past_cache_fit(480 * MIB, 0, MOST), INT64_C(1) << 27);
    /* The floor and the ceiling hold against both. */
    CHECK_EQ_LL(sl_past_cache_fit(480 * MIB, 1 * GIB, MOST), INT64_C(1) << 22);
    CHECK_EQ_LL(sl_past_cache_fit(2 * MIB, 16 * GIB, MOST), INT64_C(1) << 22);
    CHECK_EQ_LL(sl_past_cache_fit(480 * MIB, 0, INT64_C(1) << 24), INT64_C(1) << 24);
    /* This machine's size obeys its own rule. */
    int64_t here = sl_past_cache_elements(MOST);
    CHECK(here >= INT64_C(1) << 22 && here <= MOST && (here & (here - 1)) == 0);
    test_cgroup_limit();
    test_cache_sources();
    return CHECK_DONE();
}
