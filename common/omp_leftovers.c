/* omp_leftovers.c - what LLVM's OpenMP runtimes leave behind
 * (omp_leftovers.h). */
#define _DEFAULT_SOURCE
#include "omp_leftovers.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sl_forget_device_image_files(long pid)
{
    char line[4352];
    if (pid > 0)
        snprintf(line, sizeof line, "/proc/%ld/maps", pid);
    FILE *f = fopen(pid > 0 ? line : "/proc/self/maps", "r");
    int removed = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *path = strstr(line, " /tmp/tmpfile_");
        if (path == NULL)
            continue;
        /* Already removed (by this process, its parent, or its parent's
         * pages a child still shows between fork and exec): not counted. */
        if (strstr(path, " (deleted)") != NULL)
            continue;
        char *name = path + 1;
        name[strcspn(name, " \n")] = '\0';
        removed += unlink(name) == 0;   /* mapped in pieces: one removes it */
    }
    if (f)
        fclose(f);
    return removed;
}

void sl_forget_runtime_registration(long pid)
{
#ifdef __linux__
    char path[96];
    snprintf(path, sizeof path, "/dev/shm/__KMP_REGISTERED_LIB_%ld_%ld", pid, (long)getuid());
    unlink(path);
#endif
}
