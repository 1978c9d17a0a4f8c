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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "compare.h"
#include "compare_report.h"
#include "exitcodes.h"
#include "interrupt.h"
#include "run_dir.h"

static const char intro[] =
    "usage: speedlab-compare A B [options]\n"
    "Compare two run folders written by make bench (A and B may be results/latest).\n"
    "Per configuration both runs have: the ratio of median times B/A (below 1: B is\n"
    "faster) with a 95% bootstrap interval, and a Mann-Whitney U test at the 5%\n"
    "level.\n";
static const char outro[] =
    "Exit: 0 ok, 1 I/O failure while writing, 2 bad input or a results folder that\n"
    "cannot be written.\n";

static int compare(const char *prog, sl_compare_run *runs, const char *const *labels,
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

    static sl_compare_run runs[2];
    for (int k = 0; k < 2; k++)
        if (sl_compare_read(&runs[k], paths[k], why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s %s\n", prog, k ? "B:" : "A:", why);
            free(runs[0].s);
            free(runs[1].s);
            return SL_EXIT_USAGE;
        }
    /* One run against itself (X X, or X and a latest that names X) has
     * nothing to compare: said as such, not as "no difference". */
    if (strcmp(runs[0].dir, runs[1].dir) == 0) {
        fprintf(stderr, "%s: A and B are the same run (%s): nothing to compare; give two "
                        "runs\n", prog, runs[0].dir);
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
static int compare(const char *prog, sl_compare_run *runs, const char *const *labels,
                   const char *results, int plots)
{
    char why[SL_WHY_BUF];
    sl_compare_pair *q = calloc((size_t)runs[0].count, sizeof *q);
    if (q == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return SL_EXIT_RUNTIME;
    }
    int unmatched, n = sl_compare_pair_runs(&runs[0], &runs[1], q, &unmatched);
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
    int plotted;
    if (sl_compare_write(out.partial, q, n, labels, runs, unmatched, plots, &plotted) != 0) {
        fprintf(stderr, "%s: cannot write into '%s': %s\n", prog, out.partial,
                strerror(errno));
        sl_run_dir_discard(&out);
        free(q);
        return SL_EXIT_RUNTIME;
    }
    if (sl_run_dir_publish(&out, why, sizeof why) != 0) {
        fprintf(stderr, "%s: cannot finish '%s': %s\n", prog, out.partial, why);
        free(q);
        return SL_EXIT_RUNTIME;
    }
    sl_compare_print(stdout, q, n, labels, runs, unmatched);
    printf("\ncomparison: %s (also %s/latest)\n", out.final, out.base);
    if (plotted == 3)
        printf("plots: gnuplot is not installed, so the data is written but not plotted\n");
    free(q);
    return SL_EXIT_OK;
}
