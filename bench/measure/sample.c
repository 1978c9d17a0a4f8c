/* sample.c - median, interval and spread of repeated timings (sample.h). */
#include "sample.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

double sl_now(void)
{
    return omp_get_wtime();
}

void sl_sample_add(sl_sample *s, double v)
{
    if (s->n < SL_MAX_REPS)
        s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void sl_sort(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
}

double sl_median(double *v, int n)
{
    sl_sort(v, n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double sl_robust_sd(double *v, int n, double center)
{
    for (int k = 0; k < n; k++)
        v[k] = fabs(v[k] - center);
    return 1.4826 * sl_median(v, n);
}

/* The median lies below the (k+1)-th smallest of n times with probability
 * P(Binomial(n, 1/2) <= k), whatever the distribution of the times, so
 * [x(k+1), x(n-k)] covers it with 1 - 2 P(B <= k). */
double sl_median_ci(const double *sorted, int n, double *low, double *high)
{
    double pk = ldexp(1.0, -n);   /* P(B = k), from k = 0 */
    double tail = pk;             /* P(B <= k) */
    int k = 0;
    /* Move in from [min, max] while the coverage stays at least 95%. */
    while (k + 1 <= (n - 1) / 2) {
        double next = pk * (double)(n - k) / (double)(k + 1);
        if (1.0 - 2.0 * (tail + next) < 0.95)
            break;
        pk = next;
        tail += next;
        k++;
    }
    *low = sorted[k];
    *high = sorted[n - 1 - k];
    return 1.0 - 2.0 * tail;
}

double sl_precision(double median, double low, double high)
{
    return median > 0.0 ? fmax(median - low, high - median) / median : 0.0;
}

double sl_runs_z(const double *v, int n)
{
    double sorted[SL_MAX_REPS];
    if (n < 2 || n > SL_MAX_REPS)
        return 0.0;
    memcpy(sorted, v, (size_t)n * sizeof *sorted);
    double median = sl_median(sorted, n);
    int above = 0, below = 0, runs = 0, last = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] == median)
            continue;
        int side = v[i] > median ? 1 : -1;
        above += side > 0;
        below += side < 0;
        runs += side != last;
        last = side;
    }
    double m = above + below, ab = 2.0 * above * below;
    if (above == 0 || below == 0 || m < 3)
        return 0.0;
    double expected = ab / m + 1.0, variance = ab * (ab - m) / (m * m * (m - 1.0));
    return variance > 0.0 ? (runs - expected) / sqrt(variance) : 0.0;
}

void sl_sample_summarise(sl_sample *s)
{
    double sorted[SL_MAX_REPS], var = 0.0;
    int n = s->n;
    memcpy(sorted, s->v, (size_t)n * sizeof *sorted);
    s->median = sl_median(sorted, n);
    s->min = sorted[0];
    s->max = sorted[n - 1];
    s->mean = 0.0;
    for (int i = 0; i < n; i++)
        s->mean += sorted[i] / n;
    for (int i = 0; i < n; i++)
        var += (sorted[i] - s->mean) * (sorted[i] - s->mean);
    s->stddev = n > 1 ? sqrt(var / (n - 1)) : 0.0;
    s->cv = s->mean > 0.0 ? s->stddev / s->mean : 0.0;
    s->ci_level = sl_median_ci(sorted, n, &s->ci_low, &s->ci_high);
}

int sl_nearest_start(const double *start, const unsigned char *skip, int n, double at)
{
    int best = -1;
    for (int j = 0; j < n && j < SL_MAX_REPS; j++)
        if (!(skip && skip[j]) && (best < 0 || fabs(start[j] - at) < fabs(start[best] - at)))
            best = j;
    return best;
}

int sl_pair_ratios(const double *slow_s, const double *slow_start, const unsigned char *slow_skip,
                   int nslow, const double *fast_s, const double *fast_start,
                   const unsigned char *fast_skip, int nfast, sl_paired *out)
{
    double ratio[SL_MAX_REPS];
    int n = 0;
    memset(out, 0, sizeof *out);
    unsigned char skip[SL_MAX_REPS];
    for (int j = 0; j < nslow && j < SL_MAX_REPS; j++)
        skip[j] = (slow_skip && slow_skip[j]) || !(slow_s[j] > 0.0);
    for (int i = 0; i < nfast && i < SL_MAX_REPS; i++) {
        if ((fast_skip && fast_skip[i]) || !(fast_s[i] > 0.0))
            continue;
        int best = sl_nearest_start(slow_start, skip, nslow, fast_start[i]);
        if (best >= 0)
            ratio[n++] = slow_s[best] / fast_s[i];
    }
    if (n == 0)
        return 0;
    out->n = n;
    out->median = sl_median(ratio, n);   /* sorts ratio */
    out->level = sl_median_ci(ratio, n, &out->low, &out->high);
    double dev[SL_MAX_REPS];
    for (int k = 0; k < n; k++)
        dev[k] = log(ratio[k] / out->median);
    out->spread = sl_robust_sd(dev, n, 0.0);
    return n;
}
