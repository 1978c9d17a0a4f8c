/* test_tree.c - every variant of one tree against the reference, on each
 * kernel's awkward test cases (sl_problem_def.test_cases) at 1, 2 and 3
 * threads, and under every schedule for variants that take one. Built once
 * per tree (test-solutions, test-exercises); walks the tree's kernel table,
 * so a new variant or kernel is tested without touching this file.
 *
 * Also checks that each variant says truthfully where it ran, that work is
 * counted right, and that threaded image variants record which thread
 * computed each row. One line per variant, with its course lesson and
 * whether it ran on the host fallback: make check (scripts/check.sh) reads
 * them.
 *
 * CUDA variants run only on a CUDA device, so they have a test of their
 * own: `test-<tree> --cuda` tests them alone, and exits 77 (CTest's
 * "skipped") when there is no device; without --cuda they are left out.
 *
 * Under an emulator (the aarch64 suite, tests/e2e/arm.sh; or found by
 * platform.h's sl_emulated, as in an arm64 container on x86-64), --emulated tests
 * every case at 1 and 2 threads under two schedules: what another ISA
 * changes is the vector code, not the OpenMP runtime's scheduling, and a
 * full run costs minutes there. --answers prints every kernel's answers
 * (values, counts, image hashes) for another build to compare.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_info.h"
#include "kernel.h"
#include "platform.h"
#include "tree.h"

extern const sl_kernel *const SL_TREE_SYMBOL(kernels)[];

#define STR_(x) #x
#define STR(x) STR_(x)

static const sl_schedule schedules[] = {
    { SL_SCHED_DEFAULT, 0 }, { SL_SCHED_STATIC, 0 }, { SL_SCHED_STATIC, 1 },
    { SL_SCHED_DYNAMIC, 0 }, { SL_SCHED_DYNAMIC, 3 }, { SL_SCHED_GUIDED, 0 },
};

/* Variant v on p into o, with the image an image kernel fills (exits
 * without memory). Returns 1 when it ran; end_case frees what it made. */
static int solve_case(const sl_problem_def *def, const sl_variant *v, const sl_problem *p,
                      sl_outcome *o)
{
    int64_t height = sl_problem_height(p);
    *o = (sl_outcome){ 0 };
    if (def->image) {
        o->counts = malloc((size_t)(p->size * height) * sizeof *o->counts);
        o->row_thread = malloc((size_t)height * sizeof *o->row_thread);
        if (o->counts == NULL || o->row_thread == NULL) {
            fprintf(stderr, "test_tree: out of memory\n");
            exit(1);
        }
    }
    return sl_solve(def, v, p, o) == 0;
}

static void end_case(const sl_problem_def *def, sl_outcome *o)
{
    free(o->counts);
    free(o->row_thread);
    sl_release(def, o);
}

/* One call: run, check, and say what went wrong. Returns 1 when right;
 * *stand_in gains 1 when an offload variant ran on the host fallback, 2
 * when on the host offload device (the CPU in a GPU's place either way). */
static int run_case(const sl_kernel *k, const sl_variant *v, sl_problem p, int *stand_in)
{
    const sl_problem_def *def = k->problem;
    int64_t height = sl_problem_height(&p);
    sl_outcome o;
    int ran = solve_case(def, v, &p, &o);
    sl_verdict verdict = def->check(&p, &o);
    int devices = omp_get_num_devices();
    int where_ok = (v->flags & SL_USES_GPU)
        ? (o.where == SL_RAN_HOST_FALLBACK || (o.where == SL_RAN_DEVICE && devices > 0))
        : (v->flags & SL_USES_CUDA) ? o.where == SL_RAN_DEVICE
        : o.where == SL_RAN_HOST;
    /* Image kernels count iterations: the work is the sum of the counts. */
    int work_ok = def->image ? o.work == o.value : o.work == (double)p.size;
    int rows_ok = 1;
    /* Only the schedule-sweep twins record who computed each row. */
    if (def->image && (v->flags & SL_USES_SCHEDULE) && p.schedule.kind != SL_SCHED_DEFAULT)
        for (int64_t j = 0; j < height; j++)
            rows_ok = rows_ok && o.row_thread[j] >= 0 && o.row_thread[j] < p.threads;
    CHECK(ran);
    CHECK(where_ok);
    CHECK(work_ok);
    CHECK(rows_ok);
    CHECK(verdict.ok);
    int ok = ran && verdict.ok && where_ok && work_ok && rows_ok;
    if (sl_gpu_stand_in(o.where))
        *stand_in |= o.where == SL_RAN_HOST_FALLBACK ? 1 : 2;
    if (!ok) {
        /* The case in the kernel's own terms: an image's shape, iteration
         * cap and schedule; a sampling kernel's seed; a sum's steps. */
        char fields[160], sched[32];
        sl_schedule_name(p.schedule, sched, sizeof sched);
        if (def->image)
            snprintf(fields, sizeof fields, "%lld x %lld pixels, max_iter %d, schedule %s",
                     (long long)p.size, (long long)height, p.max_iter, sched);
        else if (def->std_error)
            snprintf(fields, sizeof fields, "%lld %s, seed %llu", (long long)p.size,
                     def->size_name, (unsigned long long)p.seed);
        else
            snprintf(fields, sizeof fields, "%lld %s", (long long)p.size, def->size_name);
        fprintf(stderr, "  %s/%s %s, threads %d: got %.17g, expected %.17g, %s %.3g > %.3g, "
                "ran on %s\n", def->name, v->name, fields, p.threads, o.value,
                verdict.expected, def->error_name, verdict.error, verdict.tolerance,
                sl_where_name(o.where));
    }
    end_case(def, &o);
    return ok;
}

/* Under an emulator: cases up to this many elements (pixels, points,
 * steps). The edges another ISA could get wrong (tails, lanes, predicates,
 * the split between threads) all lie in small awkward sizes; the largest
 * cases only cost minutes of emulation (SVE's 257 x 255 Mandelbrot and
 * 10007-point k-means were 80% of a 200 s run). */
enum { EMULATED_MAX_ELEMENTS = 10000 };

/* Under an emulator: the default schedule and one that hands rows out. */
static const sl_schedule emulated_schedules[] = { { SL_SCHED_DEFAULT, 0 }, { SL_SCHED_DYNAMIC, 3 } };

static void test_variant(const sl_kernel *k, const sl_variant *v, int min_threads, int emulated)
{
    const sl_problem_def *def = k->problem;
    const sl_schedule *sched_list = emulated ? emulated_schedules : schedules;
    size_t nsched = emulated ? sizeof emulated_schedules / sizeof emulated_schedules[0]
                             : sizeof schedules / sizeof schedules[0];
    if (!(v->flags & SL_USES_SCHEDULE))
        nsched = 1;
    int max_threads = emulated ? 2 : 3;
    int cases = 0, failed = 0, stand_in = 0;
    double start = omp_get_wtime();
    for (const sl_problem *tc = def->test_cases; tc->size > 0; tc++) {
        int64_t elements = def->image ? tc->size * sl_problem_height(tc) : tc->size;
        if (emulated && elements > EMULATED_MAX_ELEMENTS)
            continue;
        for (int threads = min_threads; threads <= max_threads; threads++)
            for (size_t s = 0; s < nsched; s++) {
                sl_problem p = *tc;
                p.threads = threads;
                p.schedule = sched_list[s];
                cases++;
                failed += !run_case(k, v, p, &stand_in);
            }
    }
    int lesson = sl_variant_lesson(k, v);
    printf("%-10s %-10s %-13s %4d cases, %d wrong  (lesson %d)%s", STR(SPEEDLAB_TREE),
           def->name, v->name, cases, failed, lesson,
           (stand_in & 1) ? " host fallback" : stand_in ? " host offload device" : "");
    /* Under an emulator (another ISA) the suite's time is worth seeing,
     * variant by variant, and whether a rung ran its own code there. */
    if (emulated)
        printf("  %.1f s%s", omp_get_wtime() - start,
               (v->flags & SL_FALLBACK) ? "  fallback: the rung below's code" : "");
    printf("\n");
}

/* --answers: every kernel's answer on each test case from its first
 * variant (the scalar rung) at one thread, "kernel case value hits
 * image-hash"; returns how many were wrong. */
static int print_answers(void)
{
    int wrong = 0;
    for (const sl_kernel *const *k = SL_TREE_SYMBOL(kernels); *k; k++) {
        const sl_problem_def *def = (*k)->problem;
        int c = 0;
        for (const sl_problem *tc = def->test_cases; tc->size > 0; tc++, c++) {
            sl_problem p = *tc;
            p.threads = 1;
            int64_t pixels = def->image ? p.size * sl_problem_height(&p) : 0;
            sl_outcome o;
            int ran = solve_case(def, &(*k)->variants[0], &p, &o);
            sl_verdict verdict = def->check(&p, &o);
            if (ran) {
                /* FNV-1a over the image: the same sum from other pixels
                 * would be a different answer. */
                uint64_t hash = 1469598103934665603u;
                for (int64_t i = 0; i < pixels; i++)
                    hash = (hash ^ (uint32_t)o.counts[i]) * 1099511628211u;
                printf("%s %d %.17g %lld %016llx\n", def->name, c, o.value,
                       (long long)o.hits, (unsigned long long)hash);
            }
            wrong += !ran || !verdict.ok;
            end_case(def, &o);
        }
    }
    return wrong;
}

/* CTest counts this exit code as "skipped" (SKIP_RETURN_CODE). */
enum { EXIT_SKIPPED = 77 };

/* The race checker's modes (scripts/racecheck.sh):
 *   --threaded [KERNEL [VARIANT]]: the variants that take threads (or the
 *     one named, gpu ones included) on 2 and 3 threads (one thread cannot
 *     race), so ThreadSanitizer watches every parallel loop;
 *   --list-gpu: "kernel variant" for each offload variant, one per line,
 *     so that each can be checked in a process of its own. */
int main(int argc, char **argv)
{
    int cuda = argc == 2 && strcmp(argv[1], "--cuda") == 0;
    int list_gpu = argc == 2 && strcmp(argv[1], "--list-gpu") == 0;
    int threaded = argc >= 2 && strcmp(argv[1], "--threaded") == 0;
    int emulated = argc == 2 && strcmp(argv[1], "--emulated") == 0;
    if (argc == 2 && strcmp(argv[1], "--answers") == 0)
        return print_answers() == 0 ? 0 : 1;
    const char *only = threaded && argc >= 3 ? argv[2] : NULL;
    const char *only_variant = threaded && argc == 4 ? argv[3] : NULL;
    if ((!threaded && argc > 2) || argc > 4 ||
        (argc == 2 && !cuda && !threaded && !list_gpu && !emulated)) {
        fprintf(stderr, "usage: %s [--cuda | --list-gpu | --emulated | --answers | "
                "--threaded [KERNEL [VARIANT]]]\n", argv[0]);
        return 2;
    }
    /* An emulated CPU (an arm64 container on an x86-64 laptop) gets the
     * emulator's suite without being told: make check there runs as here. */
    if (argc == 1 && sl_emulated() != NULL)
        emulated = 1;
    if (cuda && sl_cuda_device_count() <= 0) {
        printf("skipped: %s, so the CUDA variants cannot run\n", sl_cuda_absent_reason());
        return EXIT_SKIPPED;
    }
    int kernels = 0, tested = 0;
    for (const sl_kernel *const *k = SL_TREE_SYMBOL(kernels); *k; k++, kernels++) {
        /* A kernel without test cases would pass vacuously. */
        CHECK((*k)->problem->test_cases && (*k)->problem->test_cases[0].size > 0);
        /* make check reports by lesson: every kernel names its own. */
        CHECK((*k)->problem->lesson > 0);
        if (only && strcmp(only, (*k)->problem->name) != 0)
            continue;
        for (size_t v = 0; v < (*k)->count; v++) {
            const sl_variant *var = &(*k)->variants[v];
            if (list_gpu) {
                if (var->flags & SL_USES_GPU)
                    printf("%s %s\n", (*k)->problem->name, var->name);
                continue;
            }
            if (((var->flags & SL_USES_CUDA) != 0) != cuda)
                continue;
            if (only_variant ? strcmp(only_variant, var->name) != 0
                             : threaded && !(var->flags & SL_USES_THREADS))
                continue;
            test_variant(*k, var, threaded ? 2 : 1, emulated);
            tested++;
        }
    }
    if (list_gpu)
        return 0;
    CHECK(kernels >= 3);
    /* --cuda in a build with CUDA must have found the CUDA variants, and
     * --threaded KERNEL [VARIANT] something to test. */
    CHECK(tested > 0);
    return CHECK_DONE();
}
