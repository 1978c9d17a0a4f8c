/* foreign.c - rows measured by another program, joining this run's suite
 * (foreign.h). */
#define _DEFAULT_SOURCE
#include "foreign.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table.h"

/* The columns read, as the bench's results.csv names them. */
enum col {
    TREE, KERNEL, VARIANT, THREADS_REQ, THREADS_USED, OVERSUB, SIZE, REPS, MEDIAN, MIN,
    MAX, STDDEV, CV, RATE, RESULT, EXPECTED, ABS_ERROR, TOLERANCE, VALID, STUDY, HEIGHT,
    WORK, CI_LOW, CI_HIGH, CI_LEVEL, OTHERS, DISTURBED, CONTAMINATED, REMEASURED, NCOLS
};
static const char *const col_names[NCOLS] = {
    "tree", "kernel", "variant", "threads_requested", "threads_used", "oversubscribed",
    "size", "repetitions", "median_s", "min_s", "max_s", "stddev_s", "cv", "rate_per_s",
    "result", "expected", "abs_error", "tolerance", "valid", "study", "height",
    "work_per_call", "ci_low_s", "ci_high_s", "ci_level", "others_cpu", "disturbed_reps",
    "contaminated", "remeasured"
};

/* What the imported configurations point into; freed with the suite. */
typedef struct foreign_block {
    struct foreign_block *next;
    sl_variant variant;
    char tree[32], name[48];
} foreign_block;

/* The block of the variant called `name` of `tree`, made once per suite:
 * its variant and its tree's name, which the configurations point to. */
static const foreign_block *foreign_variant(sl_suite *s, const char *tree, const char *name,
                                            unsigned flags)
{
    for (foreign_block *b = s->foreign; b; b = b->next)
        if (strcmp(b->tree, tree) == 0 && strcmp(b->name, name) == 0)
            return b;
    foreign_block *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    snprintf(b->tree, sizeof b->tree, "%s", tree);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->variant.name = b->name;
    b->variant.flags = flags;
    b->next = s->foreign;
    s->foreign = b;
    s->free_foreign = sl_foreign_free;
    return b;
}

static const sl_kernel *measured_kernel(const sl_suite *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (!s->configs[i].foreign && strcmp(s->configs[i].kernel->problem->name, name) == 0)
            return s->configs[i].kernel;
    return NULL;
}

#define TEXT(x) sl_table_text(t, i, col[x])
#define INT(x, v) if (sl_table_int(t, i, col[x], 1, 0, &v, why, whylen) != 0) return -1
#define REAL(x, v) if (sl_table_real(t, i, col[x], 1, 0.0, &v, why, whylen) != 0) return -1

/* Row i's answer, verdict, timing and quietness into c. 0 or -1 with why. */
static int read_numbers(sl_config *c, const sl_table *t, int i, const int *col, char *why,
                        size_t whylen)
{
    long long reps, disturbed, contaminated, remeasured;
    double value, work, expected, error, tolerance;
    INT(REPS, reps);
    INT(DISTURBED, disturbed);
    INT(CONTAMINATED, contaminated);
    INT(REMEASURED, remeasured);
    REAL(RESULT, value);
    REAL(WORK, work);
    REAL(EXPECTED, expected);
    REAL(ABS_ERROR, error);
    REAL(TOLERANCE, tolerance);
    c->outcome = (sl_outcome){ .value = value, .work = work, .where = SL_RAN_HOST };
    c->verdict = (sl_verdict){ .ok = c->valid, .expected = expected, .error = error,
                               .tolerance = tolerance };
    c->probe_outcome = c->outcome;
    c->probe_verdict = c->verdict;
    c->timed = c->valid ? (int)(reps < SL_MAX_REPS ? reps : SL_MAX_REPS) : 0;
    REAL(MEDIAN, c->median);
    REAL(MIN, c->min);
    REAL(MAX, c->max);
    REAL(STDDEV, c->stddev);
    REAL(CV, c->cv);
    REAL(RATE, c->rate);
    REAL(CI_LOW, c->ci_low);
    REAL(CI_HIGH, c->ci_high);
    REAL(CI_LEVEL, c->ci_level);
    if (sl_table_real(t, i, col[OTHERS], 1, -1.0, &c->others_cpu, why, whylen) != 0)
        return -1;
    c->disturbed = (int)disturbed;
    c->contaminated = (int)contaminated;
    c->remeasured = (int)remeasured;
    /* Its own program chose its repetitions: no target to reach here. */
    c->kept = c->timed;
    c->precision = sl_precision(c->median, c->ci_low, c->ci_high);
    c->short_of = SL_NO_TARGET;
    return 0;
}

/* An imported row that says "valid" is judged again against this run's
 * own reference (base, the same problem), as far as a row carries its
 * answer: its verdict within its tolerance, its reference and tolerance
 * this run's; a kernel whose answer is its value (def->exact) within
 * that tolerance; and a sampling kernel checked exactly ("check" exact:
 * the same points as the reference) this run's answer bit for bit. An
 * image or a clustering is not in a row: its verdict is taken as written.
 * A row that fails is invalid here, whatever its file says. */
static void judge_again(sl_config *c, const sl_config *base, const char *check)
{
    const sl_problem_def *def = c->kernel->problem;
    const sl_verdict *v = &c->verdict, *own = &base->verdict;
    const char *why = NULL;
    if (!c->valid || !base->valid)
        return;
    if (!(v->error <= v->tolerance))
        why = "its own error is above its tolerance";
    else if (!(fabs(v->expected - own->expected) <= 1e-12 * fabs(own->expected)) ||
             !(v->tolerance <= own->tolerance * (1.0 + 1e-9)))
        why = "its reference or tolerance is not this run's";
    else if (def->exact != 0.0 && !(fabs(c->outcome.value - own->expected) <= own->tolerance))
        why = "its result is outside the tolerance";
    else if (def->check_statistics && strcmp(check, "exact") == 0 &&
             c->outcome.value != base->outcome.value)
        why = "its count is not the reference's (the same points, each counted once)";
    if (why == NULL)
        return;
    c->valid = 0;
    c->timed = 0;
    c->speedup = 0.0;
    c->verdict.ok = 0;
    c->verdict.error = fabs(c->outcome.value - own->expected);
    c->verdict.expected = own->expected;
    c->verdict.tolerance = own->tolerance;
    c->probe_verdict = c->verdict;
    snprintf(c->error, sizeof c->error, "imported as valid, but %s: result %.17g, this "
             "run's %.17g (tolerance %.3g)", why, c->outcome.value,
             def->check_statistics && strcmp(check, "exact") == 0 ? base->outcome.value
                                                                   : own->expected,
             own->tolerance);
}

/* Where row i ran (its ran_on; a file without the column ran on the host:
 * numba's). 0, or -1 with why for a value the bench does not write. */
static int ran_on(const sl_table *t, int i, sl_where *where, char *why, size_t whylen)
{
    const char *v = sl_table_text(t, i, sl_table_col(t, "ran_on"));
    const sl_where all[] = { SL_RAN_HOST, SL_RAN_HOST_FALLBACK, SL_RAN_DEVICE };
    *where = SL_RAN_HOST;
    if (*v == '\0')
        return 0;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if (strcmp(v, sl_where_name(all[k])) == 0) {
            *where = all[k];
            return 0;
        }
    return sl_fail(why, whylen, "%s line %d: ran_on '%.20s' is not host, host fallback or device",
                   t->path, t->line[i], v);
}

/* Row i of t (its columns in col) as configuration c of kernel k. */
static int fill(sl_suite *s, sl_config *c, const sl_table *t, int i, const int *col,
                const sl_kernel *k, char *why, size_t whylen)
{
    const sl_config *base = sl_suite_own_baseline(s, k);
    long long size, threads, used, oversub, height;
    INT(SIZE, size);
    INT(THREADS_REQ, threads);
    INT(THREADS_USED, used);
    INT(OVERSUB, oversub);
    INT(HEIGHT, height);
    if (!base || base->problem.size != size)
        return sl_fail(why, whylen, "%s line %d: %s/%s at size %lld, but this run measured %s at "
                       "size %lld: measure both at the same size (the same QUICK)", t->path,
                       t->line[i], TEXT(KERNEL), TEXT(VARIANT), size, TEXT(KERNEL),
                       base ? (long long)base->problem.size : 0LL);
    sl_where where;
    if (ran_on(t, i, &where, why, whylen) != 0)
        return -1;
    const foreign_block *b = foreign_variant(s, TEXT(TREE), TEXT(VARIANT),
                                             (threads > 0 ? SL_USES_THREADS : 0) |
                                             (where != SL_RAN_HOST ? SL_USES_GPU : 0));
    if (!b)
        return sl_fail(why, whylen, "%s: out of memory", t->path);
    memset(c, 0, sizeof *c);
    c->foreign = 1;
    c->tree = b->tree;
    c->kernel = k;
    c->variant = &b->variant;
    c->problem = base->problem;
    c->problem.threads = (int)threads;
    c->problem.height = height;
    c->threads_used = (int)used;
    c->oversubscribed = (int)oversub;
    char suffix[32] = "";
    if (threads > 0)
        snprintf(suffix, sizeof suffix, "/threads:%lld", threads);
    snprintf(c->name, sizeof c->name, "%s/%s/%s%s", c->tree, k->problem->name,
             c->variant->name, suffix);
    const char *valid = TEXT(VALID);
    if (strcmp(valid, "yes") != 0 && strcmp(valid, "no") != 0 &&
        strcmp(valid, "interrupted") != 0) {
        return sl_fail(why, whylen, "%s line %d: valid '%.20s' is not yes, no or interrupted",
                       t->path, t->line[i], valid);
    }
    c->validated = 1;
    c->valid = valid[0] == 'y';
    c->weak = strcmp(TEXT(STUDY), "weak") == 0;
    if (read_numbers(c, t, i, col, why, whylen) != 0)
        return -1;
    c->outcome.where = where;
    c->probe_outcome.where = where;
    if (c->timed > 0 && !(c->median > 0.0 && c->ci_low > 0.0 && c->ci_high >= c->ci_low))
        return sl_fail(why, whylen, "%s line %d: %s has no usable median and interval", t->path,
                       t->line[i], c->name);
    c->speedup = c->timed > 0 && !c->weak && base->valid && base->timed ?
                 base->median / c->median : 0.0;
    judge_again(c, base, sl_table_text(t, i, sl_table_col(t, "check")));
    return 0;
}
#undef TEXT
#undef INT
#undef REAL

/* The ladder's rows of t (no rank count): those of a kernel this run
 * measured join the suite. Returns the rows added, or -1 with why. */
static int import_ladder(sl_suite *s, const sl_table *t, int *skipped, char *why,
                         size_t whylen)
{
    int col[NCOLS], added = 0;
    if (sl_table_need(t, "a results.csv", col_names, NCOLS, col, why, whylen) != 0)
        return -1;
    int ranks = sl_table_col(t, "ranks");
    for (int i = 0; i < t->nrows; i++) {
        if (sl_table_text(t, i, ranks)[0] != '\0')
            continue;
        const char *tree = sl_table_text(t, i, col[TREE]);
        for (size_t j = 0; j < s->count; j++)
            if (!s->configs[j].foreign && strcmp(s->configs[j].tree, tree) == 0)
                return sl_fail(why, whylen, "%s line %d: tree '%s' is this run's own; import "
                               "the rows of another tree", t->path, t->line[i], tree);
        const sl_kernel *k = measured_kernel(s, sl_table_text(t, i, col[KERNEL]));
        if (!k) {
            ++*skipped;
            continue;
        }
        sl_config row, *c;
        if (fill(s, &row, t, i, col, k, why, whylen) != 0)
            return -1;
        if ((c = sl_suite_push(s)) == NULL)
            return sl_fail(why, whylen, "%s: out of memory", t->path);
        *c = row;
        added++;
    }
    return added;
}

const char *const sl_jit_phase[SL_JIT_PHASES] = {
    "front_end", "inlining", "typing", "parfors", "lowering"
};

/* compile.csv beside path, if there is one, into s->first_calls; tree is
 * the imported rows' tree. 0 or -1 with why. */
static int import_first_calls(sl_suite *s, const char *path, const char *tree, char *why,
                              size_t whylen)
{
    char dir[SL_PATH_BUF], file[SL_PATH_BUF];
    if (sl_path_format(dir, sizeof dir, "%s", path) != 0)
        return sl_fail(why, whylen, "'%s': path too long", path);
    char *slash = strrchr(dir, '/');
    if (sl_path_join(file, sizeof file, slash ? (*slash = '\0', dir) : ".", "compile.csv") != 0)
        return sl_fail(why, whylen, "'%s': path too long", path);
    if (access(file, F_OK) != 0)
        return 0;
    enum { KERNEL_, VARIANT_, THREADS_, FIRST_, COMPILE_, RUN_, FUNCTIONS_, WARM_, NFIXED };
    const char *names[NFIXED + SL_JIT_PHASES] = {
        "kernel", "variant", "threads", "first_call_s", "compile_s", "first_call_run_s",
        "functions_compiled", "warm_median_s",
    };
    char phase_names[SL_JIT_PHASES][32];
    for (int p = 0; p < SL_JIT_PHASES; p++) {
        snprintf(phase_names[p], sizeof phase_names[p], "%s_s", sl_jit_phase[p]);
        names[NFIXED + p] = phase_names[p];
    }
    sl_table t;
    int col[NFIXED + SL_JIT_PHASES], rc = -1;
    if (sl_table_read(&t, file, why, whylen) != 0)
        return -1;
    if (sl_table_need(&t, "numba's compile.csv", names, NFIXED + SL_JIT_PHASES, col, why,
                      whylen) != 0)
        goto out;
    sl_first_call *grown = realloc(s->first_calls,
                                   (size_t)(s->nfirst + t.nrows + 1) * sizeof *grown);
    if (grown == NULL) {
        snprintf(why, whylen, "out of memory reading '%s'", file);
        goto out;
    }
    s->first_calls = grown;
    for (int i = 0; i < t.nrows; i++) {
        sl_first_call *f = &s->first_calls[s->nfirst];
        long long threads, functions;
        memset(f, 0, sizeof *f);
        if (sl_table_int(&t, i, col[THREADS_], 0, 0, &threads, why, whylen) != 0 ||
            sl_table_int(&t, i, col[FUNCTIONS_], 0, 0, &functions, why, whylen) != 0 ||
            sl_table_real(&t, i, col[FIRST_], 0, 0, &f->first, why, whylen) != 0 ||
            sl_table_real(&t, i, col[COMPILE_], 0, 0, &f->compile, why, whylen) != 0 ||
            sl_table_real(&t, i, col[RUN_], 0, 0, &f->run, why, whylen) != 0 ||
            sl_table_real(&t, i, col[WARM_], 1, 0, &f->warm, why, whylen) != 0)
            goto out;
        for (int p = 0; p < SL_JIT_PHASES; p++)
            if (sl_table_real(&t, i, col[NFIXED + p], 0, 0, &f->phase[p], why, whylen) != 0)
                goto out;
        f->threads = (int)threads;
        f->functions = (int)functions;
        snprintf(f->tree, sizeof f->tree, "%s", tree);
        snprintf(f->kernel, sizeof f->kernel, "%s", sl_table_text(&t, i, col[KERNEL_]));
        snprintf(f->variant, sizeof f->variant, "%s", sl_table_text(&t, i, col[VARIANT_]));
        s->nfirst++;
    }
    free(s->first_calls_context);
    s->first_calls_context = t.comments ? strdup(t.comments) : NULL;
    rc = 0;
out:
    sl_table_free(&t);
    return rc;
}

int sl_suite_import(sl_suite *s, const char *path, int *skipped, char *why, size_t whylen)
{
    sl_table t;
    *skipped = 0;
    if (sl_table_read(&t, path, why, whylen) != 0)
        return -1;
    int added = import_ladder(s, &t, skipped, why, whylen), grid = 0;
    /* Lesson 6's rows (a rank count set) join the suite's grid. */
    if (added >= 0 && sl_table_col(&t, "ranks") >= 0)
        grid = sl_grid_read_results(&s->grid, &t, why, whylen);
    if (added > 0 && grid >= 0 &&
        import_first_calls(s, path, s->configs[s->count - 1].tree, why, whylen) != 0)
        added = -1;
    if (grid > 0) {
        char note[SL_WHY_BUF];
        snprintf(note, sizeof note, "%d grid row(s) imported from %s\n", grid, path);
        sl_grid_note(&s->grid, note);
    }
    sl_table_free(&t);
    return added < 0 || grid < 0 ? -1 : added;
}

void sl_foreign_free(void *list)
{
    for (foreign_block *b = list, *next; b; b = next) {
        next = b->next;
        free(b);
    }
}

int sl_suite_import_counted(sl_suite *s, const char *path, sl_imported *got, char *why,
                            size_t whylen)
{
    int grid = s->grid.n;
    memset(got, 0, sizeof *got);
    int added = sl_suite_import(s, path, &got->skipped, why, whylen);
    if (added < 0)
        return -1;
    for (size_t i = s->count - (size_t)added; i < s->count; i++)
        got->invalid += !s->configs[i].valid;
    for (int i = grid; i < s->grid.n; i++)
        got->invalid += !s->grid.rows[i].valid;
    got->rows = added + s->grid.n - grid;
    return 0;
}
