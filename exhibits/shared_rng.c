/* shared_rng.c - Monte Carlo pi with generators that keep state, run in a
 * parallel loop: what goes wrong, measured (`make shared-rng`).
 *
 *  - rand: C's rand() keeps one hidden state for the whole process. glibc
 *    guards it with a lock, so every draw of every thread queues for it:
 *    two threads are slower than one, and which thread gets which number
 *    depends on timing, so the count changes from run to run.
 *  - shared_state: a SplitMix64 state shared by the threads, read and
 *    advanced without a lock (relaxed atomics, so the race is in the logic
 *    and not undefined behaviour). Threads read the same state and draw
 *    the same numbers: points repeat, others are skipped, and the count
 *    changes from run to run. On one thread it is the sequential generator
 *    and gives the reference's answer, which is why such bugs survive
 *    testing on a laptop.
 *  - per_thread_seed: each thread its own generator, seeded seed + thread
 *    number. No race, as fast as it gets, reproducible for one thread
 *    count, but a different answer for every thread count.
 * The cure (the montecarlo lesson): a counter-based generator, where point
 * i is a pure function of (seed, i).
 *
 * These variants pass only the statistical check (6 sigma): each estimate
 * is plausible on its own. The exhibit's point is that they disagree with
 * each other, across thread counts and runs.
 */
#include "shared_rng.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>

int64_t mc_rand(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    srand((unsigned)seed);
#pragma omp parallel for reduction(+:inside) num_threads(threads)
    for (int64_t i = 0; i < samples; i++) {
        double x = rand() / ((double)RAND_MAX + 1.0);
        double y = rand() / ((double)RAND_MAX + 1.0);
        inside += x * x + y * y < 1.0;
    }
    return inside;
}

int64_t mc_shared_state(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
    _Atomic uint64_t state = seed;
#pragma omp parallel for reduction(+:inside) num_threads(threads)
    for (int64_t i = 0; i < samples; i++) {
        /* Read, add, write back: another thread may do the same between
         * the read and the write. */
        uint64_t zx = atomic_load_explicit(&state, memory_order_relaxed) + SL_RNG_GAMMA;
        atomic_store_explicit(&state, zx, memory_order_relaxed);
        uint64_t zy = atomic_load_explicit(&state, memory_order_relaxed) + SL_RNG_GAMMA;
        atomic_store_explicit(&state, zy, memory_order_relaxed);
        inside += montecarlo_inside(sl_rng_mix(zx), sl_rng_mix(zy));
    }
    return inside;
}

int64_t mc_per_thread_seed(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
#pragma omp parallel reduction(+:inside) num_threads(threads)
    {
        uint64_t state = seed + (uint64_t)omp_get_thread_num();
#pragma omp for
        for (int64_t i = 0; i < samples; i++) {
            uint64_t zx = (state += SL_RNG_GAMMA);
            uint64_t zy = (state += SL_RNG_GAMMA);
            inside += montecarlo_inside(sl_rng_mix(zx), sl_rng_mix(zy));
        }
    }
    return inside;
}
