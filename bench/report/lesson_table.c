/* lesson_table.c - the participant's table (lesson_table.h): the rows,
 * the notes under them, what a wrong answer means. */
#include "lesson_table.h"

#include <math.h>
#include <string.h>

#include "isolate.h"
#include "labels.h"
#include "platform.h"
#include "quiet.h"
#include "verdict.h"

static void print_row(FILE *f, const sl_suite *s, const sl_config *c)
{
    char time[24] = "-", speedup[16] = "-", threads[32], v[128], variant[80];
    sl_config_label(c, variant, sizeof variant);
    if (c->valid && c->timed)
        snprintf(time, sizeof time, c->median >= 1e-3 ? "%.2f ms" : "%.2f µs",
                 c->median >= 1e-3 ? c->median * 1e3 : c->median * 1e6);
    /* The verdict's own figure (busy: the pairs'), "-" where it gives none. */
    double up = c->valid ? sl_speedup_judged(s, c, NULL) : c->speedup;
    if (up > 0.0)
        snprintf(speedup, sizeof speedup, "%.2fx", up);
    if (sl_config_short_of_threads(c))
        snprintf(threads, sizeof threads, "%d of %d", c->threads_used, c->problem.threads);
    else if (c->problem.threads > 0)
        snprintf(threads, sizeof threads, "%d%s", c->threads_used,
                 c->oversubscribed ? "*" : "");
    else
        snprintf(threads, sizeof threads, "%s",
                 (c->variant->flags & SL_USES_GPU) ? "-" : "1");
    sl_verdict_words(s, c, v, sizeof v);
    fprintf(f, "%-10s %-22s %7s %11s %8s %18.15g %9.2g  %-30s %s\n", c->tree,
            variant, threads, time, speedup, c->outcome.value,
            c->verdict.error, v, sl_config_where(c));
}

/* A sampling kernel's answer has a standard error: say how far off the
 * correct variants are, in sigmas, and that they all agree. */
static void print_sampling_note(FILE *f, const sl_suite *s)
{
    const sl_config *ok = NULL;
    int agree = 1;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->valid)
            continue;
        if (ok && c->outcome.hits != ok->outcome.hits)
            agree = 0;
        ok = ok ? ok : c;
    }
    if (ok == NULL)
        return;
    double sigma = ok->kernel->problem->std_error(&ok->problem);
    fprintf(f, "\nstandard error at %lld %s: %.2g; the estimate %.10f is off by %.2g, "
            "%.2f sigma%s\n", (long long)ok->problem.size, ok->kernel->problem->size_name,
            sigma, ok->outcome.value, ok->verdict.error, ok->verdict.error / sigma,
            agree ? " (every correct variant counted the same points)" : "");
    if (!agree)
        fprintf(f, "the variants did not all count the same points inside: their draws "
                "depend on the thread count or on timing (run it again and compare)\n");
}

/* The configuration of variant `name` with c's threads, in c's tree. */
static const sl_config *twin(const sl_suite *s, const sl_config *c, const char *name)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *o = &s->configs[i];
        if (strcmp(o->variant->name, name) == 0 && strcmp(o->tree, c->tree) == 0 &&
            o->problem.threads == c->problem.threads)
            return o;
    }
    return NULL;
}

/* An exhibit whose point is a speed (false sharing: padded against
 * adjacent) says it from pairs, or that this machine cannot show it:
 * threads that fight over a cache line, or do not, differ only while
 * both run at once, on cores of their own, so a busy or oversubscribed
 * run, and pairs that disagree, leave the effect unjudged. */
static void print_contrast(FILE *f, const sl_suite *s)
{
    const sl_problem_def *k = s->configs[0].kernel->problem;
    if (k->contrast_slow == NULL)
        return;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *slow = &s->configs[i], *fast;
        if (strcmp(slow->variant->name, k->contrast_slow) != 0 ||
            (fast = twin(s, slow, k->contrast_fast)) == NULL || !slow->valid || !fast->valid ||
            !slow->timed || !fast->timed)
            continue;
        sl_paired up;
        const char *why = slow->contaminated || fast->contaminated
                              ? "other processes were running, and the threads need cores "
                                "of their own at the same time"
                          : slow->oversubscribed || fast->oversubscribed
                              ? "there are more threads than cores"
                          : sl_ratio_paired(slow, fast, &up) == 0 || sl_paired_too_wide(&up)
                              ? "its repetitions disagree too much (add --reps 5)"
                              : NULL;
        if (why)
            fprintf(f, "\n%s against %s, the point of %s: cannot judge here: %s.\n",
                    k->contrast_fast, k->contrast_slow, k->name, why);
        else
            fprintf(f, "\n%s against %s, the point of %s: %.2fx as fast [%.2f, %.2f], "
                    "from %d pairs of repetitions timed side by side.\n", k->contrast_fast,
                    k->contrast_slow, k->name, up.median, up.low, up.high, up.n);
    }
}

void sl_lesson_table(FILE *f, const sl_suite *suite)
{
    fprintf(f, "%-10s %-22s %7s %11s %8s %18s %9s  %-30s %s\n", "tree", "variant", "threads",
            "time", "speedup", "result", "error", "verdict", "ran on");
    /* Variant by variant, the participant's row above the solution's. */
    const sl_kernel *k = suite->configs[0].kernel;
    for (size_t v = 0; v < k->count; v++)
        for (size_t i = 0; i < suite->count; i++)
            if (strcmp(suite->configs[i].variant->name, k->variants[v].name) == 0)
                print_row(f, suite, &suite->configs[i]);
    if (k->problem->std_error)
        print_sampling_note(f, suite);
    print_contrast(f, suite);
}

/* The notes under the table: what a row's marks mean, and why a number
 * is not what it seems. */
void sl_lesson_notes(FILE *f, const sl_suite *suite)
{
    int shorted = 0, over = 0, fallback = 0, offload = 0, busy = 0, held = 0, threaded_right = 0;
    for (size_t i = 0; i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        threaded_right |= c->valid && c->threads_used >= 2 &&
                          (c->variant->flags & SL_USES_THREADS) &&
                          strcmp(c->tree, "exercises") == 0;
        shorted |= sl_config_short_of_threads(c);
        over |= c->oversubscribed && !sl_config_short_of_threads(c);
        fallback |= c->valid && c->outcome.where == SL_RAN_HOST_FALLBACK;
        offload |= c->outcome.where == SL_RAN_DEVICE && sl_device_is_host();
        busy += c->contaminated;
        held += c->contaminated && c->valid && c->timed &&
                !sl_gpu_stand_in(c->outcome.where) &&
                strcmp(c->variant->name, SL_BASELINE_VARIANT) != 0 &&
                !sl_verdict_paired(suite, c);
    }
    if (over)
        fprintf(f, "\nnote: * more threads than cores (oversubscribed): the threads share "
                "cores, so the time says little about scaling.\n");
    if (shorted)
        fprintf(f, "\nnote: \"1 of 2\": the OpenMP runtime granted fewer threads than asked "
                "(%s); those rows are not the thread count they ask for.\n",
                sl_threads_short_cause());
    if (fallback)
        fprintf(f, "\nnote: the gpu variants ran on the host (host fallback: no offload "
                "device); their times are CPU figures, not GPU ones.\n");
    if (offload)
        fprintf(f, "\nnote: the gpu variants ran on the host offload device (LLVM's: this "
                "CPU, with memory of its own, so every map copies as to a GPU); their times "
                "are CPU figures with the copies in, not GPU ones.\n");
    if (suite->nskipped)
        fprintf(f, "\nnote: the cuda variant was skipped: %s.\n", suite->skip_reason);
    /* Lesson 5's stages, left out unless asked for: say how to see them. */
    const sl_kernel *k = suite->configs[0].kernel;
    char hidden[160] = "";
    for (size_t v = 0; v < k->count; v++) {
        int shown = 0;
        for (size_t i = 0; i < suite->count; i++)
            shown |= suite->configs[i].variant == &k->variants[v];
        if (!shown && sl_variant_lesson(k, &k->variants[v]) != k->problem->lesson &&
            !(k->variants[v].flags & SL_SHAPE))
            snprintf(hidden + strlen(hidden), sizeof hidden - strlen(hidden), "%s%s",
                     hidden[0] ? ", " : "", k->variants[v].name);
    }
    if (hidden[0])
        fprintf(f, "\nnote: these are lesson %d's rungs; lesson %d's gpu stages (%s) are left "
                "out: add --all (make %s ARGS=--all) to see every rung.\n",
                k->problem->lesson, SL_GPU_TRACK_LESSON, hidden, k->problem->name);
    /* Where nothing counts other processes' CPU, "busy" can never show. */
    sl_quiet_mark probe;
    sl_quiet_mark_now(&probe);
    if (!probe.ok)
        fprintf(f, "\nnote: this system does not count other processes' CPU time (%s), so "
                "the machine's quietness was not measured: a busy machine looks like a "
                "quiet one here.\n", sl_busy_source());
    if (busy)
        fprintf(f, "\nnote: other processes used more than %.2g of a core (or the run was "
                "stopped) while %d variant(s) were timed, so those times are slower than "
                "this machine can be. \"busy: 3.1x [2.7, 3.5]\" is judged instead from "
                "repetitions taken side by side, under the same load: scalar's time over "
                "the variant's, one thread's counted as its CPU time (what it takes on a core "
                "of its own), threads' as wall time (they need cores at once). The middle ratio and its interval (95%% "
                "from 6 pairs, the range from fewer).%s\n", SL_BUSY_CORES, busy,
                held ? " Where the pairs disagreed too much: no speed verdict. Close "
                       "other programs (top shows what is running), or run on a compute "
                       "node." : "");
    /* A race can give the right answer here and a wrong one elsewhere.
     * Once per lesson (its companion kernel shares the files). */
    static int said_race;
    if (threaded_right && !said_race++)
        fprintf(f, "\nnote: your threaded variants are right on this machine; a data race "
                "can still hide in a right answer: make racecheck TREE=exercises KERNEL=%s "
                "looks for one.\n", suite->configs[0].kernel->problem->name);
}

/* Wrong answers: what they mean here, and where to look. */
void sl_lesson_wrong(FILE *f, const sl_suite *suite, size_t invalid)
{
    if (strcmp(suite->configs[0].tree, "exhibits") == 0)
        fprintf(f, "\n%zu variant(s) gave a different answer, which is what this exhibit "
                "shows: lesson %d of the course (COURSE.md) explains it.\n", invalid,
                suite->configs[0].kernel->problem->lesson);
    else
        fprintf(f, "\n%zu variant(s) gave a wrong answer: fix them before speed counts.\n",
                invalid);
    sl_isolate_print_hints(f, suite);
    /* What the kernels' checks could tell of the cause. */
    for (size_t i = 0; i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        const sl_verdict *v = c->probe_verdict.ok ? &c->verdict : &c->probe_verdict;
        if (!c->valid && v->hint && strcmp(c->tree, "exhibits") != 0)
            fprintf(f, "%s/%s/%s: %s\n", c->tree, c->kernel->problem->name, c->variant->name,
                    v->hint);
    }
    /* An answer T times the right one on T threads: every thread ran the
     * whole loop, which no race checker reports. */
    for (size_t i = 0; i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        if (sl_wrong_class_of(c) == SL_WRONG_WHOLE_LOOP)
            fprintf(f, "%s/%s/%s: the answer is %d times the right one on %d threads: every "
                    "thread ran the whole loop (#pragma omp parallel without for?)\n",
                    c->tree, c->kernel->problem->name, c->variant->name, c->threads_used,
                    c->threads_used);
    }
    /* A threaded variant that is wrong otherwise is most often a data race. */
    for (size_t i = 0; i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        sl_wrong_class k = sl_wrong_class_of(c);
        if ((k == SL_WRONG_RACE || (k == SL_WRONG_CHECKED &&
                                    (c->variant->flags & SL_USES_THREADS))) &&
            strcmp(c->tree, "exhibits") != 0) {
            fprintf(f, "A threaded variant is wrong: the usual cause is a data race "
                    "(a missing reduction, a shared temporary). Find it with: "
                    "make racecheck TREE=%s KERNEL=%s\n", c->tree, c->kernel->problem->name);
            break;
        }
    }
}

void sl_lesson_printed(FILE *f, const sl_suite *s, const char *path)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        int first = 1;
        long lines = 0;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *o = &s->configs[j];
            if (o->variant != c->variant || o->kernel != c->kernel || strcmp(o->tree, c->tree))
                continue;
            first &= j >= i;
            lines += o->printed;
        }
        if (!first || lines == 0)
            continue;
        fprintf(f, "%s/%s/%s printed %ld line(s) while it was checked and timed (kept apart%s%s): "
                   "printing takes time, and its rows' times include it\n", c->tree,
                c->kernel->problem->name, c->variant->name, lines, path ? ": " : "",
                path ? path : "");
    }
}
