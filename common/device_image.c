/* device_image.c - the host offload device's image files (device_image.h). */
#define _DEFAULT_SOURCE
#include "device_image.h"

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
