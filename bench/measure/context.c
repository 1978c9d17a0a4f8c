/* context.c - collect the run context (context.h). Every value is read from
 * the build (speedlab_config.h), the OpenMP runtime or the OS at run time. */
#define _DEFAULT_SOURCE
#include "context.h"

#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu_info.h"
#include "platform.h"
#include "quiet.h"
#include "speedlab_config.h"

static void put(sl_context *ctx, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void put(sl_context *ctx, const char *key, const char *fmt, ...)
{
    if (ctx->count == SL_CONTEXT_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    snprintf(ctx->key[ctx->count], sizeof ctx->key[0], "%s", key);
    vsnprintf(ctx->value[ctx->count], sizeof ctx->value[0], fmt, ap);
    va_end(ap);
    ctx->count++;
}

const char *sl_context_get(const sl_context *ctx, const char *key)
{
    for (int i = 0; i < ctx->count; i++)
        if (strcmp(ctx->key[i], key) == 0)
            return ctx->value[i];
    return "";
}

/* Which CPUs are the fast ones on a hybrid machine (platform.h):
 * "hybrid_cores" says it in words, "fast_cores" counts them (0: every CPU
 * alike, or the system does not say). The scaling figure marks the count. */
static void hybrid_cores(sl_context *ctx)
{
    static unsigned char fast[SL_MAX_CPUS];
    char how[160], list[256] = "";
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    int n = conf > 0 && conf < SL_MAX_CPUS ? (int)conf : SL_MAX_CPUS;
    int k = sl_fast_cpus(fast, n, how, sizeof how);
    put(ctx, "fast_cores", "%d", k);
    if (k == 0) {
        put(ctx, "hybrid_cores", "no: every CPU alike, or the system does not say");
        return;
    }
    /* The fast CPUs as ranges: "0-3,8". */
    for (int i = 0; i < n; i++) {
        if (!fast[i] || (i > 0 && fast[i - 1]))
            continue;
        int j = i;
        while (j + 1 < n && fast[j + 1])
            j++;
        size_t used = strlen(list);
        if (j > i)
            snprintf(list + used, sizeof list - used, "%s%d-%d", used ? "," : "", i, j);
        else
            snprintf(list + used, sizeof list - used, "%s%d", used ? "," : "", i);
    }
    put(ctx, "hybrid_cores", "%d fast CPU(s) (%s) of %d, told apart by %s", k, list, n, how);
}

/* _OPENMP is the date of the spec the compiler implements. */
static const char *openmp_version(int date)
{
    if (date >= 202111) return "5.2";
    if (date >= 202011) return "5.1";
    if (date >= 201811) return "5.0";
    if (date >= 201511) return "4.5";
    if (date >= 201307) return "4.0";
    return "3.1 or older";
}

static const char *bind_name(omp_proc_bind_t b)
{
    switch (b) {
    case omp_proc_bind_false: return "false";
    case omp_proc_bind_true: return "true";
    case omp_proc_bind_master: return "primary";
    case omp_proc_bind_close: return "close";
    case omp_proc_bind_spread: return "spread";
    }
    return "unknown";
}

/* Join the distinct places where the suite's gpu variants ran. */
static void gpu_where(const sl_suite *s, char *out, size_t len)
{
    int seen[3] = { 0, 0, 0 }, any = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if ((c->variant->flags & SL_USES_GPU) && c->outcome.work > 0)
            seen[c->outcome.where] = 1;
    }
    for (int w = 0; w < 3; w++)
        if (seen[w]) {
            snprintf(out + strlen(out), len - strlen(out), "%s%s", any ? ", " : "",
                     sl_where_name((sl_where)w));
            any = 1;
        }
    if (!any)
        snprintf(out, len, "not run");
}

/* The SLURM allocation this run is part of, or "not a SLURM job". */
static void slurm_job(char *out, size_t len)
{
    const char *job = getenv("SLURM_JOB_ID"), *node = getenv("SLURMD_NODENAME");
    const char *cpus = getenv("SLURM_CPUS_PER_TASK");
    if (cpus == NULL)
        cpus = getenv("SLURM_CPUS_ON_NODE");
    if (job == NULL) {
        snprintf(out, len, "not a SLURM job");
        return;
    }
    snprintf(out, len, "job %s on node %s, %s CPUs granted", job, node ? node : "unknown",
             cpus ? cpus : "unknown");
}

int sl_slurm_cpu_warning(char *out, size_t len)
{
    const char *cpus = getenv("SLURM_CPUS_PER_TASK");
    int mask = sl_cores_available();
    char *end;
    long want = cpus ? strtol(cpus, &end, 10) : 0;
    if (cpus == NULL || *end != '\0' || mask <= 0 || want <= mask)
        return 0;
    snprintf(out, len, "SLURM_CPUS_PER_TASK=%ld, but this process may use %d CPU(s) (its "
             "affinity mask): every thread count above %d shares CPUs. Run it with srun "
             "--cpus-per-task=%ld, or export SRUN_CPUS_PER_TASK=%ld before srun (Slurm 22.05 "
             "and later do not pass --cpus-per-task on to srun)", want, mask, mask, want, want);
    return 1;
}

void sl_context_collect(sl_context *ctx, const sl_suite *s, const int *threads,
                        int nthreads)
{
    char buf[320];
    memset(ctx, 0, sizeof *ctx);

    put(ctx, "speedlab_version", "%s", SPEEDLAB_VERSION);
    put(ctx, "compiler", "%s", SPEEDLAB_COMPILER);
    put(ctx, "kernel_flags", "%s", SPEEDLAB_KERNEL_FLAGS);
    put(ctx, "scalar_extra_flags", "%s", SPEEDLAB_NOVEC_FLAGS);
    put(ctx, "build_type", "%s", SPEEDLAB_BUILD_TYPE);
    put(ctx, "openmp_version", "%s (_OPENMP %d)", openmp_version(_OPENMP), _OPENMP);
    sl_cpu_model(buf, sizeof buf);
    put(ctx, "cpu_model", "%s", buf);
    put(ctx, "cores_available", "%d", sl_cores_available());
    slurm_job(buf, sizeof buf);
    put(ctx, "slurm", "%s", buf);
    /* How the machine's quietness is measured (quiet.h), or that it is not. */
    sl_quiet_mark probe;
    sl_quiet_mark_now(&probe);
    if (probe.ok)
        put(ctx, "quietness", "other processes' CPU from %s minus this "
            "process's; a repetition is disturbed above %.2g of a core", sl_busy_source(),
            SL_BUSY_CORES);
    else
        put(ctx, "quietness", "not measured (%s)", sl_busy_source());
    put(ctx, "platform", "%s", sl_platform_name());
    hybrid_cores(ctx);
    put(ctx, "simd_isa", "%s", SPEEDLAB_SIMD_ISA);
    put(ctx, "simd_lanes_f64", "%d", SPEEDLAB_SIMD_LANES);

    buf[0] = '\0';
    for (int i = 0; i < nthreads; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i ? "," : "",
                 threads[i]);
    put(ctx, "threads_requested", "%s", buf);
    buf[0] = '\0';
    for (int i = 0; i < nthreads; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i ? "," : "",
                 sl_threads_granted(threads[i]));
    put(ctx, "threads_used", "%s", buf);

    const char *env = getenv("OMP_PROC_BIND");
    put(ctx, "thread_binding", "%s (OMP_PROC_BIND=%s)", bind_name(omp_get_proc_bind()),
        env ? env : "unset");
    env = getenv("OMP_PLACES");
    put(ctx, "thread_places", "%d places (OMP_PLACES=%s)", omp_get_num_places(),
        env ? env : "unset");
    env = getenv("OMP_WAIT_POLICY");
    put(ctx, "thread_wait_policy", "%s", env ? env : "unset (the runtime's default)");
    put(ctx, "offload_target", "%s", SPEEDLAB_OFFLOAD_TARGET);
    put(ctx, "offload_devices", "%d", omp_get_num_devices());
    gpu_where(s, buf, sizeof buf);
    put(ctx, "gpu_variant_ran_on", "%s", buf);
    sl_gpu_name(buf, sizeof buf);
    put(ctx, "gpu_name", "%s", buf);
    int cuda = sl_cuda_device_count();
    if (cuda < 0)
        put(ctx, "cuda_devices", "CUDA variants not built (no nvcc)");
    else
        put(ctx, "cuda_devices", "%d (CUDA variants built for sm %s)", cuda,
            SPEEDLAB_CUDA_ARCHITECTURES);

    if (gethostname(buf, sizeof buf) != 0)
        snprintf(buf, sizeof buf, "unknown");
    buf[sizeof buf - 1] = '\0';
    put(ctx, "host", "%s", buf);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    put(ctx, "date_utc", "%s", buf);
}
