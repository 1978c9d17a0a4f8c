/* montecarlo/planted/broken/mpi.c - a broken lesson 6 Monte Carlo for the tests:
 * rank 1 stops 16 points short of the end of its block, the kind of slip a
 * hand-written decomposition makes (16, not 1: a lost point changes the
 * count only when it was inside, and 16 in a row outside the circle have
 * a chance of 2e-11). Every other rank is right,
 * so rank 0 must name rank 1, exit 3, and no rank may hang. */
#include "hybrid.h"
#include "montecarlo/montecarlo.h"

#define montecarlo_hybrid_compute SL_TREE_SYMBOL(montecarlo_hybrid_compute)
#define montecarlo_hybrid_combine SL_TREE_SYMBOL(montecarlo_hybrid_combine)
#define montecarlo_hybrid SL_TREE_SYMBOL(montecarlo_hybrid)

int montecarlo_hybrid_compute(const sl_problem *p, sl_share *me)
{
    int64_t first, count, inside = 0;
    sl_block(p->size, me->rank, me->ranks, &first, &count);
    if (me->rank == 1)
        count = count > 16 ? count - 16 : 0;
    uint64_t z = sl_rng_counter(p->seed, 2 * (uint64_t)first);
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
    int64_t total = 0;
    int rc = MPI_Reduce(&me->hits, &total, 1, MPI_INT64_T, MPI_SUM, 0, comm);
    out->hits = total;
    out->value = montecarlo_estimate(total, p->size);
    out->work = (double)p->size;
    out->where = SL_RAN_HOST;
    return rc;
}

static const sl_hybrid_variant montecarlo_hybrid_variants[] = {
    { "hybrid", montecarlo_hybrid_compute, montecarlo_hybrid_combine, NULL, NULL },
};

const sl_hybrid_kernel montecarlo_hybrid = {
    &montecarlo_problem, montecarlo_hybrid_variants,
    SL_HYBRID_COUNT(montecarlo_hybrid_variants), sl_montecarlo_share_ok,
};
