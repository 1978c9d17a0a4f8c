/* kill_in_wal.c - an LD_PRELOAD library for tests: the process kills itself
 * (SIGKILL) in the middle of its $SL_KILL_WAL_WRITE-th write to a SQLite
 * write-ahead log (a file whose name ends in "-wal"), after writing half of
 * that write's bytes. It puts a kill inside the history's transaction, with
 * a torn frame on disk, where a kill from outside lands only by chance.
 * Never linked into the kit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

static int is_wal(int fd)
{
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n < 4)
        return 0;
    path[n] = '\0';
    return strcmp(path + n - 4, "-wal") == 0;
}

/* Half of this write, then the kill, when it is the chosen one. */
static void maybe_die(pwrite_fn real, int fd, const void *buf, size_t n, off_t at)
{
    static long count, chosen = -1;
    if (chosen < 0) {
        const char *s = getenv("SL_KILL_WAL_WRITE");
        chosen = s != NULL ? atol(s) : 0;
    }
    if (chosen <= 0 || !is_wal(fd) || ++count != chosen)
        return;
    real(fd, buf, n / 2, at);
    raise(SIGKILL);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at)
{
    static pwrite_fn real;
    if (real == NULL)
        real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite");
    maybe_die(real, fd, buf, n, at);
    return real(fd, buf, n, at);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t at)
{
    static pwrite_fn real;
    if (real == NULL)
        real = (pwrite_fn)dlsym(RTLD_NEXT, "pwrite64");
    maybe_die(real, fd, buf, n, at);
    return real(fd, buf, n, at);
}
