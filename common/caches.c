/* caches.c - cache sizes from sysfs (caches.h). */
#include "caches.h"

#include <stdio.h>

int64_t sl_cache_bytes(int want_level)
{
    int64_t best = 0;
    for (int index = 0; index < 8; index++) {
        char path[96], unit[32] = "";
        int level = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            break;
        int got = fscanf(f, "%d", &level);
        fclose(f);
        if (got != 1 || (want_level > 0 && level != want_level) ||
            (want_level == 0 && level < 2))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
        f = fopen(path, "r");
        if (f == NULL)
            continue;
        long long size = 0;
        got = fscanf(f, "%lld%31s", &size, unit);
        fclose(f);
        if (got < 1 || size <= 0)
            continue;
        int64_t bytes = (int64_t)size * (unit[0] == 'M' ? 1 << 20 : unit[0] == 'K' ? 1 << 10 : 1);
        if (bytes > best)
            best = bytes;
    }
    return best;
}

int64_t sl_past_cache_elements(int64_t most)
{
    int64_t llc = sl_cache_bytes(0);
    if (llc <= 0)
        llc = INT64_C(32) << 20;
    int64_t n = INT64_C(1) << 22;
    while (3 * 8 * n < 4 * llc && n < most)
        n *= 2;
    return n;
}
