/* breakdown_report.c - the GPU time breakdown's files and tables
 * (breakdown_report.h), from what measure/breakdown.c measured. A host
 * fallback row is labelled as such in every file and table. */
#include "breakdown_report.h"

#include <string.h>

#include "atomic_file.h"
#include "labels.h"

/* "host fallback" rows are CPU figures: say it wherever a figure goes. */
static const char *gpu_label(sl_where w)
{
    return w != SL_RAN_DEVICE ? "host fallback, not a GPU"
           : sl_device_is_host() ? "host offload device, not a GPU" : "device";
}

static int write_csv(const char *dir, const sl_breakdown *b)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/breakdown.csv", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    FILE *f = af.fp;
    fprintf(f, "workload,kernel,size,bytes_in,bytes_out,step,seconds,ran_on,valid,device,"
               "configuration\n");
    fprintf(f, "device start,,0,0,0,first_target_region,%.9g,%s,yes,%s,\"\"\n", b->start,
            sl_where_name(b->start_where), b->device);
    for (int i = 0; i < b->nrows; i++) {
        const sl_breakdown_row *r = &b->rows[i];
        const char *steps[] = { "to_device", "kernel", "to_host", "release",
                                "staged_end_to_end", "per_call_end_to_end", "best_cpu" };
        double secs[] = { r->to_device, r->kernel_time, r->to_host, r->release,
                          r->to_device + r->kernel_time + r->to_host + r->release,
                          r->per_call, r->cpu_best };
        /* The best CPU row names its configuration, the strong study's.
         * Quoted, like the workload: "<kernel>, array of ..." and a schedule
         * such as static,1 hold commas. */
        for (int k = 0; k < 7; k++)
            fprintf(f, "\"%s\",%s,%lld,%.0f,%.0f,%s,%.9g,%s,%s,%s,\"%s\"\n", r->workload, r->kernel,
                    (long long)r->size, r->bytes_in, r->bytes_out, steps[k],
                    r->valid ? secs[k] : 0.0,
                    k == 6 ? "host" : sl_where_name(r->where), r->valid ? "yes" : "no",
                    b->device, k == 6 ? r->cpu_name : "");
    }
    return sl_atomic_commit(&af);
}

/* Stacked bars: one row per valid workload, milliseconds. Its .gp names
 * where the kernels ran, for the title. */
static int write_plot_data(const char *dir, const sl_breakdown *b)
{
    char path[SL_PATH_BUF], gp[512];
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/breakdown-gpu.dat", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# workload to_device_ms kernel_ms to_host_ms release_ms "
                   "per_call_ms best_cpu_ms\n");
    sl_where where = SL_RAN_DEVICE;
    for (int i = 0; i < b->nrows; i++) {
        const sl_breakdown_row *r = &b->rows[i];
        if (!r->valid)
            continue;
        if (r->where != SL_RAN_DEVICE)
            where = r->where;
        fprintf(af.fp, "\"%s\" %.6g %.6g %.6g %.6g %.6g %.6g\n", r->workload,
                r->to_device * 1e3, r->kernel_time * 1e3, r->to_host * 1e3,
                r->release * 1e3, r->per_call * 1e3, r->cpu_best * 1e3);
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;
    if (sl_path_format(path, sizeof path, "%s/breakdown-gpu.gp", dir) != 0)
        return -1;
    snprintf(gp, sizeof gp, "gpu_where = \"%s\"\ndevice = \"%s\"\nstart_ms = %.6g\n",
             gpu_label(where), b->device, b->start * 1e3);
    if (sl_atomic_write(path, gp) != 0)
        return -1;
    if (b->npoints == 0)
        return 0;

    if (sl_path_format(path, sizeof path, "%s/crossover-%s.dat", dir, b->cross_kernel) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# side pixels gpu_per_call_ms best_cpu_ms\n");
    for (int i = 0; i < b->npoints; i++)
        fprintf(af.fp, "%lld %lld %.6g %.6g\n", (long long)b->points[i].side,
                (long long)(b->points[i].side * b->points[i].side),
                b->points[i].gpu_per_call * 1e3, b->points[i].cpu_best * 1e3);
    if (sl_atomic_commit(&af) != 0)
        return -1;
    if (sl_path_format(path, sizeof path, "%s/crossover-%s.gp", dir, b->cross_kernel) != 0)
        return -1;
    snprintf(gp, sizeof gp, "gpu_where = \"%s\"\ncrossover = %lld\ncpu_name = \"%s\"\n",
             gpu_label(b->cross_where), (long long)b->crossover,
             b->cross_cpu);
    return sl_atomic_write(path, gp);
}

int sl_breakdown_write(const char *dir, const sl_breakdown *b)
{
    if (!b->wanted)
        return 0;
    return write_csv(dir, b) != 0 || write_plot_data(dir, b) != 0 ? -1 : 0;
}

/* "12.3 ms (45%)": a step and its share of the staged end to end. */
static void cell(char *out, size_t len, double secs, double total)
{
    sl_time_text(out, len, secs);
    snprintf(out + strlen(out), len - strlen(out), " (%.0f%%)",
             total > 0 ? 100.0 * secs / total : 0.0);
}

/* The crossover in words. */
static void crossover_text(char *out, size_t len, const sl_breakdown *b)
{
    if (b->npoints == 0)
        snprintf(out, len, "not measured");
    else if (b->cross_where != SL_RAN_DEVICE)
        snprintf(out, len, "none: the gpu variant ran on the host (host fallback), so "
                 "there is no GPU to compare");
    else if (b->crossover == 0)
        snprintf(out, len, "none up to %lldx%lld: the best CPU variant was faster at "
                 "every size measured", (long long)b->points[b->npoints - 1].side,
                 (long long)b->points[b->npoints - 1].side);
    else
        snprintf(out, len, "from %lldx%lld pixels up, the GPU (end to end, per call) "
                 "beats the best CPU variant", (long long)b->crossover,
                 (long long)b->crossover);
}

/* Valid, timed, and on an offload device. */
static int on_device(const sl_config *c)
{
    return c->valid && c->timed > 0 && c->median > 0.0 && !c->weak &&
           c->outcome.where == SL_RAN_DEVICE;
}

/* Each kernel's offload rows beside its CUDA row, at the same size and
 * on the same device: how far OpenMP offload is from CUDA C there, per
 * compiler (an imported row names its own). Nothing where no CUDA row
 * ran on a device: the host offload device and the fallback have none. */
static void against_cuda(FILE *f, const sl_suite *s)
{
    for (size_t i = 0; s && i < s->count; i++) {
        const sl_config *cuda = &s->configs[i];
        if (!(cuda->variant->flags & SL_USES_CUDA) || !on_device(cuda))
            continue;
        char t[32], label[96];
        sl_time_text(t, sizeof t, cuda->median);
        fprintf(f, "- %s against CUDA (%s, %s; same size, same device):",
                cuda->kernel->problem->name, cuda->variant->name, t);
        int n = 0;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *o = &s->configs[j];
            if (!(o->variant->flags & SL_USES_GPU) || !on_device(o) ||
                o->problem.size != cuda->problem.size ||
                strcmp(o->kernel->problem->name, cuda->kernel->problem->name) != 0)
                continue;
            sl_config_label(o, label, sizeof label);
            if (sl_config_shows_tree(o))
                snprintf(label + strlen(label), sizeof label - strlen(label), " (%s)", o->tree);
            fprintf(f, "%s %s %.2fx its time (%.0f%% of its rate)", n++ ? "," : "", label,
                    o->median / cuda->median, 100.0 * cuda->median / o->median);
        }
        fprintf(f, "%s.\n", n ? "" : " no offload row ran on the device at that size");
    }
}

void sl_breakdown_summary(FILE *f, const sl_breakdown *b, const sl_suite *s)
{
    if (!b->wanted)
        return;
    char c[5][48], text[200], t[3][32];
    fprintf(f, "\n## GPU time breakdown (lesson 5)\n\n");
    fprintf(f, "- device: %s\n", b->device);
    sl_time_text(t[0], sizeof t[0], b->start);
    fprintf(f, "- first target region of the process (starting the runtime and the "
               "device): %s, on the %s\n", t[0], sl_where_name(b->start_where));
    if (b->start_where != SL_RAN_DEVICE)
        fprintf(f, "- **host fallback**: there is no offload device, so the \"copies\" "
                   "below are the host's own memory and the kernel is CPU code. These "
                   "are not GPU figures and no GPU speedup is claimed.\n");
    else
        fprintf(f, "- settled clocks: each timed repetition of a gpu variant follows an "
                   "untimed warm-up call, so that none starts on a clock that dropped "
                   "while CPU variants ran between its turns\n");
    fprintf(f, "\n| workload | ran on | to device | kernel | to host | release | "
               "staged end to end | per call end to end | best CPU | CPU / GPU per call |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < b->nrows; i++) {
        const sl_breakdown_row *r = &b->rows[i];
        if (!r->valid) {
            fprintf(f, "| %s | INVALID: %s | | | | | | | | |\n", r->workload, r->error);
            continue;
        }
        double staged = r->to_device + r->kernel_time + r->to_host + r->release;
        cell(c[0], sizeof c[0], r->to_device, staged);
        cell(c[1], sizeof c[1], r->kernel_time, staged);
        cell(c[2], sizeof c[2], r->to_host, staged);
        cell(c[3], sizeof c[3], r->release, staged);
        if (r->where == SL_RAN_DEVICE)
            snprintf(c[4], sizeof c[4], "%.2fx", r->cpu_best / r->per_call);
        else
            snprintf(c[4], sizeof c[4], "n/a (host fallback)");
        sl_time_text(t[0], sizeof t[0], staged);
        sl_time_text(t[1], sizeof t[1], r->per_call);
        sl_time_text(t[2], sizeof t[2], r->cpu_best);
        fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s |\n", r->workload,
                gpu_label(r->where), c[0], c[1], c[2], c[3], t[0], t[1], t[2], r->cpu_name,
                c[4]);
    }
    fputc('\n', f);
    against_cuda(f, s);
    crossover_text(text, sizeof text, b);
    fprintf(f, "- crossover (%s, GPU end to end vs the best CPU variant): %s.\n",
            b->npoints ? b->cross_kernel : "the image", text);
}
