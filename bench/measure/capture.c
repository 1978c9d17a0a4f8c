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
static char file_path[SL_PATH_BUF];

int sl_capture_start(const char *path)
{
    snprintf(file_path, sizeof file_path, "%s", path);
    file_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
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

const char *sl_capture_stop(void)
{
    if (file_fd < 0)
        return NULL;
    struct stat st;
    int kept = fstat(file_fd, &st) == 0 && st.st_size > 0;
    close(file_fd);
    file_fd = -1;
    if (!kept)
        unlink(file_path);
    return kept ? file_path : NULL;
}
