/* pi.c - lesson 6: pi over MPI ranks, threads and lanes inside each.
 *
 * BEGIN SOLUTION HEADER
 * Each rank integrates one contiguous block of the steps with lesson 1's
 * threads_simd loop; MPI_Reduce adds the ranks' sums on rank 0. The sum
 * is added in a different order than on one process (per lane, per
 * thread, per rank), so the answer differs in its last bits: it is held to
 * pi's tolerance, not to the single-process bits.
 * EXERCISE HEADER
 * As written, every rank integrates all the steps and rank 0 keeps its
 * own answer: right, and no faster with more ranks. Give each rank its
 * block (step 6.2) and add the blocks on rank 0 (step 6.3).
 * END SOLUTION HEADER
 */
#include "hybrid.h"
#include "pi.h"

#define pi_hybrid_compute SL_TREE_SYMBOL(pi_hybrid_compute)
#define pi_hybrid_combine SL_TREE_SYMBOL(pi_hybrid_combine)
#define pi_hybrid SL_TREE_SYMBOL(pi_hybrid)

int pi_hybrid_compute(const sl_problem *p, sl_share *me)
{
    const double h = 1.0 / (double)p->size;
    int64_t first = 0, count = p->size;
    /* BEGIN SOLUTION */
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    /* EXERCISE
    // TODO(6.2): only this rank's block: sl_block(p->size, me->rank,
    //            me->ranks, &first, &count) (common/hybrid_problem.h).
    END SOLUTION */
    double sum = 0.0;
    /* Lesson 1's threads_simd, on this rank's block of steps. */
#pragma omp parallel for reduction(+:sum) num_threads(p->threads)
    for (int64_t at = first; at < first + count; at += PI_CHUNK) {
        const int n = pi_chunk(at, first + count);
        const double x0 = (double)at + 0.5;
#pragma omp simd reduction(+:sum)
        for (pi_counter j = 0; j < n; j++) {
            double x = (x0 + j) * h;
            sum += 4.0 / (1.0 + x * x);
        }
    }
    me->sum = h * sum;
    return 0;
}

int pi_hybrid_combine(const sl_problem *p, sl_share *me, MPI_Comm comm, sl_outcome *out)
{
    double total = me->sum;
    int rc = MPI_SUCCESS;
    /* BEGIN SOLUTION */
    rc = MPI_Reduce(&me->sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    /* EXERCISE
    (void)comm;
    // TODO(6.3): add every rank's me->sum into total on rank 0:
    //            MPI_Reduce(..., MPI_DOUBLE, MPI_SUM, 0, comm).
    END SOLUTION */
    out->value = total;
    out->work = (double)p->size;
    out->where = SL_RAN_HOST;
    return rc;
}

/* Lesson 6's table for pi (the tree's hybrid_kernels lists it). */
static const sl_hybrid_variant pi_hybrid_variants[] = {
    { "hybrid", pi_hybrid_compute, pi_hybrid_combine, NULL, NULL },
};

const sl_hybrid_kernel pi_hybrid = {
    &pi_problem, pi_hybrid_variants, SL_HYBRID_COUNT(pi_hybrid_variants), sl_pi_share_ok,
};
