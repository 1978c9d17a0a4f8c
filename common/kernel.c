/* kernel.c - lookups over the kernel tables (see kernel.h). */
#include "kernel.h"

#include <stdio.h>
#include <string.h>

#include "omp_leftovers.h"
#include "speedlab_config.h"

int sl_device_is_host(void)
{
    return strncmp(SPEEDLAB_OFFLOAD_TARGET, "host offload", 12) == 0;
}

const char *sl_device_words(void)
{
    return sl_device_is_host() ? "host offload device: copies like a GPU, CPU speed"
                               : "the device (no CPU ceiling applies)";
}

int sl_gpu_stand_in(sl_where where)
{
    return where == SL_RAN_HOST_FALLBACK || (where == SL_RAN_DEVICE && sl_device_is_host());
}

const char *sl_where_name(sl_where where)
{
    switch (where) {
    case SL_RAN_HOST: return "host";
    case SL_RAN_HOST_FALLBACK: return "host fallback";
    case SL_RAN_DEVICE: return sl_device_is_host() ? "host offload device" : "device";
    }
    return "unknown";
}

const char *volatile sl_calling_kernel;
const char *volatile sl_calling_variant;

int sl_solve(const sl_problem_def *def, const sl_variant *v, const sl_problem *p,
             sl_outcome *out)
{
    if (def->prepare && out->data == NULL && def->prepare(v, p, out) != 0)
        return -2;
    sl_calling_kernel = def->name;
    sl_calling_variant = v->name;
    int rc = def->run(v, p, out);
    sl_calling_variant = NULL;
    static int forgotten;   /* the device's image files: omp_leftovers.h */
    if ((v->flags & SL_USES_GPU) && sl_device_is_host() && !forgotten)
        forgotten = sl_forget_device_image_files(0) > 0;
    if (def->collect)
        def->collect(v, p, out);
    if (rc != 0)
        return -1;
    if (def->tally)
        def->tally(p, out);
    return 0;
}

void sl_release(const sl_problem_def *def, sl_outcome *out)
{
    if (def->release && out->data)
        def->release(out);
    out->data = NULL;
}

const sl_variant *sl_find_variant(const sl_kernel *k, const char *name)
{
    for (size_t i = 0; i < k->count; i++)
        if (strcmp(k->variants[i].name, name) == 0)
            return &k->variants[i];
    return NULL;
}

const sl_kernel *sl_find_kernel(const sl_kernel *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp((*list)->problem->name, name) == 0)
            return *list;
    return NULL;
}

size_t sl_kernels_by_lesson(const sl_kernel *const *list, const sl_kernel **out, size_t cap)
{
    size_t n = 0;
    for (; *list && n < cap; list++) {
        size_t at = n++;
        /* Insertion, after every kernel of the same lesson: stable. */
        for (; at > 0 && out[at - 1]->problem->lesson > (*list)->problem->lesson; at--)
            out[at] = out[at - 1];
        out[at] = *list;
    }
    return n;
}

void sl_schedule_name(sl_schedule s, char *out, size_t len)
{
    /* SL_SCHED_DEFAULT runs the variant's own pragma, whatever it says. */
    static const char *const kinds[] = { "as-written", "static", "dynamic", "guided" };
    const char *kind = (unsigned)s.kind < 4 ? kinds[s.kind] : "unknown";
    if (s.chunk > 0)
        snprintf(out, len, "%s,%d", kind, s.chunk);
    else
        snprintf(out, len, "%s", kind);
}
