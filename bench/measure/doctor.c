/* doctor.c - what this machine is and what it hides (doctor.h). */
#define _DEFAULT_SOURCE
#include "doctor.h"

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "noise.h"
#include "platform.h"
#include "speedlab_config.h"

typedef struct findings { sl_finding *f; size_t n, cap; } findings;

static void say(findings *all, int hides, const char *topic, const char *means,
                const char *fmt, ...)
{
    if (all->n == all->cap)
        return;
    sl_finding *f = &all->f[all->n++];
    snprintf(f->topic, sizeof f->topic, "%s", topic);
    snprintf(f->means, sizeof f->means, "%s", means ? means : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->found, sizeof f->found, fmt, ap);
    va_end(ap);
    f->hides = hides;
}

/* The cores: the affinity mask, a CPU quota, SMT, hybrid cores. */
static void cores(findings *all)
{
    int procs = omp_get_num_procs(), online = (int)sysconf(_SC_NPROCESSORS_ONLN);
    char means[320];
    snprintf(means, sizeof means, "the runs use %d threads at most by default; threads "
             "beyond that share CPUs", procs);
    if (procs < online)
        say(all, 1, "cores", means, "%d of the machine's %d CPUs for this process (an "
            "affinity mask: taskset, a batch system)", procs, online);
    else
        say(all, 0, "cores", NULL, "%d CPUs, all of them for this process", procs);
    double quota = sl_cpu_quota();
    if (quota > 0.0) {
        snprintf(means, sizeof means, "the runs count %.0f cores (their default threads, the "
                 "ceilings); more threads share that time, which reads as poor scaling",
                 ceil(quota));
        say(all, quota < procs, "CPU quota", means, "%.2g cores' time (cgroup quota)", quota);
    } else {
        say(all, 0, "CPU quota", NULL, "none found");
    }
    int smt = sl_smt_threads();
    if (smt > 1) {
        snprintf(means, sizeof means, "a thread per hardware thread shares a core's vector units "
                 "with its sibling: expect little from threads beyond %d", procs / smt);
        say(all, 1, "SMT", means, "%d hardware threads per core", smt);
    } else if (smt == 1) {
        say(all, 0, "SMT", NULL, "1 hardware thread per core");
    } else {
        say(all, 0, "SMT", NULL, "not known (the system does not say)");
    }
    unsigned char fast[SL_MAX_CPUS];
    char how[160];
    int k = sl_fast_cpus(fast, SL_MAX_CPUS, how, sizeof how);
    if (k > 0)
        say(all, 1, "hybrid cores",
            "threads on the slower cores finish later: a static schedule waits for them, and "
            "a speedup per thread is not one number", "%d fast CPUs (%s)", k, how);
}

static void system_kind(findings *all)
{
    char model[160];
    sl_cpu_model(model, sizeof model);
    say(all, 0, "CPU", NULL, "%s, %s, %d doubles per vector", model, SPEEDLAB_SIMD_ISA,
        SPEEDLAB_SIMD_LANES);
    const char *emulated = sl_emulated();
    if (emulated)
        say(all, 1, "emulation", "every variant is checked, but nothing is timed: an "
            "emulator's times say nothing of the machine", "%s", emulated);
    const char *virt = sl_virtualised();
    if (virt)
        say(all, 1, "virtualised", "no hardware counters (perf stat reads <not supported>); "
            "timings hold, but other guests may share the cores", "%s", virt);
    const char *box = sl_container();
    if (box)
        say(all, 0, "container", "timings hold; the cores and memory are the container's",
            "%s", box);
    say(all, 0, "platform", NULL, "%s", sl_platform_name());
}

static void tools(findings *all, const char *path, const sl_doctor_build *b)
{
    char cmd[200], means[320];
    say(all, 0, "compiler", NULL, "%s (%s)", SPEEDLAB_COMPILER, SPEEDLAB_KERNEL_FLAGS);
    int devices = omp_get_num_devices();
    say(all, devices == 0, "GPU", devices == 0 ? "the gpu variants run on the host and say so "
        "(host fallback): CPU figures, not GPU ones" : NULL, "%d offload device(s); offload "
        "built for %s; CUDA C %s", devices, SPEEDLAB_OFFLOAD_TARGET,
        SPEEDLAB_HAVE_CUDA ? "built" : "not built");
    if (!sl_on_path(path, "gnuplot")) {
        sl_install_hint(cmd, sizeof cmd, "gnuplot-nox", "gnuplot");
        snprintf(means, sizeof means, "runs write every figure's data but draw none; to get "
                 "it: %s", cmd);
        say(all, 1, "gnuplot", means, "missing");
    }
    if (!b->room) {
        sl_install_hint(cmd, sizeof cmd, "libmicrohttpd-dev libjansson-dev "
                          "libcurl4-openssl-dev", "libmicrohttpd jansson curl");
        snprintf(means, sizeof means, "no make room, and lessons cannot join one; to get it: "
                 "%s, then make", cmd);
        say(all, 0, "room", means, "not built");
    }
    if (!b->mpi) {
        sl_install_hint(cmd, sizeof cmd, "openmpi-bin libopenmpi-dev", "openmpi");
        snprintf(means, sizeof means, "no lesson 6 (make mpi); to get it: %s, then make", cmd);
        say(all, 0, "MPI", means, "not built");
    }
}

/* How noisy the host is now (noise.h), in a second: what a shared
 * host's bursts do to the numbers, which no process counter shows. */
static void noise(findings *all)
{
    sl_noise n;
    char found[512], means[320];
    sl_noise_measure(&n, 1.0);
    if (n.calls == 0) {
        say(all, 0, "host noise", NULL, "not measured (no memory for the probe)");
        return;
    }
    snprintf(found, sizeof found, "up to %.0f%% slower on one core, %.0f%% on %d at once; "
             "calls 0.5 s apart differ by %.1f%% and %.1f%%", 100.0 * n.slowest,
             100.0 * n.slowest_all, n.cores, 100.0 * n.pair, 100.0 * n.pair_all);
    snprintf(means, sizeof means, "a speedup from 8 pairs of repetitions is good to about "
             "\u00b1%.1f%% on one core and \u00b1%.1f%% on %d; the bench says it again, "
             "measured, before it times", 100.0 * sl_noise_precision(&n, 8, 0),
             100.0 * sl_noise_precision(&n, 8, 1), n.cores);
    say(all, n.slowest_all > 0.1 || n.pair_all > 0.02, "host noise", means, "%s", found);
}

size_t sl_doctor(sl_finding *out, size_t cap, const char *path, const sl_doctor_build *b)
{
    findings all = { out, 0, cap };
    system_kind(&all);
    cores(&all);
    noise(&all);
    tools(&all, path, b);
    return all.n;
}
