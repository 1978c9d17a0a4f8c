/* launch.c - one mpirun, in its own process group, within a time limit. */
#define _GNU_SOURCE
#include "launch.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "sample.h"

extern char **environ;

int sl_find_mpirun(char *out, size_t len)
{
    const char *given = getenv("SPEEDLAB_MPIRUN");
    if (given != NULL && *given) {
        snprintf(out, len, "%s", given);
        return access(out, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    if (path == NULL)
        return -1;
    char *dirs = strdup(path);
    if (dirs == NULL)
        return -1;
    int rc = -1;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && rc != 0;
         d = strtok_r(NULL, ":", &save)) {
        struct stat st;
        char cand[SL_PATH_BUF];
        if (sl_path_join(cand, sizeof cand, *d ? d : ".", "mpirun") != 0)
            continue;
        size_t n = strlen(cand);
        if (n < len && stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
            memcpy(out, cand, n + 1);
            rc = 0;
        }
    }
    free(dirs);
    return rc;
}

static void nap(double seconds)
{
    struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&ts, NULL);
}

int sl_launch(char *const argv[], double limit, sl_launch_end *end, char *why, size_t len)
{
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], NULL, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        snprintf(why, len, "cannot start %s: %s", argv[0], strerror(rc));
        return -1;
    }
    memset(end, 0, sizeof *end);
    double start = sl_now(), term_at = -1;
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(why, len, "waiting for %s: %s", argv[0], strerror(errno));
            return -1;
        }
        double now = sl_now();
        if (term_at < 0 && now - start > limit) {
            end->timed_out = 1;
            kill(-pid, SIGTERM);
            term_at = now;
        } else if (term_at >= 0 && now - term_at > 2.0) {
            kill(-pid, SIGKILL);
        }
        nap(0.02);
    }
    /* Ranks mpirun left behind go with it. */
    kill(-pid, SIGKILL);
    end->exited = WIFEXITED(status);
    end->code = end->exited ? WEXITSTATUS(status) : WTERMSIG(status);
    return 0;
}
