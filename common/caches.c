/* caches.c - cache sizes from sysfs (or CPUID through the C library where
 * sysfs hides them), and the memory a cgroup allows (caches.h). */
#include "caches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One line of cpu0's cache index `index`, file `what`, into buf; 0, or -1
 * when sysfs does not have it. Under $SPEEDLAB_SYSFS_ROOT when set (a
 * planted tree, as bench/run/platform.c reads). */
static int index_read(int index, const char *what, char *buf, int len)
{
    char path[1024];
    const char *root = getenv("SPEEDLAB_SYSFS_ROOT");
    snprintf(path, sizeof path, "%.900s/devices/system/cpu/cpu0/cache/index%d/%s",
             root && root[0] ? root : "/sys", index, what);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int ok = fgets(buf, len, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

/* The level of index `index`: 0 for an instruction cache (no data lives
 * there), -1 past the last index. */
static int index_level(int index)
{
    char buf[32];
    int level = 0;
    if (index_read(index, "level", buf, sizeof buf) != 0)
        return -1;
    if (sscanf(buf, "%d", &level) != 1)
        return 0;
    if (index_read(index, "type", buf, sizeof buf) == 0 && buf[0] == 'I')
        return 0;
    return level;
}

static int64_t index_bytes(int index)
{
    char buf[32], unit[32] = "";
    long long size = 0;
    if (index_read(index, "size", buf, sizeof buf) != 0 ||
        sscanf(buf, "%lld%31s", &size, unit) < 1 || size <= 0)
        return 0;
    return (int64_t)size * (unit[0] == 'M' ? 1 << 20 : unit[0] == 'K' ? 1 << 10 : 1);
}

/* What the C library says of a level's data cache (glibc asks CPUID on
 * x86), 0 when it does not. */
static int64_t libc_bytes(int level)
{
    long v = 0;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    v = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE : _SC_LEVEL2_CACHE_SIZE);
#else
    (void)level;
#endif
    return v > 0 ? (int64_t)v : 0;
}

/* Does sysfs describe cpu0's caches at all? */
static int sysfs_knows(void)
{
    return index_level(0) >= 0;
}

int64_t sl_cache_bytes(int want_level)
{
    int64_t best = 0;
    for (int index = 0, level; index < 8 && (level = index_level(index)) >= 0; index++) {
        if ((want_level > 0 && level != want_level) || (want_level == 0 && level < 2))
            continue;
        int64_t bytes = index_bytes(index);
        if (bytes > best)
            best = bytes;
    }
    /* Some VMs hide sysfs's cache folder (CPUID still knows). A core's
     * own levels only: a VM's CPUID gives the whole socket's L3 (512 MiB
     * on a Zen 5 EPYC, of which a 2-vCPU guest may use a slice), which
     * would call arrays of hundreds of MiBs cache-resident. */
    if (best == 0 && (want_level == 1 || want_level == 2) && !sysfs_knows())
        best = libc_bytes(want_level);
    return best;
}

int sl_cache_shared_by(int want_level)
{
    for (int index = 0, level; index < 8 && (level = index_level(index)) >= 0; index++) {
        char list[256];
        if (level != want_level || index_read(index, "shared_cpu_list", list, sizeof list) != 0)
            continue;
        /* "0-1,4-5": count the CPUs of each range. */
        int count = 0, from, to, used;
        for (const char *p = list; sscanf(p, "%d%n", &from, &used) == 1; ) {
            p += used;
            to = from;
            if (*p == '-' && sscanf(p + 1, "%d%n", &to, &used) == 1)
                p += 1 + used;
            count += to >= from ? to - from + 1 : 1;
            if (*p != ',')
                break;
            p++;
        }
        return count > 0 ? count : 1;
    }
    /* From CPUID (sl_cache_bytes): a core's own L1 and L2. */
    return 1;
}

/* The lower of two limits, 0 meaning none. */
static int64_t lower(int64_t a, int64_t b)
{
    return a > 0 && (b <= 0 || a < b) ? a : b;
}

/* The number in dir/file ("max" or none: 0). */
static int64_t limit_in(const char *dir, const char *file)
{
    char path[600], buf[64];
    long long v = 0;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(buf, sizeof buf, f) == NULL || sscanf(buf, "%lld", &v) != 1)
        v = 0;
    fclose(f);
    return v > 0 ? (int64_t)v : 0;
}

/* The lowest limit `file` sets in base + cg and in each of its parents. */
static int64_t lowest_up(const char *base, const char *cg, const char *file)
{
    char dir[512];
    size_t at = strlen(base);
    int64_t best = 0;
    if (snprintf(dir, sizeof dir, "%s%s", base, cg) >= (int)sizeof dir)
        return 0;
    for (;;) {
        best = lower(limit_in(dir, file), best);
        char *slash = strrchr(dir + at, '/');
        if (slash == NULL)
            return best;
        *slash = '\0';
    }
}

int64_t sl_cgroup_memory_limit(const char *self, const char *root)
{
    FILE *f = fopen(self, "r");
    char line[600], base[300];
    int64_t best = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        /* "ID:CONTROLLERS:PATH": v2's is "0::PATH", v1's memory one names
         * memory among its controllers. */
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL)
            continue;
        *c2 = '\0';
        const char *file = NULL, *ctl = c1 + 1;
        if (*ctl == '\0' && strcmp(line, "0:") == 0) {
            snprintf(base, sizeof base, "%s", root);
            file = "memory.max";
        }
        for (size_t n; *ctl && file == NULL; ctl += n + (ctl[n] == ','))
            if ((n = strcspn(ctl, ",")) == 6 && strncmp(ctl, "memory", 6) == 0) {
                snprintf(base, sizeof base, "%s/memory", root);
                file = "memory.limit_in_bytes";
            }
        if (file != NULL)
            best = lower(lowest_up(base, c2 + 1, file), best);
    }
    if (f != NULL)
        fclose(f);
    return best;
}

/* The memory this process may have: the physical memory, or its cgroup's
 * limit where lower (a SLURM job's --mem, a container's --memory); 0 when
 * the system does not say. A set figure, not what is free now, so that
 * the size is the same every run. */
static int64_t memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    int64_t bytes = pages > 0 && page > 0 ? (int64_t)pages * page : 0;
    return lower(sl_cgroup_memory_limit("/proc/self/cgroup", "/sys/fs/cgroup"), bytes);
}

int64_t sl_past_cache_fit(int64_t llc, int64_t memory, int64_t most)
{
    if (llc <= 0)
        llc = INT64_C(32) << 20;
    /* A runner holds two sets of arrays (the variant's and the
     * reference's) and the memory probe a third, beside other programs:
     * a server's L3 (480 MiB on a 24 GiB VM here) would otherwise ask for
     * 3 GiB arrays, 9.5 GB a run. */
    int64_t room = memory / 16;
    int64_t n = INT64_C(1) << 22;
    while (3 * 8 * n < 4 * llc && n < most && (room <= 0 || 3 * 8 * (2 * n) <= room))
        n *= 2;
    return n;
}

int64_t sl_past_cache_elements(int64_t most)
{
    return sl_past_cache_fit(sl_cache_bytes(0), memory_bytes(), most);
}
