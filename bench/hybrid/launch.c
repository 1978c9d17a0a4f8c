/* launch.c - one mpirun, in its own process group, within a time limit. */
#define _GNU_SOURCE
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
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
#include "interrupt.h"
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

/* Pass what arrived on fd through to our standard error (unless quiet),
 * and keep the newest bytes of it in tail. 1: bytes passed on; 0: none
 * now; -1: the stream ended. */
static int pass_through(int fd, char *tail, size_t cap, int quiet)
{
    char buf[2048];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0)
        return n < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    if (!quiet) {
        fwrite(buf, 1, (size_t)n, stderr);
        fflush(stderr);
    }
    /* The tail is a string: a NUL in the stream (Open MPI 5 ends its
     * error handler's message with one) would hide what follows it, the
     * launcher's words on which rank died among them. */
    ssize_t kept = 0;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] != '\0')
            buf[kept++] = buf[i];
    n = kept;
    size_t have = strlen(tail), add = (size_t)n < cap - 1 ? (size_t)n : cap - 1;
    if (have + add > cap - 1) {
        memmove(tail, tail + (have + add - (cap - 1)), cap - 1 - add);
        have = cap - 1 - add;
    }
    memcpy(tail + have, buf + (size_t)n - add, add);
    tail[have + add] = '\0';
    return 1;
}

/* Everything waiting on *fd passed through; closed at its end. */
static void drain(int *fd, char *tail, size_t cap, int quiet)
{
    int r = 0;
    while (*fd >= 0 && (r = pass_through(*fd, tail, cap, quiet)) == 1)
        ;
    if (*fd >= 0 && r < 0) {
        close(*fd);
        *fd = -1;
    }
}

static pid_t spawn(char *const argv[], int err_fd, char *why, size_t len)
{
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t files;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawn_file_actions_init(&files);
    if (err_fd >= 0)
        posix_spawn_file_actions_adddup2(&files, err_fd, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &files, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return sl_fail(why, len, "cannot start %s: %s", argv[0], strerror(rc));
    return pid;
}

int sl_launch(char *const argv[], double limit, int quiet, sl_launch_end *end, char *why,
              size_t len)
{
    memset(end, 0, sizeof *end);
    int err[2] = { -1, -1 };
    if (pipe2(err, O_CLOEXEC) != 0)
        err[0] = err[1] = -1;
    else
        fcntl(err[0], F_SETFL, O_NONBLOCK);
    pid_t pid = spawn(argv, err[1], why, len);
    if (err[1] >= 0)
        close(err[1]);
    if (pid < 0) {
        if (err[0] >= 0)
            close(err[0]);
        return -1;
    }
    double start = sl_now(), term_at = -1;
    int status;
    for (;;) {
        drain(&err[0], end->tail, sizeof end->tail, quiet);
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(why, len, "waiting for %s: %s", argv[0], strerror(errno));
            if (err[0] >= 0)
                close(err[0]);
            return -1;
        }
        double now = sl_now();
        if (term_at < 0 && (now - start > limit || sl_interrupted())) {
            end->timed_out = !sl_interrupted();
            end->interrupted = sl_interrupted() != 0;
            kill(-pid, SIGTERM);
            term_at = now;
        } else if (term_at >= 0 && now - term_at > 2.0) {
            kill(-pid, SIGKILL);
        }
        nap(0.02);
    }
    /* What else mpirun's group holds goes with it; then its last words. */
    kill(-pid, SIGKILL);
    drain(&err[0], end->tail, sizeof end->tail, quiet);
    if (err[0] >= 0)
        close(err[0]);
    end->exited = WIFEXITED(status);
    end->code = end->exited ? WEXITSTATUS(status) : WTERMSIG(status);
    return 0;
}

int sl_launch_culprit(const sl_launch_end *end, char *out, size_t len)
{
    int rank, sig;
    char node[256];
    for (const char *p = end->tail; (p = strstr(p, "process rank ")) != NULL; p++)
        if (sscanf(p, "process rank %d with PID %*d on node %255s exited on signal %d", &rank,
                   node, &sig) == 3) {
            snprintf(out, len, "rank %d on node %s was killed by signal %d (%s)", rank, node,
                     sig, strsignal(sig));
            return 1;
        }
    const char *lost = strstr(end->tail, "Remote daemon");
    const char *on = lost ? strstr(lost, " on node ") : NULL;
    if (on != NULL && sscanf(on, " on node %255s", node) == 1) {
        snprintf(out, len, "the node %s was lost (its Open MPI daemon stopped answering), "
                 "with its ranks", node);
        return 1;
    }
    return 0;
}

int sl_launch_reason(const sl_launch_end *end, char *out, size_t len)
{
    size_t at = 0;
    int started = 0;
    out[0] = '\0';
    for (const char *line = end->tail; *line && at + 1 < len;) {
        size_t n = strcspn(line, "\n");
        size_t skip = strspn(line, " \t-*");   /* Open MPI's rules of dashes */
        if (skip >= n) {
            if (started)
                break;  /* the paragraph's end */
        } else {
            at += (size_t)snprintf(out + at, len - at, "%s%.*s", started ? " " : "",
                                   (int)(n - skip), line + skip);
            started = 1;
        }
        line += n + (line[n] == '\n');
    }
    if (at > 0 && at < len && out[at - 1] == ':')
        out[at - 1] = '\0';   /* "...requested by the application:" */
    return started;
}
