/* pi/planted/broken/threads.c - a deliberately wrong pi_threads for the tests: it
 * skips the last step, an error of about 2/N that the check must catch at
 * the probe size. tests/CMakeLists.txt builds it into a "broken" tree to
 * prove that the bench flags it, leaves it out of the plots and exits 3. */
#include "pi/pi.h"

double pi_threads(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
#pragma omp parallel for reduction(+:sum) num_threads(threads)
    for (int64_t i = 0; i < steps - 1; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
