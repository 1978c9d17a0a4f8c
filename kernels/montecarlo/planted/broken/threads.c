/* montecarlo/planted/broken/threads.c - a plausible wrong montecarlo_threads, for
 * the tests: point i takes draws i and i+1 instead of 2i and 2i+1, so
 * neighbouring points share a draw. The estimate still looks right (within
 * a few sigma of pi); only the exact count against the reference shows the
 * bug. The bench must flag it, keep it out of the plots and exit 3.
 */
#include "montecarlo/montecarlo.h"

int64_t montecarlo_threads(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
#pragma omp parallel for reduction(+:inside) num_threads(threads)
    for (int64_t i = 0; i < samples; i++) {
        uint64_t rx = sl_rng_u64(seed, (uint64_t)i);
        uint64_t ry = sl_rng_u64(seed, (uint64_t)i + 1);
        inside += montecarlo_inside(rx, ry);
    }
    return inside;
}
