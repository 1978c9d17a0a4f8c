/* suite.c - planning and validation of configurations (suite.h); their
 * timing is timing.c's. The one clock read here times a validation call,
 * for the progress estimate only.
 */
#define _DEFAULT_SOURCE
#include "suite.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "capture.h"
#include "gpu_info.h"
#include "interrupt.h"
#include "memory.h"
#include "sample.h"

int sl_threads_granted(int requested)
{
    int granted = 0;
#pragma omp parallel num_threads(requested)
    {
#pragma omp single
        granted = omp_get_num_threads();
    }
    return granted;
}

int sl_check_device(const sl_suite *suite, char *why, size_t whylen)
{
    if (omp_get_num_devices() < 1)
        return sl_fail(why, whylen, "--require-device: no offload device (OpenMP sees 0 "
                       "devices), so the gpu variants would run on the host");
    for (size_t i = 0; suite && i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        if ((c->variant->flags & SL_USES_GPU) && c->valid &&
            c->outcome.where != SL_RAN_DEVICE) {
            return sl_fail(why, whylen, "--require-device: %s ran on the %s, not on the "
                           "device", c->name, sl_where_name(c->outcome.where));
        }
    }
    return 0;
}

sl_config *sl_suite_push(sl_suite *s)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        sl_config *grown = realloc(s->configs, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        s->configs = grown;
        s->cap = cap;
    }
    sl_config *c = &s->configs[s->count++];
    memset(c, 0, sizeof *c);
    return c;
}

/* Say "unknown" with the names there are and the nearest one; -1. */
static int unknown_name(const char *what, const char *name,
                         const char *const *names, size_t n, char *why,
                         size_t whylen)
{
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    const char *near = sl_nearest(name, names, n);
    if (near)
        return sl_fail(why, whylen, "unknown %s '%s' (did you mean '%s'? known: %s)",
                       what, name, near, list);
    return sl_fail(why, whylen, "unknown %s '%s' (known: %s)", what, name, list);
}

/* The entry after the one at `at` in a comma-separated list, or NULL. */
static const char *next_entry(const char *at)
{
    const char *comma = strchr(at, ',');
    return comma ? comma + 1 : NULL;
}

/* Whether name is list itself or one of its comma-separated entries. */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = list; at != NULL; at = next_entry(at)) {
        size_t n = strcspn(at, ",");
        if (n == len && strncmp(at, name, len) == 0)
            return 1;
    }
    return 0;
}

/* The plan's size for a kernel: its own --size KERNEL=N (the last one
 * given), else --size N, else the kernel's size for this machine, its
 * default (or quick) size. */
static int64_t plan_size(const sl_plan *p, const sl_problem_def *def)
{
    for (int i = p->nsizes - 1; i >= 0; i--)
        if (strlen(def->name) == p->sizes[i].kernel_len &&
            strncmp(def->name, p->sizes[i].kernel, p->sizes[i].kernel_len) == 0)
            return p->sizes[i].size;
    if (p->size)
        return p->size;
    if (def->size_here)
        return def->size_here();
    return p->quick ? def->quick_size : def->default_size;
}

const sl_schedule SL_SWEEP_SCHEDULES[4] = {
    { SL_SCHED_STATIC, 0 }, { SL_SCHED_STATIC, 1 },
    { SL_SCHED_DYNAMIC, 0 }, { SL_SCHED_GUIDED, 0 },
};
enum { SL_ODD_SWEEP_THREADS = 3 };
/* The variant's own pragma, then the sweep through its twin. */
static const sl_schedule SWEEP_PLAN[5] = {
    { SL_SCHED_DEFAULT, 0 }, { SL_SCHED_STATIC, 0 }, { SL_SCHED_STATIC, 1 },
    { SL_SCHED_DYNAMIC, 0 }, { SL_SCHED_GUIDED, 0 },
};
static const sl_schedule AS_WRITTEN[1] = { { SL_SCHED_DEFAULT, 0 } };

/* Plan one configuration. Returns NULL when out of memory. */
static sl_config *plan_config(sl_suite *s, const sl_plan *p, const sl_kernel *k,
                              const sl_variant *var, int64_t size, int threads,
                              const sl_schedule *schedule)
{
    sl_config *c = sl_suite_push(s);
    if (c == NULL)
        return NULL;
    int takes_threads = (var->flags & SL_USES_THREADS) != 0;
    c->tree = p->tree;
    c->kernel = k;
    c->variant = var;
    c->problem.size = size;
    c->problem.max_iter = p->max_iter;
    c->problem.seed = p->seed;
    c->problem.threads = threads;
    if (schedule)
        c->problem.schedule = *schedule;
    if (takes_threads) {
        c->threads_used = sl_threads_granted(threads);
        c->oversubscribed = c->threads_used > sl_cores_available();
    } else if (!(var->flags & SL_USES_GPU)) {
        c->threads_used = 1;
    }
    int n = snprintf(c->name, sizeof c->name, "%s/%s/%s", p->tree, k->problem->name,
                     var->name);
    if (takes_threads)
        n += snprintf(c->name + n, sizeof c->name - (size_t)n, "/threads:%d", threads);
    if (schedule) {
        char sched[32];
        sl_schedule_name(*schedule, sched, sizeof sched);
        n += snprintf(c->name + n, sizeof c->name - (size_t)n, "/schedule:%s", sched);
    }
    if (p->weak)
        snprintf(c->name + n, sizeof c->name - (size_t)n, "/weak");
    return c;
}

/* Weak scaling: each thread keeps the work one thread had at size / tmax
 * (tmax the largest count planned), so the largest point is the strong
 * study's size again; image kernels grow their rows, not their width. */
static void weak_size(const sl_kernel *k, int64_t size, int tmax, int threads,
                      sl_problem *problem)
{
    int64_t per_thread = size / (tmax > 0 ? tmax : 1);
    if (per_thread < 1)
        per_thread = 1;
    if (k->problem->image)
        problem->height = per_thread * threads;
    else
        problem->size = per_thread * threads;
}

/* The configurations of one variant: a thread count each (and a schedule
 * each where the variant takes one, swept at the most threads). */
static int add_variant(sl_suite *s, const sl_plan *p, const sl_kernel *k,
                       const sl_variant *var, int64_t size, char *why, size_t whylen)
{
    int takes_threads = (var->flags & SL_USES_THREADS) != 0;
    int nt = takes_threads ? p->nthreads : 1;
    /* Schedules given: the variant's own pragma is run too (first),
     * so that its sweep is shown only when its own loop is right. */
    sl_schedule given[SL_MAX_SCHEDULES + 1] = { { SL_SCHED_DEFAULT, 0 } };
    int ngiven = 1;
    for (int i = 0; i < p->nschedules && i < SL_MAX_SCHEDULES; i++)
        if (p->schedules[i].kind != SL_SCHED_DEFAULT)
            given[ngiven++] = p->schedules[i];
    int max_threads = 0, top = 0, has_odd = 0, counts[SL_MAX_THREAD_COUNTS + 1];
    for (int t = 0; t < nt; t++) {
        counts[t] = takes_threads ? p->threads[t] : 0;
        max_threads = counts[t] > max_threads ? counts[t] : max_threads;
        if (counts[t] <= sl_cores_available() && counts[t] > top)
            top = counts[t];
        has_odd |= counts[t] == SL_ODD_SWEEP_THREADS;
    }
    /* The schedule sweep runs at the most threads that have a core
     * each, not at an oversubscribed point. */
    if (top == 0)
        top = max_threads;
    /* Both images are symmetric top to bottom, so 2 threads with
     * schedule(static) get mirror halves and balance by accident; a
     * sweep that stops at 2 threads adds 3, where static's cost shows
     * (labelled oversubscribed on 2 cores). */
    int odd = p->sweep && p->nschedules == 0 && (var->flags & SL_USES_SCHEDULE) &&
              top == 2;
    if (odd && !has_odd)
        counts[nt++] = SL_ODD_SWEEP_THREADS;
    for (int t = 0; t < nt; t++) {
        int threads = counts[t];
        /* Schedules: those given, or the variant's own and the sweep
         * at the largest thread count and its own elsewhere, or none
         * for other variants. */
        const sl_schedule *sched = NULL;
        int ns = 1;
        if (var->flags & SL_USES_SCHEDULE) {
            if (p->nschedules > 0)
                sched = given, ns = ngiven;
            else if (p->sweep && ((threads == top && threads > 1) ||
                                  (odd && threads == SL_ODD_SWEEP_THREADS)))
                sched = SWEEP_PLAN, ns = 5;
            else
                sched = AS_WRITTEN, ns = 1;
        }
        if (p->weak && sched)
            sched = AS_WRITTEN, ns = 1;
        for (int i = 0; i < ns; i++) {
            sl_config *c = plan_config(s, p, k, var, size, threads,
                                       sched ? &sched[i] : NULL);
            if (c == NULL)
                return sl_fail(why, whylen, "out of memory planning the run");
            c->weak = p->weak;
            if (p->weak)
                weak_size(k, size, max_threads, threads, &c->problem);
        }
    }
    return 0;
}

static int add_kernel(sl_suite *s, const sl_plan *p, const sl_kernel *k,
                      char *why, size_t whylen)
{
    const sl_problem_def *def = k->problem;
    int64_t size = plan_size(p, def);
    int matched = 0;

    if (size > def->max_size)
        return sl_fail(why, whylen, "--size: %lld %s is more than %s allows (at most %lld)",
                       (long long)size, def->size_name, def->name, (long long)def->max_size);

    for (size_t v = 0; v < k->count; v++) {
        const sl_variant *var = &k->variants[v];
        int named = (!p->variant_name || in_list(p->variant_name, var->name)) &&
                    (var->flags & p->variant_flags) == p->variant_flags &&
                    !(p->variant_flags && (var->flags & SL_NOT_BY_FLAGS)) &&
                    (p->variant_name || !(var->flags & SL_SHAPE)) &&
                    (p->variant_name || !p->own_lesson ||
                     sl_variant_lesson(k, var) == def->lesson);
        /* A speedup needs the baseline, so it is planned whatever was named
         * (not for weak scaling, which compares a variant with itself, nor
         * for rows another run imports and judges against its own). */
        if (!named && (p->weak || p->no_baseline || strcmp(var->name, SL_BASELINE_VARIANT) != 0))
            continue;
        if (p->weak && !(var->flags & SL_USES_THREADS)) {
            matched |= named;
            continue;
        }
        matched |= named;
        if ((var->flags & SL_USES_CUDA) && sl_cuda_device_count() <= 0) {
            if (s->nskipped < SL_MAX_SKIPPED)
                snprintf(s->skipped[s->nskipped++], sizeof s->skipped[0], "%s/%s/%s",
                         p->tree, def->name, var->name);
            s->skip_reason = sl_cuda_absent_reason();
            continue;
        }
        if (add_variant(s, p, k, var, size, why, whylen) != 0)
            return -1;
    }
    /* A list is checked name by name over every kernel (sl_suite_add). */
    if (!matched && p->variant_name && !strchr(p->variant_name, ',')) {
        const char *names[16];
        size_t n = 0;
        for (size_t v = 0; v < k->count && n < 16; v++)
            names[n++] = k->variants[v].name;
        return unknown_name("variant", p->variant_name, names, n, why, whylen);
    }
    return 0;
}

/* Whether the tree has a kernel of that name; if not, why says so with
 * the names there are (what: "kernel", "kernel in --size"). */
static int known_kernel(const sl_plan *p, const char *what, const char *name, char *why,
                        size_t whylen)
{
    const sl_kernel *k[SL_MAX_KERNELS];
    const char *names[SL_MAX_KERNELS];
    size_t n = sl_kernels_by_lesson(p->kernels, k, SL_MAX_KERNELS);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(name, k[i]->problem->name) == 0)
            return 1;
        names[i] = k[i]->problem->name;
    }
    unknown_name(what, name, names, n, why, whylen);
    return 0;
}

/* Every name in a --variant list, and every kernel given a size of its
 * own, must exist: a typo must not quietly measure less. */
static int check_names(const sl_plan *p, char *why, size_t whylen)
{
    const char *names[64];
    size_t n = 0;
    for (int i = 0; i < p->nsizes; i++) {
        char kernel[64];
        snprintf(kernel, sizeof kernel, "%.*s", (int)p->sizes[i].kernel_len,
                 p->sizes[i].kernel);
        if (!known_kernel(p, "kernel in --size", kernel, why, whylen))
            return -1;
    }
    if (p->variant_name == NULL || !strchr(p->variant_name, ','))
        return 0;
    for (const char *at = p->variant_name; at; at = next_entry(at)) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(at, ","), at);
        int known = 0;
        n = 0;
        for (const sl_kernel *const *k = p->kernels; *k; k++) {
            if (p->kernel_name && !in_list(p->kernel_name, (*k)->problem->name))
                continue;
            for (size_t v = 0; v < (*k)->count; v++) {
                known |= strcmp(name, (*k)->variants[v].name) == 0;
                size_t j = 0;
                while (j < n && strcmp(names[j], (*k)->variants[v].name) != 0)
                    j++;
                if (j == n && n < 64)
                    names[n++] = (*k)->variants[v].name;
            }
        }
        if (!known)
            return unknown_name("variant", name, names, n, why, whylen);
    }
    return 0;
}

int sl_suite_add(sl_suite *s, const sl_plan *p, char *why, size_t whylen)
{
    /* Kernels first, so a --variant list is checked against real ones. */
    for (const char *at = p->kernel_name; at; at = next_entry(at)) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(at, ","), at);
        if (!known_kernel(p, "kernel", name, why, whylen))
            return -1;
    }
    if (check_names(p, why, whylen) != 0)
        return -1;
    const sl_kernel *ordered[SL_MAX_KERNELS];
    size_t n = sl_kernels_by_lesson(p->kernels, ordered, SL_MAX_KERNELS);
    for (size_t k = 0; k < n; k++) {
        if (p->kernel_name && !in_list(p->kernel_name, ordered[k]->problem->name))
            continue;
        if (add_kernel(s, p, ordered[k], why, whylen) != 0)
            return -1;
    }
    return 0;
}

int sl_suite_named_skipped(const sl_suite *s, const char *variant_name, char *why,
                           size_t whylen)
{
    if (variant_name == NULL)
        return 0;
    for (int i = 0; i < s->nskipped; i++) {
        const char *slash = strrchr(s->skipped[i], '/');
        if (slash && in_list(variant_name, slash + 1)) {
            snprintf(why, whylen, "--variant %s cannot run here: %s", slash + 1,
                     s->skip_reason);
            return 1;
        }
    }
    return 0;
}

const char *sl_threads_short_cause(void)
{
    static char cause[96];
    const char *limit = getenv("OMP_THREAD_LIMIT"), *dyn = getenv("OMP_DYNAMIC");
    if (limit && *limit)
        snprintf(cause, sizeof cause, "OMP_THREAD_LIMIT=%.40s", limit);
    else if (dyn && *dyn)
        snprintf(cause, sizeof cause, "OMP_DYNAMIC=%.40s", dyn);
    else
        snprintf(cause, sizeof cause, "the OpenMP runtime");
    return cause;
}

const sl_config *sl_suite_out_of_memory(const sl_suite *s)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->configs[i].out_of_memory)
            return &s->configs[i];
    return NULL;
}

int64_t sl_image_bytes(const sl_config *c)
{
    return c->kernel->problem->image ? c->problem.size * sl_problem_height(&c->problem) *
                                       (int64_t)sizeof(int32_t) : 0;
}

/* Bytes the planned images need: one cached reference per image kernel
 * at its largest size, the image being checked, and each configuration's
 * rows (work and thread) kept for the report; biggest: the configuration
 * with the largest image (NULL: no image kernel). */
static int64_t images_needed(const sl_suite *s, const sl_config **biggest)
{
    int64_t refs = 0, image = 0, rows = 0;
    *biggest = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->kernel->problem->image)
            continue;
        int64_t h = sl_problem_height(&c->problem);
        int64_t bytes = sl_image_bytes(c);
        rows += h * (int64_t)(sizeof(int32_t) + sizeof(double));
        if (bytes > image)
            image = bytes, *biggest = c;
        int first = 1;
        int64_t largest = bytes;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *o = &s->configs[j];
            if (o->kernel->problem != c->kernel->problem)
                continue;
            first &= j >= i;
            int64_t ob = sl_image_bytes(o);
            largest = ob > largest ? ob : largest;
        }
        if (first)
            refs += largest;
    }
    return refs + image + rows;
}

/* The largest data a kernel with arrays holds, and which configuration. */
static int64_t data_needed(const sl_suite *s, const sl_config **biggest)
{
    int64_t most = 0;
    *biggest = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sl_problem_def *def = s->configs[i].kernel->problem;
        if (def->prepare == NULL || def->bytes_held == NULL)
            continue;
        int64_t bytes = (int64_t)def->bytes_held(&s->configs[i].problem);
        if (bytes > most)
            most = bytes, *biggest = &s->configs[i];
    }
    return most;
}

int sl_suite_check_memory(const sl_suite *s, char *why, size_t whylen)
{
    const sl_config *biggest;
    int64_t need = images_needed(s, &biggest);
    const char *from;
    int64_t have = sl_memory_available(&from);
    /* Kernels with arrays (prepare) hold one configuration's at a time. */
    const sl_config *arrays = NULL;
    int64_t arrays_need = data_needed(s, &arrays);
    if (arrays && have >= 0 && arrays_need > have)
        return sl_fail(why, whylen, "out of memory: %s at %lld %s needs about %lld MiB (its "
                       "arrays), and %s leaves %lld MiB; use a smaller --size",
                       arrays->kernel->problem->name, (long long)arrays->problem.size,
                       arrays->kernel->problem->size_name, (long long)(arrays_need >> 20), from,
                       (long long)(have >> 20));
    if (biggest == NULL || have < 0 || need <= have)
        return 0;
    return sl_fail(why, whylen, "out of memory: %s at %lld x %lld pixels needs about %lld MiB "
                   "(the images and their references), and %s leaves %lld MiB; use a "
                   "smaller --size", biggest->kernel->problem->name,
                   (long long)biggest->problem.size,
                   (long long)sl_problem_height(&biggest->problem), (long long)(need >> 20),
                   from, (long long)(have >> 20));
}

void sl_suite_out_of_memory_why(const sl_suite *s, const sl_config *c, char *why,
                                size_t whylen)
{
    const sl_config *biggest;
    int64_t need = images_needed(s, &biggest);
    if (c->kernel->problem->image)
        snprintf(why, whylen, "out of memory checking %s: the run needs about %lld MiB "
                 "(the images and their references); nothing was measured", c->name,
                 (long long)(need >> 20));
    else
        snprintf(why, whylen, "out of memory checking %s; nothing was measured", c->name);
}

void sl_suite_print_skipped(const sl_suite *s, FILE *f)
{
    for (int i = 0; i < s->nskipped; i++)
        fprintf(f, "  skipped  %-56s %s\n", s->skipped[i], s->skip_reason);
}

/* Run one configuration at one size and check it. Image kernels get an
 * image to fill; at the timed size (keep = 1) the configuration keeps the
 * work per row and who computed it, and the image itself when it is wrong. */
static int validate_at(sl_config *c, int64_t size, int keep, sl_outcome *out,
                       sl_verdict *verdict)
{
    const sl_problem_def *def = c->kernel->problem;
    sl_problem p = c->problem;
    if (size != p.size)
        p.height = 0;   /* the probe: square, whatever the timed shape */
    p.size = size;
    memset(out, 0, sizeof *out);
    int64_t width = p.size, height = sl_problem_height(&p);
    if (def->image) {
        out->counts = malloc((size_t)(width * height) * sizeof *out->counts);
        out->row_thread = malloc((size_t)height * sizeof *out->row_thread);
        if (out->counts == NULL || out->row_thread == NULL) {
            free(out->counts);
            free(out->row_thread);
            return -1;
        }
    }
    double t0 = sl_now();
    int rc = sl_solve(def, c->variant, &p, out);
    if (keep)
        c->call_seconds = sl_now() - t0;
    if (rc == 0)
        *verdict = def->check(&p, out);
    if (def->image && rc == 0 && keep) {
        c->row_work = calloc((size_t)height, sizeof *c->row_work);
        if (c->row_work)
            for (int64_t j = 0; j < height; j++)
                for (int64_t i = 0; i < width; i++)
                    c->row_work[j] += out->counts[j * width + i];
        c->row_thread = out->row_thread;
        out->row_thread = NULL;
        if (!verdict->ok) {
            c->counts = out->counts;
            out->counts = NULL;
        }
    }
    if (def->image) {
        free(out->counts);
        free(out->row_thread);
        out->counts = NULL;
        out->row_thread = NULL;
    }
    sl_release(def, out);
    return rc;
}

int sl_config_validate(sl_config *c)
{
    int64_t probe = c->kernel->problem->probe_size;
    sl_capture_begin();
    int ran = validate_at(c, probe, 0, &c->probe_outcome, &c->probe_verdict) == 0 &&
              validate_at(c, c->problem.size, 1, &c->outcome, &c->verdict) == 0;
    c->printed += sl_capture_end();
    c->valid = ran && c->probe_verdict.ok && c->verdict.ok;
    c->validated = 1;
    c->out_of_memory = !ran || c->probe_verdict.no_reference || c->verdict.no_reference;
    if (c->out_of_memory)
        snprintf(c->error, sizeof c->error, "out of memory");
    return ran ? 0 : -1;
}

/* A sweep point times a variant's rows under a schedule through its twin
 * (sl_variant.sweep), not through the variant's own loop. When that loop
 * is wrong, the twin would show a wrong variant as fast: the sweep's
 * points take the loop's verdict. Returns how many points it marked. */
static size_t hold_back_sweeps(sl_suite *s, FILE *progress)
{
    size_t marked = 0;
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (!c->valid || c->problem.schedule.kind == SL_SCHED_DEFAULT || !c->variant->sweep)
            continue;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *own = &s->configs[j];
            if (!own->validated || own->valid || own->variant != c->variant ||
                own->kernel != c->kernel || strcmp(own->tree, c->tree) != 0 ||
                own->problem.schedule.kind != SL_SCHED_DEFAULT)
                continue;
            c->valid = 0;
            c->verdict = own->verdict;
            c->probe_verdict = own->probe_verdict;
            c->outcome = own->outcome;
            c->probe_outcome = own->probe_outcome;
            c->isolated_failure = own->isolated_failure;
            snprintf(c->error, sizeof c->error, "%s", own->error);
            if (progress)
                fprintf(progress, "  INVALID  %-56s its own loop (%s) is wrong: its "
                        "schedule sweep is not shown\n", c->name, own->name);
            marked++;
            break;
        }
    }
    return marked;
}

size_t sl_suite_validate(sl_suite *s, FILE *progress, int verbose)
{
    size_t failed = 0;
    for (size_t i = 0; i < s->count; i++) {
        sl_config *c = &s->configs[i];
        if (c->validated) {
            failed += !c->valid;
            continue;
        }
        if (sl_interrupted()) {
            /* Not run, so neither valid nor wrong: left out, not flagged. */
            snprintf(c->error, sizeof c->error, "interrupted");
            c->interrupted = 1;
            continue;
        }
        int ran = sl_config_validate(c) == 0;
        int64_t probe = c->kernel->problem->probe_size;
        if (!c->valid)
            failed++;
        if (progress) {
            const sl_verdict *bad = !c->probe_verdict.ok ? &c->probe_verdict : &c->verdict;
            const sl_outcome *got = !c->probe_verdict.ok ? &c->probe_outcome : &c->outcome;
            int64_t at = !c->probe_verdict.ok ? probe : c->problem.size;
            const char *err = c->kernel->problem->error_name;
            if (c->valid && verbose)
                fprintf(progress, "  valid    %-56s %s %.3g <= %.3g  (%s)\n",
                        c->name, err, c->verdict.error, c->verdict.tolerance,
                        sl_where_name(c->outcome.where));
            else if (c->valid)
                ;
            else if (c->out_of_memory)
                ;   /* no verdict: the caller stops with the reason */
            else if (!ran)
                fprintf(progress, "  INVALID  %-56s %s\n", c->name, c->error);
            else
                fprintf(progress, "  INVALID  %-56s at %s=%lld got %.17g, expected "
                        "%.17g: %s %.3g > tolerance %.3g%s%s\n", c->name,
                        c->kernel->problem->size_name, (long long)at, got->value,
                        bad->expected, err, bad->error, bad->tolerance,
                        bad->hint ? "; " : "", bad->hint ? bad->hint : "");
            fflush(progress);
        }
    }
    return failed + hold_back_sweeps(s, progress);
}

int sl_suite_first_of_kernel(const sl_suite *s, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (s->configs[j].kernel->problem == s->configs[i].kernel->problem)
            return 0;
    return 1;
}

/* The scalar configuration of a kernel in one tree, or NULL. */
static const sl_config *tree_baseline(const sl_suite *s, const sl_config *c, const char *tree)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *b = &s->configs[i];
        if (b->kernel->problem == c->kernel->problem && strcmp(b->tree, tree) == 0 &&
            !b->weak && strcmp(b->variant->name, SL_BASELINE_VARIANT) == 0)
            return b;
    }
    return NULL;
}

const sl_config *sl_suite_own_baseline(const sl_suite *s, const sl_kernel *k)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->foreign && c->kernel == k && !c->weak &&
            strcmp(c->variant->name, SL_BASELINE_VARIANT) == 0)
            return c;
    }
    return NULL;
}

const sl_config *sl_suite_baseline(const sl_suite *s, const sl_config *c)
{
    if (c->foreign)
        return sl_suite_own_baseline(s, c->kernel);
    const sl_config *shared = tree_baseline(s, c, "solutions");
    return shared ? shared : tree_baseline(s, c, c->tree);
}

void sl_suite_free(sl_suite *s)
{
    for (size_t i = 0; i < s->count; i++) {
        free(s->configs[i].row_work);
        free(s->configs[i].row_thread);
        free(s->configs[i].counts);
    }
    free(s->configs);
    if (s->free_foreign)
        s->free_foreign(s->foreign);
    s->foreign = NULL;
    sl_grid_free(&s->grid);
    free(s->first_calls);
    free(s->first_calls_context);
    s->first_calls = NULL;
    s->first_calls_context = NULL;
    s->nfirst = 0;
    s->configs = NULL;
    s->count = s->cap = 0;
}

void sl_suite_print_validity(FILE *f, const sl_suite *s, size_t invalid)
{
    fprintf(f, "  %zu of %zu valid", s->count - invalid, s->count);
    if (s->nskipped)
        fprintf(f, "; %d variant(s) skipped (%s%s): %s", s->nskipped, s->skipped[0],
                s->nskipped > 1 ? ", ..." : "", s->skip_reason);
    fprintf(f, "\n");
}
