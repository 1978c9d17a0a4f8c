/* test_fractal.c - the fractal reference against independently computed
 * figures, the solutions' fastest variants against it at 1024 x 1024, and
 * the lane-utilisation model on images whose answer is known by hand.
 *
 * Known figures (1024 x 1024, max_iter 1000, pixel centres): computed with
 * tests/reference/fractal_reference.py, plain Python floats (IEEE binary64,
 * no fused multiply-add), a program that shares no code with the kit.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "evidence.h"
#include "fractal_problem.h"

extern const sl_kernel *const solutions_kernels[];

#define KNOWN_SIDE 1024
static const struct {
    const sl_problem_def *def;
    const char *name;
    double sum;        /* sum of the counts */
    long long at_max;  /* pixels whose count reached max_iter */
} known[] = {
    { &mandelbrot_problem, "mandelbrot", 259655490.0, 253372 },
    { &julia_problem, "julia", 43242193.0, 457 },
};

static void test_known_figures(void)
{
    sl_problem p = { .size = KNOWN_SIDE };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        const int32_t *ref = fractal_reference(known[k].def, &p);
        CHECK(ref != NULL);
        if (ref == NULL)
            continue;
        double sum = 0.0;
        long long at_max = 0;
        for (int64_t i = 0; i < (int64_t)KNOWN_SIDE * KNOWN_SIDE; i++) {
            sum += ref[i];
            at_max += ref[i] == FRACTAL_DEFAULT_MAX_ITER;
        }
        CHECK_EQ_LL(sum, known[k].sum);
        CHECK_EQ_LL(at_max, known[k].at_max);
    }
}

/* The solutions' simd and threads_simd draw the same 1024^2 images. */
static void test_fast_variants_at_known_size(void)
{
    for (const sl_kernel *const *k = solutions_kernels; *k; k++) {
        if (!(*k)->problem->image)
            continue;
        for (size_t v = 0; v < (*k)->count; v++) {
            const sl_variant *var = &(*k)->variants[v];
            if (!(var->flags & SL_USES_SIMD))
                continue;
            sl_problem p = { .size = KNOWN_SIDE, .threads = 2 };
            sl_outcome o = { .counts = malloc((size_t)KNOWN_SIDE * KNOWN_SIDE * sizeof(int32_t)) };
            CHECK(o.counts != NULL);
            if (o.counts == NULL)
                continue;
            CHECK(sl_solve((*k)->problem, var, &p, &o) == 0);
            sl_verdict verdict = (*k)->problem->check(&p, &o);
            CHECK(verdict.ok);
            CHECK_EQ_LL(verdict.error, 0);
            free(o.counts);
        }
    }
}

static void test_lane_models(void)
{
    /* Strips of 4: the slowest pixel sets the pace, 10 useful of 16. */
    const int32_t row[] = { 1, 2, 3, 4 };
    CHECK(sl_strip_utilisation(row, 4, 1, 4) == 10.0 / 16.0);
    /* A partial strip still runs every lane: 10 useful of 2 * 4 * 4. */
    const int32_t five[] = { 1, 2, 3, 4, 4 };
    CHECK(sl_strip_utilisation(five, 5, 1, 4) == 14.0 / 32.0);
    /* Equal pixels: no lane ever waits. */
    const int32_t even[] = { 7, 7, 7, 7, 7, 7, 7, 7 };
    CHECK(sl_strip_utilisation(even, 8, 1, 8) == 1.0);
    /* The pool: counts that fill whole blocks of 16 keep every lane busy. */
    const int32_t blocks[] = { 16, 32, 16, 16, 16 };
    /* lanes 0,1 take 16 and 32; at the next check lane 0 takes the third,
     * then the fourth; lane 1 the fifth: 3 rounds of 16 steps on 2 lanes. */
    CHECK(sl_pool_utilisation(blocks, 5, 1, 2, 16) == 96.0 / (3 * 16 * 2));
    /* A pixel that escapes at once still holds its lane for one block. */
    const int32_t zero[] = { 0 };
    CHECK(sl_pool_utilisation(zero, 1, 1, 1, 16) == 0.0);
    /* On a real image the pool beats fixed strips of the same width. */
    sl_problem p = { .size = 256 };
    const int32_t *julia = fractal_reference(&julia_problem, &p);
    CHECK(julia != NULL);
    if (julia)
        CHECK(sl_pool_utilisation(julia, 256, 256, 32, 16) >
              sl_strip_utilisation(julia, 256, 256, 32));
}

/* The timed call hands a variant a job that shares no cache line with
 * anything else: its first byte starts a line, and the type fills whole
 * lines. Kept on the caller's stack without this, the calling thread's
 * frames below it took the line from the other threads on every row. */
static const fractal_job *seen_job;
static void record_job(const fractal_job *job, int32_t *counts, sl_where *where)
{
    seen_job = job;
    counts[0] = 0;
    *where = SL_RAN_HOST;
}

static void test_job_alone_on_its_lines(void)
{
    const sl_variant v = { .name = "record", .fn = (sl_any_fn *)record_job };
    sl_problem p = { .size = 1, .threads = 1 };
    int32_t count = -1;
    sl_outcome o = { .counts = &count };
    CHECK(mandelbrot_run(&v, &p, &o) == 0);
    CHECK(seen_job != NULL);
    CHECK_EQ_LL((uintptr_t)seen_job % 64, 0);
    CHECK_EQ_LL(sizeof(fractal_job_alone) % 64, 0);
    CHECK_EQ_LL(count, 0);
}

int main(void)
{
    test_job_alone_on_its_lines();
    test_known_figures();
    test_fast_variants_at_known_size();
    test_lane_models();
    return CHECK_DONE();
}
