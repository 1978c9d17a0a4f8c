/* platform.c - the kit's questions to the operating system (platform.h):
 * Linux's answers first, then the POSIX fallback's. The fallback is what a
 * Mac compiles; `make test` also builds it on Linux (SL_PLATFORM_POSIX)
 * and runs the bench's and the runner's tests on it. The parts only macOS
 * has (__APPLE__) have not run anywhere yet.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#elif defined(__APPLE__)
#define _DARWIN_C_SOURCE
#endif
#include "platform.h"

#include "args.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__) && !defined(SL_PLATFORM_POSIX)
#define SL_PLATFORM_LINUX 1
#include <dirent.h>
#include <sched.h>
#else
#define SL_PLATFORM_LINUX 0
#endif
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <sys/sysctl.h>
#endif

/* What this program was built for, as sl_emulated names it. */
#if defined(__aarch64__)
#define SL_BUILD_ARCH "aarch64"
#elif defined(__arm__)
#define SL_BUILD_ARCH "ARM"
#else
#define SL_BUILD_ARCH "non-x86"
#endif

#if SL_PLATFORM_LINUX

const char *sl_platform_name(void) { return "linux"; }

int sl_self_exe(const char *argv0, char *out, size_t len)
{
    (void)argv0;
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return -1;
    out[n] = '\0';
    return 0;
}

int sl_affinity_get(unsigned char *on, int n)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    memset(on, 0, (size_t)n);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    int count = 0;
    for (int i = 0; i < n && i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set)) {
            on[i] = 1;
            count++;
        }
    return count;
}

int sl_affinity_set(const unsigned char *on, int n)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < n && i < CPU_SETSIZE; i++)
        if (on[i])
            CPU_SET(i, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
}

/* /proc/stat's "cpu" lines: user nice system idle iowait irq softirq
 * steal, in ticks (guest time is already inside user). */
double sl_busy_cpu_seconds(const unsigned char *on, int n)
{
    static long ticks_per_second;
    if (ticks_per_second == 0)
        ticks_per_second = sysconf(_SC_CLK_TCK);
    FILE *f = fopen("/proc/stat", "r");
    if (f == NULL || ticks_per_second <= 0) {
        if (f)
            fclose(f);
        return -1.0;
    }
    char line[512];
    unsigned long long sum = 0;
    int seen = 0;
    while (fgets(line, sizeof line, f) != NULL && strncmp(line, "cpu", 3) == 0) {
        int cpu = -1;
        unsigned long long user, nice, system, idle, iowait, irq, softirq, steal = 0;
        const char *fields = line + 3;
        if (on != NULL && (*fields < '0' || *fields > '9' || sscanf(fields, "%d", &cpu) != 1))
            continue;  /* the all-CPUs line */
        if (on == NULL && *fields != ' ')
            break;     /* past the all-CPUs line */
        fields += strcspn(fields, " ");
        if (sscanf(fields, "%llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                   &idle, &iowait, &irq, &softirq, &steal) < 7 ||
            (on != NULL && (cpu < 0 || cpu >= n || !on[cpu])))
            continue;
        sum += user + nice + system + irq + softirq + steal;
        seen++;
        if (on == NULL)
            break;
    }
    fclose(f);
    return seen ? (double)sum / (double)ticks_per_second : -1.0;
}

/* /proc/self/task/<tid>/schedstat: the first field is the nanoseconds the
 * thread has run (exact, unlike /proc/stat's ticks). */
int sl_thread_cpu_seconds(int *tid, double *cpu, int n)
{
    DIR *dir = opendir("/proc/self/task");
    if (dir == NULL)
        return -1;
    int count = 0;
    struct dirent *e;
    while (count < n && (e = readdir(dir)) != NULL) {
        char path[64];
        unsigned long long ns;
        if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
            snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", e->d_name) >=
                (int)sizeof path)
            continue;
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;  /* the thread ended meanwhile */
        if (fscanf(f, "%llu", &ns) == 1) {
            tid[count] = atoi(e->d_name);
            cpu[count++] = 1e-9 * (double)ns;
        }
        fclose(f);
    }
    closedir(dir);
    return count;
}

const char *sl_busy_source(void) { return "/proc/stat"; }

const char *sl_emulated(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return NULL;
#else
    /* The kernel names the CPU's type in sysfs, which qemu-user passes
     * through ("cpu:type:x86,..."); its /proc/cpuinfo is the host's up to
     * qemu 7 (a vendor_id line) but an invented ARM one from qemu 8 on
     * (Debian 13's qemu 10). */
    char line[512];
    int x86 = 0;
    FILE *f = fopen("/sys/devices/system/cpu/modalias", "r");
    if (f != NULL) {
        x86 = fgets(line, sizeof line, f) != NULL && strncmp(line, "cpu:type:x86", 12) == 0;
        fclose(f);
    }
    if (!x86 && (f = fopen("/proc/cpuinfo", "r")) != NULL) {
        while (!x86 && fgets(line, sizeof line, f))
            x86 = strncmp(line, "vendor_id", 9) == 0;
        fclose(f);
    }
    return x86 ? "an " SL_BUILD_ARCH " program on an x86-64 CPU: emulated (qemu-user)" : NULL;
#endif
}

void sl_cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon += 1 + (colon[1] == ' ');
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(out, len, "%s", colon);
            }
            break;
        }
    }
    fclose(f);
}

/* sysfs, or the planted tree a test names. */
static const char *sysfs_root(void)
{
    const char *root = getenv("SPEEDLAB_SYSFS_ROOT");
    return root && *root ? root : "/sys";
}

/* The first line of a small file into buf; 0, or -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    int ok = f && fgets(buf, (int)len, f) != NULL;
    if (f)
        fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* A CPU list ("0-3,8,10-11") into on[] (i < n); how many, or -1. */
static int parse_cpulist(const char *text, unsigned char *on, int n)
{
    int count = 0;
    memset(on, 0, (size_t)n);
    while (*text) {
        char *end;
        long a = strtol(text, &end, 10), b = a;
        if (end == text || a < 0)
            return -1;
        if (*end == '-') {
            text = end + 1;
            b = strtol(text, &end, 10);
            if (end == text || b < a)
                return -1;
        }
        for (long i = a; i <= b && i < n; i++) {
            count += !on[i];
            on[i] = 1;
        }
        text = end + (*end == ',');
        if (*end != ',' && *end != '\0')
            return -1;
    }
    return count;
}

int sl_fast_cpus(unsigned char *fast, int n, char *how, size_t len)
{
    char path[PATH_MAX], line[4096];
    const char *root = sysfs_root();
    memset(fast, 0, (size_t)n);
    how[0] = '\0';
    /* Intel's hybrid parts list their P-cores and E-cores apart. */
    snprintf(path, sizeof path, "%s/devices/cpu_atom/cpus", root);
    if (read_line(path, line, sizeof line) == 0 && line[0]) {
        snprintf(path, sizeof path, "%s/devices/cpu_core/cpus", root);
        int k = read_line(path, line, sizeof line) == 0 ? parse_cpulist(line, fast, n) : -1;
        if (k > 0) {
            snprintf(how, len, "Intel's cpu_core (P-cores) and cpu_atom (E-cores) lists");
            return k;
        }
        memset(fast, 0, (size_t)n);
    }
    /* Otherwise one number per CPU that differs between the kinds. */
    static const char *const files[] = { "cpu_capacity", "cpufreq/cpuinfo_max_freq" };
    static long long value[SL_MAX_CPUS];
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    if (conf > 0 && conf < n)
        n = (int)conf;  /* no cpuN folder to look for past the CPUs there are */
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        long long hi = -1, lo = -1;
        int cpus = 0;
        for (int i = 0; i < n && i < SL_MAX_CPUS; i++) {
            snprintf(path, sizeof path, "%s/devices/system/cpu/cpu%d/%s", root, i, files[f]);
            value[i] = -1;
            if (read_line(path, line, sizeof line) != 0 || sscanf(line, "%lld", &value[i]) != 1)
                continue;
            cpus++;
            hi = value[i] > hi ? value[i] : hi;
            lo = lo < 0 || value[i] < lo ? value[i] : lo;
        }
        if (cpus < 2 || lo == hi)
            continue;
        int k = 0;
        for (int i = 0; i < n && i < SL_MAX_CPUS; i++)
            if (value[i] == hi) {
                fast[i] = 1;
                k++;
            }
        snprintf(how, len, "%s %lld against %lld", files[f], hi, lo);
        return k;
    }
    return 0;
}

/* The tightest quota on the cgroup at rel or one above it: cgroup v2's
 * cpu.max under fs/cgroup (v1: false), or v1's cpu.cfs_quota_us and
 * cpu.cfs_period_us under fs/cgroup/<controllers> (the "cpu" or
 * "cpu,cpuacct" mount). In cores; 0 when none says. */
static double quota_above(char *rel, const char *mount, int v1)
{
    char line[128], path[PATH_MAX];
    double best = 0.0;
    for (;;) {
        long long quota = 0, period = 0;
        const char *at = strcmp(rel, "/") == 0 ? "" : rel;
        if (!v1) {
            snprintf(path, sizeof path, "%s/fs/cgroup%s/cpu.max", sysfs_root(), at);
            if (read_line(path, line, sizeof line) != 0 ||
                sscanf(line, "%lld %lld", &quota, &period) != 2)
                quota = 0;
        } else {
            snprintf(path, sizeof path, "%s/fs/cgroup/%s%s/cpu.cfs_quota_us", sysfs_root(),
                     mount, at);
            if (read_line(path, line, sizeof line) == 0 && sscanf(line, "%lld", &quota) == 1) {
                snprintf(path, sizeof path, "%s/fs/cgroup/%s%s/cpu.cfs_period_us",
                         sysfs_root(), mount, at);
                if (read_line(path, line, sizeof line) != 0 || sscanf(line, "%lld", &period) != 1)
                    quota = 0;
            }
        }
        if (quota > 0 && period > 0) {
            double cores = (double)quota / (double)period;
            best = best == 0.0 || cores < best ? cores : best;
        }
        char *slash = strrchr(rel, '/');
        if (slash == NULL || rel[0] == '\0' || strcmp(rel, "/") == 0)
            break;
        if (slash == rel)
            snprintf(rel, 2, "/");
        else
            *slash = '\0';
    }
    return best;
}

double sl_cpu_quota(void)
{
    char line[4096], rel[3584] = "", v1rel[3584] = "";
    FILE *f = fopen("/proc/self/cgroup", "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *controllers = strchr(line, ':'), *at = controllers ? strchr(controllers + 1, ':') : NULL;
        if (strncmp(line, "0::", 3) == 0) {            /* the v2 hierarchy */
            snprintf(rel, sizeof rel, "%.3000s", line + 3);
        } else if (at) {
            /* A v1 hierarchy, "4:cpu,cpuacct:/path": the one with cpu. */
            char list[256];
            snprintf(list, sizeof list, ",%.*s,", (int)(at - controllers - 1) & 0xff,
                     controllers + 1);
            if (strstr(list, ",cpu,") != NULL)
                snprintf(v1rel, sizeof v1rel, "%.3000s", at + 1);
        }
    }
    if (f)
        fclose(f);
    double v2 = rel[0] ? quota_above(rel, "", 0) : 0.0;
    double v1 = 0.0;
    if (v1rel[0]) {
        /* Its mount: fs/cgroup/cpu, or the combined fs/cgroup/cpu,cpuacct. */
        static const char *const mounts[] = { "cpu", "cpu,cpuacct", "cpuacct,cpu" };
        for (size_t m = 0; m < sizeof mounts / sizeof mounts[0] && v1 == 0.0; m++) {
            char copy[3584];
            snprintf(copy, sizeof copy, "%s", v1rel);
            v1 = quota_above(copy, mounts[m], 1);
        }
    }
    return v1 > 0.0 && (v2 == 0.0 || v1 < v2) ? v1 : v2;
}

int sl_smt_threads(void)
{
    char path[PATH_MAX], line[4096];
    unsigned char on[SL_MAX_CPUS];
    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu0/topology/thread_siblings_list",
             sysfs_root());
    int n = read_line(path, line, sizeof line) == 0 ? parse_cpulist(line, on, SL_MAX_CPUS) : -1;
    return n > 0 ? n : 0;
}

const char *sl_virtualised(void)
{
    char line[4096];
    FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
    int wsl = f && fgets(line, sizeof line, f) &&
              (strstr(line, "microsoft") || strstr(line, "Microsoft") || strstr(line, "WSL"));
    if (f)
        fclose(f);
    if (wsl)
        return "WSL 2 (Linux in a Windows virtual machine)";
    f = fopen("/proc/cpuinfo", "r");
    int hv = 0;
    while (f && !hv && fgets(line, sizeof line, f))
        hv = strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor") != NULL;
    if (f)
        fclose(f);
    return hv ? "a virtual machine (the CPU's flags say hypervisor)" : NULL;
}

const char *sl_container(void)
{
    const char *kind = getenv("container");
    if (access("/run/.containerenv", F_OK) == 0)
        return "a container (podman)";
    if (access("/.dockerenv", F_OK) == 0)
        return "a container (Docker)";
    if (kind && *kind)
        return "a container (the environment says container)";
    return NULL;
}

int64_t sl_memory_free(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib < 0 ? -1 : (int64_t)kib * 1024;
}

int64_t sl_address_space_used(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long long pages = -1;
    if (f) {
        if (fscanf(f, "%lld", &pages) != 1)
            pages = -1;
        fclose(f);
    }
    long page = sysconf(_SC_PAGESIZE);
    return pages < 0 || page <= 0 ? -1 : (int64_t)pages * page;
}

#else /* the POSIX fallback */

const char *sl_platform_name(void) { return "POSIX fallback"; }

/* argv0 as a path: absolute, relative to the working folder, or found in
 * PATH like the shell that started us found it. */
int sl_self_exe(const char *argv0, char *out, size_t len)
{
    char found[PATH_MAX], real[PATH_MAX];
#if defined(__APPLE__)
    uint32_t size = sizeof found;
    if (_NSGetExecutablePath(found, &size) == 0 && realpath(found, real) != NULL &&
        strlen(real) < len) {
        snprintf(out, len, "%s", real);
        return 0;
    }
#endif
    if (argv0 == NULL || argv0[0] == '\0')
        return -1;
    if (strchr(argv0, '/') != NULL) {
        snprintf(found, sizeof found, "%s", argv0);
    } else {
        const char *path = getenv("PATH");
        found[0] = '\0';
        while (path && *path) {
            size_t dir = strcspn(path, ":");
            int n = snprintf(found, sizeof found, "%.*s/%s", (int)dir, dir ? path : ".", argv0);
            if (n > 0 && (size_t)n < sizeof found && access(found, X_OK) == 0)
                break;
            found[0] = '\0';
            path += dir + (path[dir] == ':');
        }
    }
    if (found[0] == '\0' || realpath(found, real) == NULL || strlen(real) >= len)
        return -1;
    snprintf(out, len, "%s", real);
    return 0;
}

int sl_affinity_get(unsigned char *on, int n)
{
    memset(on, 0, (size_t)n);
    return 0;
}

int sl_affinity_set(const unsigned char *on, int n)
{
    (void)on;
    (void)n;
    return -1;
}

double sl_busy_cpu_seconds(const unsigned char *on, int n)
{
    (void)on;
    (void)n;
    return -1.0;
}

int sl_thread_cpu_seconds(int *tid, double *cpu, int n)
{
    (void)tid;
    (void)cpu;
    (void)n;
    return -1;
}

const char *sl_busy_source(void)
{
    return "the POSIX fallback reads no per-CPU busy time";
}

const char *sl_emulated(void) { return NULL; }

void sl_cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
#if defined(__APPLE__)
    size_t size = len;
    if (sysctlbyname("machdep.cpu.brand_string", out, &size, NULL, 0) != 0)
        snprintf(out, len, "unknown");
#endif
}

int sl_fast_cpus(unsigned char *fast, int n, char *how, size_t len)
{
    memset(fast, 0, (size_t)n);
    how[0] = '\0';
    (void)len;
#if defined(__APPLE__)
    /* Apple's performance cores are perflevel0; they come first. */
    int levels = 0, perf = 0;
    size_t size = sizeof levels;
    if (sysctlbyname("hw.nperflevels", &levels, &size, NULL, 0) == 0 && levels > 1 &&
        (size = sizeof perf, sysctlbyname("hw.perflevel0.logicalcpu", &perf, &size, NULL, 0)) == 0 &&
        perf > 0) {
        for (int i = 0; i < perf && i < n; i++)
            fast[i] = 1;
        snprintf(how, len, "sysctl hw.perflevel0 (performance cores)");
        return perf < n ? perf : n;
    }
#endif
    return 0;
}

int64_t sl_memory_free(void) { return -1; }

int64_t sl_address_space_used(void) { return -1; }

double sl_cpu_quota(void) { return 0.0; }

int sl_smt_threads(void) { return 0; }

const char *sl_virtualised(void) { return NULL; }

const char *sl_container(void) { return NULL; }

#endif

/* Both platforms: the binding, through sl_self_exe. */
void sl_bind_threads_restart(char **argv)
{
    char why[256], self[SL_PATH_BUF];
    if (getenv("OMP_PROC_BIND") || getenv("OMP_PLACES") ||
        sl_check_omp_env(why, sizeof why) != 0 ||
        sl_self_exe(argv[0], self, sizeof self) != 0 ||
        setenv("OMP_PROC_BIND", "close", 1) != 0 || setenv("OMP_PLACES", "cores", 1) != 0)
        return;
    execv(self, argv);
    unsetenv("OMP_PROC_BIND");
    unsetenv("OMP_PLACES");
}
