/* run_dir.c - create and publish run folders (run_dir.h). */
#define _DEFAULT_SOURCE
#include "run_dir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "args.h"

/* Host names go into folder names: keep letters, digits, '-', '_', '.'. */
static void clean_host(char *out, size_t len)
{
    if (gethostname(out, len) != 0 || out[0] == '\0')
        snprintf(out, len, "host");
    out[len - 1] = '\0';
    for (char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
            *p = '_';
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int sl_make_folders(const char *path)
{
    char buf[SL_PATH_BUF];
    if (sl_path_format(buf, sizeof buf, "%s", path) != 0)
        return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* A full bench run writes about 11 MB: with less free than this, it
 * would measure for minutes and then fail to write its results. */
#define MIN_FREE_BYTES (16.0 * 1024 * 1024)

/* Write all of buf: a short write is followed by another, so that a
 * failure reports its own reason (EFBIG past ulimit -f, ENOSPC) rather
 * than a stale errno. Returns 0, or -1 with errno set. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Is there room for a run in dir? statvfs says how much is free, and a
 * small write that is flushed proves the file system takes writes at all
 * (read-only, over quota, /dev/full-like). Returns 0, or -1 with why. */
static int check_room(const char *dir, const char *shown, char *why, size_t whylen)
{
    struct statvfs vfs;
    if (statvfs(dir, &vfs) == 0) {
        double free_bytes = (double)vfs.f_bavail * (double)vfs.f_frsize;
        if (free_bytes < MIN_FREE_BYTES)
            return sl_fail(why, whylen, "results folder '%s': only %.0f KiB free, a run needs "
                           "about %.0f MiB; free some space or use --results DIR elsewhere",
                           shown, free_bytes / 1024.0, MIN_FREE_BYTES / (1024.0 * 1024.0));
    }
    char path[SL_PATH_BUF], block[4096];
    memset(block, 'x', sizeof block);
    int fd = sl_path_join(path, sizeof path, dir, ".room-check") == 0 ?
             open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    int ok = fd >= 0 && write_all(fd, block, sizeof block) == 0 && fsync(fd) == 0;
    int err = errno;
    if (fd >= 0)
        close(fd);
    unlink(path);
    if (!ok)
        return sl_fail(why, whylen, "results folder '%s' does not take writes: %s", shown,
                       strerror(err));
    return 0;
}

/* Every file of a partial folder (they hold no sub-folders), then the
 * folder. */
static void remove_partial(const char *partial)
{
    DIR *d = opendir(partial);
    if (d) {
        struct dirent *e;
        char path[SL_PATH_BUF];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if (sl_path_join(path, sizeof path, partial, e->d_name) == 0)
                unlink(path);
        }
        closedir(d);
    }
    rmdir(partial);
}

#define OWNER_LOCK ".owner.lock"
/* A partial folder without its owner's lock file older than this was left
 * by a kit from before the lock, or by a run killed in its first moment. */
#define UNOWNED_STALE_S 600

/* Is the run that made this partial folder gone? Its lock is held for as
 * long as the run lives (even a SIGKILL releases it). */
static int partial_is_stale(const char *partial)
{
    char path[SL_PATH_BUF];
    int fd = sl_path_join(path, sizeof path, partial, OWNER_LOCK) == 0 ?
             open(path, O_RDWR | O_CLOEXEC) : -1;
    if (fd < 0) {
        struct stat st;
        return stat(partial, &st) == 0 && time(NULL) - st.st_mtime > UNOWNED_STALE_S;
    }
    int gone = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return gone;
}

/* Remove the partial folders of runs that were killed; returns how many. */
static int clean_stale(const char *base)
{
    DIR *d = opendir(base);
    int n = 0;
    if (d == NULL)
        return 0;
    struct dirent *e;
    char partial[SL_PATH_BUF];
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' || len < 10 || strcmp(e->d_name + len - 8, ".partial") != 0)
            continue;
        if (sl_path_join(partial, sizeof partial, base, e->d_name) == 0 && partial_is_stale(partial)) {
            remove_partial(partial);
            n += !exists(partial);
        }
    }
    closedir(d);
    return n;
}

/* Hold the new partial folder's owner lock for the life of this run. The
 * lock file gets its name only once it is locked: a second run cleaning
 * stale folders at that moment must not find it open and unlocked, take it
 * for a killed run's and remove this run's folder. */
static int take_owner_lock(sl_run_dir *r)
{
    char path[SL_PATH_BUF], fresh[SL_PATH_BUF];
    if (sl_path_join(path, sizeof path, r->partial, OWNER_LOCK) != 0 ||
        sl_path_join(fresh, sizeof fresh, r->partial, OWNER_LOCK ".new") != 0)
        return -1;
    r->lock_fd = open(fresh, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    return r->lock_fd >= 0 && flock(r->lock_fd, LOCK_EX | LOCK_NB) == 0 &&
           rename(fresh, path) == 0 ? 0 : -1;
}

/* The kit's latest link may replace only a link: anything else named
 * latest is the user's, and is never replaced. */
static int latest_is_theirs(const char *latest)
{
    struct stat st;
    return lstat(latest, &st) == 0 && !S_ISLNK(st.st_mode);
}

static int refuse_latest(char *why, size_t whylen, const char *latest, const char *run)
{
    return sl_fail(why, whylen, "%s%s%s'%s' is not the kit's link (a file or folder of yours?): "
                   "left as it is; move it away, and the kit keeps its link to the newest run "
                   "there", run ? "the run is in '" : "", run ? run : "", run ? "', but " : "",
                   latest);
}

int sl_run_dir_create(sl_run_dir *r, const char *base, char *why, size_t whylen)
{
    /* 64: the longest host name POSIX allows, so that a run's name fits
     * SL_SUBFOLDER_MAX with its time and a -N. */
    char host[65], stamp[32];
    struct stat st;
    memset(r, 0, sizeof *r);
    r->lock_fd = -1;
    /* The user's folder (at most SL_PATH_LIMIT), or a sub-folder the kit
     * names in it (a lesson's, compare's): room for a run and its files. */
    if (strlen(base) > SL_PATH_LIMIT + SL_SUBFOLDER_MAX)
        return sl_fail(why, whylen, "results folder '%s': path too long", base);
    snprintf(r->base, sizeof r->base, "%s", base);
    if (sl_make_folders(base) != 0)
        return sl_fail(why, whylen, "cannot create results folder '%s': %s", base,
                       strerror(errno));
    if (stat(base, &st) != 0 || !S_ISDIR(st.st_mode))
        return sl_fail(why, whylen, "results folder '%s' is not a folder", base);
    if (access(base, W_OK | X_OK) != 0)
        return sl_fail(why, whylen, "results folder '%s' is not writable: %s", base,
                       strerror(errno));
    char latest[SL_PATH_BUF];
    if (sl_path_join(latest, sizeof latest, base, "latest") == 0 && latest_is_theirs(latest))
        return refuse_latest(why, whylen, latest, NULL);
    r->cleaned = clean_stale(base);
    clean_host(host, sizeof host);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    /* Two runs in one second get -2, -3, ... rather than sharing a folder. */
    for (int n = 1; n < 100; n++) {
        if (n == 1)
            snprintf(r->name, sizeof r->name, "%s-%s", stamp, host);
        else
            snprintf(r->name, sizeof r->name, "%s-%s-%d", stamp, host, n);
        if (sl_path_join(r->final, sizeof r->final, base, r->name) != 0 ||
            sl_path_format(r->partial, sizeof r->partial, "%s/.%s.partial", base, r->name) != 0)
            break;
        if (!exists(r->final) && mkdir(r->partial, 0755) == 0) {
            if (take_owner_lock(r) == 0 && check_room(r->partial, base, why, whylen) == 0)
                return 0;
            if (r->lock_fd < 0)
                snprintf(why, whylen, "cannot write in '%s': %s", base, strerror(errno));
            sl_run_dir_discard(r);
            return -1;
        }
        if (errno != EEXIST)
            break;
    }
    return sl_fail(why, whylen, "cannot create a run folder in '%s': %s", base,
                   strerror(errno));
}

int sl_run_dir_publish(sl_run_dir *r, char *why, size_t whylen)
{
    char tmp[SL_PATH_BUF], latest[SL_PATH_BUF], lock[SL_PATH_BUF];
    if (sl_path_join(lock, sizeof lock, r->partial, OWNER_LOCK) == 0)
        unlink(lock);
    if (rename(r->partial, r->final) != 0)
        return sl_fail(why, whylen, "cannot rename '%s' to '%s': %s", r->partial, r->final,
                       strerror(errno));
    if (sl_path_format(tmp, sizeof tmp, "%s/.latest.%ld", r->base, (long)getpid()) != 0 ||
        sl_path_join(latest, sizeof latest, r->base, "latest") != 0) {
        return sl_fail(why, whylen, "the run is in '%s' but its latest link's path is too long",
                       r->final);
    }
    if (latest_is_theirs(latest))
        return refuse_latest(why, whylen, latest, r->final);
    unlink(tmp);
    if (symlink(r->name, tmp) != 0 || rename(tmp, latest) != 0) {
        snprintf(why, whylen, "the run is in '%s' but '%s' could not be updated: %s",
                 r->final, latest, strerror(errno));
        unlink(tmp);
        return -1;
    }
    close(r->lock_fd);
    r->lock_fd = -1;
    return 0;
}

void sl_run_dir_discard(sl_run_dir *r)
{
    remove_partial(r->partial);
    if (r->lock_fd >= 0)
        close(r->lock_fd);
    r->lock_fd = -1;
}
