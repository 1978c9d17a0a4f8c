/* test_caches.c - the size "past the caches" (common/caches.h) that the
 * triad and the memory probe use: 4x the last-level cache, bounded by the
 * memory, on machines described by their cache and memory sizes.
 */
#include <stdint.h>

#include "caches.h"
#include "check.h"

#define MIB (INT64_C(1) << 20)
#define GIB (INT64_C(1) << 30)
#define MOST (INT64_C(1) << 33)

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
    return CHECK_DONE();
}
