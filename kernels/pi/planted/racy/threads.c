/* pi/planted/racy/threads.c - the classic race, on purpose: solutions/pi/
 * threads.c with its reduction removed, so every thread adds into one
 * shared sum. tests/CMakeLists.txt builds it into a "racy" tree, and
 * e2e.racecheck checks that `make racecheck` reports it, in plain words, at
 * the line of the sum. */
#include "pi/pi.h"

double pi_threads(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
