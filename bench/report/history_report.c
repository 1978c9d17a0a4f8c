/* history_report.c - the history's pages (history_report.h). */
#define _DEFAULT_SOURCE
#include "history_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "atomic_file.h"
#include "html.h"
#include "results.h"

void sl_history_print_steps(FILE *console, const sl_trend_point *p, size_t n)
{
    int any = 0;
    for (size_t i = 1; i < n; i++) {
        if (p[i].step == 0)
            continue;
        if (!any++)
            fprintf(console, "%-11s %-34s %10s %12s %12s  %-14s %s\n", "kernel", "series",
                    "size", "before", "after", "commit", "when");
        char name[160], by[96];
        sl_trend_series_name(&p[i], name, sizeof name);
        sl_trend_commit_label(&p[i], by, sizeof by);
        fprintf(console, "%-11s %-34s %10lld %10.4g ms %10.4g ms  %-14s %s  %s %.2fx\n",
                p[i].kernel, name, p[i].size, p[i - 1].median * 1e3, p[i].median * 1e3,
                by, p[i].started, p[i].step > 0 ? "SLOWER" : "faster",
                p[i].median / p[i - 1].median);
    }
    if (!any)
        fprintf(console, "no step in any series: every change between consecutive runs is "
                "within the runs' intervals\n");
    size_t unjudged = 0;
    for (size_t i = 0; i < n; i++)
        unjudged += p[i].unjudged;
    if (unjudged)
        fprintf(console, "%zu change(s) between runs the bench marked disturbed (other "
                "processes' load) are shown in the figures, not judged\n", unjudged);
}

/* trend-<kernel>.dat for the points p[0..n) of one kernel on one host. */
static int write_trend_data(const char *out, const sl_trend_point *p, size_t n)
{
    char path[SL_PATH_BUF], name[160];
    sl_atomic_file f;
    snprintf(name, sizeof name, "trend-%s.dat", p[0].kernel);
    if (sl_path_join(path, sizeof path, out, name) != 0 || sl_atomic_open(&f, path) != 0)
        return -1;
    fprintf(f.fp, "# %s on %s: each series' median (ms) run after run, with its interval\n",
            p[0].kernel, p[0].host);
    for (size_t j = 0, k = 0; j < n; j++) {
        if (j == 0 || !sl_trend_same_series(&p[j - 1], &p[j])) {
            sl_trend_series_name(&p[j], name, sizeof name);
            fprintf(f.fp, "%s\"%s\"\n", j == 0 ? "" : "\n\n", name);
            k = 0;
        }
        fprintf(f.fp, "%zu %.6g %.6g %.6g %d\n", ++k, p[j].median * 1e3, p[j].lo * 1e3,
                p[j].hi * 1e3, p[j].step);
    }
    return sl_atomic_commit(&f);
}

/* history.csv, and one trend-<kernel>.dat per kernel. */
static int write_trend_files(const char *out, const sl_trend_point *p, size_t n)
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
                p[i].step > 0   ? "slower"
                : p[i].step < 0 ? "faster"
                : p[i].unjudged ? "not judged (disturbed)"
                                : "");
    if (sl_atomic_commit(&f) != 0)
        return -1;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && strcmp(p[end].kernel, p[i].kernel) == 0 &&
               strcmp(p[end].host, p[i].host) == 0)
            end++;
        if (write_trend_data(out, &p[i], end - i) != 0)
            return -1;
        i = end;
    }
    return 0;
}

/* history.html, through the report's one page renderer: the steps (the
 * page's headline), then each kernel's trend figure. */
static int write_trend_page(const char *out, const sl_trend_point *p, size_t n)
{
    char path[SL_PATH_BUF], *md = NULL;
    size_t len = 0;
    FILE *f = NULL;
    if (sl_path_join(path, sizeof path, out, "history.html") != 0 ||
        (f = open_memstream(&md, &len)) == NULL)
        return -1;
    fprintf(f, "# Speed over time\n\nA step is flagged when two consecutive runs' median "
               "intervals do not overlap and the medians differ by more than the threshold; "
               "a run the bench marked disturbed is shown, never judged, and a run with "
               "uncommitted changes is named as such."
               "\n\n| kernel | series | size | before (ms) | after (ms) | commit | step |\n"
               "|---|---|--:|--:|--:|---|---|\n");
    for (size_t i = 1; i < n; i++) {
        if (p[i].step == 0)
            continue;
        char name[160], by[96];
        sl_trend_series_name(&p[i], name, sizeof name);
        sl_trend_commit_label(&p[i], by, sizeof by);
        fprintf(f, "| %s | %s | %lld | %.4g | %.4g | %s | %s |\n", p[i].kernel, name,
                p[i].size, p[i - 1].median * 1e3, p[i].median * 1e3, by,
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

/* The figures' settings (run.gp: the machine's name for their titles). */
static int write_run_gp(const char *out, const char *machine)
{
    char gp[SL_PATH_BUF], text[512];
    snprintf(text, sizeof text, "machine = \"%s\"\n", machine);
    if ((mkdir(out, 0777) != 0 && errno != EEXIST) ||
        sl_path_join(gp, sizeof gp, out, "run.gp") != 0)
        return -1;
    return sl_atomic_write(gp, text);
}

int sl_history_write_trends(const char *out, const sl_trend_point *p, size_t n, int plots)
{
    if (write_run_gp(out, n ? p[0].host : "") != 0 || write_trend_files(out, p, n) != 0)
        return -1;
    /* The page after the figures: it links the SVG of each that exists. */
    if (plots && n > 0)
        sl_run_plots(out);
    return write_trend_page(out, p, n);
}

/* The lesson's run that id is, counted from 1 among the runs of the
 * lesson's rows all[0..n): one x for one run, whichever variants it ran. */
static int run_ordinal(const sl_progress_row *all, size_t n, long long id)
{
    int before = 0;
    for (size_t i = 0; i < n; i++) {
        int first = 1;
        for (size_t j = 0; j < i && first; j++)
            first = all[j].run != all[i].run;
        before += first && all[i].run < id;
    }
    return before + 1;
}

/* One exercise's line: console, the page's table row, its data block
 * (lesson[0..nlesson): the lesson's rows, for the runs' x). */
static void write_exercise(FILE *console, FILE *md, FILE *dat, const sl_progress_row *r,
                           size_t n, int first_of_kernel, const sl_progress_row *lesson,
                           size_t nlesson)
{
    char name[96], line[1024];
    snprintf(name, sizeof name, r->threads > 0 ? "%s x%d" : "%s", r->variant, r->threads);
    sl_progress_describe(r, n, line, sizeof line);
    fprintf(console, "%-11s %-18s %s\n", first_of_kernel ? r->kernel : "", name, line);
    fprintf(md, "| %s | %s |\n", name, line);
    fprintf(dat, "%s\"%s\"\n", first_of_kernel ? "" : "\n\n", name);
    for (size_t k = 0; k < n; k++)
        fprintf(dat, "%d %.4g %d\n", run_ordinal(lesson, nlesson, r[k].run), r[k].speedup,
                r[k].speedup > 0 ? 0 : r[k].busy ? 2 : 1);
}

/* Each kernel's progress-<kernel>.dat and its part of the page. */
static int write_progress_files(FILE *console, FILE *md, const char *out,
                                const sl_progress_row *r, size_t n)
{
    char path[SL_PATH_BUF], name[96];
    sl_atomic_file dat = { 0 };
    size_t lesson = 0, nlesson = 0;
    for (size_t i = 0; i < n;) {
        int first_of_kernel = i == 0 || strcmp(r[i - 1].kernel, r[i].kernel) != 0;
        if (first_of_kernel) {
            lesson = i;
            for (nlesson = 0; lesson + nlesson < n &&
                              strcmp(r[lesson + nlesson].kernel, r[i].kernel) == 0;)
                nlesson++;
        }
        if (first_of_kernel) {
            snprintf(name, sizeof name, "progress-%s.dat", r[i].kernel);
            if (sl_path_join(path, sizeof path, out, name) != 0 ||
                sl_atomic_open(&dat, path) != 0)
                return -1;
            fprintf(dat.fp, "# %s: your variants' speedup over the solution's scalar, run "
                            "after run: the lesson's run, the speedup, and 0, or wrong: 1, "
                            "busy, no speed verdict: 2\n", r[i].kernel);
            fprintf(md, "%s## %s\n\n| your variant | run after run |\n|---|---|\n",
                    i ? "\n" : "# Your afternoon, lesson by lesson\n\nEach of your variants, "
                    "run after run: its speedup over the solution's scalar in the same run, or "
                    "WRONG, or \"busy, no speed verdict\" where the machine was too busy "
                    "for a figure.\n\n", r[i].kernel);
        }
        size_t end = i + 1;
        while (end < n && sl_progress_same_exercise(&r[i], &r[end]))
            end++;
        write_exercise(console, md, dat.fp, &r[i], end - i, first_of_kernel, &r[lesson],
                       nlesson);
        i = end;
        if (i == n || strcmp(r[i].kernel, r[i - 1].kernel) != 0) {
            fprintf(md, "\n![%s, run after run](progress-%s.png)\n", r[i - 1].kernel,
                    r[i - 1].kernel);
            if (sl_atomic_commit(&dat) != 0)
                return -1;
        }
    }
    return 0;
}

int sl_progress_write(FILE *console, const char *out, const sl_progress_row *r, size_t n,
                      int plots)
{
    char path[SL_PATH_BUF], *md = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    if (f == NULL)
        return -1;
    fprintf(console, "%-11s %-18s %s\n", "lesson", "your variant",
            "run after run (speedup over the solution's scalar)");
    int rc = write_run_gp(out, "") != 0 || write_progress_files(console, f, out, r, n) != 0
             ? -1 : 0;
    if (fclose(f) != 0)
        rc = -1;
    /* The page after the figures: it links the SVG of each that exists. */
    if (rc == 0 && plots)
        sl_run_plots(out);
    if (rc == 0 && (sl_path_join(path, sizeof path, out, "progress.html") != 0 ||
                    sl_html_page(path, "your afternoon", md, len, out) != 0))
        rc = -1;
    free(md);
    return rc;
}
