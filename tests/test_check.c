/* test_check.c - the pi tolerance accepts correct answers at every size and
 * rejects the usual bugs at the probe size (kernels/pi/pi_problem.c). If the
 * tolerance were loosened until anything passed, this test would fail.
 * The triad's exact check (kernels/triad/triad_problem.c) likewise: right arrays
 * pass, one wrong element, a harmed input or a missing result fails, and
 * the gold values are exact. Lesson 6's block decomposition covers every
 * item once, and its per-rank references accept a right share and name a
 * wrong one (common/hybrid_problem.c). */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "hybrid_problem.h"
#include "montecarlo_problem.h"
#include "pi_problem.h"
#include "triad_problem.h"

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

/* A triad by hand at n elements, checked; `harm` plants one bug. */
enum { TRIAD_RIGHT, TRIAD_LAST_MISSED, TRIAD_B_WRITTEN, TRIAD_SHIFTED };
static sl_verdict triad_by_hand(int64_t n, int harm)
{
    static double a[1009], b[1009], c[1009];
    triad_data d = { a, b, c, n, 1 };
    for (int64_t i = 0; i < n; i++) {
        a[i] = TRIAD_A_BEFORE;
        b[i] = triad_b(i);
        c[i] = triad_c(i);
    }
    for (int64_t i = 0; i < n - (harm == TRIAD_LAST_MISSED); i++)
        a[i] = b[i] + TRIAD_SCALAR * c[harm == TRIAD_SHIFTED && i + 1 < n ? i + 1 : i];
    if (harm == TRIAD_B_WRITTEN)
        b[n / 2] = a[n / 2];
    sl_problem p = { .size = n, .threads = 1 };
    sl_outcome o = { .data = &d };
    return triad_check(&p, &o);
}

static void triad_checks(void)
{
    CHECK(triad_by_hand(1, TRIAD_RIGHT).ok);
    CHECK(triad_by_hand(1009, TRIAD_RIGHT).ok);
    sl_verdict v = triad_by_hand(1009, TRIAD_LAST_MISSED);
    CHECK(!v.ok && v.error == 1.0);
    CHECK(!triad_by_hand(1009, TRIAD_B_WRITTEN).ok);
    CHECK(!triad_by_hand(1009, TRIAD_SHIFTED).ok);
    /* No arrays at all: wrong, never a pass. */
    sl_problem p = { .size = 7, .threads = 1 };
    sl_outcome none = { 0 };
    CHECK(!triad_check(&p, &none).ok);
    /* The gold values are exact: b + 3c with and without a fused
     * multiply-add agree. */
    int exact = 1;
    for (int64_t i = 0; i < 4096; i++)
        exact &= fma(TRIAD_SCALAR, triad_c(i), triad_b(i)) ==
                 triad_b(i) + TRIAD_SCALAR * triad_c(i);
    CHECK(exact);
    CHECK(triad_c(5) == 8.75 && triad_b(1025) == 1.0);
}

/* Blocks tile 0..n exactly, in rank order, sizes within one of each other. */
static void block_checks(void)
{
    static const int64_t ns[] = { 0, 1, 2, 5, 67, 1000003 };
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int ranks = 1; ranks <= 7; ranks++) {
            int64_t next = 0, lo = INT64_MAX, hi = 0, first, count;
            for (int r = 0; r < ranks; r++) {
                sl_block(ns[k], r, ranks, &first, &count);
                CHECK(first == next);
                next = first + count;
                lo = count < lo ? count : lo;
                hi = count > hi ? count : hi;
            }
            CHECK(next == ns[k] && hi - lo <= 1);
        }
    /* A right share passes; one point short, or a sum off by an
     * off-by-one's worth, fails and says so. */
    sl_problem p = { .size = 1000003, .seed = 7 };
    int64_t first, count, inside = 0;
    sl_block(p.size, 1, 3, &first, &count);
    for (int64_t i = first; i < first + count; i++) {
        double x = sl_rng_unit(sl_rng_u64(p.seed, 2 * (uint64_t)i));
        double y = sl_rng_unit(sl_rng_u64(p.seed, 2 * (uint64_t)i + 1));
        inside += x * x + y * y < 1.0;
    }
    char why[200];
    sl_share me = { .rank = 1, .ranks = 3, .hits = inside };
    CHECK(sl_montecarlo_share_ok(&p, &me, why, sizeof why));
    me.hits = inside - 1;
    CHECK(!sl_montecarlo_share_ok(&p, &me, why, sizeof why) && why[0] != '\0');
    double h = 1.0 / (double)p.size, sum = 0.0;
    for (int64_t i = first; i < first + count; i++) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    me.sum = h * sum;
    CHECK(sl_pi_share_ok(&p, &me, why, sizeof why));
    me.sum = h * sum - 2.0 * h;
    CHECK(!sl_pi_share_ok(&p, &me, why, sizeof why));
}

int main(void)
{
    triad_checks();
    block_checks();
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
