/* triad_problem.c - the triad: sizes from this machine's caches, the
 * arrays' life outside the clock, how to call a variant, and the exact
 * check (triad_problem.h).
 *
 * The arrays are allocated here but first written by the variant's own
 * setup: on a machine with several memory nodes a page lives on the node
 * of the thread that first writes it, so a threaded variant must touch
 * its elements from the threads that will compute them (lesson 7's first
 * touch). Allocation alone touches nothing.
 */
#define _ISOC11_SOURCE
#include "triad_problem.h"

#include <stdlib.h>

#include "caches.h"

int64_t triad_memory_size(void)
{
    return sl_past_cache_elements(TRIAD_MAX_SIZE);
}

int64_t triad_cache_size(void)
{
    int64_t l2 = sl_cache_bytes(2);
    if (l2 <= 0)
        l2 = INT64_C(1) << 20;
    int64_t n = 1024;
    while (3 * 8 * (2 * n) <= l2 / 2)
        n *= 2;
    return n;
}

/* 64-byte aligned (a cache line, a 512-bit vector), never touched here. */
static double *array(int64_t n)
{
    size_t bytes = ((size_t)n * sizeof(double) + 63) / 64 * 64;
    return aligned_alloc(64, bytes);
}

void triad_release(sl_outcome *out)
{
    triad_data *d = out->data;
    if (d) {
        free(d->a);
        free(d->b);
        free(d->c);
        free(d);
    }
    out->data = NULL;
}

int triad_prepare(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    triad_data *d = calloc(1, sizeof *d);
    out->data = d;
    if (d == NULL)
        return -1;
    d->n = p->size;
    d->threads = p->threads;
    d->a = array(d->n);
    d->b = array(d->n);
    d->c = array(d->n);
    if (d->a == NULL || d->b == NULL || d->c == NULL) {
        triad_release(out);
        return -1;
    }
    ((triad_setup_fn *)v->setup)(d->a, d->b, d->c, d->n, p->threads);
    return 0;
}

void triad_collect(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    (void)p;
    triad_data *d = out->data;
    if (d && v->collect)
        ((triad_collect_fn *)v->collect)(d->a, d->b, d->c, d->n);
}

int triad_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    triad_data *d = out->data;
    if (d == NULL || d->n != p->size)
        return -1;
    out->where = SL_RAN_HOST;
    ((triad_fn *)v->fn)(d->a, d->b, d->c, d->n, p->threads, &out->where);
    out->work = (double)p->size;
    return 0;
}

/* value: the sum of a (exact: at most 2^33 elements below 2^11, so every
 * partial sum has fewer than 53 bits); work: elements. */
void triad_tally(const sl_problem *p, sl_outcome *out)
{
    const triad_data *d = out->data;
    double sum = 0.0;
    for (int64_t i = 0; d && i < d->n; i++)
        sum += d->a[i];
    out->value = sum;
    out->work = (double)p->size;
}

sl_verdict triad_check(const sl_problem *p, const sl_outcome *out)
{
    const triad_data *d = out->data;
    sl_verdict v = { .ok = 0, .error = (double)p->size, .tolerance = 0.0 };
    double expected = 0.0;
    for (int64_t i = 0; i < p->size; i++)
        expected += triad_b(i) + TRIAD_SCALAR * triad_c(i);
    v.expected = expected;
    if (d == NULL || d->n != p->size)
        return v;
    /* Every element of a, and b and c unharmed (a variant that wrote the
     * wrong array would otherwise go unseen). */
    int64_t wrong = 0;
    for (int64_t i = 0; i < d->n; i++)
        wrong += d->a[i] != triad_b(i) + TRIAD_SCALAR * triad_c(i) ||
                 d->b[i] != triad_b(i) || d->c[i] != triad_c(i);
    v.error = (double)wrong;
    v.ok = wrong == 0;
    return v;
}

/* What a call reads and writes: b and c read, a written, 24 bytes an
 * element (bandwidth.h's count; plain stores' write-allocate read is the
 * gap between the plain rungs and the memory roof, not a byte counted). */
static double triad_bytes(const sl_problem *p)
{
    return 24.0 * (double)p->size;
}

/* What the arrays occupy. */
static double triad_held(const sl_problem *p)
{
    return 24.0 * (double)p->size;
}

/* Around the lane counts and thread counts, a prime and a size past an
 * L2, where remainder loops and split points go wrong. */
static const sl_problem triad_test_cases[] = {
    { .size = 1 }, { .size = 2 }, { .size = 3 }, { .size = 7 }, { .size = 8 },
    { .size = 9 }, { .size = 15 }, { .size = 16 }, { .size = 17 }, { .size = 63 },
    { .size = 65 }, { .size = 1009 }, { .size = 100003 }, { .size = 0 },
};

#define TRIAD_COMMON                                        \
    .size_name = "elements",                               \
    .work_unit = "elements",                               \
    .max_size = TRIAD_MAX_SIZE,                            \
    .error_name = "wrong elements",                        \
    .test_cases = triad_test_cases,                        \
    .run = triad_run,                                      \
    .tally = triad_tally,                                  \
    .check = triad_check,                                  \
    .prepare = triad_prepare,                              \
    .collect = triad_collect,                              \
    .release = triad_release,                              \
    .ceiling = SL_CEILING_FMA,                             \
    .ceiling_ops = 1

const sl_problem_def triad_problem = {
    .name = "triad",
    .lesson = 7,
    /* Three arrays of at least 4x the last-level cache: 2^23 elements
     * (192 MiB) here, about 10 ms a call from memory. */
    .default_size = INT64_C(1) << 23,
    .quick_size = INT64_C(1) << 23,
    .size_here = triad_memory_size,
    .probe_size = TRIAD_PROBE_SIZE,
    .ceiling_why = "1 multiply-add per element; past the caches, its 24 bytes "
                   "from and to memory, with plain stores (write-allocate)",
    .expert_ceiling = SL_CEILING_FMA,
    .expert_ceiling_ops = 1,
    .expert_ceiling_why = "1 multiply-add per element; past the caches, its 24 bytes, "
                          "with streaming stores that skip write-allocate",
    .bytes_moved = triad_bytes,
    .bytes_held = triad_held,
    TRIAD_COMMON,
};

const sl_problem_def triad_cache_problem = {
    .name = "triad_cache",
    .lesson = 7,
    /* Three arrays in half a core's L2: 2^14 elements (384 KiB) here. */
    .default_size = INT64_C(1) << 14,
    .quick_size = INT64_C(1) << 14,
    .size_here = triad_cache_size,
    .probe_size = 1009,
    .companion_of = "triad",
    .ceiling_why = "1 multiply-add per element; in cache, its 2 loads and 1 store "
                   "meet that cache's roof first",
    /* The same bytes as from memory, held against the roof of the cache
     * level they fit in. */
    .bytes_moved = triad_bytes,
    .bytes_held = triad_held,
    .expert_ceiling = SL_CEILING_FMA,
    .expert_ceiling_ops = 1,
    .expert_ceiling_why = "1 multiply-add per element; its streaming stores write past "
                          "the cache, to memory",
    TRIAD_COMMON,
};
