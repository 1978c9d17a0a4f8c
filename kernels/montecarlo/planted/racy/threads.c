/* montecarlo/planted/racy/threads.c - a racy Monte Carlo, on purpose:
 * solutions/montecarlo/threads.c without its reduction, so every thread
 * adds into one shared count. Built into the "racy" tree beside the pi
 * races (tests/CMakeLists.txt); e2e.racecheck checks that `make racecheck`
 * names it in plain words, and never says "no data race" beside it. */
#include "montecarlo/montecarlo.h"

int64_t montecarlo_threads(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < samples; i++) {
        uint64_t rx = sl_rng_u64(seed, 2 * (uint64_t)i);
        uint64_t ry = sl_rng_u64(seed, 2 * (uint64_t)i + 1);
        inside += montecarlo_inside(rx, ry);
    }
    return inside;
}
