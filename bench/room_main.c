/* room_main.c - `make room`: the room server the instructor starts
 * (server.h). Participants join with SPEEDLAB_ROOM=http://HOST:PORT/CODE
 * and every `make <lesson>` then posts its rows; on a cluster they set
 * SPEEDLAB_ROOM to a shared folder and this program, given --folder,
 * takes the files from there (--once: take, write, print, exit).
 * The pages (results/room/room.html, instructor.html) and the console
 * view are rewritten as runs arrive. Ctrl-C ends the session; what was
 * acknowledged is in results/room/room.sqlite.
 * Exit: 0 ok, 1 the store or the pages failed, 2 bad input (an option, a
 * port in use).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "exitcodes.h"
#include "interrupt.h"
#include "omp_leftovers.h"
#include "run_dir.h"
#include "server.h"
#include "speedlab_config.h"

static const char intro[] =
    "usage: speedlab-room [options]\n"
    "Serve a workshop's room: participants' runs arrive (HTTP, or a shared folder), the\n"
    "room's page shows each lesson step's states, the commonest mistakes, speedups per\n"
    "CPU family and a leaderboard by % of the solution's speed on each one's machine.\n";
static const char outro[] =
    "Participants join with: export SPEEDLAB_ROOM=http://THIS_HOST:PORT/CODE\n"
    "Exit: 0 ok (Ctrl-C ends a session), 1 the store or pages failed, 2 bad input.\n";

/* The exercises as shipped: generated afresh from the solutions into
 * <results>/room/shipped (the instructor's own exercises/ may be edited),
 * by the kit's generator, run directly (no shell between). */
static void shipped_files(sl_room_server *s)
{
    char out[SL_PATH_BUF];
    pid_t pid = sl_path_join(out, sizeof out, s->dir, "shipped") == 0 ? fork() : -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, STDOUT_FILENO);
        execlp("sh", "sh", SPEEDLAB_SOURCE_DIR "/scripts/gen_exercises.sh",
               SPEEDLAB_SOURCE_DIR "/solutions", out, (char *)NULL);
        _exit(127);
    }
    int status = 0, done = pid > 0 && waitpid(pid, &status, 0) == pid;
    if (done)
        sl_forget_runtime_registration(pid);   /* as sl_run_plots says */
    if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        sl_room_shipped(s, out);
        return;
    }
    printf("warning: could not generate the shipped exercises into %s; the checkout's "
           "exercises/ stand for them\n", out);
    sl_room_shipped(s, SPEEDLAB_SOURCE_DIR "/exercises");
}

/* The store's folder, the store, the shipped files' hashes. */
static int open_room(sl_room_server *s, const sl_cli *cli, sl_room_db **mine, char *why,
                     size_t whylen)
{
    if (sl_path_join(s->dir, sizeof s->dir, cli->results, "room") != 0)
        return sl_fail(why, whylen, "--results: a path too long for %s/room", cli->results);
    if (sl_make_folders(s->dir) != 0)
        return snprintf(why, whylen, "cannot make %s: %s", s->dir, strerror(errno)), -1;
    char db[SL_PATH_BUF];
    if (sl_path_join(db, sizeof db, s->dir, "room.sqlite") != 0)
        return sl_fail(why, whylen, "a path too long for %s/room.sqlite", s->dir);
    s->db = sl_room_store_open(db, why, whylen);
    *mine = s->db ? sl_room_store_open(db, why, whylen) : NULL;
    if (*mine == NULL)
        return -1;
    shipped_files(s);
    return 0;
}

static int settings(sl_room_server *s, const sl_cli *cli, char *why, size_t whylen)
{
    if (cli->code && !sl_room_code_ok(cli->code))
        return snprintf(why, whylen, "--code: '%.40s' is not 4 to 32 letters or digits",
                        cli->code), -1;
    if (cli->code)
        snprintf(s->code, sizeof s->code, "%s", cli->code);
    else {
        srand((unsigned)time(NULL) ^ (unsigned)getpid());
        for (int i = 0; i < 6; i++)
            s->code[i] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[rand() % 32];
    }
    s->folder = cli->folder;
    s->stuck_minutes = cli->stuck;
    s->top = cli->top;
    s->refresh_s = 10;
    return 0;
}

/* Until Ctrl-C: take the folder's runs, and rewrite the pages when runs
 * arrived. */
static int serve(sl_room_server *s, sl_room_db *mine, int once, char *why, size_t whylen)
{
    int first = 1, since_plot = 0;
    do {
        if (s->folder && sl_room_import(s, mine, why, whylen) < 0)
            return -1;
        int plot = once || ++since_plot >= 10;   /* the figure: every 10 s at most */
        if ((s->changed || first) && sl_room_refresh(s, mine, stdout, plot, why, whylen) != 0)
            return -1;
        since_plot = plot && (s->changed || first) ? 0 : since_plot;
        s->changed = 0, first = 0;
        for (int i = 0; !once && i < 10 && !sl_interrupted(); i++)
            usleep(100000);
    } while (!once && !sl_interrupted());
    return sl_room_refresh(s, mine, NULL, 0, why, whylen);
}

int main(int argc, char **argv)
{
    sl_ignore_write_signals();
    sl_cli cli;
    int rc = sl_cli_parse(&cli, argc, argv, 1, 0, SL_CLI_ROOM, intro, outro);
    if (rc != 0)
        return rc > 0 ? SL_EXIT_OK : SL_EXIT_USAGE;
    static sl_room_server s;
    sl_room_db *mine = NULL;
    char why[SL_WHY_BUF] = "";
    if (settings(&s, &cli, why, sizeof why) != 0) {
        sl_print_error(argv[0], why);
        return SL_EXIT_USAGE;
    }
    if (open_room(&s, &cli, &mine, why, sizeof why) != 0) {
        sl_print_error(argv[0], why);
        return SL_EXIT_RUNTIME;
    }
    if (!cli.once && sl_room_listen(&s, cli.port, why, sizeof why) != 0) {
        sl_print_error(argv[0], why);
        return SL_EXIT_USAGE;
    }
    sl_interrupt_install_saying("speedlab-room: closing the room (the store keeps every "
                                "run taken)\n");
    char host[256] = "THIS_HOST";
    gethostname(host, sizeof host);
    if (!cli.once)
        printf("speedlab room %s on port %d. Participants join with:\n"
               "  export SPEEDLAB_ROOM=http://%s:%d/%s\n"
               "The room's page: http://%s:%d/%s/  (instructor's view with who is stuck: "
               "%s/instructor.html)\n", s.code, cli.port, host, cli.port, s.code, host,
               cli.port, s.code, s.dir);
    fflush(stdout);
    rc = serve(&s, mine, cli.once, why, sizeof why);
    sl_room_stop(&s);
    if (rc != 0)
        sl_print_error(argv[0], why);
    sl_room_store_close(mine);
    sl_room_store_close(s.db);
    return rc != 0 ? SL_EXIT_RUNTIME : SL_EXIT_OK;
}
