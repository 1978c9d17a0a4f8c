/* expert.c - pi past the divider: the expert rung, beyond the ladder.
 *
 * BEGIN SOLUTION HEADER
 * The limit it attacks: threads_simd does one divide per step, and the
 * divider is the slowest unit it uses. Here 1/d comes from the CPU's
 * 14-bit reciprocal estimate (vrcp14pd) refined by one cubic step,
 * r' = r + r(e + e^2) with e = 1 - d r, which takes the error from 2^-14
 * to about 2^-42: three fused multiply-adds instead of a divide. x moves
 * by one add per vector and restarts from (i + 0.5) h every 1024 steps, so
 * its rounding cannot drift. What it gave up: portable code (no pragma
 * asks for an approximate reciprocal; GCC does it for float with
 * -mrecip, never for double), and the last bits (each term is off by up to
 * 2^-42, far inside pi's tolerance). On aarch64 (NEON) the same idea uses
 * ARM's own pair: frecpe's 8-bit estimate and three Newton steps with
 * frecps (2 - d r), 2^-8 to 2^-16 to 2^-32 to the last bits; validated
 * under qemu, never timed on ARM hardware yet. Elsewhere it is
 * threads_simd.
 * EXERCISE HEADER
 * Optional, for fast participants: as written this is threads_simd. Make
 * it faster than the divider allows (step 1.8).
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "pi.h"

#if PI_EXPERT_NATIVE == 1
#include <immintrin.h>
#elif PI_EXPERT_NATIVE == 2
#include <arm_neon.h>
#endif

/* The portable rung it improves on: lesson 1's threads_simd loop. */
static double sum_divide(int64_t first, int64_t last, double h)
{
    double sum = 0.0;
    for (; first < last; first += PI_CHUNK) {
        const int n = pi_chunk(first, last);
        const double x0 = (double)first + 0.5;
#pragma omp simd reduction(+:sum)
        for (pi_counter j = 0; j < n; j++) {
            double x = (x0 + j) * h;
            sum += 4.0 / (1.0 + x * x);
        }
    }
    return sum;
}

/* BEGIN SOLUTION */
#if PI_EXPERT_NATIVE == 1
/* 4/(1 + x^2) summed over steps [first, last), 16 at a time (two vectors,
 * so two dependency chains overlap); last - first is a multiple of 16. */
static double sum_reciprocal(int64_t first, int64_t last, double h)
{
    const __m512d one = _mm512_set1_pd(1.0), hv = _mm512_set1_pd(h);
    const __m512d lane = _mm512_set_pd(7.5, 6.5, 5.5, 4.5, 3.5, 2.5, 1.5, 0.5);
    const __m512d step = _mm512_set1_pd(16.0 * h);
    __m512d acc0 = _mm512_setzero_pd(), acc1 = _mm512_setzero_pd();
    for (int64_t i = first; i < last;) {
        int64_t stop = last - i > 1024 ? i + 1024 : last;
        __m512d x0 = _mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd((double)i), lane), hv);
        __m512d x1 = _mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd((double)(i + 8)), lane), hv);
        for (; i < stop; i += 16) {
            __m512d d0 = _mm512_fmadd_pd(x0, x0, one), d1 = _mm512_fmadd_pd(x1, x1, one);
            __m512d r0 = _mm512_rcp14_pd(d0), r1 = _mm512_rcp14_pd(d1);
            __m512d e0 = _mm512_fnmadd_pd(d0, r0, one), e1 = _mm512_fnmadd_pd(d1, r1, one);
            __m512d t0 = _mm512_fmadd_pd(e0, e0, e0), t1 = _mm512_fmadd_pd(e1, e1, e1);
            acc0 = _mm512_add_pd(acc0, _mm512_fmadd_pd(r0, t0, r0));
            acc1 = _mm512_add_pd(acc1, _mm512_fmadd_pd(r1, t1, r1));
            x0 = _mm512_add_pd(x0, step);
            x1 = _mm512_add_pd(x1, step);
        }
    }
    return 4.0 * _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
}
#define PI_EXPERT_BLOCK 16
#elif PI_EXPERT_NATIVE == 2
/* 1/d from frecpe's estimate and three Newton steps, r' = r (2 - d r). */
static inline float64x2_t reciprocal2(float64x2_t d)
{
    float64x2_t r = vrecpeq_f64(d);
    r = vmulq_f64(r, vrecpsq_f64(d, r));
    r = vmulq_f64(r, vrecpsq_f64(d, r));
    return vmulq_f64(r, vrecpsq_f64(d, r));
}

/* The same sum on NEON, 4 steps at a time (two vectors of 2, two
 * dependency chains); last - first is a multiple of 4. */
static double sum_reciprocal(int64_t first, int64_t last, double h)
{
    const float64x2_t one = vdupq_n_f64(1.0), hv = vdupq_n_f64(h);
    const float64x2_t lane = { 0.5, 1.5 }, step = vdupq_n_f64(4.0 * h);
    float64x2_t acc0 = vdupq_n_f64(0.0), acc1 = vdupq_n_f64(0.0);
    for (int64_t i = first; i < last;) {
        int64_t stop = last - i > 1024 ? i + 1024 : last;
        float64x2_t x0 = vmulq_f64(vaddq_f64(vdupq_n_f64((double)i), lane), hv);
        float64x2_t x1 = vmulq_f64(vaddq_f64(vdupq_n_f64((double)(i + 2)), lane), hv);
        for (; i < stop; i += 4) {
            acc0 = vaddq_f64(acc0, reciprocal2(vfmaq_f64(one, x0, x0)));
            acc1 = vaddq_f64(acc1, reciprocal2(vfmaq_f64(one, x1, x1)));
            x0 = vaddq_f64(x0, step);
            x1 = vaddq_f64(x1, step);
        }
    }
    return 4.0 * vaddvq_f64(vaddq_f64(acc0, acc1));
}
#define PI_EXPERT_BLOCK 4
#endif
/* END SOLUTION */

double pi_expert(int64_t steps, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    /* Each thread takes one contiguous block, as schedule(static) would. */
#pragma omp parallel num_threads(threads) reduction(+:sum)
    {
        int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
        int64_t first = steps * t / n, last = steps * (t + 1) / n;
        /* BEGIN SOLUTION */
#if PI_EXPERT_NATIVE
        int64_t body = first + (last - first) / PI_EXPERT_BLOCK * PI_EXPERT_BLOCK;
        sum += sum_reciprocal(first, body, h);
        first = body;
#endif
        /* EXERCISE
        // TODO(1.8): the steps below go through the divider. Replace the
        //            divide for as many of them as you can (step 1.8).
        END SOLUTION */
        sum += sum_divide(first, last, h);
    }
    return h * sum;
}
