/* collect.c - a runner run as a room post (collect.h). */
#define _DEFAULT_SOURCE
#include "collect.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "ceiling_report.h"
#include "defaults.h"
#include "speedlab_config.h"
#include "verdict.h"

sl_room_state sl_room_state_of(const sl_suite *s, const sl_config *c)
{
    if (!c->valid)
        return SL_ROOM_WRONG;
    if (sl_speedup_unjudged(s, c))
        return SL_ROOM_BUSY;
    /* Clearly slower: below what "not faster yet" allows either way, and
     * on a busy machine the pairs' whole interval too (as the verdict
     * judges, by the pairs; a wide interval says "slow" at worst). */
    double at_most, mine = sl_speedup_judged(s, c, &at_most);
    if (mine > 0.0 && at_most < 1.0 / SL_NOT_FASTER_YET)
        return SL_ROOM_SLOWER;
    const sl_config *sol = sl_counterpart(s, c);
    double best = sol && sol->timed ? sl_speedup_judged(s, sol, NULL) : 0.0;
    if (best > 0.0 && (best > SL_BEHIND_SOLUTION * mine ||
                       (mine < SL_NOT_FASTER_YET && best >= SL_NOT_FASTER_YET)))
        return SL_ROOM_SLOW;
    return SL_ROOM_CAUGHT_UP;
}

/* Does the C file at path define the problem named name? (As
 * scripts/kernels.sh reads kernels/: its `.name = "..."` line.) */
static int defines(const char *path, const char *name)
{
    char want[96], line[256];
    snprintf(want, sizeof want, ".name = \"%s\"", name);
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, want) != NULL;
    if (f)
        fclose(f);
    return found;
}

/* The kernel's folder: the one of kernels/ whose problem file names it
 * (its exercises are exercises/<folder>/<variant>.c). */
static int kernel_folder(const char *source, const char *kernel, char *out, size_t len)
{
    char dir[SL_PATH_BUF], path[SL_PATH_BUF];
    DIR *d = sl_path_join(dir, sizeof dir, source, "kernels") == 0 ? opendir(dir) : NULL;
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[SL_PATH_BUF];
        DIR *k = sl_path_join(sub, sizeof sub, dir, e->d_name) == 0 ? opendir(sub) : NULL;
        struct dirent *f;
        while (k && !found && (f = readdir(k)) != NULL) {
            size_t n = strlen(f->d_name);
            if (n < 3 || strcmp(f->d_name + n - 2, ".c") != 0)
                continue;
            if (sl_path_join(path, sizeof path, sub, f->d_name) == 0 && defines(path, kernel)) {
                snprintf(out, len, "%s", e->d_name);
                found = 1;
            }
        }
        if (k)
            closedir(k);
    }
    if (d)
        closedir(d);
    return found ? 0 : -1;
}

/* The configuration of c's variant with the most threads, in the
 * exercises tree: is c it? */
static int most_threads(const sl_suite *s, const sl_config *c)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *o = &s->configs[i];
        if (o != c && strcmp(o->tree, c->tree) == 0 && o->kernel == c->kernel &&
            o->variant == c->variant && !o->weak && o->problem.threads > c->problem.threads)
            return 0;
    }
    return 1;
}

static void one_record(const sl_suite *s, const sl_config *c, const sl_ceilings *m,
                       const char *exercises, const char *stamp, size_t n, sl_room_record *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%.30s-%zu", stamp, n);
    r->lesson = c->kernel->problem->lesson;
    snprintf(r->kernel, sizeof r->kernel, "%s", c->kernel->problem->name);
    snprintf(r->variant, sizeof r->variant, "%s", c->variant->name);
    r->threads = c->problem.threads;
    r->state = sl_room_state_of(s, c);
    if (r->state == SL_ROOM_WRONG)
        snprintf(r->hint, sizeof r->hint, "%s", sl_wrong_class_name(sl_wrong_class_of(c)));
    else
        r->speedup = sl_speedup_judged(s, c, NULL);
    r->seconds = c->median > 0.0 ? c->median : c->call_seconds;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    r->ran_at = (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
    /* The ceilings are this CPU's: a GPU's row is measured against none. */
    double roof = m && c->valid && c->outcome.where == SL_RAN_HOST ? sl_config_ceiling(m, c) : 0.0;
    double pct = roof > 0.0 ? 100.0 * c->rate / roof : -1.0;
    r->ceiling_pct = pct > 100.0 ? -1.0 : pct;   /* a low probe: no claim */
    /* The leaderboard's figure: against the solution timed beside it. */
    const sl_config *sol = sl_counterpart(s, c);
    sl_paired share;
    r->solution_pct = r->solution_low = r->solution_high = -1.0;
    /* A number the host disturbed too much is marked (its state), not ranked. */
    if (r->state != SL_ROOM_WRONG && r->state != SL_ROOM_BUSY &&
        sl_ratio_paired(sol, c, &share) > 0 &&
        100.0 * share.high <= SL_ROOM_MOST_SOLUTION_PCT) {
        r->solution_pct = 100.0 * share.median;
        r->solution_low = 100.0 * share.low;
        r->solution_high = 100.0 * share.high;
    }
    char path[SL_PATH_BUF];
    if (!exercises[0] || sl_path_format(path, sizeof path, "%s/%s.c", exercises, r->variant) != 0 ||
        sl_room_hash_file(path, r->source_hash, sizeof r->source_hash) != 0)
        snprintf(r->source_hash, sizeof r->source_hash, "unknown");
}

size_t sl_room_collect(const sl_suite *s, const sl_ceilings *m, const char *nickname,
                       const char *source, const char *stamp, sl_room_post *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->nickname, sizeof p->nickname, "%s", nickname);
#if defined(__aarch64__)
    snprintf(p->family, sizeof p->family, "aarch64 %s", SPEEDLAB_SIMD_ISA);
#elif defined(__x86_64__)
    snprintf(p->family, sizeof p->family, "x86-64 %s", SPEEDLAB_SIMD_ISA);
#else
    snprintf(p->family, sizeof p->family, "other %s", SPEEDLAB_SIMD_ISA);
#endif
    p->lanes = SPEEDLAB_SIMD_LANES;
    p->cores = sl_cores_available();
    /* The kernel's folder is looked up once per kernel, not per record. */
    const sl_kernel *seen = NULL;
    char folder[256], exercises[1536] = "";
    for (size_t i = 0; i < s->count && p->count < SL_ROOM_MAX_RECORDS; i++) {
        const sl_config *c = &s->configs[i];
        if (strcmp(c->tree, "exercises") != 0 || c->weak || !c->validated ||
            strcmp(c->variant->name, SL_BASELINE_VARIANT) == 0 ||
            (c->valid && (!c->timed || sl_gpu_stand_in(c->outcome.where))) ||
            !most_threads(s, c))
            continue;
        if (c->kernel != seen) {
            seen = c->kernel;
            if (kernel_folder(source, c->kernel->problem->name, folder, sizeof folder) != 0 ||
                sl_path_format(exercises, sizeof exercises, "%s/exercises/%s", source, folder) != 0)
                exercises[0] = '\0';
        }
        one_record(s, c, m, exercises, stamp, p->count, &p->records[p->count]);
        p->count++;
    }
    return p->count;
}
