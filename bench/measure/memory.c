/* memory.c - the memory a run may still allocate (memory.h). */
#define _GNU_SOURCE
#include "memory.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* MemAvailable from /proc/meminfo, in bytes; -1 when absent. */
static int64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib < 0 ? -1 : (int64_t)kib * 1024;
}

/* This process's address space (VmSize) in bytes; -1 when unknown. */
static int64_t address_space_used(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long long pages = -1;
    if (f) {
        if (fscanf(f, "%lld", &pages) != 1)
            pages = -1;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    return pages < 0 || page <= 0 ? -1 : (int64_t)pages * page;
}

int64_t sl_memory_available(const char **from)
{
    int64_t best = mem_available();
    *from = "available memory (MemAvailable)";
    struct rlimit lim;
    int64_t used = address_space_used();
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY && used >= 0) {
        int64_t left = (int64_t)lim.rlim_cur - used;
        if (left < 0)
            left = 0;
        if (best < 0 || left < best) {
            best = left;
            *from = "the address-space limit (ulimit -v, prlimit --as)";
        }
    }
    return best;
}
