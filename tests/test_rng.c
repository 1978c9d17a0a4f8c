/* test_rng.c - the counter-based generator (common/philox.h): published
 * known-answer vectors, the exact [0, 1) conversion, and a statistical
 * sanity check whose thresholds a broken generator cannot pass.
 *
 * Known answers: Random123's kat_vectors file (D. E. Shaw Research,
 * github.com/DEShawResearch/random123, examples/kat_vectors), the three
 * "philox4x32 10" lines: counter (4 words), key (2 words), output (4 words).
 */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "philox.h"

static const struct {
    uint32_t ctr[4], key[2], out[4];
} kat[] = {
    { { 0, 0, 0, 0 }, { 0, 0 },
      { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
    { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, { 0xffffffff, 0xffffffff },
      { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
    { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 }, { 0xa4093822, 0x299f31d0 },
      { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
};

static void test_known_answers(void)
{
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        uint32_t out[4];
        sl_philox4x32_10(kat[k].ctr, kat[k].key, out);
        for (int w = 0; w < 4; w++)
            CHECK_EQ_LL(out[w], kat[k].out[w]);
    }
}

static void test_u01(void)
{
    CHECK(sl_u01(0) == 0.0);
    CHECK(sl_u01(UINT64_MAX) == 1.0 - 0x1.0p-53);
    CHECK(sl_u01(UINT64_MAX) < 1.0);
    CHECK(sl_u01(UINT64_C(1) << 63) == 0.5);
    /* Only the top 53 bits count: the low 11 cannot move the value. */
    CHECK(sl_u01(UINT64_C(0x7ff)) == 0.0);
    CHECK(sl_u01(UINT64_C(0x800)) == 0x1.0p-53);
}

/* Mean, variance and a 100-bin chi-square of n draws of x and of y from one
 * seed. With 99 degrees of freedom chi-square has mean 99 and standard
 * deviation 14: we accept [20, 190] (each end is over 5 standard deviations
 * out), so a constant, a counter (too even: chi-square near 0) or a
 * generator stuck in part of [0, 1) fails, and a good one passes with
 * certainty for these fixed seeds. */
static void test_statistics(uint64_t seed)
{
    enum { N = 1000000, BINS = 100 };
    static long long bins[2][BINS];
    double sum[2] = { 0, 0 }, sumsq[2] = { 0, 0 }, sumxy = 0.0;
    long long outside = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < BINS; b++)
            bins[a][b] = 0;
    for (uint64_t i = 0; i < N; i++) {
        double v[2];
        sl_random_point(seed, i, &v[0], &v[1]);
        outside += !(v[0] >= 0.0 && v[0] < 1.0 && v[1] >= 0.0 && v[1] < 1.0);
        for (int a = 0; a < 2; a++) {
            sum[a] += v[a];
            sumsq[a] += v[a] * v[a];
            bins[a][(int)(v[a] * BINS)]++;
        }
        sumxy += v[0] * v[1];
    }
    CHECK_EQ_LL(outside, 0);
    for (int a = 0; a < 2; a++) {
        double mean = sum[a] / N, var = sumsq[a] / N - mean * mean;
        /* sd of the mean: sqrt(1/12/N) = 2.9e-4; of the variance ~ 9e-5 */
        CHECK(fabs(mean - 0.5) < 1.5e-3);
        CHECK(fabs(var - 1.0 / 12.0) < 5e-4);
        double chi2 = 0.0, expect = (double)N / BINS;
        for (int b = 0; b < BINS; b++)
            chi2 += (bins[a][b] - expect) * (bins[a][b] - expect) / expect;
        CHECK(chi2 > 20.0 && chi2 < 190.0);
    }
    /* x and y independent: covariance ~ 0 (sd 1/12/sqrt(N) = 8e-5). */
    CHECK(fabs(sumxy / N - (sum[0] / N) * (sum[1] / N)) < 5e-4);
}

int main(void)
{
    test_known_answers();
    test_u01();
    test_statistics(0);
    test_statistics(UINT64_C(0x5eed5eed5eed5eed));
    return CHECK_DONE();
}
