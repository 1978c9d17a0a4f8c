/* atomic_file.h - write a result file so that readers only ever see the old
 * file or the complete new one.
 *
 * The data goes to a temporary name in the same directory (so rename stays
 * on one filesystem), is flushed and fsync'ed, and only then renamed over
 * the target. Any failure removes the temporary and leaves the target as it
 * was. tests/test_atomic.c checks exactly that.
 */
#ifndef SPEEDLAB_ATOMIC_FILE_H
#define SPEEDLAB_ATOMIC_FILE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sl_atomic_file {
    FILE *fp;             /* write here */
    char path[4096];      /* the final name */
    char tmp[4096];       /* the temporary name */
} sl_atomic_file;

/* Open a temporary beside path. Returns 0, or -1 with errno set. */
int sl_atomic_open(sl_atomic_file *f, const char *path);

/* Flush, fsync and rename over the final name. Returns 0, or -1 with errno
 * set (the temporary is removed and the final name untouched). */
int sl_atomic_commit(sl_atomic_file *f);

/* Give up: close and remove the temporary; the final name is untouched. */
void sl_atomic_abort(sl_atomic_file *f);

/* Write a whole string to path atomically. Returns 0 or -1 with errno set. */
int sl_atomic_write(const char *path, const char *text);

/* Rename tmp over path after fsync of the containing directory's entry;
 * used for files a library wrote itself (Google Benchmark's JSON). */
int sl_atomic_publish(const char *tmp, const char *path);

/* Why a write to path failed earlier, when the errno of the moment is
 * gone (stdio's buffered writes, a library that does not check its own):
 * ENOSPC when its filesystem is full, EFBIG at the file-size limit (ulimit
 * -f), else EIO. So that a full disk says so. */
int sl_write_failure_reason(const char *path);

#ifdef __cplusplus
}
#endif

#endif
