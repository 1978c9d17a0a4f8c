/* noise.c - the host's noise, from a fixed piece of work timed again and
 * again (noise.h). The compute calls are one chain of dependent
 * multiply-adds (the core's clock and its share of the host), on one core
 * and on every core at once (a 2-vCPU VM's second vCPU is often the
 * noisier: a threaded rung waits for it, scalar never does); the memory
 * calls sum an array past the caches (the memory's share). */
#include "noise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "defaults.h"
#include "sample.h"

/* Each call's length: long enough that the clock's grain is nothing,
 * short enough for many calls in a few seconds. */
#define CALL_S 0.02
/* The memory half's array: past the last-level caches of the machines
 * the kit runs on (32 MiB; a Zen's L3 slice is 32, its whole L3 up to
 * 96 MiB on X3D parts: read as "memory and cache" there). */
#define MEM_DOUBLES (8u << 20)

/* Each call starts from a volatile read and ends in a volatile write,
 * so that the compiler cannot move its pure arithmetic out from between
 * the two clock reads (it did: 0.00 ms a call). */
static volatile double sink, seed = 1.0;

static double compute_call(long steps)
{
    double x = seed;
    for (long i = 0; i < steps; i++)
        x = x * 0.999999 + 1e-6;
    return x;
}

static double memory_call(const double *a, long passes)
{
    double sum = seed - 1.0;
    for (long p = 0; p < passes; p++)
        for (size_t i = 0; i < MEM_DOUBLES; i++)
            sum += a[i];
    return sum;
}

/* Steps (or passes) for about CALL_S, from a first call of `first`. */
static long calls_for(double seconds, long first)
{
    double n = seconds > 0.0 ? ceil(CALL_S / seconds * (double)first) : (double)first;
    return n < 1.0 ? 1 : n > 1e10 ? 10000000000L : (long)n;
}

/* slowest / median - 1 of t[0 .. n) (sorts a copy). */
static double slowest_over_median(const double *t, int n)
{
    double *v = malloc((size_t)n * sizeof *v);
    if (v == NULL || n < 2) {
        free(v);
        return 0.0;
    }
    for (int i = 0; i < n; i++)
        v[i] = t[i];
    double median = sl_median(v, n);   /* sorted: v[n - 1] is the slowest */
    double out = median > 0.0 ? v[n - 1] / median - 1.0 : 0.0;
    free(v);
    return out;
}

/* A robust sd (sample.h) of log(t[k] / t[k + gap]). */
static double pair_spread(const double *t, int n, int gap)
{
    int m = n - gap;
    if (m < 4)
        return 0.0;
    double *d = malloc((size_t)m * sizeof *d);
    if (d == NULL)
        return 0.0;
    for (int k = 0; k < m; k++)
        d[k] = log(t[k] / t[k + gap]);
    double spread = sl_robust_sd(d, m, sl_median(d, m));
    free(d);
    return spread;
}

void sl_noise_measure(sl_noise *n, double seconds)
{
    *n = (sl_noise){ 0 };
    int most = (int)(seconds / (3.0 * CALL_S)) + 2, cores = sl_cores_available();
    double *a = malloc(MEM_DOUBLES * sizeof *a), *t = malloc(3 * (size_t)most * sizeof *t);
    if (a == NULL || t == NULL) {
        free(a), free(t);
        return;
    }
    double *tc = t, *ta = t + most, *tm = t + 2 * most;
    for (size_t i = 0; i < MEM_DOUBLES; i++)
        a[i] = (double)(i & 7);
    /* Sizes from a first call of each (the array's pages are touched). */
    double t0 = sl_now();
    sink = compute_call(100000);
    long steps = calls_for(sl_now() - t0, 100000);
    t0 = sl_now();
    sink = memory_call(a, 1);
    long passes = calls_for(sl_now() - t0, 1);
    double start = sl_now();
    while (n->calls < most && (n->calls < 8 || sl_now() - start < seconds)) {
        t0 = sl_now();
        sink = compute_call(steps);
        double t1 = sl_now();
        #pragma omp parallel num_threads(cores)
        {
            double x = compute_call(steps);
            #pragma omp critical
            sink = x;
        }
        double t2 = sl_now();
        sink = memory_call(a, passes);
        tc[n->calls] = t1 - t0;
        ta[n->calls] = t2 - t1;
        tm[n->calls++] = sl_now() - t2;
    }
    n->cores = cores;
    n->seconds = sl_now() - start;
    double per_call = n->seconds / n->calls;
    int gap = (int)(SL_NOISE_PAIR_S / per_call + 0.5);
    gap = gap < 1 ? 1 : gap > n->calls / 2 ? n->calls / 2 : gap;
    n->slowest = fmax(slowest_over_median(tc, n->calls), slowest_over_median(tm, n->calls));
    n->slowest_all = slowest_over_median(ta, n->calls);
    n->pair = fmax(pair_spread(tc, n->calls, gap), pair_spread(tm, n->calls, gap));
    n->pair_all = pair_spread(ta, n->calls, gap);
    free(a), free(t);
}

/* z with P(Z <= z) = p for a standard normal Z, by bisection. */
static double normal_quantile(double p)
{
    double lo = -10.0, hi = 10.0;
    for (int i = 0; i < 80; i++) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(-mid / sqrt(2.0)) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* The interval's ends are the pairs' order statistics k+1 and n-k
 * (sample.h's sl_median_ci); the (n-k)-th of n normal values lies about
 * Phi^-1((n - k - 0.375) / (n + 0.25)) sds above their median (Blom's
 * approximation): 1.28 sd from 6 pairs, 0.27 from 100. */
double sl_noise_precision_sd(double sd, int pairs)
{
    double rank[SL_MAX_REPS], low, high;
    if (pairs < 2)
        return 0.0;
    pairs = pairs > SL_MAX_REPS ? SL_MAX_REPS : pairs;
    for (int i = 0; i < pairs; i++)
        rank[i] = i;
    sl_median_ci(rank, pairs, &low, &high);
    double k = low;
    return sd * normal_quantile((pairs - k - 0.375) / (pairs + 0.25));
}

double sl_noise_precision(const sl_noise *n, int pairs, int all)
{
    return n->calls == 0 ? 0.0 : sl_noise_precision_sd(all ? n->pair_all : n->pair, pairs);
}

void sl_noise_text(const sl_noise *n, char *out, size_t len)
{
    if (n->calls == 0) {
        snprintf(out, len, "not measured (no memory for the probe)");
        return;
    }
    snprintf(out, len, "a fixed piece of work, timed %d times over %.2g s, ran up to %.0f%% "
             "slower than its median on one core and %.0f%% on %d cores at once; two calls "
             "%.1f s apart differ by about %.1f%% on one core and %.1f%% on %d",
             n->calls, n->seconds, 100.0 * n->slowest, 100.0 * n->slowest_all, n->cores,
             SL_NOISE_PAIR_S, 100.0 * n->pair, 100.0 * n->pair_all, n->cores);
}
