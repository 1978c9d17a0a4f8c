/* expert.c - the triad at the memory roof: the expert rung, beyond the
 * ladder.
 *
 * Optional, for fast participants: as written this is threads_simd. Make
 * its stores skip the read of the line they write (step 7.8).
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
        // TODO(7.8): the stores below read each line of a before writing
        //            it. Store whole lines straight to memory (step 7.8).
#pragma omp simd
        for (int64_t k = i; k < last; k++)
            a[k] = b[k] + TRIAD_SCALAR * c[k];
    }
}
