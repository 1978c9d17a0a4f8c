/* compare_main.c - `make compare A=results/x B=results/y`: two runs side by
 * side (two machines, gcc against clang, before and after a change).
 *
 * Reads each run's samples.csv (every repetition's time), pairs the
 * configurations the two runs share, and gives per pair the ratio of the
 * medians (B / A: below 1, B is faster) with a bootstrap interval, and a
 * Mann-Whitney U test's verdict. Writes compare.csv, summary.md, a plot and
 * index.html into <results>/compare/<time>-<host>/ (and .../latest).
 * Exit: 0 ok, 1 I/O failure while writing, 2 bad input (a folder that is
 * not a run, a results folder that cannot be written).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "atomic_file.h"
#include "compare.h"
#include "cli.h"
#include "exitcodes.h"
#include "html.h"
#include "interrupt.h"
#include "labels.h"
#include "results.h"
#include "run_dir.h"
#include "stats.h"
#include "suite.h"
#include "table.h"

static const char intro[] =
    "usage: speedlab-compare A B [options]\n"
    "Compare two run folders written by make bench (A and B may be results/latest).\n"
    "Per configuration both runs have: the ratio of median times B/A (below 1: B is\n"
    "faster) with a 95% bootstrap interval, and a Mann-Whitney U test at the 5%\n"
    "level.\n";
static const char outro[] =
    "Exit: 0 ok, 1 I/O failure while writing, 2 bad input or a results folder that\n"
    "cannot be written.\n";

typedef sl_compare_series series;

typedef struct run_samples {
    char dir[SL_PATH_BUF];   /* the run folder, with links resolved */
    series *s;
    int count, cap;
} run_samples;

static series *find_series(run_samples *r, const char *key, int add)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->s[i].key, key) == 0)
            return &r->s[i];
    if (!add)
        return NULL;
    if (r->count == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        series *grown = realloc(r->s, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        r->s = grown;
        r->cap = cap;
    }
    series *s = &r->s[r->count++];
    memset(s, 0, sizeof *s);
    snprintf(s->key, sizeof s->key, "%s", key);
    return s;
}

/* Read dir/samples.csv through the one reader, strictly: the columns the
 * bench writes, finite positive times, whole numbers where the bench
 * writes them. Returns 0, or -1 with the reason (file, line, value) in why. */
static int read_samples(run_samples *r, const char *dir, char *why, size_t whylen)
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
     * slow) are left out here too; runs before the column had none. */
    int left_out = sl_table_col(&t, "left_out");
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
        if (left_out >= 0 && sl_table_text(&t, i, left_out)[0] != '\0')
            continue;
        /* kernel/variant/threads/schedule/study/size x height */
        char key[256];
        snprintf(key, sizeof key, "%s/%s/%lld/%s/%s/%lldx%lld",
                 sl_table_text(&t, i, col[KERNEL]), sl_table_text(&t, i, col[VARIANT]),
                 whole[0], sched[0] ? sched : "-", study, whole[1], whole[2]);
        series *s = find_series(r, key, 1);
        if (s == NULL) {
            snprintf(why, whylen, "out of memory reading '%s'", path);
            goto out;
        }
        if (s->n == 0) {
            char threads[24] = "";
            if (whole[0] > 0)
                snprintf(threads, sizeof threads, " x%lld", whole[0]);
            snprintf(s->label, sizeof s->label, "%s %s%s%s%s%s",
                     sl_table_text(&t, i, col[KERNEL]), sl_table_text(&t, i, col[VARIANT]),
                     threads, sched[0] ? ", " : "", sched, strcmp(study, "weak") ? "" : " (weak)");
        }
        if (s->n < SL_MAX_REPS)
            s->seconds[s->n++] = sec;
    }
    if (r->count == 0) {
        snprintf(why, whylen, "'%s' has no samples (did every variant fail?)", path);
        goto out;
    }
    rc = 0;
out:
    sl_table_free(&t);
    return rc;
}

typedef sl_compare_pair pair;

/* The data files: compare.csv, the figure's data and labels. */
static int write_outputs(const char *dir, const pair *q, int n, const char *la,
                         const char *lb)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/compare.csv", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "configuration,reps_a,reps_b,median_a_s,median_b_s,ratio_b_over_a,"
                   "ratio_low,ratio_high,mann_whitney_p,verdict\n");
    for (int i = 0; i < n; i++)
        fprintf(af.fp, "\"%s\",%d,%d,%.9g,%.9g,%.5f,%.5f,%.5f,%.4g,%s\n", q[i].a->label,
                q[i].a->n, q[i].b->n, q[i].median_a, q[i].median_b, q[i].ratio,
                q[i].low, q[i].high, q[i].p, q[i].verdict);
    if (sl_atomic_commit(&af) != 0)
        return -1;

    if (sl_path_format(path, sizeof path, "%s/compare-runs.dat", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# configuration\tratio\tlow\thigh\tsignificant (0 none, 1 B faster, "
                   "2 B slower)\n");
    for (int i = 0; i < n; i++)
        fprintf(af.fp, "\"%s\"\t%.5f\t%.5f\t%.5f\t%d\n", q[i].a->label, q[i].ratio, q[i].low,
                q[i].high, (int)q[i].outcome);
    if (sl_atomic_commit(&af) != 0)
        return -1;
    if (sl_path_format(path, sizeof path, "%s/compare-runs.gp", dir) != 0)
        return -1;
    char text[1024];
    snprintf(text, sizeof text, "label_a = \"%s\"\nlabel_b = \"%s\"\nrows = %d\n", la, lb, n);
    if (sl_atomic_write(path, text) != 0)
        return -1;
    if (sl_path_format(path, sizeof path, "%s/run.gp", dir) != 0 ||
        sl_atomic_write(path, "lanes = 1\ncores = 1\nmachine = \"\"\n") != 0)
        return -1;

    return 0;
}

/* summary.md and index.html, from one text in memory: the verdicts, the
 * table, and the figure when gnuplot drew it. 0, or -1 with errno set. */
static int write_summary(const char *dir, const pair *q, int n, const char *la,
                         const char *lb, const run_samples *A, const run_samples *B,
                         int unmatched)
{
    char *md = NULL, path[SL_PATH_BUF], title[512];
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    if (f == NULL)
        return -1;
    int faster = 0, slower = 0;
    for (int i = 0; i < n; i++) {
        faster += q[i].outcome == SL_COMPARE_FASTER;
        slower += q[i].outcome == SL_COMPARE_SLOWER;
    }
    fprintf(f, "# speedlab compare: %s vs %s\n\n- A (%s): %s\n- B (%s): %s\n"
               "- %d configurations in both; B faster in %d, slower in %d, no "
               "significant difference in %d (Mann-Whitney U, 5%% level)\n",
            la, lb, la, A->dir, lb, B->dir, n, faster, slower, n - faster - slower);
    if (unmatched)
        fprintf(f, "- %d configuration(s) are in only one run and are left out\n", unmatched);
    fprintf(f, "- ratio = median time of B / median time of A: below 1, B is faster; "
               "the interval is a 95%% bootstrap interval of that ratio\n\n"
               "| configuration | reps A/B | median A | median B | B/A [95%% CI] | "
               "p | verdict |\n|---|---|--:|--:|--:|--:|---|\n");
    for (int i = 0; i < n; i++) {
        char ta[32], tb[32];
        sl_time_text(ta, sizeof ta, q[i].median_a);
        sl_time_text(tb, sizeof tb, q[i].median_b);
        char bold[48];
        snprintf(bold, sizeof bold, "**%s**", q[i].verdict);
        fprintf(f, "| %s | %d/%d | %s | %s | %.3f [%.3f, %.3f] | %.3g | %s |\n",
                q[i].a->label, q[i].a->n, q[i].b->n, ta, tb, q[i].ratio, q[i].low, q[i].high,
                q[i].p, q[i].outcome == SL_COMPARE_SAME ? q[i].verdict : bold);
    }
    if (sl_path_join(path, sizeof path, dir, "compare-runs.png") == 0 && access(path, R_OK) == 0)
        fprintf(f, "\n![B/A per configuration with its 95%% interval; dark: a significant "
                   "difference](compare-runs.png)\n");
    int rc = fclose(f);
    snprintf(title, sizeof title, "speedlab compare: %s vs %s", la, lb);
    if (rc != 0 || sl_path_join(path, sizeof path, dir, "summary.md") != 0 ||
        sl_atomic_write(path, md) != 0 || sl_path_join(path, sizeof path, dir, "index.html") != 0 ||
        sl_html_page(path, title, md, len, dir) != 0)
        rc = -1;
    free(md);
    return rc;
}

static int compare(const char *prog, run_samples *runs, const char *const *labels,
                   const char *results, int plots);

int main(int argc, char **argv)
{
    const char *prog = argv[0];
    char why[SL_WHY_BUF];
    sl_cli cli;

    sl_ignore_write_signals();
    int rc = sl_cli_parse(&cli, argc, argv, 1, 2, SL_CLI_COMPARE, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    const char *const *paths = cli.word;
    const char *labels[2] = { cli.label[0] ? cli.label[0] : "A",
                              cli.label[1] ? cli.label[1] : "B" };
    const char *results = cli.results;
    /* A and B are run folders: a results folder and a run's name. */
    for (int k = 0; k < cli.nwords; k++)
        if (strlen(paths[k]) > SL_PATH_LIMIT + SL_SUBFOLDER_MAX) {
            fprintf(stderr, "%s: %s: path too long: %zu > %d characters\n", prog,
                    k ? "B" : "A", strlen(paths[k]), SL_PATH_LIMIT + SL_SUBFOLDER_MAX);
            return SL_EXIT_USAGE;
        }
    if (cli.nwords != 2) {
        fprintf(stderr, "%s: give two run folders, A and B, e.g. make compare "
                        "A=results/x B=results/y\n", prog);
        return SL_EXIT_USAGE;
    }

    static run_samples runs[2];
    for (int k = 0; k < 2; k++)
        if (read_samples(&runs[k], paths[k], why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s %s\n", prog, k ? "B:" : "A:", why);
            free(runs[0].s);
            free(runs[1].s);
            return SL_EXIT_USAGE;
        }
    rc = compare(prog, runs, labels, results, cli.plots);
    free(runs[0].s);
    free(runs[1].s);
    return rc;
}

/* Pair, test, write and print; every exit frees what it allocated. */
static int compare(const char *prog, run_samples *runs, const char *const *labels,
                   const char *results, int plots)
{
    char why[SL_WHY_BUF];
    pair *q = calloc((size_t)runs[0].count, sizeof *q);
    if (q == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return SL_EXIT_RUNTIME;
    }
    int n = 0;
    for (int i = 0; i < runs[0].count; i++) {
        const series *b = find_series(&runs[1], runs[0].s[i].key, 0);
        if (b == NULL)
            continue;
        q[n].a = &runs[0].s[i];
        q[n].b = b;
        sl_compare_decide(&q[n++]);
    }
    int unmatched = runs[0].count + runs[1].count - 2 * n;
    if (n == 0) {
        fprintf(stderr, "%s: the two runs share no configuration (different kernels, "
                        "sizes or thread counts?)\n", prog);
        free(q);
        return SL_EXIT_USAGE;
    }

    sl_run_dir out;
    char base[SL_PATH_BUF];
    if (sl_path_join(base, sizeof base, results, "compare") != 0) {
        fprintf(stderr, "%s: --results '%s': path too long\n", prog, results);
        free(q);
        return SL_EXIT_USAGE;
    }
    /* Like the bench: a results folder that cannot take the comparison is
     * the environment's problem, found before anything is written. */
    if (sl_run_dir_create(&out, base, why, sizeof why) != 0) {
        fprintf(stderr, "%s: %s\n", prog, why);
        free(q);
        return SL_EXIT_USAGE;
    }
    if (write_outputs(out.partial, q, n, labels[0], labels[1]) != 0) {
        fprintf(stderr, "%s: cannot write into '%s': %s\n", prog, out.partial,
                strerror(errno));
        sl_run_dir_discard(&out);
        free(q);
        return SL_EXIT_RUNTIME;
    }
    int plotted = plots ? sl_run_plots(out.partial) : -1;
    if (write_summary(out.partial, q, n, labels[0], labels[1], &runs[0], &runs[1],
                      unmatched) != 0 ||
        sl_run_dir_publish(&out, why, sizeof why) != 0) {
        fprintf(stderr, "%s: cannot finish '%s'\n", prog, out.partial);
        free(q);
        return SL_EXIT_RUNTIME;
    }

    printf("B/A = median time of B (%s) / median time of A (%s): below 1, B is faster\n\n",
           labels[1], labels[0]);
    printf("%-44s %7s  %-17s %8s  %s\n", "configuration", "B/A", "95% interval", "p",
           "verdict");
    for (int i = 0; i < n; i++)
        printf("%-44s %7.3f  [%6.3f, %6.3f] %8.3g  %s\n", q[i].a->label, q[i].ratio,
               q[i].low, q[i].high, q[i].p, q[i].verdict);
    if (unmatched)
        printf("\n%d configuration(s) are in only one run and are left out\n", unmatched);
    printf("\ncomparison: %s (also %s/latest)\n", out.final, out.base);
    if (plotted == 3)
        printf("plots: gnuplot is not installed, so the data is written but not plotted\n");
    free(q);
    return SL_EXIT_OK;
}
