/* test_rng.c - the counter-based generator (common/rng.h) and the Monte
 * Carlo point test (kernels/montecarlo/montecarlo_problem.h).
 *
 * Known answers: Rosetta Code's "Pseudo-random numbers/Splitmix64" task,
 * which quotes the sequential SplitMix64 of Vigna's splitmix64.c: seed
 * 1234567 gives 6457827717110365317, 3203168211198807973,
 * 9817491932198370423, 4593380528125082431, 16408922859458223821; seed
 * 987654321, floor(5 * next_float()) over 100000 draws, gives the counts
 * 20027, 19892, 20073, 19978, 20030.
 * Statistics: mean, variance, a chi-square on bins, a serial correlation
 * and the Monte Carlo estimate itself, with thresholds a broken generator
 * cannot meet and a good one meets with near certainty (the seeds are
 * fixed, so the outcome is deterministic anyway).
 */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "montecarlo_problem.h"
#include "rng.h"

/* The sequential form, written independently of rng.h: add gamma, mix. */
typedef struct { uint64_t state; } splitmix;

static uint64_t splitmix_next(splitmix *g)
{
    uint64_t z = (g->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void test_known_answers(void)
{
    static const uint64_t want[5] = {
        UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
        UINT64_C(9817491932198370423), UINT64_C(4593380528125082431),
        UINT64_C(16408922859458223821),
    };
    splitmix g = { 1234567 };
    for (int k = 0; k < 5; k++) {
        CHECK(sl_rng_u64(1234567, (uint64_t)k) == want[k]);
        CHECK(splitmix_next(&g) == want[k]);
    }
    /* The published bin counts (their next_float divides 64 bits by 2^64;
     * ours keeps the top 53 bits: the same bin for all these draws). */
    static const long long bins_want[5] = { 20027, 19892, 20073, 19978, 20030 };
    long long bins[5] = { 0 };
    for (uint64_t k = 0; k < 100000; k++)
        bins[(int)(sl_rng_unit(sl_rng_u64(987654321, k)) * 5.0)]++;
    for (int b = 0; b < 5; b++)
        CHECK_EQ_LL(bins[b], bins_want[b]);
}

/* Draw k from the counter equals the k-th number of the sequential
 * generator, far into the stream and where the state wraps past 2^64. */
static void test_counter_is_the_stream(void)
{
    const uint64_t seeds[] = { 0, 42, UINT64_MAX, UINT64_MAX - 3 * SL_RNG_GAMMA };
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        splitmix g = { seeds[s] };
        for (uint64_t k = 0; k < 10000; k++)
            if (splitmix_next(&g) != sl_rng_u64(seeds[s], k)) {
                CHECK(!"counter draw differs from the stream");
                break;
            }
    }
}

static void test_unit(void)
{
    CHECK(sl_rng_unit(0) == 0.0);
    CHECK(sl_rng_unit(UINT64_MAX) == 1.0 - 0x1.0p-53);
    CHECK(sl_rng_unit(UINT64_MAX) < 1.0);
    CHECK(sl_rng_unit(UINT64_C(1) << 63) == 0.5);
    /* Only the top 53 bits count: the low 11 cannot move the value. */
    CHECK(sl_rng_unit(UINT64_C(0x7ff)) == 0.0);
    CHECK(sl_rng_unit(UINT64_C(0x800)) == 0x1.0p-53);
}

/* Each fast inside test equals x*x + y*y < 1 on sl_rng_unit's doubles: on
 * the boundary's neighbours and on a million random pairs. */
static int textbook_inside(uint64_t rx, uint64_t ry)
{
    double x = sl_rng_unit(rx), y = sl_rng_unit(ry);
    return x * x + y * y < 1.0;
}

typedef int inside_fn(uint64_t rx, uint64_t ry);

static void test_inside(inside_fn *inside)
{
    const uint64_t one = UINT64_C(1) << 11; /* one step of the 53-bit grid */
    const uint64_t top = UINT64_MAX & ~(one - 1);
    CHECK(inside(0, 0) == 1);
    CHECK(inside(top, 0) == 1);       /* x = 1 - 2^-53 */
    CHECK(inside(top, top) == 0);
    CHECK(inside(UINT64_C(1) << 63, UINT64_C(1) << 63) == 1); /* 0.5, 0.5 */
    /* Points a few grid steps either side of the circle, where rounding
     * decides: x = 0.6, y on both sides of 0.8. */
    uint64_t ax = (uint64_t)(0.6 * 0x1.0p53) << 11;
    uint64_t ay = (uint64_t)(0.8 * 0x1.0p53) << 11;
    int mismatches = 0, in = 0, out = 0;
    for (int d = -64; d <= 64; d++) {
        /* Odd steps also set the low bits the test must ignore. */
        uint64_t ry = ay + (uint64_t)(int64_t)d * one + (uint64_t)(d & 1) * (one - 1);
        int fast = inside(ax, ry), slow = textbook_inside(ax, ry);
        mismatches += fast != slow;
        in += slow;
        out += !slow;
    }
    CHECK_EQ_LL(mismatches, 0);
    CHECK(in > 0 && out > 0); /* the scan really crossed the circle */
    for (uint64_t k = 0; k < 1000000; k++) {
        uint64_t rx = sl_rng_u64(99, 2 * k), ry = sl_rng_u64(99, 2 * k + 1);
        mismatches += inside(rx, ry) != textbook_inside(rx, ry);
    }
    CHECK_EQ_LL(mismatches, 0);
}

/* Mean, variance and a 100-bin chi-square of n draws, and the correlation
 * of consecutive draws. With 99 degrees of freedom chi-square has mean 99
 * and standard deviation 14: we accept [20, 190], each end over 5 standard
 * deviations out, so a constant, a counter (too even: chi-square near 0)
 * or a generator stuck in part of [0, 1) fails. */
static void test_statistics(uint64_t seed)
{
    enum { N = 1000000, BINS = 100 };
    static long long bins[BINS];
    double sum = 0.0, sumsq = 0.0, lag = 0.0, prev = 0.0;
    for (int b = 0; b < BINS; b++)
        bins[b] = 0;
    for (uint64_t k = 0; k < N; k++) {
        double u = sl_rng_unit(sl_rng_u64(seed, k));
        sum += u;
        sumsq += u * u;
        bins[(int)(u * BINS)]++;
        lag += k ? (u - 0.5) * (prev - 0.5) : 0.0;
        prev = u;
    }
    double mean = sum / N, var = sumsq / N - mean * mean;
    /* sd of the mean: sqrt(1/12/N) = 2.9e-4; of the variance ~9e-5 */
    CHECK(fabs(mean - 0.5) < 1.5e-3);
    CHECK(fabs(var - 1.0 / 12.0) < 5e-4);
    double chi2 = 0.0, expect = (double)N / BINS;
    for (int b = 0; b < BINS; b++)
        chi2 += (bins[b] - expect) * (bins[b] - expect) / expect;
    CHECK(chi2 > 20.0 && chi2 < 190.0);
    /* Consecutive draws independent: lag-1 covariance ~ 0 (sd 1/12/sqrt(N)
     * = 8e-5); x and y of a point are consecutive draws. */
    CHECK(fabs(lag / (N - 1)) < 5e-4);
}

/* The estimate itself, for several seeds: each within 6 sigma of pi, and
 * the errors spread like a normal's (the sum of squared z-scores of 16
 * seeds is chi-square with 16 degrees of freedom, mean 16, sd 5.7; we
 * accept [2, 50]: an estimator far too good, such as a grid, fails too). */
static void test_estimates(void)
{
    enum { SEEDS = 16 };
    const int64_t n = 4000000;
    double sigma = montecarlo_sigma(n), sumz2 = 0.0;
    CHECK(fabs(sigma * sqrt((double)n) - 1.642) < 1e-3);
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        int64_t inside = montecarlo_reference(n, seed * UINT64_C(0x1000003));
        double z = (4.0 * (double)inside / (double)n - SL_PI) / sigma;
        CHECK(fabs(z) <= 6.0);
        sumz2 += z * z;
    }
    CHECK(sumz2 > 2.0 && sumz2 < 50.0);
}

int main(void)
{
    test_known_answers();
    test_counter_is_the_stream();
    test_unit();
    test_inside(montecarlo_inside_cleared);
    test_inside(montecarlo_inside_shifted);
    test_statistics(0);
    test_statistics(UINT64_C(0x5eed5eed5eed5eed));
    test_estimates();
    return CHECK_DONE();
}
