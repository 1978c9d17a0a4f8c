/* omp_leftovers.c - what LLVM's OpenMP runtimes leave behind
 * (omp_leftovers.h). */
#define _DEFAULT_SOURCE
#include "omp_leftovers.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
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

int sl_forget_runtime_registration(long pid)
{
#ifdef __linux__
    char path[96];
    snprintf(path, sizeof path, REGISTRATION, pid, (long)getuid());
    return unlink(path) == 0;
#else
    (void)pid;
    return 0;
#endif
}

void sl_note_for_forgetting(const char *list)
{
#ifdef __linux__
    char host[256] = "", line[320];
    gethostname(host, sizeof host - 1);
    int n = snprintf(line, sizeof line, "%ld %s\n", (long)getpid(), host);
    /* One write with O_APPEND: the ranks' lines never interleave. */
    int fd = open(list, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) != n) {
            /* Not noted: at worst a registration is left, as before. */
        }
        close(fd);
    }
#else
    (void)list;
#endif
}

#ifdef __linux__
/* Whether pid runs: there, and not a zombie (one that can no longer
 * remove anything). */
static int running(long pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *after = strrchr(stat, ')');   /* the name may hold anything */
    return after == NULL || (after[1] == ' ' && after[2] != 'Z');
}

/* Whether pid has ended within about two seconds. */
static int ended(long pid)
{
    const struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (int i = 0; i < 200 && running(pid); i++)
        nanosleep(&tick, NULL);
    return !running(pid);
}
#endif

int sl_forget_noted(const char *list)
{
    int removed = 0;
#ifdef __linux__
    char host[256] = "", line[320];
    gethostname(host, sizeof host - 1);
    FILE *f = fopen(list, "r");
    while (f && fgets(line, sizeof line, f)) {
        long pid;
        char node[256];
        if (sscanf(line, "%ld %255s", &pid, node) != 2 || pid <= 0 || strcmp(node, host) != 0 ||
            !ended(pid))
            continue;
        removed += sl_forget_runtime_registration(pid);
    }
    if (f)
        fclose(f);
#endif
    unlink(list);
    return removed;
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
