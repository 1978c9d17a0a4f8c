/* lesson_plan.c - the participant's lesson, planned (lesson_plan.h). */
#include "lesson_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "platform.h"

int sl_lesson_kernels(const sl_kernel *const *solutions, const char *name, const char **out,
                      int cap)
{
    int n = 0;
    out[n++] = name;
    for (const sl_kernel *const *o = solutions; *o && n < cap; o++) {
        const char *of = (*o)->problem->companion_of;
        if (of && strcmp(of, name) == 0 && !getenv(SL_ISOLATE_ENV))
            out[n++] = (*o)->problem->name;
    }
    return n;
}

int sl_lesson_plan(sl_suite *suite, const sl_cli *cli, const char *kernel,
                   const sl_lesson_trees *trees, char *why, size_t whylen)
{
    typedef struct { const char *name; const sl_kernel *const *kernels; } tree_ref;
    tree_ref plan_trees[2];
    int ntrees = 0;
    const char *which = cli->tree ? cli->tree : "both";
    if (sl_find_kernel(trees->exhibits, kernel)) {
        plan_trees[ntrees++] = (tree_ref){ "exhibits", trees->exhibits };
    } else {
        if (strcmp(which, "solutions") != 0)
            plan_trees[ntrees++] = (tree_ref){ "exercises", trees->exercises };
        if (strcmp(which, "exercises") != 0)
            plan_trees[ntrees++] = (tree_ref){ "solutions", trees->solutions };
    }
    for (int t = 0; t < ntrees; t++) {
        sl_plan plan = {
            .tree = plan_trees[t].name, .kernels = plan_trees[t].kernels,
            .kernel_name = kernel, .variant_name = cli->variant,
            .threads = cli->threads, .nthreads = cli->nthreads,
            .size = cli->size, .sizes = cli->sizes, .nsizes = cli->nsizes,
            .max_iter = cli->max_iter, .seed = cli->seed,
            .schedules = cli->schedules, .nschedules = cli->nschedules, .sweep = 0,
            .quick = 1,
            .own_lesson = !(cli->all || cli->require_device),
        };
        if (sl_suite_add(suite, &plan, why, whylen) != 0)
            return -1;
    }
    return 0;
}

sl_timing sl_lesson_timing(const sl_cli *cli)
{
    return (sl_timing){
        .reps = cli->reps, .min_time = cli->min_time, .retry_busy = cli->retry_busy,
    };
}

void sl_lesson_cores_note(const sl_cli *cli, char *out, size_t len)
{
    static unsigned char fast[SL_MAX_CPUS];
    char how[160];
    int cores = sl_cores_available(), nfast = sl_fast_cpus(fast, SL_MAX_CPUS, how, sizeof how);
    out[0] = '\0';
    if (nfast <= 0 || nfast >= cores)
        return;
    size_t at = (size_t)snprintf(out, len, " (%d fast, %d slow; threads:", nfast,
                                 cores - nfast);
    for (int i = 0; i < cli->nthreads && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s%d", i ? "," : " ", cli->threads[i]);
    if (at < len)
        snprintf(out + at, len - at, ")");
}
