/* test_tree.c - every variant of one tree against the reference, at awkward
 * sizes and thread counts. Built once per tree (test-solutions,
 * test-exercises); walks the tree's kernel table, so a new variant or kernel
 * is tested without touching this file.
 *
 * Sizes: 1, 2, 3, a prime, sizes around the SIMD width and thread counts,
 * the kernel's probe size and a large size. Threads: 1, 2, 3. Also checks
 * that each variant says truthfully where it ran.
 */
#include <omp.h>
#include <stdio.h>

#include "check.h"
#include "kernel.h"
#include "tree.h"

extern const sl_kernel *const SL_TREE_SYMBOL(kernels)[];

#define STR_(x) #x
#define STR(x) STR_(x)

static void test_variant(const sl_kernel *k, const sl_variant *v)
{
    const sl_problem_def *def = k->problem;
    const int64_t sizes[] = { 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 63, 65, 1009,
                              def->probe_size, 10000019 };
    const int threads[] = { 1, 2, 3 };
    int devices = omp_get_num_devices();
    int cases = 0, failed = 0;

    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t t = 0; t < 3; t++) {
            sl_problem p = { .size = sizes[s], .threads = threads[t] };
            sl_outcome o = { 0 };
            int ran = def->run(v, &p, &o) == 0;
            sl_verdict verdict = def->check(&p, &o);
            int where_ok = (v->flags & SL_USES_GPU)
                ? (o.where == SL_RAN_HOST_FALLBACK || (o.where == SL_RAN_DEVICE && devices > 0))
                : o.where == SL_RAN_HOST;
            cases++;
            CHECK(ran);
            CHECK(where_ok);
            CHECK(o.work == (double)sizes[s]);
            if (!ran || !verdict.ok || !where_ok) {
                failed++;
                fprintf(stderr, "  %s/%s size %lld threads %d: got %.17g, expected "
                        "%.17g, error %.3g > %.3g, ran on %s\n", def->name, v->name,
                        (long long)sizes[s], threads[t], o.value, verdict.expected,
                        verdict.error, verdict.tolerance, sl_where_name(o.where));
            }
            CHECK(verdict.ok);
        }
    }
    printf("%-10s %-5s %-13s %3d cases, %d wrong\n", STR(SPEEDLAB_TREE), def->name,
           v->name, cases, failed);
}

int main(void)
{
    int kernels = 0;
    for (const sl_kernel *const *k = SL_TREE_SYMBOL(kernels); *k; k++, kernels++)
        for (size_t v = 0; v < (*k)->count; v++)
            test_variant(*k, &(*k)->variants[v]);
    /* An empty table would make this test pass vacuously. */
    CHECK(kernels > 0);
    return CHECK_DONE();
}
