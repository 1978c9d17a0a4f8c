/* threads.c - pi on several cores, one number at a time per core.
 *
 * The scalar loop, to be shared between threads (an argument, so the
 * harness can sweep it). Every step adds into one sum: what does that
 * need when several threads add at once? (step 1.3)
 */
#include "pi.h"

double pi_threads(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    (void)threads;
    // TODO(1.3): share the loop between `threads` threads with
    //            omp parallel for; make sum a reduction, not a race.
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}
