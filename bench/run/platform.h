/* platform.h - everything the kit asks the operating system, in one place:
 * this program's own file (to start itself again), the CPUs it may run
 * on, other processes' CPU time, the CPU's name and the memory left.
 *
 * Two implementations of one file (platform.c): Linux reads /proc and uses
 * sched_{get,set}affinity; the POSIX fallback (any other system, or Linux
 * with SL_PLATFORM_POSIX defined, which `make test` builds and tests) uses
 * argv[0], sysconf and getrlimit, and answers "not known" for what it
 * cannot measure, never a guess. Callers must treat every "not known".
 */
#ifndef SPEEDLAB_PLATFORM_H
#define SPEEDLAB_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* The most CPUs an affinity mask here can name (glibc's CPU_SETSIZE). */
#define SL_MAX_CPUS 1024

/* "linux" or "POSIX fallback": which implementation this program has. */
const char *sl_platform_name(void);

/* This program's file, to execute it again: /proc/self/exe's target on
 * Linux; elsewhere argv0 made absolute (through PATH when it has no '/').
 * Writes into out; returns 0, or -1 when it cannot be found. Call it
 * before fork: it allocates nothing but may read the file system. */
int sl_self_exe(const char *argv0, char *out, size_t len);

/* Pin threads unless the user chose a binding (OMP_PROC_BIND or
 * OMP_PLACES set): unpinned threads migrate and scaling figures wobble.
 * The OpenMP runtime reads its environment when it starts, before main,
 * so the program starts itself again (argv) with the binding set; call it
 * before any OpenMP code runs. Returns only when that did not happen (a
 * bad OpenMP environment, which the caller reports; no file to execute):
 * the run goes on unbound, and the context records the binding. */
void sl_bind_threads_restart(char **argv);

/* The CPUs this thread may run on, as on[i] = 1 for i < n; returns how
 * many, or 0 when the system cannot say (then on[] is all zero). */
int sl_affinity_get(unsigned char *on, int n);

/* Restrict this thread to the CPUs with on[i] set (i < n). Returns 0, or
 * -1 where the system has no affinity call. Async-signal-safe on Linux,
 * so a child may call it between fork and exec. */
int sl_affinity_set(const unsigned char *on, int n);

/* CPU-seconds every process used so far (busy time: user, nice, system,
 * irq, softirq and steal), over all CPUs (on == NULL) or over the CPUs
 * with on[i] set (i < n); -1 where the system does not count it. */
double sl_busy_cpu_seconds(const unsigned char *on, int n);

/* Each thread of this process and the CPU-seconds it has run so far: up
 * to n of them, into tid[] and cpu[]. Returns how many, or -1 where the
 * system does not say (the POSIX fallback). */
int sl_thread_cpu_seconds(int *tid, double *cpu, int n);

/* Where sl_busy_cpu_seconds reads, for the run's context ("/proc/stat"),
 * or why it cannot. */
const char *sl_busy_source(void);

/* The CPU's model name ("unknown" when the system does not say). */
void sl_cpu_model(char *out, size_t len);

/* Why this program's CPU is emulated ("an aarch64 program on an x86-64 CPU:
 * emulated, e.g. by qemu-user"), or NULL. Linux: qemu-user passes the
 * host's /proc/cpuinfo through, so a non-x86 build reading x86 fields
 * there is not on its own CPU. Times taken there say nothing about the
 * machine the build is for. */
const char *sl_emulated(void);

/* Hybrid machines (performance and efficiency cores, big.LITTLE): sets
 * fast[i] = 1 (i < n) for the CPUs of the fastest kind and returns how many
 * there are, with what told them apart in how ("cpu_capacity 1024 against
 * 512"); returns 0 where every CPU is alike or the system does not say.
 * Linux reads sysfs under $SPEEDLAB_SYSFS_ROOT (default /sys, which tests
 * replace with a planted tree): Intel's devices/cpu_core and cpu_atom, then
 * each CPU's cpu_capacity, then cpufreq's cpuinfo_max_freq. macOS's
 * hw.perflevel0 is read where it exists (never run yet). */
int sl_fast_cpus(unsigned char *fast, int n, char *how, size_t len);

/* A CPU quota on this process (cgroup v2's cpu.max, under
 * $SPEEDLAB_SYSFS_ROOT/fs/cgroup/ at the process's own cgroup), in cores
 * (1.5: one and a half cores' time per period); 0 when there is none or
 * the system does not say. */
double sl_cpu_quota(void);

/* Hardware threads per core (SMT, hyper-threading) from CPU 0's
 * thread_siblings_list under $SPEEDLAB_SYSFS_ROOT; 1 when it has none, 0
 * when the system does not say. */
int sl_smt_threads(void);

/* What runs this system, in words: "WSL 2 (Windows)", "a virtual machine
 * (the CPU says hypervisor)", or NULL when nothing says so. And a
 * container ("a container (podman)"), or NULL. */
const char *sl_virtualised(void);
const char *sl_container(void);

/* Memory the system could still give (Linux: MemAvailable), in bytes;
 * -1 when unknown. */
int64_t sl_memory_free(void);

/* This process's address space in bytes; -1 when unknown. */
int64_t sl_address_space_used(void);

#endif
