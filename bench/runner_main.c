/* runner_main.c - `make <lesson>` / `build/speedlab <lesson>`: the participant's view.
 *
 * Links both trees. For one lesson it validates every variant of the
 * participant's exercises and of the solutions, times the valid ones (with
 * Google Benchmark, like the bench) and prints them side by side: time,
 * speedup vs scalar, result, error, verdict and where the code ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"
#include "capture.h"
#include "cli.h"
#include "exitcodes.h"
#include "exhibits.h"
#include "gbench.h"
#include "interrupt.h"
#include "isolate.h"
#include "lesson_plan.h"
#include "lesson_table.h"
#include "pictures.h"
#include "history.h"
#include "results.h"
#include "run_dir.h"
#include "speedlab_config.h"
#include "suite.h"
#ifdef SPEEDLAB_HAVE_ROOM
#include "ceiling_report.h"
#include "collect.h"
#include "send.h"
#endif

extern const sl_kernel *const solutions_kernels[];
extern const sl_kernel *const exercises_kernels[];

/* The usage's first lines, with the lessons and exhibits from the tables
 * (lessons_intro). */
static char intro[1024];
static const char outro[] =
    "Exit: 0 ok, 2 bad input, 3 a variant gave a wrong answer, 4 no device\n"
    "(with --require-device).\n";



/* A stage returns CONTINUE, or the exit code that ends the run with why
 * saying why (empty when it was said already). */
enum { CONTINUE = -1 };

/* The course's first lesson's kernel, for examples. */
static const char *first_lesson(void)
{
    const sl_kernel *k[SL_MAX_KERNELS];
    return sl_kernels_by_lesson(solutions_kernels, k, SL_MAX_KERNELS) ? k[0]->problem->name
                                                                       : "LESSON";
}

/* The options, then the plan: an exhibit, or the lesson in each tree. */
static int plan_lesson(int argc, char **argv, sl_suite *suite, sl_cli *cli, char *why,
                       size_t whylen)
{
    int rc = sl_cli_parse(cli, argc, argv, 1, 1, SL_CLI_RUNNER, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    const char *kernel = cli->word[0];
    if (kernel == NULL) {
        snprintf(why, whylen, "which lesson? e.g. speedlab %s (see --help)", first_lesson());
        return SL_EXIT_USAGE;
    }
    const sl_lesson_trees trees = { exercises_kernels, solutions_kernels, sl_exhibits() };
    if (sl_lesson_plan(suite, cli, kernel, &trees, why, whylen) != 0)
        return SL_EXIT_USAGE;
    return CONTINUE;
}

/* Refused before anything runs: variants asked for that cannot run, a
 * plan bigger than the memory. */
static int check_lesson(sl_suite *suite, const sl_cli *cli, char *why, size_t whylen)
{
    if (sl_suite_named_skipped(suite, cli->variant, why, whylen))
        return SL_EXIT_MISSING;
    if (cli->require_device && sl_check_device(NULL, why, whylen) != 0)
        return SL_EXIT_MISSING;
    sl_isolate_child(suite);
    sl_exit_guard("speedlab", NULL);
    char slurm[512];
    if (sl_slurm_cpu_warning(slurm, sizeof slurm))
        printf("warning: %s\n", slurm);
    if (sl_suite_check_memory(suite, why, whylen) != 0)
        return SL_EXIT_USAGE;
    return CONTINUE;
}

/* Every variant checked (the participant's in a child process), then the
 * correct ones timed. */
static int check_and_time(sl_suite *suite, const sl_cli *cli, char **argv, size_t *invalid,
                          char *why, size_t whylen)
{
    const sl_config *first = &suite->configs[0];
    char kinds[160];
    sl_lesson_cores_note(cli, kinds, sizeof kinds);
    printf("speedlab %s: %lld %s, %d cores%s, %s (%d doubles per vector)\n", cli->word[0],
           (long long)first->problem.size, first->kernel->problem->size_name,
           sl_cores_available(), kinds,
           SPEEDLAB_SIMD_ISA, SPEEDLAB_SIMD_LANES);
    printf("checking every variant against the reference...\n");
    sl_isolate_tree(suite, argv, "exercises");
    *invalid = sl_suite_validate(suite, NULL, 0);
    const sl_config *oom = sl_suite_out_of_memory(suite);
    if (oom) {
        sl_suite_out_of_memory_why(suite, oom, why, whylen);
        return SL_EXIT_RUNTIME;
    }
    if (cli->require_device && sl_check_device(suite, why, whylen) != 0)
        return SL_EXIT_MISSING;
    char *gbargv[] = { argv[0], NULL };
    int gbargc = 1;
    gb_initialize(&gbargc, gbargv, NULL, why, whylen);   /* no flags: nothing refused */
    sl_timing timing = sl_lesson_timing(cli);
    char from_env[64] = "";
    if (cli->min_time_from_env)
        snprintf(from_env, sizeof from_env, ", >= %.2g s%s", timing.min_time, sl_cli_min_time_source(cli));
    printf("timing the correct ones (%d repetitions each%s)...\n\n", timing.reps, from_env);
    if (*invalid < suite->count)
        sl_suite_time(suite, &timing);
    gb_shutdown();
    return CONTINUE;
}




/* The room the participant joined (SPEEDLAB_ROOM), if any: this run's
 * rows go there, or wait in results/room/queue; never the run's exit. */
static void tell_room(const sl_suite *suite, const char *results)
{
    const char *room = getenv("SPEEDLAB_ROOM");
    if (room == NULL || room[0] == '\0' || getenv(SL_ISOLATE_ENV))
        return;
#ifdef SPEEDLAB_HAVE_ROOM
    /* Once per program, and only the roofs this run's rows are held
     * against: one or two of the four instructions, under a tenth of a
     * second (the whole probe, with the clock, took 0.6 s). */
    static sl_ceilings ceilings;
    if (!ceilings.measured)
        sl_measure_ceiling_kinds(&ceilings, sl_suite_ceiling_kinds(suite));
    static sl_room_post post;
    char nick[SL_ROOM_NICK], stamp[48];
    sl_room_nickname(results, nick, sizeof nick);
    snprintf(stamp, sizeof stamp, "%lld-%d-%s", (long long)time(NULL), (int)getpid(),
             suite->configs[0].kernel->problem->name);
    sl_room_collect(suite, &ceilings, nick, SPEEDLAB_SOURCE_DIR, stamp, &post);
    for (size_t i = 0; post.count == 0 && i < suite->count; i++) {
        const sl_config *c = &suite->configs[i];
        if (c->valid && sl_gpu_stand_in(c->outcome.where) && strcmp(c->tree, "exercises") == 0) {
            printf("room: nothing to send: a gpu row right on a CPU standing in for a GPU "
                   "has no time to tell (make submit, where the room has a GPU node)\n");
            break;
        }
    }
    sl_room_send(results, room, &post, stdout);
#else
    (void)suite, (void)results;
    printf("room: this build cannot join a room (no libcurl or jansson): make deps, "
           "then make %s again\n", "LESSON");
#endif
}

/* What the participant's code prints while it is checked and timed goes
 * to <results>/output-<kernel>.txt, not into the table (capture.h). */
static void keep_output_apart(const sl_cli *cli, const sl_suite *suite)
{
    char path[SL_PATH_BUF];
    if (!getenv(SL_ISOLATE_ENV) && sl_make_folders(cli->results) == 0 &&
        sl_path_format(path, sizeof path, "%s/output-%s.txt", cli->results,
                       suite->configs[0].kernel->problem->name) == 0)
        sl_capture_start(path);
}

/* plan -> check -> validate and time -> the table, its notes, pictures. */
static int runner(int argc, char **argv, sl_suite *suite)
{
    char why[SL_WHY_BUF] = "";
    sl_cli cli;
    size_t invalid = 0;
    int code = plan_lesson(argc, argv, suite, &cli, why, sizeof why);
    if (code == CONTINUE)
        code = check_lesson(suite, &cli, why, sizeof why);
    sl_run_dir pictures;
    int image = code == CONTINUE && suite->configs[0].kernel->problem->image &&
                !getenv(SL_ISOLATE_ENV);
    if (image && sl_pictures_open(&pictures, cli.results, cli.word[0], why, sizeof why) != 0)
        code = SL_EXIT_USAGE, image = 0;
    else if (image && pictures.cleaned)
        printf("removed %d unfinished picture folder(s) left in %s by runs that were "
               "killed\n", pictures.cleaned, pictures.base);
    if (code == CONTINUE) {
        keep_output_apart(&cli, suite);
        code = check_and_time(suite, &cli, argv, &invalid, why, sizeof why);
    }
    const char *printed = sl_capture_stop();
    if (code != CONTINUE) {
        if (image)
            sl_run_dir_discard(&pictures);
        if (why[0])
            sl_print_error(argv[0], why);
        return code;
    }
    sl_lesson_table(stdout, suite);
    sl_lesson_notes(stdout, suite);
    sl_lesson_printed(stdout, suite, printed);
    if (printed && sl_capture_kept_theirs())
        printf("%s is not a file the kit wrote: left as it is; this run's output went to %s\n",
               sl_capture_kept_theirs(), printed);
    if (sl_history_record(cli.results, "lesson", "", suite, why, sizeof why) != 0)
        sl_print_warning(argv[0], why);
    int late = sl_interrupted();
    tell_room(suite, cli.results);
    if (image && sl_pictures_publish(suite, &pictures, cli.word[0], cli.plots, stdout, why,
                                     sizeof why) != 0) {
        sl_print_error(argv[0], why);
        return SL_EXIT_RUNTIME;
    }
    if (invalid) {
        sl_lesson_wrong(stdout, suite, invalid);
        return SL_EXIT_INVALID;
    }
    if (late) {
        printf("interrupted by signal %d while waiting for the history: the run is shown "
               "above, not in the history; exit code %d\n", late, 128 + late);
        return 128 + late;
    }
    return SL_EXIT_OK;
}

/* The usage's first lines: the kernels in lesson order, then the exhibits. */
static void lessons_intro(void)
{
    const sl_kernel *k[SL_MAX_KERNELS];
    size_t n = sl_kernels_by_lesson(solutions_kernels, k, SL_MAX_KERNELS);
    size_t at = (size_t)snprintf(intro, sizeof intro, "usage: speedlab LESSON [options]\n"
                                 "Check and time your exercises next to the solutions, e.g. "
                                 "speedlab %s.\nLessons:", first_lesson());
    for (size_t i = 0; i < n && at < sizeof intro; i++)
        at += (size_t)snprintf(intro + at, sizeof intro - at, "%s %s", i ? "," : "",
                               k[i]->problem->name);
    at += (size_t)snprintf(intro + at, sizeof intro - at, ".\nExhibits (bugs on purpose, "
                           "measured):\n ");
    const sl_kernel *const *exhibits = sl_exhibits();
    for (size_t i = 0; exhibits[i] && at < sizeof intro; i++)
        at += (size_t)snprintf(intro + at, sizeof intro - at, "%s %s", i ? "," : "",
                               exhibits[i]->problem->name);
    snprintf(intro + at, sizeof intro - at, ".\n");
}

/* Each kernel of the lesson in turn; the worst exit code wins. The suite
 * is freed whatever way runner() ends, so that no exit path leaks it (the
 * sanitizer build checks). */
int main(int argc, char **argv)
{
    sl_ignore_write_signals();
    lessons_intro();
    /* Before anything starts the OpenMP runtime, which aborts on a bad
     * OMP_NUM_THREADS (LLVM's libomp) rather than saying so. */
    char why[SL_WHY_BUF];
    if (sl_check_omp_env(why, sizeof why) != 0) {
        sl_print_error(argv[0], why);
        return SL_EXIT_USAGE;
    }
    const char *emulated = sl_emulated();
    if (emulated) {
        snprintf(why, sizeof why, "%s; emulated times say nothing about that machine, "
                 "so nothing is timed", emulated);
        sl_print_error(argv[0], why);
        return SL_EXIT_USAGE;
    }
    sl_cli cli;
    int rc = sl_cli_parse(&cli, argc, argv, 1, 1, SL_CLI_RUNNER, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    int word = 1;
    while (word < argc && argv[word] != cli.word[0])
        word++;
    const char *names[SL_MAX_KERNELS];
    int n = word < argc ? sl_lesson_kernels(solutions_kernels, argv[word], names, SL_MAX_KERNELS) : 1;
    for (int i = 0; i < n; i++) {
        if (word < argc)
            argv[word] = (char *)names[i];
        if (i > 0)
            printf("\n== %s, after %s\n", names[i], names[0]);
        sl_suite suite = { 0 };
        int code = runner(argc, argv, &suite);
        sl_suite_free(&suite);
        rc = code > rc ? code : rc;
        fflush(stdout);
    }
    return sl_note_closed_stdout(argv[0], NULL, rc);
}
