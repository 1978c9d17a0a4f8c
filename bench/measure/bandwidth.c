/* bandwidth.c - the memory and cache probes (bandwidth.h).
 *
 * STREAM's fourth loop, a[i] = b[i] + s*c[i], 24 bytes an element
 * (bandwidth.h). Plain stores also read a's line before writing it, so
 * the bus carries 32; non-temporal stores skip that read. Which is faster
 * depends on the machine, so both run and the faster is kept, with
 * ceiling.csv saying which. The arrays are first touched by the threads
 * that stream them (the same static split), so on a machine with several
 * memory nodes each thread reads its own.
 */
#define _ISOC11_SOURCE
#include "bandwidth.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "caches.h"
#include "quiet.h"
#include "sample.h"
#include "suite.h"

enum { QUICK_RUNS = 4, CACHE_RUNS = 6 };

/* The loop's bytes in one timed pass through a cache: about 2 ms in L1,
 * 20 ms in an L3 (quick: a quarter). */
#define CACHE_PASS_BYTES (INT64_C(1) << 29)

/* At most 2^27 elements per array (3 GiB in all): plenty past any cache. */
#define MOST_ELEMENTS (INT64_C(1) << 27)

static void touch(double *a, double *b, double *c, int64_t n, int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
}

static void triad_plain(double *restrict a, const double *restrict b,
                        const double *restrict c, int64_t n, int threads)
{
#pragma omp parallel for simd schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++)
        a[i] = b[i] + 3.0 * c[i];
}

/* Non-temporal stores by intrinsics: GCC 12 ignores OpenMP's nontemporal
 * clause. Each thread's block is split on 8-element (64-byte) bounds. */
static void triad_stream(double *restrict a, const double *restrict b,
                         const double *restrict c, int64_t n, int threads)
{
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t blocks = n / 8;
        int64_t from = blocks * t / nt * 8, to = blocks * (t + 1) / nt * 8;
        if (t == nt - 1)
            to = n;
        int64_t i = from;
#if defined(__AVX512F__)
        for (; i + 8 <= to; i += 8)
            _mm512_stream_pd(a + i, _mm512_add_pd(_mm512_load_pd(b + i),
                             _mm512_mul_pd(_mm512_set1_pd(3.0), _mm512_load_pd(c + i))));
#elif defined(__AVX__)
        for (; i + 4 <= to; i += 4)
            _mm256_stream_pd(a + i, _mm256_add_pd(_mm256_load_pd(b + i),
                             _mm256_mul_pd(_mm256_set1_pd(3.0), _mm256_load_pd(c + i))));
#elif defined(__SSE2__)
        for (; i + 2 <= to; i += 2)
            _mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i),
                          _mm_mul_pd(_mm_set1_pd(3.0), _mm_load_pd(c + i))));
#endif
        for (; i < to; i++)
            a[i] = b[i] + 3.0 * c[i];
#if defined(__SSE2__)
        _mm_sfence();
#endif
    }
}

typedef void triad_kind(double *restrict, const double *restrict, const double *restrict,
                        int64_t, int);

/* Elements/s of `runs` passes, after one warm pass, and more while the
 * quiet window opened at `from` is too short to judge. */
static sl_sample measure(triad_kind *fn, double *a, double *b, double *c, int64_t n,
                         int threads, int runs, const sl_quiet_mark *from)
{
    sl_sample rate = { 0 };
    fn(a, b, c, n, threads);
    for (int r = 0; r < runs || sl_quiet_too_short(from); r++) {
        double t0 = sl_now();
        fn(a, b, c, n, threads);
        double t = sl_now() - t0;
        if (t > 0.0)
            sl_sample_add(&rate, (double)n / t);
    }
    sl_sample_summarise(&rate);
    return rate;
}

/* The pooled passes' median and spread into the figures. */
static void summarise(sl_bandwidth *m, int k)
{
    sl_sample all = { 0 };
    for (int i = 0; i < m->npass[k]; i++)
        sl_sample_add(&all, m->pass[k][i]);
    sl_sample_summarise(&all);
    m->bytes_per_s[k] = all.median;
    m->spread[k] = all.median > 0.0 ? (all.max - all.min) / all.median : 0.0;
}

/* One thread's arrays for a cache probe, its own allocation: laid out
 * one after another in a shared allocation, 2 threads streamed 48 KiB of
 * L1 at 0.55 of likwid-bench's rate on a 2-core Intel Xeon VM, and at
 * 0.87 each in its own. b and c start a line past a's and b's
 * ends, so the three streams do not meet in the same cache sets at the
 * same offsets. */
typedef struct part {
    double *a, *b, *c;
    int64_t n;
} part;

/* Where AVX-512 is there, the loop also in 512-bit vectors, which GCC's
 * tuning for some AVX-512 cores does not choose (it prefers 256): on a
 * 2-core Intel Xeon VM they took the L1's roof on one thread from 259 to
 * 387 GB/s (likwid-bench: 441), and lost 10% in L2. A
 * roof is what the loop can reach, so the faster is kept. */
#if defined(__AVX512F__)
enum { WIDTHS = 2 };
#else
enum { WIDTHS = 1 };
#endif

/* The loop `reps` times over every part inside one parallel region, each
 * thread its own part(s) every time (no barrier: no thread reads what
 * another writes), as the compiler vectorises it or (wide) in 512-bit
 * vectors. The empty asm says memory changed, so no pass can be folded
 * into the next. */
static void triad_repeat(const part *parts, int count, int64_t reps, int wide)
{
    (void)wide;
#pragma omp parallel num_threads(count)
    for (int p = omp_get_thread_num(); p < count; p += omp_get_num_threads()) {
        double *restrict a = parts[p].a;
        const double *restrict b = parts[p].b, *restrict c = parts[p].c;
        int64_t n = parts[p].n;
        for (int64_t r = 0; r < reps; r++) {
            int64_t from = 0;
#if defined(__AVX512F__)
            const __m512d s = _mm512_set1_pd(3.0);
            for (; wide && from + 8 <= n; from += 8)
                _mm512_store_pd(a + from, _mm512_add_pd(_mm512_load_pd(b + from),
                                                        _mm512_mul_pd(s, _mm512_load_pd(c + from))));
#endif
#pragma omp simd
            for (int64_t i = from; i < n; i++)
                a[i] = b[i] + 3.0 * c[i];
            __asm__ volatile("" ::: "memory");
        }
    }
}

static void parts_free(part *parts, int threads)
{
    for (int t = 0; t < threads; t++)
        free(parts[t].a);
    free(parts);
}

/* n elements an array split into `threads` parts on 8-element bounds,
 * each allocated and first written by the thread that will stream it;
 * 0 when an allocation failed (the parts freed). */
static part *parts_new(int64_t n, int threads)
{
    part *parts = calloc((size_t)threads, sizeof *parts);
    if (parts == NULL)
        return NULL;
    int failed = 0;
#pragma omp parallel for schedule(static, 1) num_threads(threads) reduction(| : failed)
    for (int t = 0; t < threads; t++) {
        int64_t from = n * t / threads / 8 * 8;
        int64_t to = t == threads - 1 ? n : n * (t + 1) / threads / 8 * 8;
        int64_t count = to - from, stride = (count + 15) / 8 * 8;
        double *a = aligned_alloc(64, (size_t)(3 * stride) * sizeof(double));
        failed |= a == NULL;
        if (a == NULL)
            continue;
        parts[t] = (part){ a, a + stride, a + 2 * stride, count };
        for (int64_t i = 0; i < count; i++)
            a[i] = 0.0, parts[t].b[i] = 1.0, parts[t].c[i] = 2.0;
    }
    if (failed) {
        parts_free(parts, threads);
        return NULL;
    }
    return parts;
}

/* One level's roof on `threads` threads over n elements an array (in
 * all): each loop's passes interleaved in one quiet window; the faster
 * loop's median, or an earlier call's where that was faster, is kept.
 * Returns this call's figure (0: no memory for the arrays). */
static double measure_level(sl_cache_roof *r, int k, int64_t n, int threads, int quick)
{
    part *parts = parts_new(n, threads);
    if (parts == NULL)
        return 0.0;
    int64_t reps = (quick ? CACHE_PASS_BYTES / 4 : CACHE_PASS_BYTES) / (24 * n);
    reps = reps < 1 ? 1 : reps;
    sl_quiet_mark from, to;
    sl_quiet_mark_now(&from);
    sl_sample rate[WIDTHS] = { { 0 } };
    for (int w = 0; w < WIDTHS; w++)
        triad_repeat(parts, threads, reps, w);
    int runs = quick ? QUICK_RUNS : CACHE_RUNS;
    for (int run = 0; run < runs || sl_quiet_too_short(&from); run++)
        for (int w = 0; w < WIDTHS; w++) {
            double t0 = sl_now();
            triad_repeat(parts, threads, reps, w);
            double t = sl_now() - t0;
            if (t > 0.0)
                sl_sample_add(&rate[w], 24.0 * (double)n * (double)reps / t);
        }
    sl_quiet_mark_now(&to);
    parts_free(parts, threads);
    double best = 0.0;
    for (int w = 0; w < WIDTHS; w++) {
        sl_sample_summarise(&rate[w]);
        best = rate[w].median > best ? rate[w].median : best;
    }
    if (best > r->bytes_per_s[k]) {
        double window = to.wall - from.wall;
        r->bytes_per_s[k] = best;
        r->elements[k] = n;
        r->disturbed[k] = sl_quiet_disturbed(sl_quiet_others(&from, &to), window);
        r->window[k] = window;
    }
    return best;
}

/* Bytes a level holds for `threads` threads, one a core: each its own of
 * a private level, the shared whole of a shared one (once per group of
 * cores that share it). */
static int64_t held(const sl_cache_roof *r, int threads)
{
    int groups = r->shared_by < threads ? threads / r->shared_by : 1;
    return r->cache_bytes * groups;
}

/* The cap at 4x the level below is for a large shared last level that
 * serves less than its size to this machine's cores (seen: a 2-core VM
 * whose sysfs names a 480 MiB L3 streamed the loop at 29 GB/s over 8 MiB,
 * and at the memory's 15 GB/s over 240 MiB). */
int64_t sl_cache_probe_bytes(const sl_bandwidth *m, int level, int threads)
{
    int64_t set = held(&m->cache[level - 1], threads) / 2;
    int64_t below = level > 1 ? 4 * held(&m->cache[level - 2], threads) : 0;
    return below > 0 && below < set ? below : set;
}

/* Every cache level sysfs names, on 1 thread and on every core. */
static void measure_caches(sl_bandwidth *m, int quick)
{
    for (int level = 1; level <= SL_CACHE_LEVELS; level++) {
        sl_cache_roof *r = &m->cache[level - 1];
        if (r->cache_bytes <= 0)
            continue;
        for (int k = 0; k < 2; k++) {
            int64_t n = sl_cache_probe_bytes(m, level, m->threads[k]) / 24 / 8 * 8;
            m->last[level][k] = measure_level(r, k, n < 8 ? 8 : n, m->threads[k], quick);
        }
    }
}

/* The memory's roof on 1 thread and on every core, pooled with an earlier
 * call's passes (again). */
static void measure_memory(sl_bandwidth *m, int quick, int again)
{
    int64_t n = sl_past_cache_elements(MOST_ELEMENTS);
    size_t bytes = (size_t)n * sizeof(double);
    double *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes),
           *c = aligned_alloc(64, bytes);
    if (a == NULL || b == NULL || c == NULL) {
        free(a), free(b), free(c);
        return;
    }
    m->elements = n;
    touch(a, b, c, n, m->threads[1]);
    for (int k = 0; k < 2; k++) {
        int runs = quick ? QUICK_RUNS : SL_BANDWIDTH_RUNS;
        sl_quiet_mark from, to;
        sl_quiet_mark_now(&from);
        sl_sample plain = measure(triad_plain, a, b, c, n, m->threads[k], runs, &from);
        sl_sample stream = measure(triad_stream, a, b, c, n, m->threads[k], runs, &from);
        /* The store kind is the first call's choice: pooled passes are of
         * one loop. */
        if (!again)
            m->nontemporal[k] = stream.median > plain.median;
        const sl_sample *kept = m->nontemporal[k] ? &stream : &plain;
        sl_quiet_mark_now(&to);
        double window = to.wall - from.wall;
        m->disturbed[k] |= sl_quiet_disturbed(sl_quiet_others(&from, &to), window);
        if (!again || window < m->window[k])
            m->window[k] = window;
        m->last[0][k] = 24.0 * kept->median;
        for (int i = 0; i < kept->n && m->npass[k] < SL_BANDWIDTH_POOLED; i++)
            m->pass[k][m->npass[k]++] = 24.0 * kept->v[i];
        summarise(m, k);
    }
    free(a), free(b), free(c);
}

void sl_bandwidth_sizes(sl_bandwidth *m)
{
    memset(m, 0, sizeof *m);
    m->threads[0] = 1;
    m->threads[1] = sl_cores_available();
    for (int level = 1; level <= SL_CACHE_LEVELS; level++) {
        m->cache[level - 1].cache_bytes = sl_cache_bytes(level);
        m->cache[level - 1].shared_by = sl_cache_shared_by(level);
    }
}

void sl_measure_bandwidth(sl_bandwidth *m, int quick, unsigned roofs)
{
    int again = m->measured;
    if (!again)
        sl_bandwidth_sizes(m);
    m->roofs |= roofs;
    memset(m->last, 0, sizeof m->last);
    /* Pooled with an earlier call's passes where that call measured them. */
    if (roofs & SL_ROOF_MEMORY)
        measure_memory(m, quick, again && m->elements > 0);
    if (roofs & SL_ROOF_CACHES)
        measure_caches(m, quick);
    m->measured++;
}

int sl_bandwidth_disturbed(const sl_bandwidth *b, int k)
{
    /* More cores never move fewer bytes on a quiet machine. */
    return b->disturbed[k] ||
           (k == 1 && b->threads[1] > b->threads[0] && b->bytes_per_s[1] < b->bytes_per_s[0]);
}

double sl_bandwidth_for(const sl_bandwidth *m, int threads)
{
    if (!m->measured || threads < 1)
        return 0.0;
    double bw = m->bytes_per_s[0] * threads;
    return bw < m->bytes_per_s[1] ? bw : m->bytes_per_s[1];
}

double sl_cache_bandwidth_for(const sl_bandwidth *m, int level, int threads)
{
    if (level < 1 || level > SL_CACHE_LEVELS || threads < 1)
        return 0.0;
    const sl_cache_roof *r = &m->cache[level - 1];
    double bw = r->bytes_per_s[0] * threads;
    return r->bytes_per_s[1] > 0.0 && r->bytes_per_s[1] < bw ? r->bytes_per_s[1] : bw;
}

int sl_cache_level_of(const sl_bandwidth *m, double bytes, int threads)
{
    threads = threads < 1 ? 1 : threads;
    for (int level = 1; level <= SL_CACHE_LEVELS; level++) {
        const sl_cache_roof *r = &m->cache[level - 1];
        if (r->cache_bytes <= 0)
            continue;
        /* The part of the working set one copy of this level holds. */
        int sharing = r->shared_by < threads ? r->shared_by : threads;
        if (bytes * sharing / threads <= (double)r->cache_bytes)
            return level;
    }
    return 0;
}
