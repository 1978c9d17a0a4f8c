/* report.c - summary.md, index.html and the console from one table of
 * section writers (report.h). */
#define _DEFAULT_SOURCE
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "breakdown_report.h"
#include "ceiling_report.h"
#include "details.h"
#include "evidence.h"
#include "first_calls.h"
#include "grid_report.h"
#include "html.h"
#include "labels.h"
#include "mca_report.h"
#include "scaling.h"
#include "story.h"

typedef enum part { PART_STORY, PART_FIGURES, PART_DETAILS } part;

typedef struct section {
    const char *id;                /* the page's anchor */
    part part;
    void (*write)(FILE *f, const sl_run_report *r);
} section;

static void write_title(FILE *f, const sl_run_report *r)
{
    const sl_context *x = r->ctx;
    fprintf(f, "# speedlab bench: %s\n\n", r->run_name);
    fprintf(f, "%s, %s cores, %s; %s; OpenMP %s; threads bound %s; gpu variants ran "
               "on: %s. Every variant was validated before it was timed.\n",
            sl_context_get(x, "cpu_model"), sl_context_get(x, "cores_available"),
            sl_context_get(x, "simd_isa"), sl_context_get(x, "compiler"),
            sl_context_get(x, "openmp_version"), sl_context_get(x, "thread_binding"),
            sl_context_get(x, "gpu_variant_ran_on"));
    /* How noisy the host was comes before any number it disturbed. */
    const sl_noise *n = &r->suite->noise;
    if (n->calls > 0) {
        char text[512];
        sl_noise_text(n, text, sizeof text);
        fprintf(f, "\nHost noise, before timing: %s", text);
        if (r->suite->noise_buys[0] > 0.0)
            fprintf(f, "; at that noise the time left bought about \u00b1%.1f%% on a speedup on "
                    "one core and \u00b1%.1f%% on %d", 100.0 * r->suite->noise_buys[0],
                    100.0 * r->suite->noise_buys[1], n->cores);
        fprintf(f, ".\n");
    }
    if (r->suite->seen_rungs > 0)
        fprintf(f, "\nHost noise, as the first pass's pairs met it: \u00b1%.1f%% for the middle "
                   "headline rung, \u00b1%.0f%% for the noisiest; at that noise the time left "
                   "could bring %d of %d headline speedups to the \u00b1%.0f%% target.\n",
                100.0 * r->suite->seen_spread, 100.0 * r->suite->seen_worst,
                r->suite->seen_reachable, r->suite->seen_rungs, 100.0 * r->suite->target);
}

static void write_warnings(FILE *f, const sl_run_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m == NULL)
        return;
    int n = sl_story_warnings(m, r->suite, r->breakdown);
    fclose(m);
    if (n)
        fprintf(f, "\n## Warnings\n\n%s", text);
    free(text);
}

static void write_headline(FILE *f, const sl_run_report *r)
{
    if (r->suite->count == 0)
        return;
    fprintf(f, "\n## Headline\n\nEach rung at the most threads with a core each and its "
               "fastest schedule; medians; speedup against this run's scalar, from "
               "repetitions paired with scalar's.\n\n");
    sl_story_headline_md(f, r->suite, r->ceilings);
}

static void write_findings(FILE *f, const sl_run_report *r)
{
    if (r->suite->count == 0)
        return;
    fprintf(f, "\n## Findings\n\n");
    sl_story_findings(f, r->suite, r->ceilings, r->breakdown);
}

/* Does kernel def use schedules in this run (its scaling uses the
 * variants' own pragmas)? */
static const char *schedule_note(const sl_suite *s, const char *kernel)
{
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->configs[i].kernel->problem->name, kernel) == 0 &&
            (s->configs[i].variant->flags & SL_USES_SCHEDULE))
            return " (schedule as written in each variant)";
    return "";
}

/* The kernels of the run in the order measured: the ladder's, then those
 * only the MPI grid has. */
static int kernels_of(const sl_suite *s, const char **out, int cap)
{
    int n = 0;
    for (size_t i = 0; i < s->count + (size_t)s->grid.n; i++) {
        const char *name = i < s->count ? s->configs[i].kernel->problem->name
                                        : s->grid.rows[i - s->count].kernel;
        int seen = 0;
        for (int k = 0; k < n; k++)
            seen |= strcmp(out[k], name) == 0;
        if (!seen && n < cap)
            out[n++] = name;
    }
    return n;
}

/* The figures' kinds, in the order a lesson shows them, with a short
 * name and the caption that says what to look at. */
static const struct figure_kind {
    const char *kind;
    int per_kernel;                /* named <kind>-<kernel>...: grouped by kernel */
    const char *name;
    const char *look;
    const char *group;             /* the others: their line's name */
} KINDS[] = {
    { "image", 1, "the picture", "every pixel checked against the reference", NULL },
    { "diff", 1, "wrong pixels", "red marks where a wrong image is wrong", NULL },
    { "speedup", 1, "speedup", "one bar per rung over scalar; dashed: lanes, cores", NULL },
    { "schedule", 1, "schedules", "which schedule balances the rows", NULL },
    { "threadwork", 1, "thread work", "even bars mean balanced threads", NULL },
    { "lanes", 1, "SIMD lanes", "the share of lanes doing useful work", NULL },
    { "scaling", 1, "strong scaling", "against 1 thread; ideal is the diagonal", NULL },
    { "weak", 1, "weak scaling", "work per thread fixed; ideal is flat", NULL },
    { "convergence", 1, "convergence", "the error falls as 1/sqrt(samples)", NULL },
    { "hybrid", 1, "MPI + OpenMP", "speedup per ranks x threads; compute against "
      "communication", NULL },
    { "roofline", 0, "roofline", "each kernel under its roof: slanted memory, flat compute",
      "every kernel" },
    { "compile", 0, "first calls", "compile phases, then the run, per variant",
      "JIT (numba)" },
    { "breakdown", 0, "GPU time breakdown", "copies, kernel and release, lesson 5", "GPU" },
    { "crossover", 0, "GPU crossover", "the image side from which the GPU wins", "GPU" },
};
enum { NKINDS = sizeof KINDS / sizeof KINDS[0], MAX_FIGURES = 256 };

/* Is file name (kind-...png) of this kind, and about kernel k (NULL: any)?
 * Sets *extra to what follows the kernel's name ("2" in threadwork-x-2). */
static int figure_of(const char *name, const struct figure_kind *kind, const char *k,
                     const char **extra)
{
    size_t kl = strlen(kind->kind);
    *extra = "";
    /* A figure of the whole run may be named by its kind alone. */
    if (k == NULL && !kind->per_kernel && strcmp(name + kl, ".png") == 0 &&
        strncmp(name, kind->kind, kl) == 0)
        return 1;
    if (strncmp(name, kind->kind, kl) != 0 || name[kl] != '-')
        return 0;
    if (k == NULL)
        return 1;
    const char *rest = name + kl + 1;
    size_t n = strlen(k);
    for (const char *p = rest; (p = strstr(p, k)) != NULL; p++)
        if ((p == rest || p[-1] == '-') && (p[n] == '-' || p[n] == '.')) {
            *extra = p[n] == '-' ? p + n + 1 : "";
            return 1;
        }
    return 0;
}

/* One figure inline: "![name: what to look at](file)". */
static void figure(FILE *f, const char *file, const struct figure_kind *k,
                   const char *extra, const char *note)
{
    int digits = extra[0] >= '0' && extra[0] <= '9';
    fprintf(f, " ![%s%s%.*s%s: %s%s](%s)", k->name, digits ? ", " : "",
            digits ? (int)strcspn(extra, ".") : 0, extra, digits ? " threads" : "",
            k->look, note, file);
}

/* One line per kernel with its figures, in lesson order, then the GPU's:
 * a full run's figures fit in a few lines of summary.md, and the page
 * shows each with its caption. */
static void write_figures(FILE *f, const sl_run_report *r)
{
    char *names[MAX_FIGURES];
    /* Not drawn here: link the figures plot.sh will draw, so that the page
     * is whole once it ran (on a login node, for a GPU node's run). */
    int drawn = r->plots == 0;
    int n = drawn ? sl_list_pngs(r->dir, names, MAX_FIGURES)
                  : sl_list_planned_pngs(r->dir, names, MAX_FIGURES);
    n = n < 0 ? 0 : n;
    char *used = calloc((size_t)(n ? n : 1), 1);
    const char *extra;
    fprintf(f, "\n## Figures\n\n");
    if (!drawn)
        fprintf(f, "Not drawn here: %s; the data files are complete. `sh plots/plot.sh "
                "<this folder>` draws them on any machine with gnuplot, and this "
                "page shows them then.\n\n",
                r->plots == 3 ? "gnuplot is not installed" : r->plots < 0 ?
                "plots were not asked for (--no-plots)" : r->plots == SL_PLOTS_INTERRUPTED ?
                "a signal stopped the plotting (Ctrl-C or SIGTERM)" : "gnuplot failed");
    const sl_suite *s = r->suite;
    const char *kernel[64];
    int nk = kernels_of(s, kernel, 64);
    for (int i = 0; i < nk && used && n; i++) {
        int any = 0;
        for (int k = 0; k < NKINDS; k++)
            for (int j = 0; j < n; j++) {
                if (used[j] || !KINDS[k].per_kernel ||
                    !figure_of(names[j], &KINDS[k], kernel[i], &extra))
                    continue;
                if (!any++)
                    fprintf(f, "- **%s**:", kernel[i]);
                used[j] = 1;
                const char *note = (!strcmp(KINDS[k].kind, "scaling") ||
                                    !strcmp(KINDS[k].kind, "weak"))
                                   ? schedule_note(s, kernel[i]) : "";
                figure(f, names[j], &KINDS[k], extra, note);
            }
        if (any)
            fprintf(f, "\n");
    }
    /* The run's own figures, a line per group (the roofline; the GPU's,
     * whose host fallback says so in the caption too). */
    const char *where = r->breakdown && r->breakdown->start_where != SL_RAN_DEVICE
                        ? " (host fallback: not a GPU)" : "";
    for (int g = 0; g < NKINDS; g++) {
        if (KINDS[g].per_kernel)
            continue;
        int seen = 0;
        for (int e = 0; e < g; e++)
            seen |= !KINDS[e].per_kernel && strcmp(KINDS[e].group, KINDS[g].group) == 0;
        if (seen)
            continue;
        int any = 0;
        for (int k = g; k < NKINDS; k++)
            for (int j = 0; j < n && used; j++) {
                if (used[j] || KINDS[k].per_kernel ||
                    strcmp(KINDS[k].group, KINDS[g].group) != 0 ||
                    !figure_of(names[j], &KINDS[k], NULL, &extra))
                    continue;
                if (!any++)
                    fprintf(f, "- **%s**:", KINDS[g].group);
                used[j] = 1;
                figure(f, names[j], &KINDS[k], "",
                       strcmp(KINDS[g].group, "GPU") == 0 ? where : "");
            }
        if (any)
            fprintf(f, "\n");
    }
    for (int j = 0; j < n; j++) {
        if (used && !used[j])
            fprintf(f, "- ![%s](%s)\n", names[j], names[j]);
        free(names[j]);
    }
    free(used);
}

static void write_context(FILE *f, const sl_run_report *r)
{
    const sl_context *x = r->ctx;
    char interval[64];
    sl_interval_label(r->suite, interval, sizeof interval);
    fprintf(f, "\n## Context\n\n");
    fprintf(f, "- machine: %s, %s cores available, %s (%s doubles per vector)\n",
            sl_context_get(x, "cpu_model"), sl_context_get(x, "cores_available"),
            sl_context_get(x, "simd_isa"), sl_context_get(x, "simd_lanes_f64"));
    fprintf(f, "- SLURM: %s (the cores available are the CPUs of the affinity mask)\n",
            sl_context_get(x, "slurm"));
    fprintf(f, "- compiler: %s; kernels: `%s`; scalar.c and threads.c add `%s`\n",
            sl_context_get(x, "compiler"), sl_context_get(x, "kernel_flags"),
            sl_context_get(x, "scalar_extra_flags"));
    fprintf(f, "- OpenMP %s; threads requested %s, used %s; binding %s; wait policy %s\n",
            sl_context_get(x, "openmp_version"), sl_context_get(x, "threads_requested"),
            sl_context_get(x, "threads_used"), sl_context_get(x, "thread_binding"),
            sl_context_get(x, "thread_wait_policy"));
    fprintf(f, "- offload: %s, %s device(s); the gpu variants ran on: %s; GPU: %s; "
               "CUDA devices: %s\n", sl_context_get(x, "offload_target"),
            sl_context_get(x, "offload_devices"), sl_context_get(x, "gpu_variant_ran_on"),
            sl_context_get(x, "gpu_name"), sl_context_get(x, "cuda_devices"));
    fprintf(f, "- timing: wall time per call of the kernel alone, median of the "
               "repetitions after a warm-up, with a confidence interval for the median "
               "from order statistics (%s: 6 repetitions give 95%%, fewer less); "
               "repetitions interleaved across configurations; other processes' CPU "
               "measured during each (%s)\n", interval, sl_context_get(x, "quietness"));
}

static void write_configs(FILE *f, const sl_run_report *r)
{
    if (r->suite->count == 0)
        return;
    fprintf(f, "\n## Every configuration\n\n");
    sl_details_configs(f, r->suite);
}

static void write_grid(FILE *f, const sl_run_report *r)
{
    sl_grid_section(f, &r->suite->grid, 0);
}

static void write_first_calls(FILE *f, const sl_run_report *r)
{
    sl_first_calls_section(f, r->suite);
}

static void write_ceilings(FILE *f, const sl_run_report *r)
{
    if (r->ceilings) {
        sl_print_ceilings(f, r->ceilings, r->suite);
        sl_print_mca(f, r->ceilings, r->suite);
    }
}

static void write_scaling(FILE *f, const sl_run_report *r)
{
    sl_print_scaling(f, r->suite);
}

static void write_evidence(FILE *f, const sl_run_report *r)
{
    sl_print_evidence(f, r->suite);
}

static void write_breakdown(FILE *f, const sl_run_report *r)
{
    if (r->breakdown)
        sl_breakdown_summary(f, r->breakdown, r->suite);
}

static const section SECTIONS[] = {
    { "title", PART_STORY, write_title },
    { "warnings", PART_STORY, write_warnings },
    { "headline", PART_STORY, write_headline },
    { "findings", PART_STORY, write_findings },
    { "mpi", PART_STORY, write_grid },
    { "compile", PART_STORY, write_first_calls },
    { "figures", PART_FIGURES, write_figures },
    { "context", PART_DETAILS, write_context },
    { "configurations", PART_DETAILS, write_configs },
    { "ceilings", PART_DETAILS, write_ceilings },
    { "scaling", PART_DETAILS, write_scaling },
    { "evidence", PART_DETAILS, write_evidence },
    { "breakdown", PART_DETAILS, write_breakdown },
};
enum { NSECTIONS = sizeof SECTIONS / sizeof SECTIONS[0] };

/* Every section's Markdown, in memory. */
typedef struct rendered {
    char *text[NSECTIONS];
    size_t len[NSECTIONS];
} rendered;

static int render(const sl_run_report *r, rendered *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < NSECTIONS; i++) {
        FILE *m = open_memstream(&out->text[i], &out->len[i]);
        if (m == NULL)
            return -1;
        SECTIONS[i].write(m, r);
        if (fclose(m) != 0)
            return -1;
    }
    return 0;
}

static void release(rendered *out)
{
    for (int i = 0; i < NSECTIONS; i++)
        free(out->text[i]);
}

static const char DETAILS_HEADING[] =
    "\n# Details\n\nContext, every configuration, the ceilings, scaling, the image "
    "evidence and the GPU breakdown.\n";

static int write_markdown(const char *path, const rendered *t)
{
    sl_atomic_file af;
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    for (int i = 0; i < NSECTIONS; i++) {
        if (SECTIONS[i].part == PART_DETAILS && SECTIONS[i - 1].part != PART_DETAILS)
            fputs(DETAILS_HEADING, af.fp);
        fwrite(t->text[i], 1, t->len[i], af.fp);
    }
    return sl_atomic_commit(&af);
}

static int write_page(const char *path, const sl_run_report *r, const rendered *t)
{
    sl_atomic_file af;
    char title[512];
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    snprintf(title, sizeof title, "speedlab bench: %s", r->run_name);
    sl_html_begin(af.fp, title);
    for (int i = 0; i < NSECTIONS; i++) {
        if (SECTIONS[i].part == PART_DETAILS && SECTIONS[i - 1].part != PART_DETAILS)
            fputs("<details>\n<summary>Details: context, every configuration, ceilings, "
                  "scaling, image evidence, GPU breakdown</summary>\n", af.fp);
        fprintf(af.fp, "<section id=\"%s\">\n", SECTIONS[i].id);
        sl_html_markdown(af.fp, t->text[i], t->len[i], r->dir);
        fputs("</section>\n", af.fp);
    }
    fputs("</details>\n", af.fp);
    sl_html_end(af.fp);
    return sl_atomic_commit(&af);
}

int sl_write_report(const sl_run_report *r, char *failed, size_t failedlen)
{
    rendered t;
    char path[SL_PATH_BUF];
    int rc = -1;
    snprintf(failed, failedlen, "%s/summary.md", r->dir);
    if (render(r, &t) != 0)
        goto out;
    if (sl_path_format(path, sizeof path, "%s/summary.md", r->dir) != 0 ||
        write_markdown(path, &t) != 0)
        goto out;
    snprintf(failed, failedlen, "%s/index.html", r->dir);
    if (sl_path_format(path, sizeof path, "%s/index.html", r->dir) != 0 ||
        write_page(path, r, &t) != 0)
        goto out;
    rc = 0;
out:
    {
        int saved = errno;
        release(&t);
        errno = saved;
    }
    return rc;
}

/* ---- the console: the same Markdown, as text ----------------------------- */

#define TEXT_COLUMNS 16

/* Markdown's bold ("**") and code ("`") marks: noise on a terminal. A
 * single '*' is text (a footnote mark). */
static int emphasis(const char *p)
{
    return (p[0] == '*' && p[1] == '*') || p[0] == '`';
}

/* The next cell of a table line at *p ("| a | b |"), without emphasis and
 * trimmed, into out; 0 at the line's end. */
static int next_cell(const char **p, char *out, size_t cap)
{
    const char *s = *p;
    size_t n = 0;
    if (*s == '\0' || *s == '\n')
        return 0;
    for (; *s && *s != '|' && *s != '\n'; s++)
        if (!emphasis(s) && (n || *s != ' ') && n + 1 < cap)
            out[n++] = *s;
        else
            s += s[0] == '*' && s[1] == '*';
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    *p = *s == '|' ? s + 1 : s;
    return 1;
}

/* Columns a cell takes ("±", "µ": two bytes, one column). */
static int text_width(const char *t)
{
    int n = 0;
    for (; *t; t++)
        n += ((unsigned char)*t & 0xC0) != 0x80;
    return n;
}

/* A Markdown table from line at, aligned: each column as wide as its
 * widest cell, right-aligned where the separator (its second line) says
 * "--:"; the separator is not printed. Returns where the table ends. */
static const char *text_table(FILE *f, const char *at)
{
    int width[TEXT_COLUMNS] = { 0 }, right[TEXT_COLUMNS] = { 0 }, ncols = 0;
    char cell[512];
    const char *end = at;
    for (int pass = 0; pass < 2; pass++) {
        int line = 0;
        for (end = at; *end == '|'; end += *end == '\n', line++) {
            const char *p = end + 1;
            int sep = line == 1 && sl_md_separator(end), k = 0;
            for (; next_cell(&p, cell, sizeof cell) && k < TEXT_COLUMNS; k++) {
                int w = text_width(cell);
                if (pass == 0 && sep)
                    right[k] = w > 0 && cell[strlen(cell) - 1] == ':';
                else if (pass == 0)
                    width[k] = w > width[k] ? w : width[k];
                else if (!sep)
                    fprintf(f, "%s%*s%s%*s", k ? "  " : "", right[k] ? width[k] - w : 0, "",
                            cell, right[k] || k + 1 == ncols ? 0 : width[k] - w, "");
            }
            ncols = k > ncols ? k : ncols;
            if (pass == 1 && !sep)
                fputc('\n', f);
            end = p + strcspn(p, "\n");
        }
    }
    return end;
}

/* Markdown on a terminal: tables aligned, headings and emphasis dropped. */
static void print_text(FILE *f, const char *md)
{
    for (const char *p = md; *p; ) {
        if (*p == '|') {
            p = text_table(f, p);
            continue;
        }
        if (*p == '#')
            p += strspn(p, "# ");
        for (; *p && *p != '\n'; p++)
            if (!emphasis(p))
                fputc(*p, f);
            else
                p += p[0] == '*';
        if (*p)
            fputc(*p++, f);
    }
}

/* The console's account in Markdown: the warnings' items as "warning:"
 * lines, the headline, lesson 6's grids and findings. */
static void console_md(FILE *m, const sl_run_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&text, &len);
    if (w) {
        sl_story_warnings(w, r->suite, r->breakdown);
        fclose(w);
        for (char *line = text; line && *line; ) {
            char *end = strchr(line, '\n');
            if (end)
                *end = '\0';
            if (line[0] == '-' && line[1] == ' ')
                fprintf(m, "warning: %s\n", line + 2);
            line = end ? end + 1 : NULL;
        }
        free(text);
    }
    if (r->suite->count)
        sl_story_headline_md(m, r->suite, r->ceilings);
    sl_grid_section(m, &r->suite->grid, 1);
}

void sl_print_report(FILE *f, const sl_run_report *r, int verbose)
{
    char *md = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&md, &len);
    if (m == NULL)
        return;
    if (verbose) {
        rendered t;
        if (render(r, &t) == 0)
            for (int i = 0; i < NSECTIONS; i++)
                fwrite(t.text[i], 1, t.len[i], m);
        release(&t);
    } else {
        console_md(m, r);
    }
    fclose(m);
    print_text(f, md);
    free(md);
}
