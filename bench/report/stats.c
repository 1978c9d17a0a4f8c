/* stats.c - Mann-Whitney U and a bootstrap of a ratio of medians (stats.h).
 *
 * Checked in tests/test_stats.c against values computed by hand and from
 * the U distribution's known tables.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sample.h"

/* U for a: pairs (a_i, b_j) with a_i > b_j, ties counting a half. Sets
 * *ties when any value occurs in both samples or twice. */
static double u_statistic(const double *a, int m, const double *b, int n, int *ties)
{
    double u = 0.0;
    *ties = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            if (a[i] > b[j])
                u += 1.0;
            else if (a[i] == b[j])
                u += 0.5, *ties = 1;
        }
    return u;
}

/* P(U <= u) under the null hypothesis, exactly: count[m][n][k] is the
 * number of orderings of m a's and n b's with U = k, from
 * count(m, n, k) = count(m - 1, n, k - n) + count(m, n - 1, k). */
static double exact_cdf(int m, int n, int u)
{
    int w = m * n + 1;
    double *count = calloc((size_t)(m + 1) * (size_t)(n + 1) * (size_t)w, sizeof *count);
    if (count == NULL)
        return -1.0;
#define C(i, j, k) count[((size_t)(i) * (size_t)(n + 1) + (size_t)(j)) * (size_t)w + (size_t)(k)]
    for (int i = 0; i <= m; i++)
        for (int j = 0; j <= n; j++) {
            if (i == 0 || j == 0) {
                C(i, j, 0) = 1.0;
                continue;
            }
            for (int k = 0; k <= i * j; k++)
                C(i, j, k) = (k >= j ? C(i - 1, j, k - j) : 0.0) + C(i, j - 1, k);
        }
    double below = 0.0, total = 0.0;
    for (int k = 0; k < w; k++) {
        total += C(m, n, k);
        if (k <= u)
            below += C(m, n, k);
    }
#undef C
    free(count);
    return below / total;
}

/* Sum of t^3 - t over groups of equal values in the pooled sample. */
static double tie_term(const double *a, int m, const double *b, int n)
{
    int N = m + n;
    double *all = malloc((size_t)N * sizeof *all), sum = 0.0;
    if (all == NULL)
        return 0.0;
    memcpy(all, a, (size_t)m * sizeof *all);
    memcpy(all + m, b, (size_t)n * sizeof *all);
    sl_median(all, N);  /* sorts */
    for (int i = 0; i < N;) {
        int j = i;
        while (j < N && all[j] == all[i])
            j++;
        double t = j - i;
        sum += t * t * t - t;
        i = j;
    }
    free(all);
    return sum;
}

double sl_mann_whitney_p(const double *a, int m, const double *b, int n)
{
    int ties;
    double u = u_statistic(a, m, b, n, &ties);
    double p;
    if (!ties && m <= SL_MW_EXACT_MAX && n <= SL_MW_EXACT_MAX) {
        double lo = exact_cdf(m, n, (int)u);           /* P(U <= u) */
        double hi = 1.0 - exact_cdf(m, n, (int)u - 1); /* P(U >= u) */
        if (lo >= 0.0 && hi <= 1.0) {
            p = 2.0 * (lo < hi ? lo : hi);
            return p > 1.0 ? 1.0 : p;
        }
    }
    /* Normal approximation with the tie correction and continuity. */
    double N = m + n, mu = 0.5 * m * n;
    double var = (double)m * n / 12.0 * ((N + 1.0) - tie_term(a, m, b, n) / (N * (N - 1.0)));
    if (var <= 0.0)
        return 1.0;
    double z = (fabs(u - mu) - 0.5) / sqrt(var);
    p = z > 0.0 ? erfc(z / sqrt(2.0)) : 1.0;
    return p > 1.0 ? 1.0 : p;
}

/* The median of a resample of x[0..n) drawn with draws start, start+1, ... */
static double resample_median(const double *x, int n, uint64_t seed, uint64_t start,
                              double *work)
{
    for (int i = 0; i < n; i++)
        work[i] = x[sl_rng_u64(seed, start + (uint64_t)i) % (uint64_t)n];
    return sl_median(work, n);
}

void sl_bootstrap_ratio(const double *a, int m, const double *b, int n, int resamples,
                        uint64_t seed, double *low, double *high)
{
    double *ratio = malloc((size_t)resamples * sizeof *ratio);
    double *work = malloc((size_t)(m > n ? m : n) * sizeof *work);
    if (ratio == NULL || work == NULL || resamples < 40) {
        free(ratio);
        free(work);
        *low = *high = NAN;
        return;
    }
    uint64_t draw = 0;
    for (int r = 0; r < resamples; r++) {
        double ma = resample_median(a, m, seed, draw, work);
        draw += (uint64_t)m;
        double mb = resample_median(b, n, seed, draw, work);
        draw += (uint64_t)n;
        ratio[r] = mb / ma;
    }
    sl_median(ratio, resamples);  /* sorts */
    *low = ratio[(int)(0.025 * resamples)];
    *high = ratio[(int)(0.975 * resamples) - 1];
    free(ratio);
    free(work);
}
