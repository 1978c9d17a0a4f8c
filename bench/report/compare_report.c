/* compare_report.c - a comparison's run folder and console lines
 * (compare_report.h). */
#define _DEFAULT_SOURCE
#include "compare_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "atomic_file.h"
#include "defaults.h"
#include "html.h"
#include "labels.h"
#include "results.h"

/* The data files: compare.csv, the figure's data and labels. */
static int write_data(const char *dir, const sl_compare_pair *q, int n, const char *la,
                         const char *lb)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/compare.csv", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "configuration,reps_a,reps_b,median_a_s,median_b_s,ratio_b_over_a,"
                   "ratio_low,ratio_high,mann_whitney_p,verdict\n");
    /* Too few samples: no interval and no p claimed (empty cells). */
    for (int i = 0; i < n; i++) {
        fprintf(af.fp, "\"%s\",%d,%d,%.9g,%.9g,%.5f,", q[i].a->label, q[i].a->n, q[i].b->n,
                q[i].median_a, q[i].median_b, q[i].ratio);
        if (SL_COMPARE_HAS_INTERVAL(&q[i]))
            fprintf(af.fp, "%.5f,%.5f,%.4g,", q[i].low, q[i].high, q[i].p);
        else
            fputs(",,,", af.fp);
        fprintf(af.fp, "%s\n", q[i].verdict);
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;

    if (sl_path_format(path, sizeof path, "%s/compare-runs.dat", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# configuration\tratio\tlow\thigh\tsignificant (0 none, 1 B faster, "
                   "2 B slower, 3 too few samples: no bar, 4 unclear)\n");
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

/* Before any verdict: each run the bench found disturbed (more than
 * SL_COMPARE_DISTURBED of its repetitions left out: other processes, the
 * bench stopped, or the whole host slower for a while), as Markdown list
 * items (md) or console lines. Returns how many. */
static int say_disturbed(FILE *f, const sl_compare_run *runs, const char *const *labels, int md)
{
    int n = 0;
    for (int k = 0; k < 2; k++) {
        const sl_compare_run *r = &runs[k];
        if (r->reps == 0 || r->disturbed <= SL_COMPARE_DISTURBED * r->reps)
            continue;
        fprintf(f, "%s%s (%s) was disturbed%s: the bench left out %d of its %d repetitions "
                "(another process, the bench stopped, or the whole host slower for a "
                "while); its times are the host's as much as the code's, and only the rungs' "
                "shares of scalar's time beside them compare the code\n", md ? "- **" : "",
                k == 0 ? "A" : "B", labels[k], md ? "**" : "", r->disturbed, r->reps);
        n++;
    }
    return n;
}

/* Before any verdict: the host's cores at once, where the two runs'
 * differ (compare.h's sl_compare_host), as a Markdown item or a line. */
static int say_host(FILE *f, const sl_compare_run *A, const sl_compare_run *B, int md)
{
    double host = sl_compare_host(A, B);
    if (host == 1.0)
        return 0;
    fprintf(f, "%sThe host differed between the runs%s: with %d cores at once each core ran "
            "at %.0f%% of its speed alone in A and %.0f%% in B (%s's L1 roofs), so a row "
            "with more than one thread or a gpu row (its times %.0f%% %s in B for the host "
            "alone) is claimed only beyond that as well as \u00b1%.0f%%\n", md ? "- **" : "",
            md ? "**" : "", A->together_threads, 100.0 * A->together, 100.0 * B->together,
            SL_FILE_CEILINGS, 100.0 * fabs(host - 1.0), host < 1.0 ? "shorter" : "longer",
            100.0 * SL_COMPARE_MARGIN);
    return 1;
}

/* A median as the table shows it: a time, or a rung's speedup (the
 * inverse of its share of scalar's time). */
static void median_text(const sl_compare_pair *q, int b, char *out, size_t len)
{
    const sl_compare_series *s = b ? q->b : q->a;
    double m = b ? q->median_b : q->median_a;
    if (s->paired)
        snprintf(out, len, "%.2fx", m > 0.0 ? 1.0 / m : 0.0);
    else
        sl_time_text(out, len, m);
}

/* What B/A means, the same words on the console and in the summary. */
static const char ratio_words[] =
    "B/A = median of B / median of A: below 1, B is faster. A scalar's (and a "
    "weak-scaling point's) median is its time; a rung's is its repetitions' shares of the "
    "time of the scalar repetition timed beside each (the inverse of its paired speedup), "
    "so that a host which ran slower during one run than the other is not taken for the "
    "code";

/* summary.md and index.html, from one text in memory: the verdicts, the
 * table, and the figure when gnuplot drew it. 0, or -1 with errno set. */
static int write_summary(const char *dir, const sl_compare_pair *q, int n, const char *la,
                         const char *lb, const sl_compare_run *A, const sl_compare_run *B,
                         int unmatched)
{
    char *md = NULL, path[SL_PATH_BUF], title[512];
    size_t len = 0;
    FILE *f = open_memstream(&md, &len);
    if (f == NULL)
        return -1;
    int count[6] = { 0 };
    for (int i = 0; i < n; i++)
        count[q[i].outcome]++;
    fprintf(f, "# speedlab compare: %s vs %s\n\n", la, lb);
    const char *const labels[2] = { la, lb };
    say_disturbed(f, (const sl_compare_run[2]){ *A, *B }, labels, 1);
    say_host(f, A, B, 1);
    fprintf(f, "- A (%s): %s\n- B (%s): %s\n"
               "- %d configurations in both; B faster in %d, slower in %d, no "
               "significant difference in %d (a difference is claimed where the Mann-Whitney "
               "U test at the 5%% level finds it and the interval lies beyond \u00b1%.0f%%, "
               "what two runs of the same code differ by)\n",
            la, A->dir, lb, B->dir, n, count[SL_COMPARE_FASTER],
            count[SL_COMPARE_SLOWER], count[SL_COMPARE_SAME], 100.0 * SL_COMPARE_MARGIN);
    if (count[SL_COMPARE_FEW])
        fprintf(f, "- %d with too few repetitions to judge (the test cannot reach 5%% with "
                   "them: at least 4 against 4, or 3 against 5): no interval, no verdict\n",
                count[SL_COMPARE_FEW]);
    if (count[SL_COMPARE_HOST])
        fprintf(f, "- %d differ only as far as the host's cores at once did: the host, not "
                   "the code\n", count[SL_COMPARE_HOST]);
    if (count[SL_COMPARE_UNCLEAR])
        fprintf(f, "- %d unclear: the test and the interval disagree; more repetitions "
                   "would tell\n", count[SL_COMPARE_UNCLEAR]);
    if (unmatched)
        fprintf(f, "- %d configuration(s) are in only one run and are left out\n", unmatched);
    fprintf(f, "- %s; the interval is a 95%% bootstrap interval of that ratio\n\n"
               "| configuration | reps A/B | median A | median B | B/A [95%% CI] | "
               "p | verdict |\n|---|---|--:|--:|--:|--:|---|\n", ratio_words);
    for (int i = 0; i < n; i++) {
        char ta[32], tb[32];
        median_text(&q[i], 0, ta, sizeof ta);
        median_text(&q[i], 1, tb, sizeof tb);
        char bold[80], ci[64] = "", p[24] = "-";
        snprintf(bold, sizeof bold, "**%s**", q[i].verdict);
        if (SL_COMPARE_HAS_INTERVAL(&q[i])) {
            snprintf(ci, sizeof ci, " [%.3f, %.3f]", q[i].low, q[i].high);
            snprintf(p, sizeof p, "%.3g", q[i].p);
        }
        int claim = q[i].outcome == SL_COMPARE_FASTER || q[i].outcome == SL_COMPARE_SLOWER;
        fprintf(f, "| %s | %d/%d | %s | %s | %.3f%s | %s | %s |\n", q[i].a->label,
                q[i].a->n, q[i].b->n, ta, tb, q[i].ratio, ci, p, claim ? bold : q[i].verdict);
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

int sl_compare_write(const char *dir, const sl_compare_pair *q, int n, const char *const *labels,
                     const sl_compare_run *runs, int unmatched, int plots, int *plotted)
{
    if (write_data(dir, q, n, labels[0], labels[1]) != 0)
        return -1;
    *plotted = plots ? sl_run_plots(dir) : -1;
    return write_summary(dir, q, n, labels[0], labels[1], &runs[0], &runs[1], unmatched);
}

void sl_compare_print(FILE *console, const sl_compare_pair *q, int n, const char *const *labels,
                      const sl_compare_run *runs, int unmatched)
{
    if (say_disturbed(console, runs, labels, 0) + say_host(console, &runs[0], &runs[1], 0))
        fprintf(console, "\n");
    fprintf(console, "A: %s; B: %s\n%s\n\n", labels[0], labels[1], ratio_words);
    fprintf(console, "%-44s %7s  %-17s %8s  %s\n", "configuration", "B/A", "95% interval",
            "p", "verdict");
    for (int i = 0; i < n; i++) {
        if (SL_COMPARE_HAS_INTERVAL(&q[i]))
            fprintf(console, "%-44s %7.3f  [%6.3f, %6.3f] %8.3g  %s\n", q[i].a->label,
                    q[i].ratio, q[i].low, q[i].high, q[i].p, q[i].verdict);
        else
            fprintf(console, "%-44s %7.3f  %-17s %8s  %s (%d and %d repetitions)\n",
                    q[i].a->label, q[i].ratio, "none", "-", q[i].verdict, q[i].a->n,
                    q[i].b->n);
    }
    if (unmatched)
        fprintf(console, "\n%d configuration(s) are in only one run and are left out\n",
                unmatched);
}
