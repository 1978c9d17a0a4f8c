/* hybrid_problem.c - lesson 6's block decomposition (common/hybrid_problem.h).
 * Each kernel's per-rank reference is its own (kernels/<kernel>/). */
#include "hybrid_problem.h"

void sl_block(int64_t n, int rank, int ranks, int64_t *first, int64_t *count)
{
    int64_t base = n / ranks, extra = n % ranks;
    *first = (int64_t)rank * base + (rank < extra ? rank : extra);
    *count = base + (rank < extra ? 1 : 0);
}
