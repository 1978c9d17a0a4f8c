/* test_omp_leftovers.c - the files LLVM's OpenMP runtimes leave behind
 * (common/omp_leftovers.h), planted the way they appear: a
 * /tmp/tmpfile_XXXXXX mapped by a child process (as the host offload
 * plugin maps its device image), and a libomp registration named after a
 * pid. Each is removed for its own process only, and an image's name is
 * counted once, not again when the mapping shows it deleted. A process
 * that SIGTERM ends (an MPI rank mpirun stops) removes its own first and
 * still ends by that signal; one that SIGKILL ends has its own removed by
 * the process it noted itself for. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "omp_leftovers.h"

/* The name libomp registers process pid under. */
static void registration_path(long pid, char *path, size_t len)
{
    snprintf(path, len, "/dev/shm/__KMP_REGISTERED_LIB_%ld_%ld", pid, (long)getuid());
}

/* A registration file for pid (which need not run); 0, or -1. */
static int plant_registration(long pid, char *path, size_t len)
{
    registration_path(pid, path, len);
    FILE *f = fopen(path, "w");
    return f != NULL && fclose(f) == 0 ? 0 : -1;
}

/* A child that runs setup(arg), then waits to be ended; its pid once
 * setup returned 0, or -1. */
static pid_t child_after(int (*setup)(const char *), const char *arg)
{
    int ready[2];
    if (pipe(ready) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        char ok = setup(arg) == 0 ? 'y' : 'n';
        if (write(ready[1], &ok, 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char ok = 'n';
    if (pid > 0 && read(ready[0], &ok, 1) != 1)
        ok = 'n';
    close(ready[0]);
    close(ready[1]);
    return ok == 'y' ? pid : -1;
}

/* As the host offload plugin maps its device image. */
static int map_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    return fd >= 0 && mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) != MAP_FAILED ? 0 : -1;
}

static int register_self(void)
{
    char mine[96];
    return plant_registration(getpid(), mine, sizeof mine);
}

/* As an MPI rank: it ignored SIGHUP before (as under nohup). */
static int register_until_signalled(const char *unused)
{
    (void)unused;
    signal(SIGHUP, SIG_IGN);
    sl_forget_registration_when_signalled();
    return register_self();
}

static int register_noted(const char *list)
{
    sl_note_for_forgetting(list);
    return register_self();
}

static void device_image_of_a_child(void)
{
    char path[] = "/tmp/tmpfile_XXXXXX", other[] = "/tmp/tmpfile_XXXXXX";
    int fd = mkstemp(path), fd2 = mkstemp(other);
    CHECK(fd >= 0 && fd2 >= 0);
    if (fd < 0 || fd2 < 0)
        return;
    char page[4096] = { 1 };
    CHECK(write(fd, page, sizeof page) == (ssize_t)sizeof page);
    close(fd);
    close(fd2);
    pid_t pid = child_after(map_file, path);
    CHECK(pid > 0);
    if (pid > 0) {
        CHECK_EQ_LL(sl_forget_device_image_files(pid), 1);
        CHECK(access(path, F_OK) != 0);
        /* Gone: the mapping now says "(deleted)", and nothing is counted. */
        CHECK_EQ_LL(sl_forget_device_image_files(pid), 0);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    /* Nobody maps the other one: it is not this test's process's to remove. */
    CHECK_EQ_LL(sl_forget_device_image_files(0), 0);
    CHECK(access(other, F_OK) == 0);
    unlink(other);
    unlink(path);
}

static void registration_by_pid(void)
{
    char mine[96], theirs[96];
    long other = (long)getpid() + 1;
    registration_path((long)getpid(), mine, sizeof mine);
    registration_path(other, theirs, sizeof theirs);
    /* Only where /dev/shm is there and neither name is in use. */
    if (access("/dev/shm", W_OK) != 0 || access(mine, F_OK) == 0 || access(theirs, F_OK) == 0)
        return;
    FILE *a = fopen(mine, "w"), *b = fopen(theirs, "w");
    CHECK(a != NULL && b != NULL);
    if (a)
        fclose(a);
    if (b)
        fclose(b);
    sl_forget_runtime_registration(getpid());
    CHECK(access(mine, F_OK) != 0);
    CHECK(access(theirs, F_OK) == 0);
    unlink(theirs);
}

/* A child that registers itself, then waits for SIGTERM; it ignored
 * SIGHUP before (as under nohup), and still does. */
static void registration_of_a_terminated_child(void)
{
    if (access("/dev/shm", W_OK) != 0)
        return;
    pid_t pid = child_after(register_until_signalled, NULL);
    CHECK(pid > 0);
    if (pid <= 0)
        return;
    char theirs[96];
    registration_path((long)pid, theirs, sizeof theirs);
    CHECK(access(theirs, F_OK) == 0);
    int status = 0;
    kill(pid, SIGHUP);
    usleep(100 * 1000);
    CHECK(waitpid(pid, &status, WNOHANG) == 0);   /* SIGHUP: still ignored */
    kill(pid, SIGTERM);
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    CHECK(access(theirs, F_OK) != 0);
    unlink(theirs);
}

/* As an MPI rank that mpirun ends with SIGKILL: noted, killed (a zombie
 * still, not yet reaped), its registration removed by whoever named the
 * list; a noted process still running (this one) and another node's line
 * are left alone, and the list is removed. */
static void registration_of_a_noted_process(void)
{
    char list[] = "/tmp/speedlab-noted-XXXXXX", mine[96], theirs[96], far[96];
    int fd = mkstemp(list);
    if (access("/dev/shm", W_OK) != 0 || fd < 0)
        return;
    close(fd);
    unlink(list);   /* the first note makes it */
    pid_t pid = child_after(register_noted, list);
    CHECK(pid > 0);
    if (pid <= 0)
        return;
    registration_path((long)pid, theirs, sizeof theirs);
    pid_t gone = fork();   /* a pid that ran here, and no longer runs */
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);
    registration_path((long)getpid(), mine, sizeof mine);
    /* Planted where the runtime made none (GNU's). */
    int planted_mine = access(mine, F_OK) != 0 &&
                       plant_registration(getpid(), mine, sizeof mine) == 0;
    CHECK(plant_registration(gone, far, sizeof far) == 0);
    FILE *f = fopen(list, "a");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "%ld another-node\n", (long)gone);
        fclose(f);
    }
    sl_note_for_forgetting(list);
    kill(pid, SIGKILL);
    usleep(100 * 1000);
    CHECK_EQ_LL(sl_forget_noted(list), 1);
    CHECK(access(theirs, F_OK) != 0);
    CHECK(access(mine, F_OK) == 0);
    CHECK(access(far, F_OK) == 0);
    CHECK(access(list, F_OK) != 0);
    waitpid(pid, NULL, 0);
    unlink(far);
    if (planted_mine)
        unlink(mine);
}

int main(void)
{
#ifdef __linux__
    device_image_of_a_child();
    registration_by_pid();
    registration_of_a_terminated_child();
    registration_of_a_noted_process();
#endif
    return CHECK_DONE();
}
