/* gpu_shapes.c - the gpu variant's loop in other shapes (step 5.7).
 *
 * gpu.c asks for teams, threads and SIMD lanes and leaves their sizes to
 * the compiler. These ask differently: the compiler's own choice (loop),
 * and CUDA's shape (one element per thread, blocks of 256 threads:
 * num_teams and thread_limit, no simd). The arrays live on the device, as
 * gpu.c's do, so nothing moves in a call either. Their copy there is this
 * file's own: a shape must be right before step 7.6 is done, and on a
 * device that copies gpu.c's exercise leaves nothing there. GCC and clang
 * lay each out differently on a GPU; the bundle times both beside CUDA.
 * Without a device they run on the host, labelled host fallback.
 */
#include <omp.h>

#include "triad.h"

/* Threads per team in the CUDA shape: cuda.cu's block. */
#define SHAPE_THREADS 256

void triad_setup_shapes(double *a, double *b, double *c, int64_t n, int threads)
{
    triad_setup_serial(a, b, c, n, threads);
#pragma omp target enter data map(to: a[0:n], b[0:n], c[0:n])
}

void triad_collect_shapes(double *a, double *b, double *c, int64_t n)
{
    /* Used by the pragma only, which a build without OpenMP ignores. */
    (void)a, (void)b, (void)c, (void)n;
#pragma omp target exit data map(from: a[0:n]) map(release: b[0:n], c[0:n])
}

void triad_gpu_loop(double *restrict a, const double *restrict b, const double *restrict c,
                    int64_t n, int threads, sl_where *where)
{
    (void)threads;
    int on_host = 1;
    /* A loop region may call no OpenMP routine (its order is concurrent):
     * where it runs is asked in a region of its own, timed with it. The
     * loop is written apart from its teams: clang 16's combined "target
     * teams loop" skips the loop on the host (validation caught it). */
#pragma omp target map(tofrom: on_host)
    on_host = omp_is_initial_device();
#pragma omp target teams map(alloc: a[0:n], b[0:n], c[0:n])
#pragma omp loop
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + TRIAD_SCALAR * c[i];
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}

void triad_gpu_teams(double *restrict a, const double *restrict b, const double *restrict c,
                     int64_t n, int threads, sl_where *where)
{
    (void)threads;
    const int teams = (int)((n + SHAPE_THREADS - 1) / SHAPE_THREADS);
    int on_host = 1;
#pragma omp target teams distribute parallel for num_teams(teams) \
    thread_limit(SHAPE_THREADS) map(alloc: a[0:n], b[0:n], c[0:n]) map(tofrom: on_host)
    for (int64_t i = 0; i < n; i++) {
        if (i == 0)
            on_host = omp_is_initial_device();
        a[i] = b[i] + TRIAD_SCALAR * c[i];
    }
    *where = on_host ? SL_RAN_HOST_FALLBACK : SL_RAN_DEVICE;
}
