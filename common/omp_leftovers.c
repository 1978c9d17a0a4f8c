/* omp_leftovers.c - what LLVM's OpenMP runtimes leave behind
 * (omp_leftovers.h). */
#define _DEFAULT_SOURCE
#include "omp_leftovers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sl_forget_device_image_files(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4352];
    int found = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *path = strstr(line, " /tmp/tmpfile_");
        if (path == NULL)
            continue;
        char *name = path + 1;
        name[strcspn(name, " \n")] = '\0';
        /* A file mapped in several pieces: its later lines find it gone. */
        found += unlink(name) == 0 || errno == ENOENT;
    }
    if (f)
        fclose(f);
    return found;
}

void sl_forget_runtime_registration(long pid)
{
#ifdef __linux__
    char path[96];
    snprintf(path, sizeof path, "/dev/shm/__KMP_REGISTERED_LIB_%ld_%ld", pid, (long)getuid());
    unlink(path);
#endif
}
