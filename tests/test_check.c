/* test_check.c - the pi tolerance accepts correct answers at every size and
 * rejects the usual bugs at the probe size (common/pi_problem.c). If the
 * tolerance were loosened until anything passed, this test would fail. */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "pi_problem.h"

/* Midpoint rule, sequential; `skip_last` and `left` plant the classic bugs. */
static double midpoint(int64_t n, int skip_last, int left)
{
    double h = 1.0 / (double)n, sum = 0.0;
    for (int64_t i = 0; i < n - skip_last; i++) {
        double x = ((double)i + (left ? 0.0 : 0.5)) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return h * sum;
}

static int ok_at(int64_t n, double value)
{
    sl_problem p = { .size = n, .threads = 1 };
    sl_outcome o = { .value = value, .work = (double)n, .where = SL_RAN_HOST };
    return pi_problem.check(&p, &o).ok;
}

int main(void)
{
    static const int64_t sizes[] = { 1, 2, 3, 7, 8, 9, 1009, 1000003, 10000019 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        CHECK(ok_at(sizes[i], midpoint(sizes[i], 0, 0)));

    int64_t probe = pi_problem.probe_size;
    /* The probe size is where bugs show: the tolerance is tight there. */
    CHECK(pi_tolerance(probe) < 1e-8);
    CHECK(!ok_at(probe, midpoint(probe, 1, 0)));      /* off by one */
    CHECK(!ok_at(probe, midpoint(probe, 0, 1)));      /* left rule */
    CHECK(!ok_at(probe, 0.5 * midpoint(probe, 0, 0))); /* lost half the updates */
    CHECK(!ok_at(probe, NAN));
    CHECK(!ok_at(probe, INFINITY));
    CHECK(!ok_at(3, 3.0));                             /* a guess: error 0.14 > 1/27 */

    /* Truncation bound: N = 1 gives 3.2, error 0.058, within 1/3. */
    CHECK(ok_at(1, 3.2));
    CHECK(fabs(pi_tolerance(1) - (1.0 / 3.0)) < 1e-12);
    /* The allowance grows with N (rounding), never below the truncation. */
    CHECK(pi_tolerance(1000000000) > pi_tolerance(1000000));
    return CHECK_DONE();
}
