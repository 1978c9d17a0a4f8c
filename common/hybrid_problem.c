/* hybrid_problem.c - the block decomposition and the per-rank references of
 * lesson 6 (common/hybrid_problem.h). No MPI here: rank 0 calls these on
 * each rank's share when the combined answer was wrong, to name the rank.
 */
#include "hybrid_problem.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "fractal_problem.h"
#include "montecarlo_problem.h"
#include "pi_problem.h"

void sl_block(int64_t n, int rank, int ranks, int64_t *first, int64_t *count)
{
    int64_t base = n / ranks, extra = n % ranks;
    *first = (int64_t)rank * base + (rank < extra ? rank : extra);
    *count = base + (rank < extra ? 1 : 0);
}

int sl_pi_share_ok(const sl_problem *p, const sl_share *me, char *why, size_t len)
{
    int64_t first, count;
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    const double h = 1.0 / (double)p->size;
    double sum = 0.0;
    for (int64_t i = first; i < first + count; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    double expected = h * sum, error = fabs(me->sum - expected);
    /* A block's rounding error is at most the whole sum's. */
    if (error <= pi_tolerance(p->size))
        return 1;
    snprintf(why, len, "its steps %" PRId64 "..%" PRId64 " sum to %.17g, expected %.17g",
             first, first + count - 1, me->sum, expected);
    return 0;
}

int sl_montecarlo_share_ok(const sl_problem *p, const sl_share *me, char *why, size_t len)
{
    int64_t first, count;
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    int64_t inside = montecarlo_reference_range(first, count, p->seed);
    if (me->hits == inside)
        return 1;
    snprintf(why, len, "%" PRId64 " of its points %" PRId64 "..%" PRId64
             " inside, expected %" PRId64, me->hits, first, first + count - 1, inside);
    return 0;
}

int sl_fractal_share_ok(const sl_problem *p, const sl_share *me, char *why, size_t len)
{
    const int32_t *ref = fractal_reference(me->def, p);
    if (ref == NULL) {
        snprintf(why, len, "no memory for the reference image");
        return 0;
    }
    const int64_t w = p->size, h = sl_problem_height(p);
    int64_t wrong = 0, first_row = -1;
    for (int64_t k = 0; k < me->rows_done; k++) {
        int64_t j = me->row_of(k, me->rank, me->ranks, h);
        const int32_t *mine = me->rows + k * w, *want = ref + j * w;
        for (int64_t i = 0; i < w; i++)
            if (mine[i] != want[i]) {
                wrong++;
                if (first_row < 0)
                    first_row = j;
            }
    }
    if (wrong == 0)
        return 1;
    snprintf(why, len, "%" PRId64 " wrong pixels in its %" PRId64 " rows, the first in row %" PRId64,
             wrong, me->rows_done, first_row);
    return 0;
}
