/* caches.c - cache sizes from sysfs (caches.h). */
#include "caches.h"

#include <stdio.h>
#include <unistd.h>

/* One line of cpu0's cache index `index`, file `what`, into buf; 0, or -1
 * when sysfs does not have it. */
static int index_read(int index, const char *what, char *buf, int len)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, what);
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
    return 1;
}

/* Physical memory in bytes; 0 when the system does not say. A fixed
 * figure, not what is free now, so that the size is the same every run. */
static int64_t memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (int64_t)pages * page : 0;
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
