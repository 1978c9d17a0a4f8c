/* scalar.c - Monte Carlo pi, one core, one point at a time: the baseline.
 *
 * Built with the auto-vectoriser off, so this is a genuinely scalar loop.
 * Notice: nothing is carried from one point to the next. Point i's x and y
 * are draws 2i and 2i+1 of the counter-based generator, computed from
 * (seed, i) alone, which is what lets every later rung split the loop any
 * way it likes and still count the same points.
 */
#include "montecarlo.h"

int64_t montecarlo_scalar(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    (void)threads;
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    for (int64_t i = 0; i < samples; i++) {
        uint64_t rx = sl_rng_u64(seed, 2 * (uint64_t)i);
        uint64_t ry = sl_rng_u64(seed, 2 * (uint64_t)i + 1);
        inside += montecarlo_inside(rx, ry);
    }
    return inside;
}
