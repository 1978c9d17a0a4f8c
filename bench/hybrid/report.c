/* report.c - lesson 6's run folder (report.h). */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "atomic_file.h"

/* ---- reading ------------------------------------------------------------ */

static double num(const char *s)
{
    return *s ? strtod(s, NULL) : NAN;
}

static void parse_row(sl_hybrid_row *r, char *line)
{
    char *f[26] = { 0 };
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < 26; p++)
        if (*p == ',') {
            *p = '\0';
            f[n++] = p + 1;
        }
    for (; n < 26; n++)
        f[n] = "";
    snprintf(r->kernel, sizeof r->kernel, "%.31s", f[0]);
    snprintf(r->variant, sizeof r->variant, "%.31s", f[1]);
    r->ranks = atoi(f[2]);
    r->threads = atoi(f[3]);
    r->size = strtoll(f[4], NULL, 10);
    r->height = strtoll(f[5], NULL, 10);
    r->work = num(f[6]);
    r->reps = atoi(f[7]);
    double *d[] = { &r->median, &r->ci_low, &r->ci_high, &r->min, &r->max, &r->compute,
                    &r->compute_mean, &r->comm, &r->balance };
    for (int k = 0; k < 9; k++)
        *d[k] = num(f[8 + k]);
    r->work_balance = num(f[17]);
    r->valid = strcmp(f[18], "yes") == 0;
    r->value = num(f[19]);
    r->expected = num(f[20]);
    r->error = num(f[21]);
    r->tolerance = num(f[22]);
    r->others = num(f[23]);
    r->disturbed = atoi(f[24]);
    /* The note is the rest of the line, quoted. */
    char *note = f[25];
    note[strcspn(note, "\n")] = '\0';
    if (*note == '"')
        note++;
    size_t len = strlen(note);
    if (len > 0 && note[len - 1] == '"')
        note[len - 1] = '\0';
    snprintf(r->note, sizeof r->note, "%.511s", note);
}

int sl_hybrid_read_fragment(sl_hybrid_runs *runs, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    char line[4096];
    int header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            size_t room = sizeof runs->context - runs->context_len;
            int w = snprintf(runs->context + runs->context_len, room, "%s", line + 2);
            if (w > 0 && (size_t)w < room)
                runs->context_len += (size_t)w;
        } else if (!header) {
            header = 1;
        } else if (runs->n < SL_HYBRID_MAX_ROWS) {
            parse_row(&runs->rows[runs->n++], line);
        }
    }
    int bad = ferror(f);
    fclose(f);
    return bad ? -1 : 0;
}

const sl_hybrid_row *sl_hybrid_baseline(const sl_hybrid_runs *runs, const char *kernel)
{
    for (int i = 0; i < runs->n; i++)
        if (strcmp(runs->rows[i].kernel, kernel) == 0 && strcmp(runs->rows[i].variant, "scalar") == 0)
            return &runs->rows[i];
    return NULL;
}

/* ---- what the report computes ------------------------------------------- */

static int timed(const sl_hybrid_row *r)
{
    return r->valid && r->reps > 0 && isfinite(r->median) && r->median > 0;
}

static double speedup(const sl_hybrid_runs *runs, const sl_hybrid_row *r)
{
    const sl_hybrid_row *b = sl_hybrid_baseline(runs, r->kernel);
    return b != NULL && timed(b) && timed(r) ? b->median / r->median : NAN;
}

static const sl_hybrid_row *find(const sl_hybrid_runs *runs, const char *kernel,
                                 const char *variant, int ranks, int threads)
{
    for (int i = 0; i < runs->n; i++) {
        const sl_hybrid_row *r = &runs->rows[i];
        if (strcmp(r->kernel, kernel) == 0 && strcmp(r->variant, variant) == 0 &&
            r->ranks == ranks && r->threads == threads)
            return r;
    }
    return NULL;
}

/* Kernels and variants in the order first measured (baseline rows aside). */
static int names(const sl_hybrid_runs *runs, const char *kernel, const char **out, int cap)
{
    int n = 0;
    for (int i = 0; i < runs->n; i++) {
        const sl_hybrid_row *r = &runs->rows[i];
        const char *name = kernel ? r->variant : r->kernel;
        if ((kernel && strcmp(r->kernel, kernel) != 0) || (kernel && strcmp(name, "scalar") == 0))
            continue;
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= strcmp(out[k], name) == 0;
        if (!seen && n < cap)
            out[n++] = name;
    }
    return n;
}

static void fmt_time(char *out, size_t len, double s)
{
    if (!isfinite(s))
        snprintf(out, len, "-");
    else if (s >= 1)
        snprintf(out, len, "%.3g s", s);
    else if (s >= 1e-3)
        snprintf(out, len, "%.3g ms", s * 1e3);
    else
        snprintf(out, len, "%.3g µs", s * 1e6);
}

/* ---- the summary -------------------------------------------------------- */

/* One kernel's grid: one row per (ranks, threads) and variant. */
static void grid(FILE *f, const sl_hybrid_runs *runs, const char *kernel, int markdown)
{
    const char *variants[8];
    int nv = names(runs, kernel, variants, 8);
    const sl_hybrid_row *b = sl_hybrid_baseline(runs, kernel);
    char t[32];
    fmt_time(t, sizeof t, b ? b->median : NAN);
    if (markdown) {
        fprintf(f, "### %s (baseline: scalar, one process, %s)\n\n", kernel, t);
        fprintf(f, "| variant | ranks x threads | median | speedup | compute (slowest rank) | communication and waiting | time balance | work balance | valid |\n");
        fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
    } else {
        fprintf(f, "\n%s (baseline: scalar, one process, %s)\n", kernel, t);
        fprintf(f, "  %-14s %-10s %10s %8s %10s %10s %6s %6s\n", "variant", "ranks x T", "median",
                "speedup", "compute", "comm+wait", "time", "work");
    }
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < runs->n; i++) {
            const sl_hybrid_row *r = &runs->rows[i];
            if (strcmp(r->kernel, kernel) != 0 || strcmp(r->variant, variants[v]) != 0)
                continue;
            char med[32], comp[32], comm[32], rt[32], sp[32], bal[32], wbal[32];
            fmt_time(med, sizeof med, timed(r) ? r->median : NAN);
            fmt_time(comp, sizeof comp, timed(r) ? r->compute : NAN);
            fmt_time(comm, sizeof comm, timed(r) ? r->comm : NAN);
            snprintf(rt, sizeof rt, "%d x %d%s", r->ranks, r->threads, r->oversubscribed ? " *" : "");
            double s = speedup(runs, r);
            snprintf(sp, sizeof sp, isfinite(s) ? "%.2fx" : "-", s);
            snprintf(bal, sizeof bal, timed(r) ? "%.0f%%" : "-", 100.0 * r->balance);
            snprintf(wbal, sizeof wbal, r->valid ? "%.0f%%" : "-", 100.0 * r->work_balance);
            const char *flag = !r->valid ? "INVALID" : r->disturbed ? "yes (disturbed)" : "yes";
            if (markdown)
                fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n", r->variant, rt,
                        med, sp, comp, comm, bal, wbal, flag, r->note[0] ? ": " : "", r->note);
            else
                fprintf(f, "  %-14s %-10s %10s %8s %10s %10s %6s %6s%s%s\n", r->variant, rt, med,
                        sp, comp, comm, bal, wbal, r->valid ? "" : "  INVALID",
                        r->disturbed ? "  disturbed" : "");
        }
    int over = 0;
    for (int i = 0; i < runs->n; i++)
        over |= strcmp(runs->rows[i].kernel, kernel) == 0 && runs->rows[i].oversubscribed;
    if (over)
        fprintf(f, markdown ? "\n* more threads in all than cores: the ranks share cores, so "
               "their times and time balance measure the sharing; work balance still holds.\n\n"
               : "  (* more threads than cores)\n");
    else if (markdown)
        fprintf(f, "\n");
}

/* The findings an instructor would say out loud: balance, ranks against
 * threads, communication. */
static void findings(FILE *f, const sl_hybrid_runs *runs, const char **kernels, int nk)
{
    int said = 0;
    for (int k = 0; k < nk; k++) {
        const char *variants[8];
        int nv = names(runs, kernels[k], variants, 8);
        /* The least balanced timed configuration with more than one rank,
         * against the best balanced variant at the same grid point. */
        const sl_hybrid_row *worst = NULL;
        for (int i = 0; i < runs->n; i++) {
            const sl_hybrid_row *r = &runs->rows[i];
            if (strcmp(r->kernel, kernels[k]) == 0 && r->ranks > 1 && r->valid &&
                (worst == NULL || r->work_balance < worst->work_balance))
                worst = r;
        }
        if (worst != NULL && worst->work_balance < 0.95) {
            const sl_hybrid_row *best = NULL;
            for (int v = 0; v < nv; v++) {
                const sl_hybrid_row *r = find(runs, kernels[k], variants[v], worst->ranks, worst->threads);
                if (r && r->valid && (best == NULL || r->work_balance > best->work_balance))
                    best = r;
            }
            fprintf(f, "- **%s: load imbalance.** At %d ranks, %s gives its busiest rank %.0f%% more "
                    "work than the mean rank (work balance %.0f%%)", kernels[k], worst->ranks,
                    worst->variant, 100 * (1 / worst->work_balance - 1), 100 * worst->work_balance);
            if (best && best != worst) {
                fprintf(f, "; %s: %.0f%%", best->variant, 100 * best->work_balance);
                if (timed(best) && timed(worst) && !worst->oversubscribed)
                    fprintf(f, ", %.2fx faster at %d x %d", worst->median / best->median,
                            worst->ranks, worst->threads);
            }
            fprintf(f, ".\n");
            said++;
        }
        /* Ranks against threads: R x 1 against 1 x R, best variant each. */
        for (int R = 2; R <= 64; R *= 2) {
            const sl_hybrid_row *a = NULL, *b = NULL;
            for (int v = 0; v < nv; v++) {
                const sl_hybrid_row *x = find(runs, kernels[k], variants[v], R, 1);
                const sl_hybrid_row *y = find(runs, kernels[k], variants[v], 1, R);
                if (x && timed(x) && (!a || x->median < a->median))
                    a = x;
                if (y && timed(y) && (!b || y->median < b->median))
                    b = y;
            }
            if (a && b) {
                fprintf(f, "- **%s: ranks or threads.** %d ranks x 1 thread (%s) take %.3g s, "
                        "1 rank x %d threads %.3g s: ranks are %.0f%% %s.\n",
                        kernels[k], R, a->variant, a->median, R, b->median,
                        100 * fabs(a->median / b->median - 1), a->median <= b->median ? "faster" : "slower");
                said++;
            }
        }
    }
    /* The largest communication share. */
    const sl_hybrid_row *most = NULL;
    for (int i = 0; i < runs->n; i++) {
        const sl_hybrid_row *r = &runs->rows[i];
        if (r->ranks > 1 && timed(r) && !r->oversubscribed &&
            (!most || r->comm / r->median > most->comm / most->median))
            most = r;
    }
    if (most) {
        fprintf(f, "- **Communication.** The largest share is %s %s at %d x %d: %.0f%% of its "
                "time is the reduce or gather and the wait for the slowest rank.\n",
                most->kernel, most->variant, most->ranks, most->threads, 100 * most->comm / most->median);
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

static void csv_num(FILE *f, double v, const char *fmt)
{
    if (isfinite(v))
        fprintf(f, fmt, v);
    fputc(',', f);
}

static void write_results(FILE *f, const sl_hybrid_runs *runs, const char *tree)
{
    fprintf(f, "tree,kernel,variant,ranks,threads_per_rank,threads_total,size,height,"
               "work_per_call,repetitions,median_s,ci_low_s,ci_high_s,min_s,max_s,compute_s,"
               "compute_mean_s,communication_s,balance,work_balance,oversubscribed,rate_per_s,speedup_vs_scalar,valid,result,"
               "expected,abs_error,tolerance,others_cpu,disturbed_reps,note\n");
    for (int i = 0; i < runs->n; i++) {
        const sl_hybrid_row *r = &runs->rows[i];
        fprintf(f, "%s,%s,%s,%d,%d,%d,%lld,%lld,%.17g,%d,", tree, r->kernel, r->variant, r->ranks,
                r->threads, r->ranks * r->threads, (long long)r->size, (long long)r->height,
                r->work, r->reps);
        const double t[] = { r->median, r->ci_low, r->ci_high, r->min, r->max, r->compute,
                             r->compute_mean, r->comm };
        for (int k = 0; k < 8; k++)
            csv_num(f, timed(r) ? t[k] : NAN, "%.9g");
        csv_num(f, timed(r) ? r->balance : NAN, "%.4f");
        csv_num(f, r->valid ? r->work_balance : NAN, "%.4f");
        fprintf(f, "%d,", r->oversubscribed);
        csv_num(f, timed(r) ? r->work / r->median : NAN, "%.6g");
        csv_num(f, speedup(runs, r), "%.4f");
        fprintf(f, "%s,", r->valid ? "yes" : "no");
        csv_num(f, r->value, "%.17g");
        csv_num(f, r->expected, "%.17g");
        csv_num(f, r->error, "%.3g");
        csv_num(f, r->tolerance, "%.3g");
        csv_num(f, r->others, "%.3f");
        fprintf(f, "%d,\"%s\"\n", r->disturbed, r->note);
    }
}

/* The figure's data: dataset 0, speedup per grid point (one column per
 * variant); dataset 1, one bar per grid point and variant, compute and
 * communication in ms. Invalid or untimed cells are NaN (not drawn). */
static void write_plot_data(FILE *dat, FILE *gp, const sl_hybrid_runs *runs, const char *kernel)
{
    const char *variants[8];
    int nv = names(runs, kernel, variants, 8);
    int pts[64][2], np = 0;
    for (int i = 0; i < runs->n; i++) {
        const sl_hybrid_row *r = &runs->rows[i];
        if (strcmp(r->kernel, kernel) != 0 || strcmp(r->variant, "scalar") == 0)
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
            const sl_hybrid_row *r = find(runs, kernel, variants[v], pts[k][0], pts[k][1]);
            fprintf(dat, " %.4f", r ? speedup(runs, r) : NAN);
        }
        fputc('\n', dat);
    }
    fprintf(dat, "\n\n# variant at ranks x threads, compute ms (slowest rank), communication and waiting ms\n");
    for (int k = 0; k < np; k++)
        for (int v = 0; v < nv; v++) {
            const sl_hybrid_row *r = find(runs, kernel, variants[v], pts[k][0], pts[k][1]);
            int ok = r && timed(r);
            fprintf(dat, "\"%s %dx%d\" %.6g %.6g\n", variants[v], pts[k][0], pts[k][1],
                    ok ? r->compute * 1e3 : NAN, ok ? r->comm * 1e3 : NAN);
        }
    fprintf(gp, "nvariants = %d\n", nv);
    for (int v = 0; v < nv; v++)
        fprintf(gp, "variant%d = \"%s\"\n", v + 1, variants[v]);
}

typedef struct out_file {
    sl_atomic_file af;
    int ok;
} out_file;

static FILE *open_out(out_file *o, const char *dir, const char *name)
{
    char path[4096];
    o->ok = sl_path_join(path, sizeof path, dir, name) == 0 && sl_atomic_open(&o->af, path) == 0;
    return o->ok ? o->af.fp : NULL;
}

static int close_out(out_file *o)
{
    return o->ok && sl_atomic_commit(&o->af) == 0 ? 0 : -1;
}

int sl_hybrid_write_report(const sl_hybrid_runs *runs, const char *dir, const char *tree, FILE *out)
{
    const char *kernels[16];
    int nk = names(runs, NULL, kernels, 16);
    out_file o;
    FILE *f;
    if ((f = open_out(&o, dir, "results.csv")) == NULL)
        return -1;
    write_results(f, runs, tree);
    if (close_out(&o) != 0)
        return -1;
    if ((f = open_out(&o, dir, "context.txt")) == NULL)
        return -1;
    fprintf(f, "tree: %s\n%s", tree, runs->context);
    if (close_out(&o) != 0)
        return -1;
    /* plot.sh loads run.gp for every figure. */
    if ((f = open_out(&o, dir, "run.gp")) == NULL)
        return -1;
    fprintf(f, "machine = \"%s tree, MPI + OpenMP\"\n", tree);
    if (close_out(&o) != 0)
        return -1;
    for (int k = 0; k < nk; k++) {
        char name[96], gpname[96];
        snprintf(name, sizeof name, "hybrid-%s.dat", kernels[k]);
        snprintf(gpname, sizeof gpname, "hybrid-%s.gp", kernels[k]);
        out_file og;
        FILE *gp = open_out(&og, dir, gpname);
        if (gp == NULL || (f = open_out(&o, dir, name)) == NULL) {
            if (gp)
                sl_atomic_abort(&og.af);
            return -1;
        }
        write_plot_data(f, gp, runs, kernels[k]);
        if (close_out(&o) != 0 || close_out(&og) != 0)
            return -1;
    }
    if ((f = open_out(&o, dir, "summary.md")) == NULL)
        return -1;
    fprintf(f, "# speedlab lesson 6: MPI + OpenMP (%s tree)\n\n## What happened\n\n", tree);
    findings(f, runs, kernels, nk);
    fprintf(f, "\n## The ranks x threads grid\n\nTime per call is the slowest rank's, with a "
               "barrier before each call; compute is the slowest rank's own share, "
               "communication and waiting the rest (the reduce or gather, and the wait for the "
               "slowest rank); load balance is the mean rank's compute over the slowest's. "
               "Speedups are over the single-process scalar variant at the same size. Figures: "
               "hybrid-<kernel>.png.\n\n");
    for (int k = 0; k < nk; k++)
        grid(f, runs, kernels[k], 1);
    fprintf(f, "## Where the ranks ran\n\n```\n%s```\n", runs->context);
    if (close_out(&o) != 0)
        return -1;
    if (out != NULL) {
        for (int k = 0; k < nk; k++)
            grid(out, runs, kernels[k], 0);
        fprintf(out, "\n");
        findings(out, runs, kernels, nk);
    }
    return 0;
}
