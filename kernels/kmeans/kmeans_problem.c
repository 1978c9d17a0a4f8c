/* kmeans_problem.c - k-means: the data's life outside the clock, how to
 * call a variant, the reference and the check (kmeans_problem.h).
 *
 * The check compares every label with the reference's (a wrong nearest
 * centroid, an argmin off by one, is a wrong label) and every centroid
 * feature within KMEANS_TOLERANCE of the reference's: summing a cluster's
 * points in another order moves a centroid by rounding only (about 1e-14
 * here), while one lost update of a racy sum moves it by a point's offset
 * over the cluster's size (above 1e-6 at any size the bench runs).
 */
#define _ISOC11_SOURCE
#include "kmeans_problem.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KMEANS_TOLERANCE 1e-9
/* A macro's value as text, for the ceiling's sentence. */
#define KMEANS_TEXT_(x) #x
#define KMEANS_TEXT(x) KMEANS_TEXT_(x)

static void *aligned(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static void kmeans_release(sl_outcome *out)
{
    kmeans_data *d = out->data;
    if (d) {
        free(d->x);
        free(d->labels);
        free(d->centroids);
        free(d);
    }
    out->data = NULL;
}

/* The points, and room for the answer: labels no cluster has, centroids
 * that are no number, so that what a variant leaves unwritten shows. */
static int kmeans_prepare(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    (void)v;
    kmeans_data *d = calloc(1, sizeof *d);
    out->data = d;
    if (d == NULL)
        return -1;
    d->n = p->size;
    d->x = aligned((size_t)d->n * KMEANS_D * sizeof(double));
    d->labels = aligned((size_t)d->n * sizeof(int32_t));
    d->centroids = aligned(KMEANS_K * KMEANS_D * sizeof(double));
    if (d->x == NULL || d->labels == NULL || d->centroids == NULL) {
        kmeans_release(out);
        return -1;
    }
#pragma omp parallel for
    for (int64_t i = 0; i < d->n; i++)
        for (int f = 0; f < KMEANS_D; f++)
            d->x[i * KMEANS_D + f] = kmeans_point(i, f);
    memset(d->labels, 0xff, (size_t)d->n * sizeof(int32_t));
    for (int k = 0; k < KMEANS_K * KMEANS_D; k++)
        d->centroids[k] = NAN;
    return 0;
}

static int kmeans_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    kmeans_data *d = out->data;
    if (d == NULL || d->n != p->size || d->n < KMEANS_K)
        return -1;
    out->where = SL_RAN_HOST;
    ((kmeans_fn *)v->fn)(d->x, d->n, d->labels, d->centroids, p->threads, &out->where);
    out->work = (double)d->n;
    return 0;
}

/* The reference: the same iterations, written plainly, once per size. A
 * few sizes are kept: the bench checks every variant at the probe size
 * and the timed size in turn, and the weak study at one per thread count. */
typedef struct kmeans_reference {
    int64_t n;
    int32_t *labels;
    double centroids[KMEANS_K * KMEANS_D];
    double inertia;
} kmeans_reference;

enum { REFERENCES = 4 };

static void reference_step(const double *x, int64_t n, int32_t *labels, double *cent)
{
    for (int64_t i = 0; i < n; i++) {
        int32_t best = 0;
        double best_d = INFINITY;
        for (int c = 0; c < KMEANS_K; c++) {
            double dist = 0.0;
            for (int f = 0; f < KMEANS_D; f++) {
                double e = x[i * KMEANS_D + f] - cent[c * KMEANS_D + f];
                dist += e * e;
            }
            if (dist < best_d) {
                best_d = dist;
                best = c;
            }
        }
        labels[i] = best;
    }
    double sums[KMEANS_K * KMEANS_D] = { 0 };
    int64_t counts[KMEANS_K] = { 0 };
    for (int64_t i = 0; i < n; i++) {
        counts[labels[i]]++;
        for (int f = 0; f < KMEANS_D; f++)
            sums[labels[i] * KMEANS_D + f] += x[i * KMEANS_D + f];
    }
    for (int c = 0; c < KMEANS_K; c++)
        for (int f = 0; f < KMEANS_D && counts[c] > 0; f++)
            cent[c * KMEANS_D + f] = sums[c * KMEANS_D + f] / (double)counts[c];
}

/* Sum of each point's squared distance to its centroid. */
static double inertia(const double *x, int64_t n, const int32_t *labels, const double *cent)
{
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) {
        int32_t c = labels[i] >= 0 && labels[i] < KMEANS_K ? labels[i] : 0;
        for (int f = 0; f < KMEANS_D; f++) {
            double e = x[i * KMEANS_D + f] - cent[c * KMEANS_D + f];
            sum += e * e;
        }
    }
    return sum;
}

/* The reference for d's points, or NULL without memory. */
static const kmeans_reference *reference_for(const kmeans_data *d)
{
    static kmeans_reference cache[REFERENCES];
    static int next;
    for (int k = 0; k < REFERENCES; k++)
        if (cache[k].labels != NULL && cache[k].n == d->n)
            return &cache[k];
    kmeans_reference *ref = &cache[next];
    next = (next + 1) % REFERENCES;
    free(ref->labels);
    ref->n = 0;
    ref->labels = malloc((size_t)d->n * sizeof(int32_t));
    if (ref->labels == NULL)
        return NULL;
    memcpy(ref->centroids, d->x, sizeof ref->centroids);
    for (int it = 0; it < KMEANS_ITERS; it++)
        reference_step(d->x, d->n, ref->labels, ref->centroids);
    ref->inertia = inertia(d->x, d->n, ref->labels, ref->centroids);
    ref->n = d->n;
    return ref;
}

/* Outside the clock: the answer is the inertia of what the variant left. */
static void kmeans_tally(const sl_problem *p, sl_outcome *out)
{
    const kmeans_data *d = out->data;
    out->value = d ? inertia(d->x, d->n, d->labels, d->centroids) : NAN;
    out->work = (double)p->size;
}

static sl_verdict kmeans_check(const sl_problem *p, const sl_outcome *out)
{
    const kmeans_data *d = out->data;
    sl_verdict v = { .ok = 0, .error = (double)p->size, .tolerance = 0.0 };
    if (d == NULL || d->n != p->size)
        return v;
    const kmeans_reference *ref = reference_for(d);
    if (ref == NULL) {
        v.no_reference = 1;
        return v;
    }
    v.expected = ref->inertia;
    int64_t wrong_labels = 0, wrong = 0, used[KMEANS_K] = { 0 }, ref_used[KMEANS_K] = { 0 };
    for (int64_t i = 0; i < d->n; i++) {
        wrong_labels += d->labels[i] != ref->labels[i];
        used[d->labels[i] >= 0 && d->labels[i] < KMEANS_K ? d->labels[i] : 0]++;
        ref_used[ref->labels[i]]++;
    }
    for (int k = 0; k < KMEANS_K * KMEANS_D; k++)
        wrong += !(fabs(d->centroids[k] - ref->centroids[k]) <= KMEANS_TOLERANCE);
    v.error = (double)(wrong + wrong_labels);
    v.ok = v.error == 0;
    /* What the wrong answers most often come from, when the data says so. */
    int unused = 0;
    for (int c = 0; c < KMEANS_K; c++)
        unused += used[c] == 0 && ref_used[c] > 0;
    if (unused > 0)
        v.hint = "a centroid got no point at all (the last one?): does the argmin's loop stop "
                 "one short?";
    else if (wrong_labels > 0)
        v.hint = "points labelled with another centroid than the nearest: check the distance "
                 "(every feature, squared) and the argmin (the smallest, the lowest index on "
                 "a tie)";
    else if (wrong > 0)
        v.hint = "the labels are right but the centroids are not: are the per-cluster sums "
                 "a data race (a missing array reduction)? make racecheck finds it";
    return v;
}

/* An answer from elsewhere (lesson 8's numba): n int32 labels, then the
 * KMEANS_K x KMEANS_D centroids as doubles, native byte order, nothing
 * after them. */
static int kmeans_read_answer(const sl_problem *p, const char *path, sl_outcome *out,
                              char *why, size_t whylen)
{
    kmeans_data *d = out->data;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(why, whylen, "answer '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t labels = fread(d->labels, sizeof(int32_t), (size_t)p->size, f);
    size_t cents = fread(d->centroids, sizeof(double), KMEANS_K * KMEANS_D, f);
    int extra = fgetc(f);
    fclose(f);
    if (labels != (size_t)p->size || cents != KMEANS_K * KMEANS_D || extra != EOF) {
        snprintf(why, whylen, "answer '%s': wrong length (want %" PRId64 " int32 labels, "
                 "then %d doubles)", path, p->size, KMEANS_K * KMEANS_D);
        return -1;
    }
    return 0;
}

/* Each iteration reads the points twice (assignment, update). */
static double kmeans_bytes(const sl_problem *p)
{
    return 2.0 * KMEANS_ITERS * (double)p->size * (KMEANS_D * 8 + 4);
}

static double kmeans_held(const sl_problem *p)
{
    return (double)p->size * (KMEANS_D * 8 + 4);
}

/* The fewest points there can be (one per cluster), sizes around the lane
 * and thread counts, and a prime. */
static const sl_problem kmeans_test_cases[] = {
    { .size = KMEANS_K }, { .size = KMEANS_K + 1 }, { .size = KMEANS_K + 7 },
    { .size = 63 }, { .size = 65 }, { .size = 1009 }, { .size = 10007 }, { .size = 0 },
};

const sl_problem_def kmeans_problem = {
    .name = "kmeans",
    .lesson = 9,
    .size_name = "points",
    .work_unit = "points",
    .default_size = 400000,
    .quick_size = 100000,
    .probe_size = KMEANS_PROBE_SIZE,
    .max_size = KMEANS_MAX_SIZE,
    .error_name = "wrong labels and centroid features",
    .test_cases = kmeans_test_cases,
    .run = kmeans_run,
    .tally = kmeans_tally,
    .check = kmeans_check,
    .prepare = kmeans_prepare,
    .release = kmeans_release,
    .read_answer = kmeans_read_answer,
    .ceiling = SL_CEILING_FMA,
    /* Per point and call: KMEANS_ITERS x KMEANS_K distances of KMEANS_D
     * multiply-adds (and as many subtracts). */
    .ceiling_ops = KMEANS_ITERS * KMEANS_K * KMEANS_D,
    .ceiling_why = "5 x 32 x " KMEANS_TEXT(KMEANS_D) " multiply-adds per point "
                   "(iterations x centroids x features)",
    .bytes_moved = kmeans_bytes,
    .bytes_held = kmeans_held,
    /* Each distance term is a subtract, a multiply and an add, each
     * rounded as the reference rounds them: no FMA. */
    .issue_ops = 3 * KMEANS_ITERS * KMEANS_K * KMEANS_D,
    .issue_why = "3 x 5 x 32 x " KMEANS_TEXT(KMEANS_D) " vector instructions per point "
                 "(subtract, multiply, add: the reference's rounding allows no FMA)",
};
