/* expert.c - Monte Carlo pi, the expert rung: the same generator and the
 * same points, counted as a hand-written AVX-512 loop would.
 *
 * BEGIN SOLUTION HEADER
 * The limit it attacks: vector issue. A sample needs 25 vector
 * instructions, 4 of them multiplies, and a core issues only so many a
 * cycle (Zen 4: 1.86 512-bit ones), so the multiplies' peak is not the
 * roof; the instruction count is (kernels/montecarlo's issue_ops; step
 * 4.7). Here four vectors of 8 points are in flight per iteration, their
 * generator chains side by side, so the out-of-order core always has
 * independent work; each mask is counted with one masked add, and each
 * draw's last xor and the clearing of its low bits are one ternary logic
 * instruction, as GCC also emits for threads_simd. The points, their
 * order within a thread's block and the count are exactly threads_simd's.
 * What it gave up: portable code (no pragma interleaves chains like
 * this); without AVX-512 DQ (64-bit multiplies and conversions) it is
 * threads_simd.
 * On ARM, SVE has both (and counts a predicate with cntp): the same loop
 * in SVE intrinsics, as many points per vector as the machine's length
 * gives; validated under qemu at 256 and 512 bits, never timed on ARM
 * hardware yet. NEON has no 64-bit multiply: there it is threads_simd.
 * EXERCISE HEADER
 * Optional, for fast participants: as written this is threads_simd, one
 * block of points per thread. Beat it with the same points (step 4.7).
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "montecarlo.h"

#if MC_EXPERT_NATIVE == 1
#include <immintrin.h>
#elif MC_EXPERT_NATIVE == 2
#include <arm_sve.h>
#endif

/* Points [first, last) as in threads_simd, on one thread. */
static int64_t count_portable(int64_t first, int64_t last, uint64_t seed)
{
    int64_t inside = 0;
    uint64_t z = sl_rng_counter(seed, 2 * (uint64_t)first);
#pragma omp simd reduction(+:inside) linear(z: MC_COUNTER_STEP)
    for (int64_t i = first; i < last; i++) {
        inside += montecarlo_inside(sl_rng_mix(z), sl_rng_mix(z + SL_RNG_GAMMA));
        z += MC_COUNTER_STEP;
    }
    return inside;
}

/* BEGIN SOLUTION */
#if MC_EXPERT_NATIVE == 1
/* Vectors of 8 points in flight at once: 4, so that 8 generator chains
 * (x and y of each) stand side by side in the instruction stream. One
 * chain is about 30 cycles of dependent shifts, xors and multiplies; one
 * at a time, the out-of-order window fills before the next one starts. */
#define MC_VECTORS 4

/* One step of sl_rng_mix, on every chain: z = (z ^ (z >> s)) * m. */
static inline void xorshift_multiply(__m512i z[2 * MC_VECTORS], int s, uint64_t m)
{
    const __m512i mv = _mm512_set1_epi64((long long)m);
    for (int k = 0; k < 2 * MC_VECTORS; k++)
        z[k] = _mm512_mullo_epi64(_mm512_xor_si512(z[k], _mm512_srli_epi64(z[k], s)), mv);
}

/* Adds 1 to count's lanes whose points, x counters x[k] and y counters
 * x[k] + gamma, fall inside: a masked add, no mask moved to an integer. */
static inline __m512i count_inside(const __m512i x[MC_VECTORS], __m512i count)
{
    const __m512i gamma = _mm512_set1_epi64((long long)SL_RNG_GAMMA);
    const __m512i one = _mm512_set1_epi64(1);
    __m512i z[2 * MC_VECTORS];
    for (int k = 0; k < MC_VECTORS; k++) {
        z[2 * k] = x[k];
        z[2 * k + 1] = _mm512_add_epi64(x[k], gamma);
    }
    xorshift_multiply(z, 30, UINT64_C(0xbf58476d1ce4e5b9));
    xorshift_multiply(z, 27, UINT64_C(0x94d049bb133111eb));
    /* vpternlogq's truth table for (a ^ b) & c, from its inputs' own
     * tables (a = 0xf0, b = 0xcc, c = 0xaa). */
    enum { XOR_AND = (0xf0 ^ 0xcc) & 0xaa };
    const __m512i top = _mm512_set1_epi64((long long)MC_TOP_53);
    __m512d u[2 * MC_VECTORS];
    for (int k = 0; k < 2 * MC_VECTORS; k++) {
        /* The mix's last xor and the top 53 bits kept in place, in one
         * instruction, then an exact double (montecarlo_inside). */
        __m512i m = _mm512_ternarylogic_epi64(z[k], _mm512_srli_epi64(z[k], 31), top, XOR_AND);
        u[k] = _mm512_cvtepu64_pd(m);
    }
    for (int k = 0; k < MC_VECTORS; k++) {
        /* x*x + y*y rounded twice, as the reference does (no FMA). */
        __m512d r = _mm512_add_pd(_mm512_mul_pd(u[2 * k], u[2 * k]),
                                  _mm512_mul_pd(u[2 * k + 1], u[2 * k + 1]));
        __mmask8 in = _mm512_cmp_pd_mask(r, _mm512_set1_pd(0x1.0p128), _CMP_LT_OQ);
        count = _mm512_mask_add_epi64(count, in, count, one);
    }
    return count;
}

/* Points [first, last), last - first a multiple of 8 * MC_VECTORS. */
static int64_t count_vectors(int64_t first, int64_t last, uint64_t seed)
{
    const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i step = _mm512_set1_epi64((long long)MC_COUNTER_STEP);
    const __m512i advance = _mm512_set1_epi64((long long)(8 * MC_VECTORS * MC_COUNTER_STEP));
    __m512i x[MC_VECTORS];
    x[0] = _mm512_add_epi64(_mm512_set1_epi64((long long)sl_rng_counter(seed, 2 * (uint64_t)first)),
                            _mm512_mullo_epi64(lanes, step));
    for (int k = 1; k < MC_VECTORS; k++)
        x[k] = _mm512_add_epi64(x[k - 1], _mm512_slli_epi64(step, 3));
    __m512i count = _mm512_setzero_si512();
    for (int64_t i = first; i < last; i += 8 * MC_VECTORS) {
        count = count_inside(x, count);
        for (int k = 0; k < MC_VECTORS; k++)
            x[k] = _mm512_add_epi64(x[k], advance);
    }
    return _mm512_reduce_add_epi64(count);
}
#define MC_EXPERT_BLOCK (8 * MC_VECTORS)
#elif MC_EXPERT_NATIVE == 2
/* sl_rng_mix on a vector of counters. */
static inline svuint64_t mix_sve(svbool_t all, svuint64_t z)
{
    z = svmul_n_u64_x(all, sveor_u64_x(all, z, svlsr_n_u64_x(all, z, 30)),
                      UINT64_C(0xbf58476d1ce4e5b9));
    z = svmul_n_u64_x(all, sveor_u64_x(all, z, svlsr_n_u64_x(all, z, 27)),
                      UINT64_C(0x94d049bb133111eb));
    return sveor_u64_x(all, z, svlsr_n_u64_x(all, z, 31));
}

/* How many of a vector of points, whose x counters are z, fall inside. */
static inline int64_t inside_sve(svbool_t all, svuint64_t z)
{
    svfloat64_t a = svcvt_f64_u64_x(all, svand_n_u64_x(all, mix_sve(all, z), MC_TOP_53));
    svuint64_t zy = svadd_n_u64_x(all, z, SL_RNG_GAMMA);
    svfloat64_t b = svcvt_f64_u64_x(all, svand_n_u64_x(all, mix_sve(all, zy), MC_TOP_53));
    /* Rounded twice, as the reference does: a fused svmla would round once. */
    svfloat64_t r = svadd_f64_x(all, svmul_f64_x(all, a, a), svmul_f64_x(all, b, b));
    return (int64_t)svcntp_b64(all, svcmplt_n_f64(all, r, 0x1.0p128));
}

/* Points [first, last), last - first a multiple of twice the vector's
 * lanes (svcntd: 4 at 256 bits, 8 at 512). */
static int64_t count_vectors(int64_t first, int64_t last, uint64_t seed)
{
    const svbool_t all = svptrue_b64();
    const uint64_t lanes = svcntd();
    svuint64_t z0 = svmla_n_u64_x(all, svdup_n_u64(sl_rng_counter(seed, 2 * (uint64_t)first)),
                                  svindex_u64(0, 1), MC_COUNTER_STEP);
    svuint64_t z1 = svadd_n_u64_x(all, z0, lanes * MC_COUNTER_STEP);
    const uint64_t advance = 2 * lanes * MC_COUNTER_STEP;
    int64_t inside = 0;
    for (int64_t i = first; i < last; i += 2 * (int64_t)lanes) {
        inside += inside_sve(all, z0) + inside_sve(all, z1);
        z0 = svadd_n_u64_x(all, z0, advance);
        z1 = svadd_n_u64_x(all, z1, advance);
    }
    return inside;
}
#define MC_EXPERT_BLOCK (2 * (int64_t)svcntd())
#endif
/* END SOLUTION */

int64_t montecarlo_expert(int64_t samples, uint64_t seed, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
    int64_t inside = 0;
#pragma omp parallel num_threads(threads) reduction(+:inside)
    {
        int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
        int64_t first = samples * t / n, last = samples * (t + 1) / n;
        /* BEGIN SOLUTION */
#if MC_EXPERT_NATIVE
        int64_t body = first + (last - first) / MC_EXPERT_BLOCK * MC_EXPERT_BLOCK;
        inside += count_vectors(first, body, seed);
        first = body;
#endif
        /* EXERCISE
        // TODO(4.7): the points below are counted as threads_simd counts
        //            them. Count as many as you can faster (step 4.7).
        END SOLUTION */
        inside += count_portable(first, last, seed);
    }
    return inside;
}
