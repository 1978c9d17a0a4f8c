/* expert.c - the triad at the memory roof: the expert rung, beyond the
 * ladder.
 *
 * BEGIN SOLUTION HEADER
 * The limit it attacks: threads_simd's stores are plain ones, and a plain
 * store first reads the line it is about to write (write-allocate), so the
 * memory carries 32 bytes for the loop's 24 and the rung stops near 75% of
 * the memory roof. Non-temporal (streaming) stores write whole lines to
 * memory without reading them first. GCC 12 and clang 14 ignore OpenMP's
 * nontemporal(a) clause, so the stores are intrinsics: _mm512_stream_pd
 * with AVX-512, _mm256_stream_pd with AVX, _mm_stream_pd with SSE2, and
 * an sfence at the end of each thread's share, so that the check (and the
 * next call) see them. Each thread's share starts and ends on a 64-byte
 * line (the arrays are 64-byte aligned), so every store is aligned; the
 * shares are threads.c's, so its first touch serves this rung too. What it
 * gives up: portable code, and the cache: a streaming store evicts a from
 * the caches, so in cache (triad_cache) this rung is the slower one. On
 * aarch64 GCC has no streaming-store intrinsic, so one instruction is
 * written out: stnp, a pair of 16-byte stores with the non-temporal hint;
 * validated under qemu, never timed on ARM hardware yet.
 * EXERCISE HEADER
 * Optional, for fast participants: as written this is threads_simd. Make
 * its stores skip the read of the line they write (step 7.8).
 * END SOLUTION HEADER
 */
#include <omp.h>

#include "triad.h"

#if TRIAD_EXPERT_NATIVE == 1
#include <immintrin.h>
#elif TRIAD_EXPERT_NATIVE == 2
#include <arm_neon.h>
#endif

void triad_expert(double *restrict a, const double *restrict b, const double *restrict c,
                  int64_t n, int threads, sl_where *where)
{
    *where = SL_RAN_HOST;
#pragma omp parallel num_threads(threads)
    {
        /* threads.c's static split, on whole 64-byte lines (8 doubles). */
        int64_t t = omp_get_thread_num(), nt = omp_get_num_threads(), lines = n / 8;
        int64_t i = lines * t / nt * 8, last = t == nt - 1 ? n : lines * (t + 1) / nt * 8;
        /* BEGIN SOLUTION */
#if TRIAD_EXPERT_NATIVE == 1 && defined(__AVX512F__)
        const __m512d s = _mm512_set1_pd(TRIAD_SCALAR);
        for (; i + 8 <= last; i += 8)
            _mm512_stream_pd(a + i, _mm512_fmadd_pd(s, _mm512_load_pd(c + i),
                                                    _mm512_load_pd(b + i)));
#elif TRIAD_EXPERT_NATIVE == 1 && defined(__AVX__)
        const __m256d s = _mm256_set1_pd(TRIAD_SCALAR);
        for (; i + 4 <= last; i += 4)
            _mm256_stream_pd(a + i, _mm256_add_pd(_mm256_load_pd(b + i),
                                                  _mm256_mul_pd(s, _mm256_load_pd(c + i))));
#elif TRIAD_EXPERT_NATIVE == 1
        const __m128d s = _mm_set1_pd(TRIAD_SCALAR);
        for (; i + 2 <= last; i += 2)
            _mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i), _mm_mul_pd(s, _mm_load_pd(c + i))));
#elif TRIAD_EXPERT_NATIVE == 2
        const float64x2_t s = vdupq_n_f64(TRIAD_SCALAR);
        for (; i + 4 <= last; i += 4) {
            float64x2_t lo = vfmaq_f64(vld1q_f64(b + i), s, vld1q_f64(c + i));
            float64x2_t hi = vfmaq_f64(vld1q_f64(b + i + 2), s, vld1q_f64(c + i + 2));
            __asm__ volatile("stnp %q0, %q1, [%2]" : : "w"(lo), "w"(hi), "r"(a + i) : "memory");
        }
#endif
        /* EXERCISE
        // TODO(7.8): the stores below read each line of a before writing
        //            it. Store whole lines straight to memory (step 7.8).
        END SOLUTION */
#pragma omp simd
        for (int64_t k = i; k < last; k++)
            a[k] = b[k] + TRIAD_SCALAR * c[k];
        /* BEGIN SOLUTION */
#if TRIAD_EXPERT_NATIVE == 1
        _mm_sfence();
#endif
        /* END SOLUTION */
    }
}
