/* grid_report.c - lesson 6's section of the one report: the ranks x
 * threads grid, its findings and its figures' data (grid_report.h). */
#include "grid_report.h"

#include <math.h>
#include <string.h>

#include "args.h"
#include "atomic_file.h"
#include "columns.h"
#include "labels.h"

/* ---- what the report computes ------------------------------------------- */

static const sl_grid_row *find(const sl_grid *runs, const char *kernel,
                                 const char *variant, int ranks, int threads)
{
    for (int i = 0; i < runs->n; i++) {
        const sl_grid_row *r = &runs->rows[i];
        if (strcmp(r->kernel, kernel) == 0 && strcmp(r->variant, variant) == 0 &&
            r->ranks == ranks && r->threads == threads)
            return r;
    }
    return NULL;
}

/* Kernels and variants in the order first measured (baseline rows aside). */
static int names(const sl_grid *runs, const char *kernel, const char **out, int cap)
{
    int n = 0;
    for (int i = 0; i < runs->n; i++) {
        const sl_grid_row *r = &runs->rows[i];
        const char *name = kernel ? r->variant : r->kernel;
        if (kernel && (strcmp(r->kernel, kernel) != 0 || strcmp(name, SL_BASELINE_VARIANT) == 0))
            continue;
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= strcmp(out[k], name) == 0;
        if (!seen && n < cap)
            out[n++] = name;
    }
    return n;
}

/* ---- the summary -------------------------------------------------------- */

/* One kernel's grid: one row per (ranks, threads) and variant. */
static void grid(FILE *f, const sl_grid *runs, const char *kernel)
{
    const char *variants[8];
    int nv = names(runs, kernel, variants, 8);
    const sl_grid_row *b = sl_grid_baseline(runs, kernel);
    char t[32];
    sl_time_text(t, sizeof t, b ? b->median : NAN);
    fprintf(f, "### %s (baseline: scalar, one process, %s)\n\n", kernel, t);
    fprintf(f, "| variant | ranks x threads | median | speedup | compute | communication "
               "| time balance | work balance | valid |\n|---|---|--:|--:|--:|--:|--:|--:|---|\n");
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < runs->n; i++) {
            const sl_grid_row *r = &runs->rows[i];
            if (strcmp(r->kernel, kernel) != 0 || strcmp(r->variant, variants[v]) != 0)
                continue;
            char med[32], comp[32], comm[32], rt[32], sp[32], bal[32], wbal[32];
            sl_time_text(med, sizeof med, sl_grid_timed(r) ? r->median : NAN);
            sl_time_text(comp, sizeof comp, sl_grid_timed(r) ? r->compute : NAN);
            sl_time_text(comm, sizeof comm, sl_grid_timed(r) ? r->comm : NAN);
            snprintf(rt, sizeof rt, "%d x %d%s", r->ranks, r->threads, r->oversubscribed ? " *" : "");
            double s = sl_grid_speedup(runs, r);
            snprintf(sp, sizeof sp, isfinite(s) ? "%.2fx" : "-", s);
            snprintf(bal, sizeof bal, sl_grid_timed(r) ? "%.0f%%" : "-", 100.0 * r->balance);
            snprintf(wbal, sizeof wbal, r->valid ? "%.0f%%" : "-", 100.0 * r->work_balance);
            const char *flag = !r->valid ? "INVALID" : r->disturbed ? "yes (disturbed)" : "yes";
            fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n", r->variant, rt,
                    med, sp, comp, comm, bal, wbal, flag, r->note[0] ? ": " : "", r->note);
        }
    int over = 0;
    for (int i = 0; i < runs->n; i++)
        over |= strcmp(runs->rows[i].kernel, kernel) == 0 && runs->rows[i].oversubscribed;
    fprintf(f, over ? "\n* more threads in all than cores: the ranks share cores, so their "
               "times and time balance measure the sharing; work balance still holds.\n\n"
               : "\n");
}

/* Ranks against threads: R x 1 against 1 x R, best variant each. Returns
 * the findings written. */
static int ranks_or_threads(FILE *f, const sl_grid *runs, const char *kernel,
                            const char **variants, int nv)
{
    int said = 0;
    for (int R = 2; R <= 64; R *= 2) {
        const sl_grid_row *a = NULL, *b = NULL;
        for (int v = 0; v < nv; v++) {
            const sl_grid_row *x = find(runs, kernel, variants[v], R, 1);
            const sl_grid_row *y = find(runs, kernel, variants[v], 1, R);
            if (x && sl_grid_timed(x) && (!a || x->median < a->median))
                a = x;
            if (y && sl_grid_timed(y) && (!b || y->median < b->median))
                b = y;
        }
        if (a && b) {
            char ta[32], tb[32], by[48];
            sl_time_text(ta, sizeof ta, a->median);
            sl_time_text(tb, sizeof tb, b->median);
            double d = 100 * fabs(a->median / b->median - 1);
            if (d < 1)
                snprintf(by, sizeof by, "the same to within 1%%");
            else
                snprintf(by, sizeof by, "ranks are %.0f%% %s", d,
                         a->median <= b->median ? "faster" : "slower");
            fprintf(f, "- **%s: ranks or threads.** %d ranks x 1 thread (%s) take %s, "
                    "1 rank x %d threads %s: %s.\n", kernel, R, a->variant, ta, R, tb,
                    by);
            said++;
        }
    }
    return said;
}

/* The findings an instructor would say out loud: balance, ranks against
 * threads, communication. */
static void findings(FILE *f, const sl_grid *runs, const char **kernels, int nk)
{
    int said = 0;
    for (int k = 0; k < nk; k++) {
        const char *variants[8];
        int nv = names(runs, kernels[k], variants, 8);
        /* The least balanced timed configuration with more than one rank,
         * against the best balanced variant at the same grid point. */
        const sl_grid_row *worst = NULL;
        for (int i = 0; i < runs->n; i++) {
            const sl_grid_row *r = &runs->rows[i];
            if (strcmp(r->kernel, kernels[k]) == 0 && r->ranks > 1 && r->valid &&
                (worst == NULL || r->work_balance < worst->work_balance))
                worst = r;
        }
        if (worst != NULL && worst->work_balance < 0.95) {
            const sl_grid_row *best = NULL;
            for (int v = 0; v < nv; v++) {
                const sl_grid_row *r = find(runs, kernels[k], variants[v], worst->ranks, worst->threads);
                if (r && r->valid && (best == NULL || r->work_balance > best->work_balance))
                    best = r;
            }
            fprintf(f, "- **%s: load imbalance.** At %d ranks, %s gives its busiest rank %.0f%% more "
                    "work than the mean rank (work balance %.0f%%)", kernels[k], worst->ranks,
                    worst->variant, 100 * (1 / worst->work_balance - 1), 100 * worst->work_balance);
            if (best && best != worst) {
                fprintf(f, "; %s: %.0f%%", best->variant, 100 * best->work_balance);
                if (sl_grid_timed(best) && sl_grid_timed(worst) && !worst->oversubscribed)
                    fprintf(f, ", %.2fx faster at %d x %d", worst->median / best->median,
                            worst->ranks, worst->threads);
            }
            fprintf(f, ".\n");
            said++;
        }
        said += ranks_or_threads(f, runs, kernels[k], variants, nv);
    }
    /* The largest communication share. */
    const sl_grid_row *most = NULL;
    for (int i = 0; i < runs->n; i++) {
        const sl_grid_row *r = &runs->rows[i];
        if (r->ranks > 1 && sl_grid_timed(r) && !r->oversubscribed &&
            (!most || r->comm / r->median > most->comm / most->median))
            most = r;
    }
    if (most) {
        double pct = 100 * most->comm / most->median;
        char share[32];
        if (pct < 1)
            snprintf(share, sizeof share, "under 1%%");
        else
            snprintf(share, sizeof share, "%.0f%%", pct);
        fprintf(f, "- **Communication.** The largest share is %s %s at %d x %d: %s of its "
                "time is the reduce or gather and the wait for the slowest rank.\n",
                most->kernel, most->variant, most->ranks, most->threads, share);
        said++;
    }
    int disturbed = 0, invalid = 0;
    for (int i = 0; i < runs->n; i++) {
        disturbed += runs->rows[i].disturbed > 0;
        invalid += !runs->rows[i].valid;
    }
    if (invalid)
        fprintf(f, "- **%d configuration(s) INVALID**: not timed, not plotted; the grid names the rank that was wrong.\n", invalid);
    if (disturbed)
        fprintf(f, "- **%d configuration(s) disturbed** by other processes (more than %.2f of a core): "
                "their times may be high.\n", disturbed, 0.25);
    else
        fprintf(f, "- The measurements are quiet: no repetition was disturbed by other processes.\n");
    (void)said;
}

/* ---- the files ---------------------------------------------------------- */

void sl_grid_csv_rows(FILE *f, const sl_grid *g)
{
    sl_csv_row row, *o = &row;
    for (int i = 0; i < g->n; i++) {
        const sl_grid_row *r = &g->rows[i];
        int t = sl_grid_timed(r);
        double speedup = sl_grid_speedup(g, r);
        /* The ladder's columns first (threads are per rank), then the grid's. */
        sl_csv_row_clear(o);
        sl_csv_cell(o, SL_COL_tree, "%s", r->tree);
        sl_csv_cell(o, SL_COL_kernel, "%s", r->kernel);
        sl_csv_cell(o, SL_COL_variant, "%s", r->variant);
        sl_csv_cell(o, SL_COL_threads_requested, "%d", r->threads);
        sl_csv_cell(o, SL_COL_threads_used, "%d", r->threads);
        sl_csv_cell(o, SL_COL_oversubscribed, "%d", r->oversubscribed);
        sl_csv_cell(o, SL_COL_size, "%lld", (long long)r->size);
        sl_csv_cell(o, SL_COL_work_unit, "%s", r->unit);
        sl_csv_cell(o, SL_COL_repetitions, "%d", t ? r->reps : 0);
        sl_csv_num(o, SL_COL_median_s, "%.9g", r->median, t);
        sl_csv_num(o, SL_COL_min_s, "%.9g", r->min, t);
        sl_csv_num(o, SL_COL_max_s, "%.9g", r->max, t);
        sl_csv_num(o, SL_COL_rate_per_s, "%.6g", t ? r->work / r->median : 0.0, t);
        sl_csv_num(o, SL_COL_speedup_vs_scalar, "%.4f", speedup, isfinite(speedup));
        sl_csv_num(o, SL_COL_result, "%.17g", r->value, isfinite(r->value));
        sl_csv_num(o, SL_COL_expected, "%.17g", r->expected, isfinite(r->expected));
        sl_csv_num(o, SL_COL_abs_error, "%.17g", r->error, isfinite(r->error));
        sl_csv_num(o, SL_COL_tolerance, "%.17g", r->tolerance, isfinite(r->tolerance));
        sl_csv_cell(o, SL_COL_valid, "%s", r->valid ? "yes" : "no");
        sl_csv_cell(o, SL_COL_ran_on, "host");
        sl_csv_cell(o, SL_COL_study, "strong");
        sl_csv_cell(o, SL_COL_height, "%lld", (long long)r->height);
        sl_csv_num(o, SL_COL_work_per_call, "%.17g", r->work, 1);
        sl_csv_num(o, SL_COL_ci_low_s, "%.9g", r->ci_low, t);
        sl_csv_num(o, SL_COL_ci_high_s, "%.9g", r->ci_high, t);
        sl_csv_num(o, SL_COL_others_cpu, "%.3f", r->others, t && r->others >= 0);
        sl_csv_cell(o, SL_COL_disturbed_reps, "%d", r->disturbed);
        sl_csv_cell(o, SL_COL_contaminated, "%d", r->disturbed > 0);
        sl_csv_cell(o, SL_COL_remeasured, "0");
        sl_csv_cell(o, SL_COL_check, "exact");
        sl_csv_cell(o, SL_COL_ranks, "%d", r->ranks);
        sl_csv_num(o, SL_COL_compute_s, "%.9g", r->compute, t && isfinite(r->compute));
        sl_csv_num(o, SL_COL_compute_mean_s, "%.9g", r->compute_mean,
                   t && isfinite(r->compute_mean));
        sl_csv_num(o, SL_COL_communication_s, "%.9g", r->comm, t && isfinite(r->comm));
        sl_csv_num(o, SL_COL_balance, "%.4f", r->balance, t && isfinite(r->balance));
        sl_csv_num(o, SL_COL_work_balance, "%.4f", r->work_balance,
                   r->valid && isfinite(r->work_balance));
        sl_csv_cell(o, SL_COL_note, "%s", r->note);
        sl_csv_row_write(f, o);
    }
}

/* The figure's data: dataset 0, speedup per grid point (one column per
 * variant); dataset 1, one bar per grid point and variant, compute and
 * communication in ms. Invalid or untimed cells are NaN (not drawn). */
static void write_plot_data(FILE *dat, FILE *gp, const sl_grid *runs, const char *kernel)
{
    const char *variants[8];
    int nv = names(runs, kernel, variants, 8);
    int pts[64][2], np = 0;
    for (int i = 0; i < runs->n; i++) {
        const sl_grid_row *r = &runs->rows[i];
        if (strcmp(r->kernel, kernel) != 0 || strcmp(r->variant, SL_BASELINE_VARIANT) == 0)
            continue;
        int seen = 0;
        for (int k = 0; k < np; k++)
            seen |= pts[k][0] == r->ranks && pts[k][1] == r->threads;
        if (!seen && np < 64) {
            pts[np][0] = r->ranks;
            pts[np][1] = r->threads;
            np++;
        }
    }
    fprintf(dat, "# ranks x threads, then the speedup over one-process scalar of each variant\n");
    for (int k = 0; k < np; k++) {
        fprintf(dat, "\"%dx%d\"", pts[k][0], pts[k][1]);
        for (int v = 0; v < nv; v++) {
            const sl_grid_row *r = find(runs, kernel, variants[v], pts[k][0], pts[k][1]);
            fprintf(dat, " %.4f", r ? sl_grid_speedup(runs, r) : NAN);
        }
        fputc('\n', dat);
    }
    fprintf(dat, "\n\n# variant at ranks x threads, compute ms (slowest rank), communication and waiting ms\n");
    for (int k = 0; k < np; k++)
        for (int v = 0; v < nv; v++) {
            const sl_grid_row *r = find(runs, kernel, variants[v], pts[k][0], pts[k][1]);
            int ok = r && sl_grid_timed(r);
            fprintf(dat, "\"%s %dx%d\" %.6g %.6g\n", variants[v], pts[k][0], pts[k][1],
                    ok ? r->compute * 1e3 : NAN, ok ? r->comm * 1e3 : NAN);
        }
    fprintf(gp, "nvariants = %d\n", nv);
    for (int v = 0; v < nv; v++)
        fprintf(gp, "variant%d = \"%s\"\n", v + 1, variants[v]);
}

int sl_grid_write_data(const char *dir, const sl_grid *g)
{
    const char *kernels[16];
    int nk = names(g, NULL, kernels, 16);
    for (int k = 0; k < nk; k++) {
        char name[96], path[SL_PATH_BUF], gppath[SL_PATH_BUF];
        sl_atomic_file dat, gp;
        snprintf(name, sizeof name, "hybrid-%s.dat", kernels[k]);
        if (sl_path_join(path, sizeof path, dir, name) != 0)
            return -1;
        snprintf(name, sizeof name, "hybrid-%s.gp", kernels[k]);
        if (sl_path_join(gppath, sizeof gppath, dir, name) != 0)
            return -1;
        if (sl_atomic_open(&dat, path) != 0)
            return -1;
        if (sl_atomic_open(&gp, gppath) != 0) {
            sl_atomic_abort(&dat);
            return -1;
        }
        write_plot_data(dat.fp, gp.fp, g, kernels[k]);
        int bad = sl_atomic_commit(&dat) != 0;
        if (sl_atomic_commit(&gp) != 0 || bad)
            return -1;
    }
    return 0;
}

void sl_grid_section(FILE *f, const sl_grid *g, int console)
{
    const char *kernels[16];
    int nk = names(g, NULL, kernels, 16);
    if (g->n == 0)
        return;
    fprintf(f, console ? "\nlesson 6, MPI + OpenMP:\n\n" : "\n## Lesson 6: MPI + OpenMP\n\n");
    if (!console) {
        findings(f, g, kernels, nk);
        fprintf(f, "\nTime per call is the slowest rank's, with a barrier before each call; "
                   "compute is the slowest rank's own share, communication and waiting the "
                   "rest (the reduce or gather, and the wait for the slowest rank); time "
                   "balance is the mean rank's compute over the slowest's. Speedups are over "
                   "the single-process scalar variant of the MPI run, at the same size.\n\n");
    }
    for (int k = 0; k < nk; k++)
        grid(f, g, kernels[k]);
    if (console)
        findings(f, g, kernels, nk);
    else if (g->context_len)
        fprintf(f, "Where the ranks ran:\n\n```\n%s```\n", g->context);
}
