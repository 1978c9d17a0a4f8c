/* compare.c - two runs' samples read and paired, and the decision about
 * each pair (compare.h), unit-tested in tests/test_compare.c.
 */
#define _DEFAULT_SOURCE
#include "compare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "defaults.h"
#include "stats.h"
#include "table.h"

/* Verdicts at the usual 5% level; the bootstrap's resamples and key. */
#define ALPHA 0.05
enum { RESAMPLES = 4000 };
#define BOOTSTRAP_SEED UINT64_C(20261121)

static double median_of(const sl_compare_series *s)
{
    double v[SL_MAX_REPS];
    memcpy(v, s->seconds, (size_t)s->n * sizeof *v);
    return sl_median(v, s->n);
}

/* The smallest two-sided p the exact rank test can give n against m
 * samples: 2 / C(n + m, n), the two orderings that separate them fully. */
static double smallest_p(int n, int m)
{
    double ways = 1.0;
    for (int k = 1; k <= n; k++)
        ways = ways * (double)(m + k) / (double)k;
    return ways > 2.0 ? 2.0 / ways : 1.0;
}

void sl_compare_decide(sl_compare_pair *q)
{
    static const char *const words[] = { "no significant difference", "B faster",
                                         "B slower", "too few samples to judge",
                                         "unclear: the test and the interval disagree",
                                         "as the host differed (its cores at once)" };
    q->median_a = median_of(q->a);
    q->median_b = median_of(q->b);
    q->ratio = q->median_b / q->median_a;
    if (smallest_p(q->a->n, q->b->n) >= ALPHA) {
        q->low = q->high = q->ratio;
        q->p = 1.0;
        q->outcome = SL_COMPARE_FEW;
        q->verdict = words[q->outcome];
        return;
    }
    sl_bootstrap_ratio(q->a->seconds, q->a->n, q->b->seconds, q->b->n, RESAMPLES,
                       BOOTSTRAP_SEED, &q->low, &q->high);
    q->p = sl_mann_whitney_p(q->a->seconds, q->a->n, q->b->seconds, q->b->n);
    int test = q->p < ALPHA;
    int interval = q->high < 1.0 / (1.0 + SL_COMPARE_MARGIN) || q->low > 1.0 + SL_COMPARE_MARGIN;
    /* The host's allowance: the margin reaches out to q->host's side. */
    double host = q->host > 0.0 ? q->host : 1.0;
    int beyond_host = q->high < fmin(1.0, host) / (1.0 + SL_COMPARE_MARGIN) ||
                      q->low > fmax(1.0, host) * (1.0 + SL_COMPARE_MARGIN);
    if (test && interval && !beyond_host)
        q->outcome = SL_COMPARE_HOST;
    else if (!test && !interval)
        q->outcome = SL_COMPARE_SAME;
    else if (test != interval)
        q->outcome = SL_COMPARE_UNCLEAR;
    else
        q->outcome = q->ratio < 1.0 ? SL_COMPARE_FASTER : SL_COMPARE_SLOWER;
    q->verdict = words[q->outcome];
}

sl_compare_series *sl_compare_find(sl_compare_run *r, const char *key, int add)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->s[i].key, key) == 0)
            return &r->s[i];
    if (!add)
        return NULL;
    if (r->count == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        sl_compare_series *grown = realloc(r->s, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        r->s = grown;
        r->cap = cap;
    }
    sl_compare_series *s = &r->s[r->count++];
    memset(s, 0, sizeof *s);
    snprintf(s->key, sizeof s->key, "%s", key);
    return s;
}

/* Field `which` (0: kernel, 1: variant, ..., 5: size) of a series key
 * (kernel/variant/threads/schedule/study/size), into out. */
static void key_field(const char *key, int which, char *out, size_t len)
{
    for (int k = 0; k < which && key; k++)
        key = strchr(key, '/') ? strchr(key, '/') + 1 : NULL;
    snprintf(out, len, "%.*s", key ? (int)strcspn(key, "/") : 0, key ? key : "");
}

/* The scalar series of s's kernel and size in the strong study, or NULL. */
static const sl_compare_series *scalar_of(const sl_compare_run *r, const sl_compare_series *s)
{
    char kernel[128], size[64], k2[128], v2[64], st2[16], sz2[64];
    key_field(s->key, 0, kernel, sizeof kernel);
    key_field(s->key, 5, size, sizeof size);
    for (int i = 0; i < r->count; i++) {
        key_field(r->s[i].key, 0, k2, sizeof k2);
        key_field(r->s[i].key, 1, v2, sizeof v2);
        key_field(r->s[i].key, 4, st2, sizeof st2);
        key_field(r->s[i].key, 5, sz2, sizeof sz2);
        if (strcmp(k2, kernel) == 0 && strcmp(v2, "scalar") == 0 &&
            strcmp(st2, "strong") == 0 && strcmp(sz2, size) == 0)
            return &r->s[i];
    }
    return NULL;
}

/* Keep a series' repetitions with left[] below `worst`, in order; all
 * of them where none is (a run so busy that the bench's median holds
 * them all: its rows say "disturbed"). */
static void keep_below(sl_compare_series *s, int worst)
{
    int n = 0;
    for (int k = 0; k < s->n; k++)
        n += s->left[k] < worst;
    if (n == 0)
        return;
    n = 0;
    for (int k = 0; k < s->n; k++)
        if (s->left[k] < worst) {
            s->seconds[n] = s->seconds[k], s->start[n] = s->start[k], s->left[n] = s->left[k];
            n++;
        }
    s->n = n;
}

/* Does s have a repetition with left[] below worst? */
static int any_below(const sl_compare_series *s, int worst)
{
    for (int k = 0; k < s->n; k++)
        if (s->left[k] < worst)
            return 1;
    return 0;
}

/* Each rung of the strong study as shares of its scalar's time beside
 * it (sl_compare_read); the rest as times, without left-out repetitions. */
static void pair_with_scalar(sl_compare_run *r)
{
    for (int i = 0; i < r->count; i++) {
        sl_compare_series *s = &r->s[i];
        const sl_compare_series *base = scalar_of(r, s);
        if (base == NULL || base == s || strstr(s->key, "/strong/") == NULL ||
            s->n == 0 || s->start[0] < 0.0)
            continue;
        /* Without a clean repetition on a side, all of that side's. */
        int worst_s = any_below(s, 2) ? 2 : 3, worst_b = any_below(base, 2) ? 2 : 3;
        double shares[SL_MAX_REPS];
        unsigned char skip[SL_MAX_REPS];
        int n = 0;
        for (int j = 0; j < base->n; j++)
            skip[j] = base->left[j] >= worst_b;
        for (int k = 0; k < s->n; k++) {
            int best = s->left[k] < worst_s
                       ? sl_nearest_start(base->start, skip, base->n, s->start[k]) : -1;
            if (best >= 0)
                shares[n++] = s->seconds[k] / base->seconds[best];
        }
        if (n == 0)
            continue;
        memcpy(s->seconds, shares, (size_t)n * sizeof *shares);
        s->n = n;
        s->paired = 1;
    }
    for (int i = 0; i < r->count; i++)
        if (!r->s[i].paired)
            keep_below(&r->s[i], 1);
}

/* r's cores-at-once share from dir/ceiling.csv (compare.h): left 0
 * where the file, its L1 rows or a readable number is missing (a run
 * without the probes: --no-ceilings, a quick run, an older bench). */
static void read_together(sl_compare_run *r, const char *dir)
{
    char path[SL_PATH_BUF], why[SL_PATH_BUF + 128];
    sl_table t;
    if (sl_path_join(path, sizeof path, dir, SL_FILE_CEILINGS) != 0 || access(path, R_OK) != 0 ||
        sl_table_read(&t, path, why, sizeof why) != 0)
        return;
    int limit = sl_table_col(&t, "limit"), threads = sl_table_col(&t, "threads"),
        gbs = sl_table_col(&t, "gb_per_s");
    double one = 0.0, all = 0.0;
    long long most = 0;
    for (int i = 0; i < t.nrows && limit >= 0 && threads >= 0 && gbs >= 0; i++) {
        long long n;
        double v;
        if (strcmp(sl_table_text(&t, i, limit), "L1 bandwidth") != 0 ||
            sl_table_int(&t, i, threads, 0, 0, &n, why, sizeof why) != 0 ||
            sl_table_real(&t, i, gbs, 0, 0, &v, why, sizeof why) != 0 || !(v > 0.0) || n < 1)
            continue;
        if (n == 1)
            one = v;
        else if (n > most)
            most = n, all = v;
    }
    if (one > 0.0 && most > 1) {
        r->together = sl_compare_together(one, all, (int)most);
        r->together_threads = (int)most;
    }
    sl_table_free(&t);
}

double sl_compare_together(double one, double all, int threads)
{
    return fmin(1.0, all / ((double)threads * one));
}

double sl_compare_host(const sl_compare_run *a, const sl_compare_run *b)
{
    if (!(a->together > 0.0) || !(b->together > 0.0) ||
        a->together_threads != b->together_threads)
        return 1.0;
    double host = a->together / b->together;
    return fabs(log(host)) > log(1.0 + SL_COMPARE_MARGIN) ? host : 1.0;
}

/* A new series' label ("<kernel> threads_simd x2, dynamic (weak)") and
 * whether it is crowded (compare.h). */
static void name_series(sl_compare_series *s, const char *kernel, const char *variant,
                        long long threads, const char *sched, const char *study)
{
    char x[24] = "";
    s->crowded = threads != 1;
    if (threads > 0)
        snprintf(x, sizeof x, " x%lld", threads);
    snprintf(s->label, sizeof s->label, "%s %s%s%s%s%s", kernel, variant, x,
             sched[0] ? ", " : "", sched, strcmp(study, "weak") ? "" : " (weak)");
}

int sl_compare_read(sl_compare_run *r, const char *dir, char *why, size_t whylen)
{
    char path[SL_PATH_BUF];
    memset(r, 0, sizeof *r);
    /* results/latest is a link that moves: record the run it names. */
    char resolved[PATH_MAX];
    snprintf(r->dir, sizeof r->dir, "%s", realpath(dir, resolved) ? resolved : dir);
    if (sl_path_join(path, sizeof path, dir, SL_FILE_SAMPLES) != 0 || access(path, R_OK) != 0)
        return sl_fail(why, whylen, "'%s' is not a run folder with samples (no %s: %s; runs "
                       "of make bench from this version on have one)", dir, path, strerror(errno));
    enum { TREE, KERNEL, VARIANT, THREADS, SCHEDULE, STUDY, SIZE, HEIGHT, REP, SECONDS, N };
    static const char *const names[N] = { "tree", "kernel", "variant", "threads_used",
                                          "schedule", "study", "size", "height",
                                          "repetition", "seconds" };
    sl_table t;
    int col[N], rc = -1;
    if (sl_table_read(&t, path, why, whylen) != 0)
        return -1;
    if (sl_table_need(&t, "a samples.csv", names, N, col, why, whylen) != 0)
        goto out;
    /* Repetitions the bench left out of its median (disturbed, stalled,
     * slow): runs before the column had none, before start_s no pairs. */
    int left_out = sl_table_col(&t, "left_out"), start_col = sl_table_col(&t, "start_s");
    for (int i = 0; i < t.nrows; i++) {
        long long whole[4];
        double sec;
        const int ints[4] = { THREADS, SIZE, HEIGHT, REP };
        for (int k = 0; k < 4; k++)
            if (sl_table_int(&t, i, col[ints[k]], 0, 0, &whole[k], why, whylen) != 0)
                goto out;
        if (sl_table_real(&t, i, col[SECONDS], 0, 0, &sec, why, whylen) != 0)
            goto out;
        if (!(sec > 0.0)) {
            snprintf(why, whylen, "'%s' line %d: seconds '%g' is not a positive time", path,
                     t.line[i], sec);
            goto out;
        }
        const char *study = sl_table_text(&t, i, col[STUDY]);
        const char *sched = sl_table_text(&t, i, col[SCHEDULE]);
        if (strcmp(study, "strong") != 0 && strcmp(study, "weak") != 0) {
            snprintf(why, whylen, "'%s' line %d: study '%.40s' is not strong or weak", path,
                     t.line[i], study);
            goto out;
        }
        const char *left = left_out >= 0 ? sl_table_text(&t, i, left_out) : "";
        double start = 0.0;
        if (start_col >= 0 && sl_table_real(&t, i, start_col, 1, 0, &start, why, whylen) != 0)
            goto out;
        r->reps++;
        r->disturbed += left[0] != '\0';
        /* kernel/variant/threads/schedule/study/size x height */
        char key[256];
        snprintf(key, sizeof key, "%s/%s/%lld/%s/%s/%lldx%lld",
                 sl_table_text(&t, i, col[KERNEL]), sl_table_text(&t, i, col[VARIANT]),
                 whole[0], sched[0] ? sched : "-", study, whole[1], whole[2]);
        sl_compare_series *s = sl_compare_find(r, key, 1);
        if (s == NULL) {
            snprintf(why, whylen, "out of memory reading '%s'", path);
            goto out;
        }
        if (s->n == 0)
            name_series(s, sl_table_text(&t, i, col[KERNEL]), sl_table_text(&t, i, col[VARIANT]),
                        whole[0], sched, study);
        if (s->n < SL_MAX_REPS) {
            s->start[s->n] = start_col >= 0 ? start : -1.0;
            s->left[s->n] = left[0] == '\0' ? 0 : strstr(left, "disturbed") ||
                            strstr(left, "stalled") ? 2 : 1;
            s->seconds[s->n++] = sec;
        }
    }
    pair_with_scalar(r);
    read_together(r, dir);
    if (r->count == 0) {
        snprintf(why, whylen, "'%s' has no samples (did every variant fail?)", path);
        goto out;
    }
    rc = 0;
out:
    sl_table_free(&t);
    return rc;
}

int sl_compare_pair_runs(const sl_compare_run *a, sl_compare_run *b, sl_compare_pair *q,
                         int *unmatched)
{
    int n = 0;
    double host = sl_compare_host(a, b);
    for (int i = 0; i < a->count; i++) {
        const sl_compare_series *match = sl_compare_find(b, a->s[i].key, 0);
        if (match == NULL)
            continue;
        q[n].a = &a->s[i];
        q[n].b = match;
        q[n].host = a->s[i].crowded ? host : 1.0;
        sl_compare_decide(&q[n++]);
    }
    *unmatched = a->count + b->count - 2 * n;
    return n;
}
