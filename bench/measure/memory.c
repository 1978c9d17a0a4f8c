/* memory.c - the memory a run may still allocate (memory.h). */
#include "memory.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "platform.h"

int64_t sl_memory_available(const char **from)
{
    int64_t best = sl_memory_free();
    *from = "available memory (MemAvailable)";
    struct rlimit lim;
    /* Where the system does not say what this process uses (the POSIX
     * fallback), the limit itself is the bound. */
    int64_t used = sl_address_space_used();
    if (used < 0)
        used = 0;
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
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
