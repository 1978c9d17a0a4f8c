/* history_main.c - speedlab-history (make history): the runs the history
 * remembers (results/history.sqlite, bench/history/), as trends and the
 * steps in them.
 *
 * Series and steps: bench/history/trend.h (the rule, unit-tested in
 * tests/test_trend.c); --min-change is its threshold (default 10%).
 *
 * Writes <results>/history/: history.csv (every point, for people's own
 * plots), trend-<kernel>.dat (one figure per kernel, drawn by
 * plots/trend.gp), history.html; prints the flagged steps.
 *
 * --progress (make progress) is the participant's afternoon instead: per
 * lesson, each of their exercise rows run after run (the runner's runs,
 * `make <lesson>`), as the speedup over the same run's solution
 * scalar, WRONG where the check failed: a line each in the console and
 * progress-<kernel>.dat, drawn by plots/progress.gp, in progress.html.
 *
 * Options: bench/run/cli.c's table (speedlab-history --help).
 * Exit: 0 no slower step, 1 a runtime error, 2 bad input, 3 a slower step
 * flagged (CI fails on it).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "atomic_file.h"
#include "cli.h"
#include "exitcodes.h"
#include "history.h"
#include "html.h"
#include "results.h"
#include "query.h"
#include "table.h"
#include "trend.h"

#define PROG "speedlab-history"

typedef sl_trend_point point;

static int usage(const char *why)
{
    fprintf(stderr, "%s: %s (speedlab-history --help lists the options)\n", PROG, why);
    return SL_EXIT_USAGE;
}

/* Every run folder under results (not latest, not a .partial). */
static int import_all(const char *db, const char *results)
{
    DIR *d = opendir(results);
    if (d == NULL) {
        fprintf(stderr, "%s: cannot read '%s': %s\n", PROG, results, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int added = 0, had = 0, failed = 0;
    char dir[SL_PATH_BUF], csv[SL_PATH_BUF], why[SL_WHY_BUF];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "latest") == 0 ||
            sl_path_join(dir, sizeof dir, results, e->d_name) != 0 ||
            sl_path_join(csv, sizeof csv, dir, SL_FILE_RESULTS) != 0)
            continue;
        FILE *f = fopen(csv, "r");
        if (f == NULL)
            continue;
        fclose(f);
        int rc = sl_history_import_folder(db, dir, e->d_name, NULL, why, sizeof why);
        if (rc < 0)
            fprintf(stderr, "%s: not imported: %s\n", PROG, why);
        failed += rc < 0, added += rc == 0, had += rc == 1;
    }
    closedir(d);
    printf("imported %d run folder(s) from %s; %d already in the history%s\n", added,
           results, had, failed ? "; some could not be read (above)" : "");
    return 0;
}

/* A commit make bench-commits could not build, and when it tried. */
typedef struct unbuilt {
    char commit[48], tried[32];
} unbuilt;

static void read_unbuilt(sqlite3_stmt *st, void *item)
{
    unbuilt *u = item;
    sl_history_column_text(st, 0, u->commit, sizeof u->commit);
    sl_history_column_text(st, 1, u->tried, sizeof u->tried);
}

/* Commits make bench-commits could not build: said, never a gap unexplained. */
static void print_unbuilt(const char *db_path)
{
    char why[SL_WHY_BUF];
    size_t n;
    unbuilt *u = sl_history_query(db_path, "SELECT commit_id, started_utc FROM runs"
                            " WHERE kind = 'unbuilt' ORDER BY id",
                            sizeof *u, read_unbuilt, &n, why, sizeof why);
    for (size_t i = 0; i < n; i++)
        printf("did not build: %s (tried %s)\n", u[i].commit, u[i].tried);
    free(u);
}

static void print_steps(const point *p, size_t n)
{
    int any = 0;
    for (size_t i = 1; i < n; i++) {
        if (p[i].step == 0)
            continue;
        if (!any++)
            printf("%-11s %-34s %10s %12s %12s  %-14s %s\n", "kernel", "series", "size",
                   "before", "after", "commit", "when");
        char name[160];
        sl_trend_series_name(&p[i], name, sizeof name);
        printf("%-11s %-34s %10lld %10.4g ms %10.4g ms  %-14s %s  %s %.2fx\n", p[i].kernel, name,
               p[i].size, p[i - 1].median * 1e3, p[i].median * 1e3, p[i].commit,
               p[i].started, p[i].step > 0 ? "SLOWER" : "faster",
               p[i].median / p[i - 1].median);
    }
    if (!any)
        printf("no step in any series: every change between consecutive runs is within "
               "the runs' intervals\n");
}

/* history.csv, and one trend-<kernel>.dat per kernel (index blocks: one
 * series each, its name first, then run order, median and interval in ms). */
static int write_files(const char *out, const point *p, size_t n)
{
    char path[SL_PATH_BUF];
    sl_atomic_file f;
    if (sl_path_join(path, sizeof path, out, "history.csv") != 0 ||
        sl_atomic_open(&f, path) != 0)
        return -1;
    fprintf(f.fp, "host,tree,kernel,variant,threads,size,run,started_utc,commit,dirty,"
                  "median_s,ci_low_s,ci_high_s,step\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f.fp, "%s,%s,%s,%s,%d,%lld,%lld,%s,%s,%d,%.9g,%.9g,%.9g,%s\n", p[i].host,
                p[i].tree, p[i].kernel, p[i].variant, p[i].threads, p[i].size, p[i].run,
                p[i].started, p[i].commit, p[i].dirty, p[i].median, p[i].lo, p[i].hi,
                p[i].step > 0 ? "slower" : p[i].step < 0 ? "faster" : "");
    if (sl_atomic_commit(&f) != 0)
        return -1;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && strcmp(p[end].kernel, p[i].kernel) == 0 &&
               strcmp(p[end].host, p[i].host) == 0)
            end++;
        char name[160];
        snprintf(name, sizeof name, "trend-%s.dat", p[i].kernel);
        if (sl_path_join(path, sizeof path, out, name) != 0 || sl_atomic_open(&f, path) != 0)
            return -1;
        fprintf(f.fp, "# %s on %s: each series' median (ms) run after run, with its interval\n",
                p[i].kernel, p[i].host);
        for (size_t j = i, k = 0; j < end; j++) {
            if (j == i || !sl_trend_same_series(&p[j - 1], &p[j])) {
                sl_trend_series_name(&p[j], name, sizeof name);
                fprintf(f.fp, "%s\"%s\"\n", j == i ? "" : "\n\n", name);
                k = 0;
            }
            fprintf(f.fp, "%zu %.6g %.6g %.6g %d\n", ++k, p[j].median * 1e3, p[j].lo * 1e3,
                    p[j].hi * 1e3, p[j].step);
        }
        if (sl_atomic_commit(&f) != 0)
            return -1;
        i = end;
    }
    return 0;
}

/* history.html, through the report's one page renderer: the steps (the
 * page's headline), then each kernel's trend figure. */
static int write_html(const char *out, const point *p, size_t n)
{
    char path[SL_PATH_BUF], *md = NULL;
    size_t len = 0;
    FILE *f = NULL;
    if (sl_path_join(path, sizeof path, out, "history.html") != 0 ||
        (f = open_memstream(&md, &len)) == NULL)
        return -1;
    fprintf(f, "# Speed over time\n\nA step is flagged when two consecutive runs' median "
               "intervals do not overlap and the medians differ by more than the threshold."
               "\n\n| kernel | series | size | before (ms) | after (ms) | commit | step |\n"
               "|---|---|--:|--:|--:|---|---|\n");
    for (size_t i = 1; i < n; i++) {
        if (p[i].step == 0)
            continue;
        char name[160];
        sl_trend_series_name(&p[i], name, sizeof name);
        fprintf(f, "| %s | %s | %lld | %.4g | %.4g | %s | %s |\n", p[i].kernel, name,
                p[i].size, p[i - 1].median * 1e3, p[i].median * 1e3, p[i].commit,
                p[i].step > 0 ? "slower" : "faster");
    }
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(p[i].kernel, p[i - 1].kernel) != 0)
            fprintf(f, "\n## %s\n\n![%s over time](trend-%s.png)\n", p[i].kernel,
                    p[i].kernel, p[i].kernel);
    fprintf(f, "\nEvery point: `history.csv`, beside this page.\n");
    int rc = fclose(f) == 0 ? sl_html_page(path, "speedlab history", md, len, out) : -1;
    free(md);
    return rc;
}

/* One exercise row of one lesson run: its speedup, or 0 when WRONG. */
typedef struct step_row {
    char kernel[64], variant[64];
    int threads;
    double speedup;
} step_row;

static void read_step_row(sqlite3_stmt *st, void *item)
{
    step_row *r = item;
    sl_history_column_text(st, 0, r->kernel, sizeof r->kernel);
    sl_history_column_text(st, 1, r->variant, sizeof r->variant);
    r->threads = sqlite3_column_int(st, 2);
    const double mine = sqlite3_column_double(st, 4), base = sqlite3_column_double(st, 5);
    r->speedup = sqlite3_column_int(st, 3) && mine > 0 && base > 0 ? base / mine : 0.0;
}

/* Every exercise row of every lesson run, lesson by lesson in the lesson's
 * order (where a variant first appears), then run after run. */
static step_row *load_progress(const char *db_path, size_t *n, char *why, size_t whylen)
{
    return sl_history_query(db_path,
        "SELECT c.kernel, c.variant, c.threads, c.valid, c.median_s,"
        " (SELECT s.median_s FROM configs s WHERE s.run = c.run AND s.tree = 'solutions'"
        "  AND s.kernel = c.kernel AND s.variant = 'scalar' AND s.study = 'strong')"
        " FROM configs c JOIN runs r ON c.run = r.id"
        " WHERE r.kind = 'lesson' AND c.tree = 'exercises' AND c.study = 'strong'"
        " ORDER BY c.kernel, (SELECT min(x.rowid) FROM configs x WHERE x.tree = 'exercises'"
        "  AND x.kernel = c.kernel AND x.variant = c.variant), c.threads, r.id",
        sizeof(step_row), read_step_row, n, why, whylen);
}

static int same_exercise(const step_row *a, const step_row *b)
{
    return strcmp(a->kernel, b->kernel) == 0 && strcmp(a->variant, b->variant) == 0 &&
           a->threads == b->threads;
}

/* "1.0x -> 4.2x -> WRONG twice -> 1.9x (4 runs)": runs of WRONG merged. */
static void describe(const step_row *r, size_t n, char *out, size_t len)
{
    size_t at = 0;
    for (size_t i = 0; i < n && at < len; i++) {
        const char *arrow = i ? " -> " : "";
        if (r[i].speedup > 0) {
            at += (size_t)snprintf(out + at, len - at, "%s%.1fx", arrow, r[i].speedup);
            continue;
        }
        size_t k = i;
        while (k + 1 < n && r[k + 1].speedup <= 0)
            k++;
        const size_t times = k - i + 1;
        if (times == 1)
            at += (size_t)snprintf(out + at, len - at, "%sWRONG", arrow);
        else if (times == 2)
            at += (size_t)snprintf(out + at, len - at, "%sWRONG twice", arrow);
        else
            at += (size_t)snprintf(out + at, len - at, "%sWRONG %zu times", arrow, times);
        i = k;
    }
    if (at < len)
        snprintf(out + at, len - at, " (%zu run%s)", n, n == 1 ? "" : "s");
}

/* make progress: a line per exercise in the console and progress.html,
 * each kernel's figure data. */
static int progress(const char *results, const char *db, int plots)
{
    char why[SL_WHY_BUF] = "", out[SL_PATH_BUF], path[SL_PATH_BUF], line[1024], name[96];
    char *md = NULL;
    size_t n, len = 0;
    step_row *r = load_progress(db, &n, why, sizeof why);
    if (r == NULL && why[0]) {
        fprintf(stderr, "%s: %s\n", PROG, why);
        return SL_EXIT_RUNTIME;
    }
    if (n == 0) {
        printf("no lesson runs in the history yet: run a lesson (make help lists them), edit, run it again\n");
        free(r);
        return SL_EXIT_OK;
    }
    FILE *f = open_memstream(&md, &len);
    sl_atomic_file dat = { 0 };
    int rc = f && sl_path_join(out, sizeof out, results, "history") == 0 &&
             (mkdir(out, 0777) == 0 || errno == EEXIST) ? 0 : -1;
    printf("%-11s %-18s %s\n", "lesson", "your variant", "run after run (speedup over the "
           "solution's scalar)");
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t end = i + 1;
        while (end < n && same_exercise(&r[i], &r[end]))
            end++;
        int first_of_kernel = i == 0 || strcmp(r[i - 1].kernel, r[i].kernel) != 0;
        if (first_of_kernel) {
            snprintf(name, sizeof name, "progress-%s.dat", r[i].kernel);
            if (sl_path_join(path, sizeof path, out, name) != 0 ||
                sl_atomic_open(&dat, path) != 0) {
                rc = -1;
                break;
            }
            fprintf(dat.fp, "# %s: your variants' speedup over the solution's scalar, run "
                            "after run (wrong: 1)\n", r[i].kernel);
            fprintf(f, "%s## %s\n\n| your variant | run after run |\n|---|---|\n",
                    i ? "\n" : "# Your afternoon, lesson by lesson\n\nEach of your variants, "
                    "run after run: its speedup over the solution's scalar in the same run, or "
                    "WRONG.\n\n", r[i].kernel);
        }
        snprintf(name, sizeof name, r[i].threads > 0 ? "%s x%d" : "%s", r[i].variant,
                 r[i].threads);
        describe(&r[i], end - i, line, sizeof line);
        printf("%-11s %-18s %s\n", first_of_kernel ? r[i].kernel : "", name, line);
        fprintf(f, "| %s | %s |\n", name, line);
        fprintf(dat.fp, "%s\"%s\"\n", first_of_kernel ? "" : "\n\n", name);
        for (size_t k = i; k < end; k++)
            fprintf(dat.fp, "%zu %.4g %d\n", k - i + 1, r[k].speedup, r[k].speedup <= 0);
        i = end;
        if (i == n || strcmp(r[i].kernel, r[i - 1].kernel) != 0) {
            fprintf(f, "\n![%s, run after run](progress-%s.png)\n", r[i - 1].kernel,
                    r[i - 1].kernel);
            rc = sl_atomic_commit(&dat);
        }
    }
    if ((f && fclose(f) != 0) || rc != 0 ||
        sl_path_join(path, sizeof path, out, "run.gp") != 0 ||
        sl_atomic_write(path, "machine = \"\"\n") != 0)
        rc = -1;
    /* The page after the figures: it links the SVG of each that exists. */
    if (rc == 0 && plots)
        sl_run_plots(out);
    if (rc != 0 || sl_path_join(path, sizeof path, out, "progress.html") != 0 ||
        sl_html_page(path, "your afternoon", md, len, out) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", PROG, out, strerror(errno));
        rc = -1;
    }
    free(md);
    free(r);
    if (rc == 0)
        printf("progress: %s/progress.html\n", out);
    return rc == 0 ? SL_EXIT_OK : SL_EXIT_RUNTIME;
}

/* make bench-commits' records: one run folder as a commit's, or a commit
 * that did not build (a run with no configurations, kind "unbuilt"). */
static int record_one(const char *db, const char *results, const char *folder,
                      const char *commit, const char *unbuilt)
{
    char dir[SL_PATH_BUF], why[SL_WHY_BUF];
    int rc;
    if (unbuilt) {
        sl_history_run run;
        sl_history_describe(&run, "unbuilt", "", "");
        snprintf(run.commit, sizeof run.commit, "%.40s", unbuilt);
        run.dirty = 0;
        rc = sl_history_add(db, &run, NULL, 0, why, sizeof why);
    } else if (strchr(folder, '/') || sl_path_join(dir, sizeof dir, results, folder) != 0) {
        snprintf(why, sizeof why, "--adopt: a run folder's name in %s, not a path", results);
        rc = -1;
    } else {
        rc = sl_history_import_folder(db, dir, folder, commit, why, sizeof why);
    }
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", PROG, why);
        return SL_EXIT_USAGE;
    }
    return SL_EXIT_OK;
}

/* The trends and their steps: console, history.csv, trend data, the page. */
static int report(const char *db, const char *out, double min_change, int plots)
{
    char why[SL_WHY_BUF] = "", gp[SL_PATH_BUF], text[512];
    size_t n;
    point *p = sl_trend_load(db, &n, why, sizeof why);
    if (p == NULL && why[0]) {
        fprintf(stderr, "%s: %s\n", PROG, why);
        return SL_EXIT_RUNTIME;
    }
    int slower = sl_trend_find_steps(p, n, min_change);
    print_steps(p, n);
    print_unbuilt(db);
    snprintf(text, sizeof text, "machine = \"%s\"\n", n ? p[0].host : "");
    int bad = (mkdir(out, 0777) != 0 && errno != EEXIST) ||
              sl_path_join(gp, sizeof gp, out, "run.gp") != 0 ||
              sl_atomic_write(gp, text) != 0 || write_files(out, p, n) != 0;
    /* The page after the figures: it links the SVG of each that exists. */
    if (!bad && plots && n > 0)
        sl_run_plots(out);
    if (bad || write_html(out, p, n) != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", PROG, out, strerror(errno));
        free(p);
        return SL_EXIT_RUNTIME;
    }
    printf("history: %zu point(s); %s/history.html, history.csv\n", n, out);
    free(p);
    return slower ? SL_EXIT_INVALID : SL_EXIT_OK;
}

static const char intro[] =
    "usage: speedlab-history [options]\n"
    "Every run remembered (results/history.sqlite): each configuration's trend, and the\n"
    "steps in it (make history), or a participant's afternoon (make progress).\n";
static const char outro[] =
    "Exit: 0, 1 a runtime error, 2 bad input, 3 a slower step flagged.\n";

int main(int argc, char **argv)
{
    sl_cli cli;
    int rc = sl_cli_parse(&cli, argc, argv, 1, 0, SL_CLI_HISTORY, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    const char *results = cli.results;
    char db[SL_PATH_BUF], out[SL_PATH_BUF];
    sl_history_path(db, sizeof db, results);
    if (sl_path_join(out, sizeof out, results, "history") != 0)
        return usage("--results: path too long");
    if ((cli.adopt != NULL) != (cli.commit != NULL))
        return usage("--adopt FOLDER and --commit SHA go together");
    if (cli.adopt || cli.unbuilt)
        return record_one(db, results, cli.adopt, cli.commit, cli.unbuilt);
    if (cli.import_folders && import_all(db, results) != 0)
        return SL_EXIT_USAGE;
    FILE *probe = fopen(db, "rb");
    if (probe == NULL) {
        fprintf(stderr, "%s: no history in %s yet: run make bench or a lesson first, or "
                "add earlier runs: make history ARGS=--import-folders\n", PROG, results);
        return SL_EXIT_USAGE;
    }
    fclose(probe);
    if (cli.progress)
        return progress(results, db, cli.plots);
    return report(db, out, cli.min_change < 0 ? 0.10 : cli.min_change / 100, cli.plots);
}
