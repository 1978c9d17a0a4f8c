/* omp_leftovers.c - what LLVM's OpenMP runtimes leave behind
 * (omp_leftovers.h). */
#define _DEFAULT_SOURCE
#include "omp_leftovers.h"

#include <signal.h>
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

#define REGISTRATION "/dev/shm/__KMP_REGISTERED_LIB_%ld_%ld"

void sl_forget_runtime_registration(long pid)
{
#ifdef __linux__
    char path[96];
    snprintf(path, sizeof path, REGISTRATION, pid, (long)getuid());
    unlink(path);
#endif
}

/* Made before any signal: a handler may only call async-signal-safe
 * functions (unlink, sigaction, raise), not snprintf. */
static char own_registration[96];

void sl_forget_registration_and_end(int sig)
{
    if (own_registration[0] != '\0')
        unlink(own_registration);
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

void sl_forget_registration_when_signalled(void)
{
#ifdef __linux__
    snprintf(own_registration, sizeof own_registration, REGISTRATION, (long)getpid(),
             (long)getuid());
    struct sigaction sa = { .sa_handler = sl_forget_registration_and_end }, was;
    sigemptyset(&sa.sa_mask);
    const int ending[] = { SIGTERM, SIGINT, SIGHUP };
    for (size_t k = 0; k < sizeof ending / sizeof ending[0]; k++)
        if (sigaction(ending[k], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
            sigaction(ending[k], &sa, NULL);
#endif
}
