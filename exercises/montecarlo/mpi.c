/* montecarlo.c - lesson 6: Monte Carlo pi over MPI ranks.
 *
 * As written, every rank draws all the points and rank 0 keeps its own
 * count: right, and no faster with more ranks. Give each rank its block
 * of points (step 6.4) and add the counts on rank 0 (step 6.5).
 */
#include "hybrid.h"
#include "montecarlo.h"

#define montecarlo_hybrid_compute SL_TREE_SYMBOL(montecarlo_hybrid_compute)
#define montecarlo_hybrid_combine SL_TREE_SYMBOL(montecarlo_hybrid_combine)
#define montecarlo_hybrid SL_TREE_SYMBOL(montecarlo_hybrid)

int montecarlo_hybrid_compute(const sl_problem *p, sl_share *me)
{
    int64_t first = 0, count = p->size, inside = 0;
    // TODO(6.4): only this rank's block of points (as in step 6.2); its
    //            first point's counter is then sl_rng_counter(seed, 2 * first).
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
    (void)comm;
    // TODO(6.5): add every rank's me->hits into total on rank 0
    //            (MPI_INT64_T, MPI_SUM).
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
