/* montecarlo.c - lesson 6: Monte Carlo pi over MPI ranks.
 *
 * BEGIN SOLUTION HEADER
 * Point i is drawn from the counter (seed, i) wherever it is computed, so
 * rank r draws the points of its block, starting at that block's counter,
 * with lesson 4's threads_simd loop; MPI_Reduce adds the counts. An
 * integer sum does not depend on its order: the count is exactly the
 * single-process reference's for any number of ranks and threads.
 * EXERCISE HEADER
 * As written, every rank draws all the points and rank 0 keeps its own
 * count: right, and no faster with more ranks. Give each rank its block
 * of points (step 6.4) and add the counts on rank 0 (step 6.5).
 * END SOLUTION HEADER
 */
#include "hybrid.h"
#include "montecarlo.h"

#define montecarlo_hybrid_compute SL_TREE_SYMBOL(montecarlo_hybrid_compute)
#define montecarlo_hybrid_combine SL_TREE_SYMBOL(montecarlo_hybrid_combine)
#define montecarlo_hybrid SL_TREE_SYMBOL(montecarlo_hybrid)

int montecarlo_hybrid_compute(const sl_problem *p, sl_share *me)
{
    int64_t first = 0, count = p->size, inside = 0;
    /* BEGIN SOLUTION */
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    /* EXERCISE
    // TODO(6.4): only this rank's block of points (as in step 6.2); its
    //            first point's counter is then sl_rng_counter(seed, 2 * first).
    END SOLUTION */
    uint64_t z = sl_rng_counter(p->seed, 2 * (uint64_t)first);
#pragma omp parallel for simd reduction(+:inside) linear(z: MC_COUNTER_STEP) \
    num_threads(p->threads)
    for (int64_t i = 0; i < count; i++) {
        inside += montecarlo_inside(sl_rng_mix(z), sl_rng_mix(z + SL_RNG_GAMMA));
        z += MC_COUNTER_STEP;
    }
    me->hits = inside;
    return 0;
}

int montecarlo_hybrid_combine(const sl_problem *p, sl_share *me, MPI_Comm comm,
                              sl_outcome *out)
{
    int64_t total = me->hits;
    int rc = MPI_SUCCESS;
    /* BEGIN SOLUTION */
    rc = MPI_Reduce(&me->hits, &total, 1, MPI_INT64_T, MPI_SUM, 0, comm);
    /* EXERCISE
    (void)comm;
    // TODO(6.5): add every rank's me->hits into total on rank 0
    //            (MPI_INT64_T, MPI_SUM).
    END SOLUTION */
    out->hits = total;
    out->value = montecarlo_estimate(total, p->size);
    out->work = (double)p->size;
    out->where = SL_RAN_HOST;
    return rc;
}

/* Lesson 6's table for Monte Carlo (the tree's hybrid_kernels lists it). */
static const sl_hybrid_variant montecarlo_hybrid_variants[] = {
    { "hybrid", montecarlo_hybrid_compute, montecarlo_hybrid_combine, NULL, NULL },
};

const sl_hybrid_kernel montecarlo_hybrid = {
    &montecarlo_problem, montecarlo_hybrid_variants,
    SL_HYBRID_COUNT(montecarlo_hybrid_variants), sl_montecarlo_share_ok,
};
