/* foreign.c - rows measured by another program, joining this run's suite
 * (foreign.h). */
#define _DEFAULT_SOURCE
#include "foreign.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define MAX_FIELDS 64

/* What the imported configurations point into; freed with the suite. */
typedef struct foreign_block {
    struct foreign_block *next;
    sl_variant variant;
    char tree[32], name[48];
} foreign_block;

/* Split one CSV line in place (quotes: "" inside is a quote); returns the
 * number of fields. */
static int split_csv(char *line, char **field, int cap)
{
    int n = 0;
    char *r = line, *w = line;
    while (n < cap) {
        field[n++] = w;
        int quoted = *r == '"';
        r += quoted;
        for (;;) {
            if (quoted && r[0] == '"' && r[1] == '"') {
                *w++ = '"';
                r += 2;
            } else if (quoted && r[0] == '"') {
                quoted = 0;
                r++;
            } else if (*r == '\0' || *r == '\n' || *r == '\r' || (!quoted && *r == ',')) {
                break;
            } else {
                *w++ = *r++;
            }
        }
        int more = *r == ',';
        *w++ = '\0';
        if (!more)
            break;
        r++;
    }
    return n;
}

static double num(const char *text)
{
    return *text ? strtod(text, NULL) : 0.0;
}

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

/* This suite's configuration of kernel k's baseline at the strong study. */
static const sl_config *own_baseline(const sl_suite *s, const sl_kernel *k)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!c->foreign && c->kernel == k && !c->weak &&
            strcmp(c->variant->name, SL_BASELINE_VARIANT) == 0)
            return c;
    }
    return NULL;
}

static const sl_kernel *measured_kernel(const sl_suite *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (!s->configs[i].foreign && strcmp(s->configs[i].kernel->problem->name, name) == 0)
            return s->configs[i].kernel;
    return NULL;
}

static int fill(sl_suite *s, sl_config *c, char **f, const sl_kernel *k, const char *path,
                int lineno, char *why, size_t whylen)
{
    const sl_config *base = own_baseline(s, k);
    long long size = atoll(f[SIZE]);
    if (!base || base->problem.size != size) {
        snprintf(why, whylen, "%s line %d: %s/%s at size %lld, but this run measured %s at "
                 "size %lld: measure both at the same size (the same QUICK)", path, lineno,
                 f[KERNEL], f[VARIANT], size, f[KERNEL],
                 base ? (long long)base->problem.size : 0LL);
        return -1;
    }
    int threads = atoi(f[THREADS_REQ]);
    const foreign_block *b = foreign_variant(s, f[TREE], f[VARIANT],
                                             threads > 0 ? SL_USES_THREADS : 0);
    if (!b) {
        snprintf(why, whylen, "%s: out of memory", path);
        return -1;
    }
    memset(c, 0, sizeof *c);
    c->foreign = 1;
    const char *tree = b->tree;
    const sl_variant *v = &b->variant;
    c->tree = tree;
    c->kernel = k;
    c->variant = v;
    c->problem = base->problem;
    c->problem.threads = threads;
    c->problem.height = atoll(f[HEIGHT]);
    c->threads_used = atoi(f[THREADS_USED]);
    c->oversubscribed = atoi(f[OVERSUB]);
    char suffix[32] = "";
    if (threads > 0)
        snprintf(suffix, sizeof suffix, "/threads:%d", threads);
    snprintf(c->name, sizeof c->name, "%s/%s/%s%s", tree, k->problem->name, v->name, suffix);
    c->validated = 1;
    c->valid = strcmp(f[VALID], "yes") == 0;
    c->weak = strcmp(f[STUDY], "weak") == 0;
    c->outcome = (sl_outcome){ .value = num(f[RESULT]), .work = num(f[WORK]),
                               .where = SL_RAN_HOST };
    c->verdict = (sl_verdict){ .ok = c->valid, .expected = num(f[EXPECTED]),
                               .error = num(f[ABS_ERROR]), .tolerance = num(f[TOLERANCE]) };
    c->probe_outcome = c->outcome;
    c->probe_verdict = c->verdict;
    c->timed = c->valid ? atoi(f[REPS]) : 0;
    if (c->timed > SL_MAX_REPS)
        c->timed = SL_MAX_REPS;
    c->median = num(f[MEDIAN]);
    c->min = num(f[MIN]);
    c->max = num(f[MAX]);
    c->stddev = num(f[STDDEV]);
    c->cv = num(f[CV]);
    c->rate = num(f[RATE]);
    c->ci_low = num(f[CI_LOW]);
    c->ci_high = num(f[CI_HIGH]);
    c->ci_level = num(f[CI_LEVEL]);
    c->others_cpu = *f[OTHERS] ? num(f[OTHERS]) : -1.0;
    c->disturbed = atoi(f[DISTURBED]);
    c->contaminated = atoi(f[CONTAMINATED]);
    c->remeasured = atoi(f[REMEASURED]);
    if (c->timed > 0 && !(c->median > 0.0 && c->ci_low > 0.0 && c->ci_high >= c->ci_low)) {
        snprintf(why, whylen, "%s line %d: %s has no usable median and interval", path,
                 lineno, c->name);
        return -1;
    }
    c->speedup = c->timed > 0 && !c->weak && base->valid && base->timed ?
                 base->median / c->median : 0.0;
    return 0;
}

int sl_suite_import(sl_suite *s, const char *path, int *skipped, char *why, size_t whylen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(why, whylen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    char line[4096], *f[MAX_FIELDS];
    int index[NCOLS], lineno = 1, added = 0, rc = 0;
    *skipped = 0;
    int n = fgets(line, sizeof line, fp) ? split_csv(line, f, MAX_FIELDS) : 0;
    for (int c = 0; c < NCOLS && rc == 0; c++) {
        index[c] = -1;
        for (int j = 0; j < n; j++)
            if (strcmp(f[j], col_names[c]) == 0)
                index[c] = j;
        if (index[c] < 0) {
            snprintf(why, whylen, "'%s' is not a results.csv: no column '%s'", path,
                     col_names[c]);
            rc = -1;
        }
    }
    while (rc == 0 && fgets(line, sizeof line, fp)) {
        lineno++;
        char *raw[MAX_FIELDS], *g[NCOLS];
        int m = split_csv(line, raw, MAX_FIELDS);
        if (m == 1 && raw[0][0] == '\0')
            continue;
        for (int c = 0; c < NCOLS && rc == 0; c++) {
            if (index[c] >= m) {
                snprintf(why, whylen, "%s line %d: %d fields, fewer than the header's", path,
                         lineno, m);
                rc = -1;
            } else {
                g[c] = raw[index[c]];
            }
        }
        if (rc != 0)
            break;
        for (size_t i = 0; i < s->count && rc == 0; i++)
            if (!s->configs[i].foreign && strcmp(s->configs[i].tree, g[TREE]) == 0) {
                snprintf(why, whylen, "%s line %d: tree '%s' is this run's own; import "
                         "the rows of another tree", path, lineno, g[TREE]);
                rc = -1;
            }
        const sl_kernel *k = rc == 0 ? measured_kernel(s, g[KERNEL]) : NULL;
        if (rc != 0)
            break;
        if (!k) {
            ++*skipped;
            continue;
        }
        if (s->count == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 64;
            sl_config *grown = realloc(s->configs, cap * sizeof *grown);
            if (!grown) {
                snprintf(why, whylen, "%s: out of memory", path);
                rc = -1;
                break;
            }
            s->configs = grown;
            s->cap = cap;
        }
        if (fill(s, &s->configs[s->count], g, k, path, lineno, why, whylen) != 0) {
            rc = -1;
            break;
        }
        s->count++;
        added++;
    }
    fclose(fp);
    return rc == 0 ? added : -1;
}

void sl_foreign_free(void *list)
{
    for (foreign_block *b = list, *next; b; b = next) {
        next = b->next;
        free(b);
    }
}
