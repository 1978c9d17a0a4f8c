/* atomic_file.c - temp name + fsync + rename (see atomic_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sl_atomic_open(sl_atomic_file *f, const char *path)
{
    int fd;
    memset(f, 0, sizeof *f);
    if (strlen(path) + 16 >= sizeof f->tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(f->path, path);
    /* A dot-name beside the target: same filesystem, hidden from globs. */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    snprintf(f->tmp, sizeof f->tmp, "%.*s.%s.XXXXXX", (int)dirlen, path,
             path + dirlen);
    fd = mkstemp(f->tmp);
    if (fd < 0)
        return -1;
    f->fp = fdopen(fd, "w");
    if (f->fp == NULL) {
        int e = errno;
        close(fd);
        unlink(f->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

int sl_write_failure_reason(const char *path)
{
    struct statvfs vfs;
    if (statvfs(path, &vfs) == 0 && vfs.f_bavail == 0)
        return ENOSPC;
    struct rlimit lim;
    struct stat st;
    if (getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
        stat(path, &st) == 0 && (rlim_t)st.st_size >= lim.rlim_cur)
        return EFBIG;
    return EIO;
}

int sl_atomic_commit(sl_atomic_file *f)
{
    int e = 0;
    /* A buffered write that failed earlier left stdio's error flag but
     * not its errno, which other calls have changed since. */
    if (ferror(f->fp))
        e = sl_write_failure_reason(f->tmp);
    else if (fflush(f->fp) != 0)
        e = errno ? errno : EIO;
    if (!e && fsync(fileno(f->fp)) != 0)
        e = errno;
    /* mkstemp makes 0600; results are for everyone on the machine. */
    if (!e && fchmod(fileno(f->fp), 0644) != 0)
        e = errno;
    if (fclose(f->fp) != 0 && !e)
        e = errno ? errno : EIO;
    f->fp = NULL;
    if (!e && rename(f->tmp, f->path) != 0)
        e = errno;
    if (e) {
        unlink(f->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

void sl_atomic_abort(sl_atomic_file *f)
{
    if (f->fp)
        fclose(f->fp);
    f->fp = NULL;
    unlink(f->tmp);
}

int sl_atomic_write(const char *path, const char *text)
{
    sl_atomic_file f;
    if (sl_atomic_open(&f, path) != 0)
        return -1;
    if (fputs(text, f.fp) == EOF) {
        int e = errno;
        sl_atomic_abort(&f);
        errno = e;
        return -1;
    }
    return sl_atomic_commit(&f);
}

int sl_atomic_publish(const char *tmp, const char *path)
{
    int fd = open(tmp, O_RDONLY);
    if (fd < 0)
        return -1;
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    close(fd);
    return rename(tmp, path);
}
