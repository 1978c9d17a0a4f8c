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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "exitcodes.h"
#include "history.h"
#include "history_report.h"
#include "progress.h"
#include "query.h"
#include "trend.h"

#define PROG "speedlab-history"

static int usage(const char *why)
{
    fprintf(stderr, "%s: %s (speedlab-history --help lists the options)\n", PROG, why);
    return SL_EXIT_USAGE;
}

static int import_all(const char *db, const char *results)
{
    sl_history_imported got;
    char why[SL_WHY_BUF];
    if (sl_history_import_all(db, results, &got, why, sizeof why) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, why);
        return -1;
    }
    for (int i = 0; i < got.failed && i < SL_HISTORY_MAX_REFUSED; i++)
        fprintf(stderr, "%s: not imported: %s\n", PROG, got.refused[i]);
    printf("imported %d run folder(s) from %s; %d already in the history%s\n", got.added,
           results, got.had, got.failed ? "; some could not be read (above)" : "");
    return 0;
}

/* Commits make bench-commits could not build: said, never a gap unexplained. */
static void print_unbuilt(const char *db_path)
{
    char why[SL_WHY_BUF];
    size_t n;
    sl_unbuilt *u = sl_history_unbuilt(db_path, &n, why, sizeof why);
    for (size_t i = 0; i < n; i++)
        printf("did not build: %s (tried %s)\n", u[i].commit, u[i].tried);
    free(u);
}

/* make progress: a line per exercise in the console and progress.html,
 * each kernel's figure data. */
static int progress(const char *out, const char *db, int plots)
{
    char why[SL_WHY_BUF] = "";
    size_t n;
    sl_progress_row *r = sl_progress_load(db, &n, why, sizeof why);
    if (r == NULL && why[0]) {
        fprintf(stderr, "%s: %s\n", PROG, why);
        return SL_EXIT_RUNTIME;
    }
    if (n == 0) {
        printf("no lesson runs in the history yet: run a lesson (make help lists them), edit, "
               "run it again\n");
        return SL_EXIT_OK;
    }
    int rc = sl_progress_write(stdout, out, r, n, plots);
    free(r);
    if (rc != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", PROG, out, strerror(errno));
        return SL_EXIT_RUNTIME;
    }
    printf("progress: %s/progress.html\n", out);
    return SL_EXIT_OK;
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
    char why[SL_WHY_BUF] = "";
    size_t n;
    sl_trend_point *p = sl_trend_load(db, &n, why, sizeof why);
    if (p == NULL && why[0]) {
        fprintf(stderr, "%s: %s\n", PROG, why);
        return SL_EXIT_RUNTIME;
    }
    int slower = sl_trend_find_steps(p, n, min_change);
    sl_history_print_steps(stdout, p, n);
    print_unbuilt(db);
    int rc = sl_history_write_trends(out, p, n, plots);
    free(p);
    if (rc != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", PROG, out, strerror(errno));
        return SL_EXIT_RUNTIME;
    }
    printf("history: %zu point(s); %s/history.html, history.csv\n", n, out);
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
        return progress(out, db, cli.plots);
    return report(db, out, cli.min_change / 100, cli.plots);
}
