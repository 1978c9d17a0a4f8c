/* test_atomic.c - an atomic write shows the old file or the new one, never
 * a torn one, and a failed write leaves the old file untouched
 * (common/atomic_file.c). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "check.h"

static char dir[] = "/tmp/speedlab-atomic-XXXXXX";

/* Files in dir other than . and .. */
static int entries(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    char path[256], buf[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/results.csv", dir);

    /* A fresh write lands whole, with readable permissions. */
    CHECK(sl_atomic_write(path, "old contents\n") == 0);
    check_read_file(path, buf, sizeof buf);
    CHECK(strcmp(buf, "old contents\n") == 0);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);

    /* While a write is open, readers still see the old file. */
    sl_atomic_file f;
    CHECK(sl_atomic_open(&f, path) == 0);
    fputs("new contents, half", f.fp);
    fflush(f.fp);
    check_read_file(path, buf, sizeof buf);
    CHECK(strcmp(buf, "old contents\n") == 0);
    /* Abandoned: the old file stays and the temporary is gone. */
    sl_atomic_abort(&f);
    check_read_file(path, buf, sizeof buf);
    CHECK(strcmp(buf, "old contents\n") == 0);
    CHECK_EQ_LL(entries(), 1);

    /* Committed: the new file replaces the old in one step. */
    CHECK(sl_atomic_open(&f, path) == 0);
    fputs("new contents\n", f.fp);
    CHECK(sl_atomic_commit(&f) == 0);
    check_read_file(path, buf, sizeof buf);
    CHECK(strcmp(buf, "new contents\n") == 0);
    CHECK_EQ_LL(entries(), 1);

    /* A folder that does not exist: an error, nothing written. */
    char missing[300];
    snprintf(missing, sizeof missing, "%s/no/such/folder/x.csv", dir);
    errno = 0;
    CHECK(sl_atomic_write(missing, "x") == -1);
    CHECK(errno == ENOENT);

    /* The target is a folder: rename fails, the folder is untouched and no
     * temporary is left behind. */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/summary.md", dir);
    CHECK(mkdir(sub, 0755) == 0);
    CHECK(sl_atomic_write(sub, "text") == -1);
    CHECK(stat(sub, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_EQ_LL(entries(), 2);

    rmdir(sub);
    unlink(path);
    rmdir(dir);
    return CHECK_DONE();
}
