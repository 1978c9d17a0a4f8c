/* cli.c - strict parsing of the shared options (cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fractal_problem.h"
#include "suite.h"

void sl_print_error(const char *program, const char *message)
{
    const char *slash = strrchr(program, '/');
    fprintf(stderr, "%s: %s\n", slash ? slash + 1 : program, message);
}

void sl_install_hint(char *out, size_t len, const char *package)
{
    snprintf(out, len, "%sapt-get install %s", geteuid() == 0 ? "" : "sudo ", package);
}

int sl_default_threads(int *out, int cap)
{
    int cores = sl_cores_available(), n = 0;
    for (int t = 1; t < cores && n < cap - 1; t *= 2)
        out[n++] = t;
    out[n++] = cores;
    return n;
}

int sl_parse_seconds(const char *what, const char *text, double max, double *out,
                     char *why, size_t whylen)
{
    char *end;
    errno = 0;
    double v = text && *text ? strtod(text, &end) : 0.0;
    if (!text || !*text || *end != '\0' || errno != 0 || !(v > 0.0) || v > max) {
        snprintf(why, whylen, "%s: '%s' is not a number of seconds in (0, %g]",
                 what, text ? text : "", max);
        return -1;
    }
    *out = v;
    return 0;
}

/* "--size N" (every kernel) or "--size KERNEL=N" (that kernel; the plan
 * checks the name). Kernels refuse sizes above their own max_size later. */
static int parse_size(sl_cli *cli, const char *val, char *why, size_t whylen)
{
    const char *eq = strchr(val, '=');
    int64_t v;
    if (eq == NULL) {
        if (sl_parse_i64("--size", val, 1, INT64_MAX, &v, why, whylen) != 0)
            return -1;
        cli->size = v;
        return 0;
    }
    if (eq == val) {
        snprintf(why, whylen, "--size '%.80s': no kernel name before '='", val);
        return -1;
    }
    if (cli->nsizes == SL_MAX_KERNEL_SIZES) {
        snprintf(why, whylen, "at most %d --size KERNEL=N options per run",
                 SL_MAX_KERNEL_SIZES);
        return -1;
    }
    if (sl_parse_i64("--size", eq + 1, 1, INT64_MAX, &v, why, whylen) != 0)
        return -1;
    cli->sizes[cli->nsizes++] = (sl_kernel_size){ val, (size_t)(eq - val), v };
    return 0;
}

int sl_cli_parse(sl_cli *cli, int argc, char **argv, int first,
                 const char **positional, const char *usage)
{
    char why[512];
    int64_t v;
    memset(cli, 0, sizeof *cli);
    cli->plots = 1;
    cli->retry_busy = -1;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        /* Options that take a value accept "--opt value" and "--opt=value". */
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        char opt[64];
        size_t optlen = eq ? (size_t)(eq - a) : strlen(a);
        if (optlen >= sizeof opt)
            optlen = sizeof opt - 1;
        memcpy(opt, a, optlen);
        opt[optlen] = '\0';
        int takes = !strcmp(opt, "--kernel") || !strcmp(opt, "--variant") ||
                    !strcmp(opt, "--size") || !strcmp(opt, "--threads") ||
                    !strcmp(opt, "--reps") || !strcmp(opt, "--min-time") ||
                    !strcmp(opt, "--results") || !strcmp(opt, "--tree") ||
                    !strcmp(opt, "--max-iter") || !strcmp(opt, "--schedule") ||
                    !strcmp(opt, "--seed") || !strcmp(opt, "--retry-busy") ||
                    !strcmp(opt, "--import");
        if (takes) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else {
                snprintf(why, sizeof why, "%s needs a value (see --help)", opt);
                sl_print_error(argv[0], why);
                return -1;
            }
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 1;
        } else if (!strncmp(a, "--benchmark_out", 15)) {
            sl_print_error(argv[0], "--benchmark_out is set by speedlab (the JSON "
                         "goes into the run folder); use --results DIR instead");
            return -1;
        } else if (!strncmp(a, "--benchmark_", 12)) {
            if (cli->gbargc == SL_MAX_GB_FLAGS) {
                snprintf(why, sizeof why, "at most %d --benchmark_* flags per run",
                         SL_MAX_GB_FLAGS);
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->gbargv[cli->gbargc++] = argv[i];
        } else if (!strcmp(a, "--quick")) {
            cli->quick = 1;
        } else if (!strcmp(a, "--no-plots")) {
            cli->plots = 0;
        } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            cli->verbose = 1;
        } else if (!strcmp(opt, "--retry-busy")) {
            if (sl_parse_i64("--retry-busy", val, 0, SL_MAX_RETRY_BUSY, &v, why,
                             sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->retry_busy = (int)v;
        } else if (!strcmp(a, "--no-weak")) {
            cli->no_weak = 1;
        } else if (!strcmp(a, "--require-device")) {
            cli->require_device = 1;
        } else if (!strcmp(opt, "--kernel")) {
            cli->kernel = val;
        } else if (!strcmp(opt, "--variant")) {
            cli->variant = val;
        } else if (!strcmp(opt, "--tree")) {
            if (strcmp(val, "exercises") && strcmp(val, "solutions") && strcmp(val, "both")) {
                snprintf(why, sizeof why, "--tree: '%s' is not exercises, solutions "
                         "or both", val);
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->tree = val;
        } else if (!strcmp(opt, "--results")) {
            if (*val == '\0') {
                sl_print_error(argv[0], "--results: empty folder name");
                return -1;
            }
            if (sl_check_path("--results", val, why, sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->results = val;
        } else if (!strcmp(opt, "--import")) {
            if (*val == '\0') {
                sl_print_error(argv[0], "--import: empty file name");
                return -1;
            }
            if (cli->nimport == SL_MAX_IMPORTS) {
                sl_print_error(argv[0], "--import: at most 4 files");
                return -1;
            }
            cli->import[cli->nimport++] = val;
        } else if (!strcmp(opt, "--size")) {
            if (parse_size(cli, val, why, sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
        } else if (!strcmp(opt, "--max-iter")) {
            if (sl_parse_i64("--max-iter", val, 1, FRACTAL_MAX_ITER_LIMIT, &v, why,
                             sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->max_iter = (int)v;
        } else if (!strcmp(opt, "--seed")) {
            if (sl_parse_i64("--seed", val, 0, INT64_MAX, &v, why, sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->seed = (uint64_t)v;
        } else if (!strcmp(opt, "--schedule")) {
            if (cli->nschedules == SL_MAX_SCHEDULES) {
                snprintf(why, sizeof why, "--schedule: at most %d schedules per run",
                         SL_MAX_SCHEDULES);
                sl_print_error(argv[0], why);
                return -1;
            }
            if (sl_parse_schedule("--schedule", val, &cli->schedules[cli->nschedules],
                                  why, sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->nschedules++;
        } else if (!strcmp(opt, "--threads")) {
            if (sl_parse_thread_list("--threads", val, cli->threads,
                                     SL_MAX_THREAD_COUNTS, &cli->nthreads, why,
                                     sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->threads_given = 1;
        } else if (!strcmp(opt, "--reps")) {
            if (sl_parse_i64("--reps", val, 1, SL_MAX_REPS, &v, why, sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
            cli->reps = (int)v;
        } else if (!strcmp(opt, "--min-time")) {
            if (sl_parse_seconds("--min-time", val, 60.0, &cli->min_time, why,
                              sizeof why) != 0) {
                sl_print_error(argv[0], why);
                return -1;
            }
        } else if (a[0] != '-' && positional && *positional == NULL) {
            *positional = a;
        } else {
            snprintf(why, sizeof why, "unknown argument '%s' (see --help)", a);
            sl_print_error(argv[0], why);
            return -1;
        }
    }
    if (cli->nthreads == 0)
        cli->nthreads = sl_default_threads(cli->threads, SL_MAX_THREAD_COUNTS);
    return 0;
}
