/* cli.c - strict parsing of the shared options (cli.h). */
#include "cli.h"

#include <errno.h>
#include <grp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>


/* "program: <kind>message" on stderr, the program by its file's name. */
static void say(const char *program, const char *kind, const char *message)
{
    const char *slash = strrchr(program, '/');
    fprintf(stderr, "%s: %s%s\n", slash ? slash + 1 : program, kind, message);
}

void sl_print_error(const char *program, const char *message)
{
    say(program, "", message);
}

void sl_print_warning(const char *program, const char *message)
{
    say(program, "warning: ", message);
}

int sl_on_path(const char *path, const char *program)
{
    char dir[SL_PATH_BUF], file[SL_PATH_BUF];
    for (const char *p = path; p && *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)n, p);
        /* An empty entry is the current folder, as for the shell. */
        if (snprintf(file, sizeof file, "%s/%s", n ? dir : ".", program) < (int)sizeof file &&
            access(file, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

/* Whether this user is in the group Debian and Ubuntu (sudo, admin) or
 * RHEL (wheel) give sudo to: a login node has sudo, but not for its
 * users. The scripts' twin of sl_install_hint, scripts/install_hint.sh,
 * also asks sudo itself (may_sudo.sh); a hint is not worth a process. */
static int sl_in_sudo_group(void)
{
    gid_t groups[257];
    int n = getgroups(256, groups);
    if (n < 0)
        n = 0;
    groups[n] = getegid();
    for (int i = 0; i <= n; i++) {
        const struct group *g = getgrgid(groups[i]);
        if (g && (strcmp(g->gr_name, "sudo") == 0 || strcmp(g->gr_name, "admin") == 0 ||
                  strcmp(g->gr_name, "wheel") == 0))
            return 1;
    }
    return 0;
}

void sl_install_hint(char *out, size_t len, const char *deb, const char *other)
{
    int root = geteuid() == 0;
    const char *path = getenv("PATH");
    if (sl_on_path(path, "apt-get") && (root || (sl_on_path(path, "sudo") && sl_in_sudo_group())))
        snprintf(out, len, "%sapt-get install %s", root ? "" : "sudo ", deb);
    else if (sl_on_path(path, "brew"))
        snprintf(out, len, "brew install %s", other);
    else
        snprintf(out, len, "module load %s, spack install %s or conda install -c conda-forge %s",
                 other, other, other);
}

/* The thread list when --threads is not given, each program's (the one
 * place it is decided; --help's rows say the same): the bench 1, 2, 4, ...
 * below the core count, the core count itself and one oversubscribed point
 * (cores + 1, labelled as such: what a thread too many costs); the runner
 * all cores (a participant compares there); lesson 6's grid 1 and 2 per
 * rank. */
static int sl_default_threads(unsigned program, int *out, int cap)
{
    int cores = sl_cores_available(), n = 0;
    if (program == SL_CLI_MPI) {
        out[n++] = 1;
        out[n++] = 2;
        return n;
    }
    for (int t = 1; t < cores && n < cap - 1 && program != SL_CLI_RUNNER; t *= 2)
        out[n++] = t;
    out[n++] = cores;
    if (program == SL_CLI_BENCH && n < cap)
        out[n++] = cores + 1;
    return n;
}

/* Parse a number of seconds in (0, max] (strtod, whole text, no overflow):
 * 0 and *out, or -1 with the reason in why. */
static int sl_parse_seconds(const char *what, const char *text, double max, double *out,
                            char *why, size_t whylen)
{
    char *end;
    errno = 0;
    double v = text && *text ? strtod(text, &end) : 0.0;
    if (!text || !*text || *end != '\0' || errno != 0 || !(v > 0.0) || v > max)
        return sl_fail(why, whylen, "%s: '%s' is not a number of seconds in (0, %g]",
                       what, text ? text : "", max);
    *out = v;
    return 0;
}

/* "--size N" (every kernel) or "--size KERNEL=N" (that kernel; the plan
 * checks the name). Kernels refuse sizes above their own max_size later. */
static int parse_size(sl_cli *cli, const char *name, const char *val, char *why,
                      size_t whylen)
{
    const char *eq = strchr(val, '=');
    int64_t v;
    if (eq == NULL) {
        if (sl_parse_i64(name, val, 1, INT64_MAX, &v, why, whylen) != 0)
            return -1;
        cli->size = v;
        return 0;
    }
    if (eq == val)
        return sl_fail(why, whylen, "%s '%.80s': no kernel name before '='", name, val);
    if (cli->nsizes == SL_MAX_KERNEL_SIZES)
        return sl_fail(why, whylen, "at most %d %s KERNEL=N options per run",
                       SL_MAX_KERNEL_SIZES, name);
    if (sl_parse_i64(name, eq + 1, 1, INT64_MAX, &v, why, whylen) != 0)
        return -1;
    cli->sizes[cli->nsizes++] = (sl_kernel_size){ val, (size_t)(eq - val), v };
    return 0;
}

/* ---- the options, declared once ------------------------------------------ */

struct option;
typedef int (*setter)(sl_cli *cli, const struct option *o, const char *val, char *why,
                      size_t whylen);

/* One row per option: its name, its value's name (NULL: a flag), the
 * programs that take it, how it is parsed, and its help, for the bench and,
 * where it says something else, for the runner, the MPI driver, compare. */
struct option {
    const char *name, *alias, *value;
    unsigned programs;
    setter set;
    size_t at;                     /* its field (set_text, _whole, _seconds, _flag) */
    int64_t lo, hi;                /* a whole number's range; a flag's value is lo;
                                      seconds at most hi */
    const char *help, *runner_help, *mpi_help, *compare_help, *history_help, *room_help;
    const char *elsewhere;         /* what a program that does not take it says
                                      (default: it belongs to the bench) */
};

/* Where an option's value goes: at bytes into sl_cli. */
#define FIELD(cli, o, type) ((type *)(void *)((char *)(cli) + (o)->at))


static int set_text(sl_cli *c, const struct option *o, const char *v, char *why,
                    size_t whylen)
{
    (void)why, (void)whylen;
    *FIELD(c, o, const char *) = v;
    return 0;
}

static int set_whole(sl_cli *c, const struct option *o, const char *v, char *why,
                     size_t whylen)
{
    int64_t n;
    if (sl_parse_i64(o->name, v, o->lo, o->hi, &n, why, whylen) != 0)
        return -1;
    *FIELD(c, o, int) = (int)n;
    return 0;
}

static int set_seconds(sl_cli *c, const struct option *o, const char *v, char *why,
                       size_t whylen)
{
    return sl_parse_seconds(o->name, v, (double)o->hi, FIELD(c, o, double), why, whylen);
}

static int set_flag(sl_cli *c, const struct option *o, const char *v, char *why,
                    size_t whylen)
{
    (void)v, (void)why, (void)whylen;
    *FIELD(c, o, int) = (int)o->lo;
    return 0;
}

static int set_tree(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    if (strcmp(v, "exercises") && strcmp(v, "solutions") && strcmp(v, "both"))
        return sl_fail(why, whylen, "%s: '%s' is not exercises, solutions or both", o->name, v);
    c->tree = v;
    return 0;
}

static int set_results(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    if (*v == '\0')
        return sl_fail(why, whylen, "%s: empty folder name", o->name);
    c->results = v;
    return sl_check_path(o->name, v, why, whylen);
}

static int set_import(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    if (*v == '\0' || c->nimport == SL_MAX_IMPORTS)
        return sl_fail(why, whylen, "%s: %s", o->name, *v ? "at most 4 files" : "empty file name");
    c->import[c->nimport++] = v;
    return 0;
}

static int set_seed(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    int64_t n;
    if (sl_parse_i64(o->name, v, 0, INT64_MAX, &n, why, whylen) != 0)
        return -1;
    c->seed = (uint64_t)n;
    return 0;
}

static int set_schedule(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    if (c->nschedules == SL_MAX_SCHEDULES)
        return sl_fail(why, whylen, "%s: at most %d schedules per run", o->name, SL_MAX_SCHEDULES);
    if (sl_parse_schedule(o->name, v, &c->schedules[c->nschedules], why, whylen) != 0)
        return -1;
    c->nschedules++;
    return 0;
}

static int set_threads(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    c->threads_given = 1;
    return sl_parse_thread_list(o->name, v, c->threads, SL_MAX_THREAD_COUNTS,
                                &c->nthreads, why, whylen);
}

/* A number from 0 to the option's hi into a double field; `what` names
 * it in the refusal ("a percentage"). */
static int set_bounded(sl_cli *c, const struct option *o, const char *v, const char *what,
                       char *why, size_t whylen)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || errno || !(x >= 0 && x <= (double)o->hi))
        return sl_fail(why, whylen, "%s: '%s' is not %s from 0 to %lld", o->name, v, what,
                       (long long)o->hi);
    *FIELD(c, o, double) = x;
    return 0;
}

static int set_percent(sl_cli *c, const struct option *o, const char *v, char *why,
                       size_t whylen)
{
    return set_bounded(c, o, v, "a percentage", why, whylen);
}

static int set_minutes(sl_cli *c, const struct option *o, const char *v, char *why,
                       size_t whylen)
{
    return set_bounded(c, o, v, "a number of minutes", why, whylen);
}

static int set_label(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    if (*v == '\0' || strpbrk(v, "\"\\\n"))
        return sl_fail(why, whylen, "%s: '%.40s': a label may not hold quotes, backslashes or "
                       "newlines, nor be empty", o->name, v);
    /* The bench's label becomes the rows' tree: a results.csv field and
     * part of a configuration's name. */
    if (o->programs == SL_CLI_BENCH &&
        (strlen(v) >= SL_LABEL_MAX || strspn(v, SL_LABEL_CHARS) != strlen(v))) {
        return sl_fail(why, whylen, "%s: '%.40s': up to %d letters, digits, '.', '_', '+' "
                       "or '-'", o->name, v, SL_LABEL_MAX - 1);
    }
    c->label[o->name[strlen(o->name) - 1] == 'b'] = v;
    return 0;
}

static int set_ranks(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    return sl_parse_thread_list(o->name, v, c->ranks, SL_MAX_THREAD_COUNTS, &c->nranks, why,
                                whylen);
}

static int set_bind(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    if (strcmp(v, "core") && strcmp(v, "none"))
        return sl_fail(why, whylen, "%s: '%.64s' is not core or none", o->name, v);
    c->bind = strcmp(v, "core") == 0;
    return 0;
}

static int set_size(sl_cli *c, const struct option *o, const char *v, char *why,
                  size_t whylen)
{
    return parse_size(c, o->name, v, why, whylen);
}


static const struct option OPTIONS[] = {
    { .name = "--kernel", .value = "NAMES", .programs = SL_CLI_BENCH | SL_CLI_MPI, .set = set_text, .at = offsetof(sl_cli, kernel),
      .help = "kernels, comma-separated (default: all)",
      .elsewhere = "name the lesson as the first word: speedlab LESSON",
      .mpi_help = "the kernels with an MPI variant, comma-separated\n(default: all)" },
    { .name = "--variant", .value = "NAMES", .programs = SL_CLI_BOTH, .set = set_text, .at = offsetof(sl_cli, variant),
      .help = "one variant, or a comma list such as gpu,cuda (default:\n"
      "all; the scalar baseline always comes along)" },
    { .name = "--size", .value = "N", .programs = SL_CLI_BOTH | SL_CLI_MPI, .set = set_size,
      .help = "problem size in the kernel's unit (default: per kernel;\n"
      "image kernels: pixels per side of a square image);\n"
      "--size KERNEL=N for one kernel, repeatable",
      .runner_help = "problem size (default: the kernel's quick size)",
      .mpi_help = "every chosen kernel's size (steps, samples, image side)" },
    { .name = "--threads", .value = "LIST", .programs = SL_CLI_BOTH | SL_CLI_MPI, .set = set_threads,
      .help = "thread counts for threaded variants, e.g. 1,2,4\n"
      "(default: powers of two up to the cores, the cores, and\n"
      "one oversubscribed point, cores + 1)",
      .runner_help = "threads for threaded variants (default: all cores)",
      .mpi_help = "OpenMP threads per rank, e.g. 1,2 (default 1,2)" },
    { .name = "--all", .programs = SL_CLI_RUNNER, .set = set_flag, .at = offsetof(sl_cli, all), .lo = 1,
      .runner_help = "every rung, lesson 5's gpu stages too (default: the\nrungs of this kernel's own lesson)",
      .elsewhere = "--all is for the runner; the bench times every rung" },
    { .name = "--tree", .value = "T", .programs = SL_CLI_RUNNER, .set = set_tree,
      .runner_help = "exercises, solutions or both (default: both)",
      .elsewhere = "--tree is for the runner; each bench is one tree" },
    { .name = "--reps", .value = "R", .programs = SL_CLI_BOTH | SL_CLI_MPI, .set = set_whole, .at = offsetof(sl_cli, reps), .lo = 1, .hi = SL_MAX_REPS,
      .help = "repetitions per configuration in the first pass, and\n"
      "clean ones at least (default 6: the median's 95%\n"
      "interval needs 6; --target adds more)",
      .runner_help = "repetitions (default 3)",
      .mpi_help = "repetitions per configuration (default 5)" },
    { .name = "--min-time", .value = "S", .programs = SL_CLI_BOTH | SL_CLI_MPI, .set = set_seconds, .at = offsetof(sl_cli, min_time), .hi = 60,
      .help = "seconds per repetition (default 0.1; quick 0.05)",
      .runner_help = "seconds per repetition, at least (default 0.1; the tests\n"
      "use 0.01: their subject is the table, not the speed)",
      .mpi_help = "seconds per repetition, at least (default 0.2)" },
    { .name = "--quick", .programs = SL_CLI_BENCH | SL_CLI_MPI, .set = set_flag, .at = offsetof(sl_cli, quick), .lo = 1,
      .help = "quick sizes and few repetitions",
      .mpi_help = "the quick sizes (as make bench QUICK=1)" },
    { .name = "--max-iter", .value = "N", .programs = SL_CLI_BOTH, .set = set_whole, .at = offsetof(sl_cli, max_iter), .lo = 1,
      .hi = SL_MAX_ITER_LIMIT,
      .help = "image kernels: the iteration cap (default 1000)" },
    { .name = "--seed", .value = "N", .programs = SL_CLI_BOTH, .set = set_seed,
      .help = "sampling kernels: the generator's seed, 0 to 2^63-1\n(default 0)" },
    { .name = "--schedule", .value = "S", .programs = SL_CLI_BOTH, .set = set_schedule,
      .help = "image kernels' threaded variants: static, dynamic or\nguided, "
      "optionally ,CHUNK, or as-written (the pragma's); repeat\n"
      "to sweep several (default: as-written, and at the most\n"
      "threads also static, static,1, dynamic, guided)",
      .runner_help = "image kernels' threaded variants: static, dynamic or\nguided, "
      "optionally ,CHUNK, run by the bench's twin of your loop\n"
      "(default: as-written, your pragma); repeat for several" },
    { .name = "--no-baseline", .programs = SL_CLI_BENCH, .set = set_flag, .at = offsetof(sl_cli, no_baseline), .lo = 1,
      .help = "time only the variants named, not the scalar baseline:\n"
      "rows without a speedup, for another run's --import,\n"
      "which judges them against its own baseline" },
    { .name = "--no-weak", .programs = SL_CLI_BENCH, .set = set_flag, .at = offsetof(sl_cli, no_weak), .lo = 1,
      .help = "skip the weak-scaling study (threads_simd, work per\nthread held constant)" },
    { .name = "--retry-busy", .value = "N", .programs = SL_CLI_BOTH, .set = set_whole, .at = offsetof(sl_cli, retry_busy),
      .hi = SL_MAX_RETRY_BUSY,
      .help = "leave out repetitions during which other processes\n"
      "used more than a quarter of a core, the bench was\n"
      "stopped, or the whole machine slowed down, and time\n"
      "them again, at the end, in up to N rounds (default 2)" },
    { .name = "--target", .value = "PCT", .programs = SL_CLI_BENCH, .set = set_percent, .at = offsetof(sl_cli, target), .hi = 100,
      .help = "more repetitions, at the end, for each configuration\n"
      "whose median's 95% interval is wider than +-PCT%\n"
      "(default 5; 0, the first pass only, with --quick or\n"
      "--reps below 6)" },
    { .name = "--budget", .value = "MIN", .programs = SL_CLI_BENCH, .set = set_minutes, .at = offsetof(sl_cli, budget), .hi = 1440,
      .help = "minutes the run may take, start to report: the first\n"
      "pass always runs, more repetitions only while the budget\n"
      "lasts (default 10; 0: no limit)" },
    { .name = "--verbose", .alias = "-v", .programs = SL_CLI_BENCH, .set = set_flag, .at = offsetof(sl_cli, verbose), .lo = 1,
      .help = "print every configuration as it is timed, and the whole\n"
      "summary (default: the headline and the warnings)" },
    { .name = "--results", .value = "DIR", .programs = SL_CLI_BOTH | SL_CLI_MPI | SL_CLI_COMPARE | SL_CLI_HISTORY | SL_CLI_ROOM, .set = set_results,
      .room_help = "the room's store and pages go to DIR/room/ (default:\nresults)",
      .history_help = "the results folder whose history.sqlite to read\n(default: results)",
      .help = "where run folders go (default: results)",
      .runner_help = "image kernels: pictures go to DIR/LESSON/ (default:\nresults)",
      .mpi_help = "where the run folder goes (default: results)",
      .compare_help = "the comparison goes to DIR/compare/<UTC time>-<host>/\n"
      "(default: results)" },
    { .name = "--import", .value = "FILE", .programs = SL_CLI_BENCH, .set = set_import,
      .help = "add another program's rows (a results.csv: lesson 8's\n"
      "numba rows, lesson 6's MPI grid) to the report; they keep\n"
      "their own validation and timing; up to 4 files" },
    { .name = "--no-plots", .programs = SL_CLI_BOTH | SL_CLI_COMPARE | SL_CLI_HISTORY, .set = set_flag, .at = offsetof(sl_cli, plots),
      .history_help = "write the data but do not run gnuplot",
      .help = "write the data but do not run gnuplot",
      .runner_help = "image kernels: write the picture data, do not run\ngnuplot",
      .compare_help = "write the data but do not run gnuplot" },
    { .name = "--require-device", .programs = SL_CLI_BOTH, .set = set_flag, .at = offsetof(sl_cli, require_device),
      .lo = 1,
      .help = "exit 4, measuring nothing, unless every gpu variant\n"
      "runs on an offload device (no host fallback)",
      .runner_help = "exit 4 unless every gpu variant runs on a device" },
    { .name = "--import-folders", .programs = SL_CLI_HISTORY, .set = set_flag, .at = offsetof(sl_cli, import_folders), .lo = 1,
      .history_help = "first add the run folders in the results folder that\n"
      "the history does not have (results.csv, bench.json)" },
    { .name = "--min-change", .value = "PCT", .programs = SL_CLI_HISTORY, .set = set_percent, .at = offsetof(sl_cli, min_change), .hi = 1000,
      .history_help = "a step needs its medians this far apart, besides\n"
      "intervals that do not overlap (default 10)" },
    { .name = "--progress", .programs = SL_CLI_HISTORY, .set = set_flag, .at = offsetof(sl_cli, progress), .lo = 1,
      .history_help = "the participant's afternoon instead: each exercise row,\n"
      "run after run (make progress)" },
    { .name = "--adopt", .value = "FOLDER", .programs = SL_CLI_HISTORY, .set = set_text, .at = offsetof(sl_cli, adopt),
      .history_help = "add this run folder as --commit's (make bench-commits)" },
    { .name = "--commit", .value = "SHA", .programs = SL_CLI_HISTORY, .set = set_text, .at = offsetof(sl_cli, commit),
      .history_help = "the commit of --adopt's run folder" },
    { .name = "--unbuilt", .value = "SHA", .programs = SL_CLI_HISTORY, .set = set_text, .at = offsetof(sl_cli, unbuilt),
      .history_help = "record that this commit did not build" },
    { .name = "--label", .value = "NAME", .programs = SL_CLI_BENCH, .set = set_label,
      .help = "name this run's rows NAME instead of the tree (e.g. the\n"
      "compiler: clang-16), so that another run can --import\n"
      "them beside its own (letters, digits, . _ + -)" },
    { .name = "--label-a", .value = "NAME", .programs = SL_CLI_COMPARE, .set = set_label,
      .compare_help = "A's name in the tables and plots (default: A)" },
    { .name = "--label-b", .value = "NAME", .programs = SL_CLI_COMPARE, .set = set_label,
      .compare_help = "B's name (default: B)" },
    { .name = "--ranks", .value = "LIST", .programs = SL_CLI_MPI, .set = set_ranks,
      .mpi_help = "MPI ranks, e.g. 1,2 (default 1,2)" },
    { .name = "--check", .programs = SL_CLI_MPI, .set = set_flag, .at = offsetof(sl_cli, check), .lo = 1,
      .mpi_help = "validate only at the awkward probe sizes, nothing timed\nor written" },
    { .name = "--timeout", .value = "S", .programs = SL_CLI_MPI, .set = set_seconds, .at = offsetof(sl_cli, timeout), .hi = 86400,
      .mpi_help = "stop a launch that runs longer (default 900)" },
    { .name = "--bind", .value = "core|none", .programs = SL_CLI_MPI, .set = set_bind,
      .mpi_help = "how mpirun binds ranks (default: core when ranks x\n"
      "threads fit the cores, each rank given its threads'\ncores; else none); core with more ranks than cores\nis refused before anything runs" },
    { .name = "--port", .elsewhere = "--port is the room server's (make room)", .value = "N", .programs = SL_CLI_ROOM, .set = set_whole, .at = offsetof(sl_cli, port), .lo = 1, .hi = 65535,
      .room_help = "the TCP port to listen on (default 8470)" },
    { .name = "--code", .elsewhere = "--code is the room server's (make room)", .value = "CODE", .programs = SL_CLI_ROOM, .set = set_text, .at = offsetof(sl_cli, code),
      .room_help = "the room code participants post with: 4 to 32 letters\n"
      "or digits (default: a random one, printed)" },
    { .name = "--folder", .elsewhere = "--folder is the room server's (make room)", .value = "DIR", .programs = SL_CLI_ROOM, .set = set_text, .at = offsetof(sl_cli, folder),
      .room_help = "also take the runs participants leave in this shared\n"
      "folder (clusters: SPEEDLAB_ROOM=DIR)" },
    { .name = "--stuck", .elsewhere = "--stuck is the room server's (make room)", .value = "MIN", .programs = SL_CLI_ROOM, .set = set_minutes, .at = offsetof(sl_cli, stuck), .hi = 1440,
      .room_help = "stuck: the same state on a step over runs this many\n"
      "minutes apart (default 10)" },
    { .name = "--top", .elsewhere = "--top is the room server's (make room)", .value = "N", .programs = SL_CLI_ROOM, .set = set_whole, .at = offsetof(sl_cli, top), .lo = 1, .hi = 100,
      .room_help = "the leaderboard's length (default 10)" },
    { .name = "--once", .elsewhere = "--once is the room server's (make room)", .programs = SL_CLI_ROOM, .set = set_flag, .at = offsetof(sl_cli, once), .lo = 1,
      .room_help = "serve nothing: take the --folder's runs, write the pages,\n"
      "print the room and exit (the cluster's report)" },
};
enum { NOPTIONS = sizeof OPTIONS / sizeof OPTIONS[0] };

/* The option lines of program's --help, from the table. */
static void sl_cli_print_options(FILE *f, unsigned program)
{
    for (int i = 0; i < NOPTIONS; i++) {
        const struct option *o = &OPTIONS[i];
        const char *help = program == SL_CLI_MPI ? o->mpi_help
                           : program == SL_CLI_COMPARE ? o->compare_help
                           : program == SL_CLI_HISTORY ? o->history_help
                           : program == SL_CLI_ROOM ? o->room_help
                           : program == SL_CLI_RUNNER && o->runner_help ? o->runner_help
                           : o->help;
        if (!(o->programs & program) || help == NULL)
            continue;
        char head[40];
        snprintf(head, sizeof head, "%s%s%s", o->name, o->value ? " " : "",
                 o->value ? o->value : "");
        for (const char *line = help; *line; ) {
            size_t len = strcspn(line, "\n");
            fprintf(f, "  %-17s %.*s\n", line == help ? head : "", (int)len, line);
            line += len + (line[len] == '\n');
        }
    }
}

static const struct option *find_option(const char *name)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (!strcmp(OPTIONS[i].name, name) ||
            (OPTIONS[i].alias && !strcmp(OPTIONS[i].alias, name)))
            return &OPTIONS[i];
    return NULL;
}

/* The option whose value goes into the field at bytes into sl_cli. */
static const struct option *option_at(size_t at)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (OPTIONS[i].value && OPTIONS[i].at == at)
            return &OPTIONS[i];
    return NULL;
}

/* A Google Benchmark flag, passed through (the bench only). 0, or -1 with why. */
static int pass_through(sl_cli *cli, char *arg, unsigned program, char *why, size_t whylen)
{
    if (program != SL_CLI_BENCH)
        return sl_fail(why, whylen, "--benchmark_* flags belong to the bench (make bench)");
    if (!strncmp(arg, "--benchmark_out", 15))
        return sl_fail(why, whylen, "--benchmark_out is set by speedlab (the JSON goes into the "
                       "run folder); use --results DIR instead");
    if (cli->gbargc == SL_MAX_GB_FLAGS)
        return sl_fail(why, whylen, "at most %d --benchmark_* flags per run", SL_MAX_GB_FLAGS);
    cli->gbargv[cli->gbargc++] = arg;
    return 0;
}

/* argv[*i], with its value ("--opt value" or "--opt=value"). 0, or -1 with why. */
static int parse_one(sl_cli *cli, int argc, char **argv, int *i, unsigned program,
                     int max_words, char *why, size_t whylen)
{
    char *a = argv[*i], name[64];
    if (!strncmp(a, "--benchmark_", 12))
        return pass_through(cli, a, program, why, whylen);
    const char *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), a);
    const struct option *o = a[0] == '-' ? find_option(name) : NULL;
    if (o == NULL && a[0] != '-' && cli->nwords < max_words) {
        cli->word[cli->nwords++] = a;
        return 0;
    }
    if (o == NULL || (o->value == NULL && eq))
        return sl_fail(why, whylen, "unknown argument '%s' (see --help)", a);
    if (!(o->programs & program))
        return o->elsewhere ? sl_fail(why, whylen, "%s", o->elsewhere)
                            : sl_fail(why, whylen, "%s belongs to the bench (make bench)", o->name);
    const char *val = NULL;
    if (o->value) {
        if (eq)
            val = eq + 1;
        else if (*i + 1 < argc)
            val = argv[++*i];
        else
            return sl_fail(why, whylen, "%s needs a value (see --help)", o->name);
    }
    return o->set(cli, o, val, why, whylen);
}

/* SL_MIN_TIME_ENV, when set, stands in for --min-time not given, in the
 * programs that take --min-time and within its bound: the test suite sets
 * it, so that commands it runs as a participant types them (make <lesson>,
 * make bench QUICK=1) time briefly; its subject is what they print and exit
 * with, not their speed, so nor are disturbed repetitions timed again
 * (--retry-busy defaults to 0): on the suite's busy machine every one is,
 * and retiming them was a third of a runner's time there. Runs say where
 * the value came from. */
static int min_time_from_env(sl_cli *cli, unsigned program, char *why, size_t whylen)
{
    const struct option *o = option_at(offsetof(sl_cli, min_time));
    const char *v = getenv(SL_MIN_TIME_ENV);
    if (v == NULL || cli->min_time > 0.0 || !(o->programs & program))
        return 0;
    if (sl_parse_seconds(SL_MIN_TIME_ENV, v, (double)o->hi, &cli->min_time, why, whylen) != 0)
        return -1;
    cli->min_time_from_env = 1;
    return 0;
}

const char *sl_cli_min_time_source(const sl_cli *cli)
{
    if (!cli->min_time_from_env)
        return "";
    return cli->retry_busy == 0 ? ", none timed again: " SL_MIN_TIME_ENV : ": " SL_MIN_TIME_ENV;
}

/* Each option not given gets its default for the program that parsed it:
 * the value the option's help states, owned here and nowhere else. */
static void fill_defaults(sl_cli *c, unsigned program)
{
    if (c->nthreads == 0)
        c->nthreads = sl_default_threads(program, c->threads, SL_MAX_THREAD_COUNTS);
    if (program == SL_CLI_BENCH) {
        c->reps = c->reps ? c->reps : SL_CI_MIN_REPS;
        c->min_time = c->min_time > 0 ? c->min_time : c->quick ? 0.05 : 0.1;
        /* Fewer repetitions than an interval needs, or a quick run, asks
         * for speed: no target unless one is given. */
        if (c->target < 0)
            c->target = c->quick || c->reps < SL_CI_MIN_REPS ? 0.0 : 5.0;
        c->budget = c->budget >= 0 ? c->budget : 10.0;
        c->retry_busy = c->retry_busy >= 0 ? c->retry_busy : c->min_time_from_env ? 0 : 2;
    } else if (program == SL_CLI_RUNNER) {
        /* Short runs: a participant waits for this. */
        c->reps = c->reps ? c->reps : 3;
        c->min_time = c->min_time > 0 ? c->min_time : 0.1;
        c->retry_busy = c->retry_busy >= 0 ? c->retry_busy : c->min_time_from_env ? 0 : 1;
    } else if (program == SL_CLI_MPI) {
        c->reps = c->reps ? c->reps : 5;
        c->min_time = c->min_time > 0 ? c->min_time : 0.2;
        c->timeout = c->timeout > 0 ? c->timeout : 900;
    } else if (program == SL_CLI_HISTORY) {
        c->min_change = c->min_change >= 0 ? c->min_change : 10.0;
    } else if (program == SL_CLI_ROOM) {
        c->port = c->port ? c->port : 8470;
        c->stuck = c->stuck >= 0 ? c->stuck : 10.0;
        c->top = c->top ? c->top : 10;
    }
}

int sl_cli_parse(sl_cli *cli, int argc, char **argv, int first, int max_words,
                 unsigned program, const char *intro, const char *outro)
{
    char why[512];
    memset(cli, 0, sizeof *cli);
    cli->plots = 1;
    cli->retry_busy = -1;
    cli->budget = -1;
    cli->target = -1;
    cli->bind = -1;
    cli->min_change = -1;
    cli->stuck = -1;
    cli->results = SL_RESULTS_DEFAULT;
    for (int i = first; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(intro, stdout);
            sl_cli_print_options(stdout, program);
            fputs(outro, stdout);
            return 1;
        }
        if (parse_one(cli, argc, argv, &i, program, max_words, why, sizeof why) != 0) {
            sl_print_error(argv[0], why);
            return -1;
        }
    }
    if (min_time_from_env(cli, program, why, sizeof why) != 0) {
        sl_print_error(argv[0], why);
        return -1;
    }
    fill_defaults(cli, program);
    return 0;
}
