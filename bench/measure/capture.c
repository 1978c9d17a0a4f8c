/* capture.c - what a participant's code prints, kept apart from the
 * table (capture.h). */
#define _POSIX_C_SOURCE 200809L
#include "capture.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int file_fd = -1, saved_fd = -1;
static off_t begun_at;
static char file_path[SL_PATH_BUF + 16], tmp_path[SL_PATH_BUF + 32], theirs[SL_PATH_BUF + 16];

/* The file's first line: what marks it as the kit's, so that a later run
 * may replace it and leaves any other file of that name alone. */
static const char header[] = "# speedlab: what the variants printed while they were checked "
                             "and timed (the runner keeps it apart from its table)\n";

int sl_capture_start(const char *path)
{
    snprintf(file_path, sizeof file_path, "%s", path);
    theirs[0] = '\0';
    if (snprintf(tmp_path, sizeof tmp_path, "%s.%ld.tmp", path, (long)getpid()) >=
        (int)sizeof tmp_path)
        return -1;
    file_fd = open(tmp_path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (file_fd >= 0 && write(file_fd, header, sizeof header - 1) != (ssize_t)(sizeof header - 1)) {
        close(file_fd);
        unlink(tmp_path);
        file_fd = -1;
    }
    return file_fd >= 0 ? 0 : -1;
}

void sl_capture_begin(void)
{
    if (file_fd < 0 || saved_fd >= 0)
        return;
    fflush(stdout);
    saved_fd = dup(STDOUT_FILENO);
    struct stat st;
    begun_at = fstat(file_fd, &st) == 0 ? st.st_size : 0;
    if (saved_fd >= 0 && dup2(file_fd, STDOUT_FILENO) < 0) {
        close(saved_fd);
        saved_fd = -1;
    }
}

/* Lines in the file from byte `from` on; a last line without its newline
 * counts. */
static long lines_from(off_t from)
{
    char buf[4096];
    long lines = 0;
    int last = '\n';
    ssize_t got;
    while ((got = pread(file_fd, buf, sizeof buf, from)) > 0) {
        for (ssize_t i = 0; i < got; i++)
            lines += buf[i] == '\n';
        last = buf[got - 1];
        from += got;
    }
    return lines + (last != '\n');
}

long sl_capture_end(void)
{
    if (saved_fd < 0)
        return 0;
    fflush(stdout);
    dup2(saved_fd, STDOUT_FILENO);
    close(saved_fd);
    saved_fd = -1;
    return lines_from(begun_at);
}

/* Whether path is free for the kit's file: absent, or a regular file whose
 * first line is the kit's header. */
static int ours_or_free(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 1;
    if (!S_ISREG(st.st_mode))
        return 0;
    char first[sizeof header];
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(first, 1, sizeof header - 1, f) : 0;
    if (f)
        fclose(f);
    return got == sizeof header - 1 && memcmp(first, header, got) == 0;
}

const char *sl_capture_stop(void)
{
    if (file_fd < 0)
        return NULL;
    struct stat st;
    int kept = fstat(file_fd, &st) == 0 && st.st_size > (off_t)(sizeof header - 1);
    close(file_fd);
    file_fd = -1;
    if (!kept) {
        unlink(tmp_path);
        return NULL;
    }
    /* A file of that name the kit did not write is the participant's: kept,
     * and this run's goes beside it, under the first free name. */
    char final[sizeof file_path];
    snprintf(final, sizeof final, "%s", file_path);
    size_t stem = strlen(file_path) > 4 ? strlen(file_path) - 4 : strlen(file_path);
    for (int n = 2; !ours_or_free(final) && n < 100; n++)
        if (snprintf(final, sizeof final, "%.*s-%d%s", (int)stem, file_path, n,
                     file_path + stem) >= (int)sizeof final)
            break;
    if (strcmp(final, file_path) != 0)
        snprintf(theirs, sizeof theirs, "%s", file_path);
    if (!ours_or_free(final) || rename(tmp_path, final) != 0) {
        unlink(tmp_path);
        return NULL;
    }
    snprintf(file_path, sizeof file_path, "%s", final);
    return file_path;
}

const char *sl_capture_kept_theirs(void)
{
    return theirs[0] ? theirs : NULL;
}
