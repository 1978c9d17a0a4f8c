/* data_race.c - the classic race in pi's threaded loop, and the two slow
 * cures, measured (`make data-race`, course/01-pi.md, step 1.3).
 *
 *  - shared_sum: every thread adds into the one sum without a reduction.
 *    Two threads read the same old sum, both add, one write wins: steps
 *    are lost and the answer changes from run to run. (The read and the
 *    write are relaxed atomics, so the race is in the logic and not
 *    undefined behaviour; participants' `sum +=` without reduction loses
 *    steps the same way, and `make racecheck` finds it.) On one thread it
 *    is right, which is why such bugs survive a laptop test.
 *  - critical: the addition in a critical section: right, and every step
 *    queues for one lock.
 *  - atomic: `omp atomic` on the addition: right, and every step queues
 *    for one cache line.
 * The reference rows are the solutions' scalar and threads (reduction:
 * each thread its private sum, combined once).
 */
#include "data_race.h"

#include <stdatomic.h>

double pi_shared_sum(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    _Atomic double sum = 0.0;
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        double old = atomic_load_explicit(&sum, memory_order_relaxed);
        atomic_store_explicit(&sum, old + 4.0 / (1.0 + x * x), memory_order_relaxed);
    }
    return h * atomic_load_explicit(&sum, memory_order_relaxed);
}

double pi_critical(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        double term = 4.0 / (1.0 + x * x);
#pragma omp critical
        sum += term;
    }
    return h * sum;
}

double pi_atomic(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        double term = 4.0 / (1.0 + x * x);
#pragma omp atomic
        sum += term;
    }
    return h * sum;
}
