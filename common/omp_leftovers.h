/* omp_leftovers.h - files LLVM's OpenMP runtimes leave behind a process,
 * removed by the process itself (each only its own, never another's).
 * Also compiled into the offload probe (cmake/probe_offload), which has
 * no other code of the kit's. */
#ifndef SPEEDLAB_OMP_LEFTOVERS_H
#define SPEEDLAB_OMP_LEFTOVERS_H

/* LLVM 19's host offload plugin writes each device image it loads to
 * /tmp/tmpfile_XXXXXX, dlopens it and never removes it: every process
 * that runs a target region on the host offload device left half a
 * megabyte in /tmp (about 190 files after a day of make test on the
 * development VM). Once mapped, an image needs no name: this removes the
 * names of those process pid (0: this one) has mapped. Returns how many
 * it removed (0 before its first target region, once they are gone, and
 * where there is no /proc). */
int sl_forget_device_image_files(long pid);

/* LLVM's libomp registers each process in /dev/shm/__KMP_REGISTERED_LIB_
 * <pid>_<uid> and removes it as the library shuts down, which _exit(),
 * a crash and SIGKILL skip: the runner's validating children left 7 a run
 * (837 in /dev/shm after a day of tests). Removes process pid's: one's
 * own before _exit(), or a child's once reaped. Nothing where the runtime
 * is GNU's or the file is not there. Returns 1 when it removed one. */
int sl_forget_runtime_registration(long pid);

/* For processes that are not the caller's children and that something
 * else can end with SIGKILL (MPI ranks: Open MPI 4.1's mpirun, stopped,
 * sent one rank SIGKILL without the SIGTERM it handles, in 2 of 7 tries):
 * each process appends its pid and node to the file list; once they have
 * ended, the one that named list calls sl_forget_noted, which removes the
 * registration of each noted process of this node that has ended (one
 * still running after a 2 s wait is left alone, as is another node's),
 * then list. Returns how many registrations it removed. */
void sl_note_for_forgetting(const char *list);
int sl_forget_noted(const char *list);

/* For a process that a signal ends before its runtime shuts down (an MPI
 * rank, which mpirun stops with SIGTERM when a job times out, is
 * interrupted or loses a rank): on SIGTERM, SIGINT or SIGHUP it removes
 * its own registration, then ends by that signal as it would have. A
 * signal the process ignores stays ignored (nohup's SIGHUP). Call it after
 * the start-up of whatever sets handlers of its own (MPI_Init), so that
 * it is not replaced. */
void sl_forget_registration_when_signalled(void);

/* The handler it installs, for a program's own "stop at once" (a second
 * Ctrl-C, interrupt.h): this process's registration removed, then the
 * end by sig. Names the file only after the call above. */
void sl_forget_registration_and_end(int sig);

#endif
