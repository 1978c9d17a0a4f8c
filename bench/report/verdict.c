/* verdict.c - the runner's verdict column (verdict.h): quiet rows by their
 * medians, busy rows by paired repetitions. */
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const sl_config *sl_counterpart(const sl_suite *s, const sl_config *c)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *o = &s->configs[i];
        if (strcmp(o->tree, c->tree) != 0 && o->kernel->problem == c->kernel->problem &&
            strcmp(o->variant->name, c->variant->name) == 0 &&
            o->problem.threads == c->problem.threads &&
            sl_schedule_equal(o->problem.schedule, c->problem.schedule))
            return o;
    }
    return NULL;
}

/* Busy: the speedup over scalar from pairs, and the solution's beside it. */
static int busy_words(const sl_suite *s, const sl_config *c, const sl_config *sol, char *out,
                      size_t len)
{
    const sl_config *base = sl_suite_baseline(s, c);
    sl_paired up, sol_up;
    if (base == NULL || base == c || sl_threads_took_others_share(s, c) ||
        sl_speedup_paired(s, c, &up) == 0 || sl_paired_too_wide(&up))
        return 0;
    char mine[48];
    snprintf(mine, sizeof mine, "%.1fx [%.1f, %.1f]", up.median, up.low, up.high);
    int sol_known = sol && sol->timed && sl_speedup_paired(s, sol, &sol_up) > 0 &&
                    !sl_paired_too_wide(&sol_up);
    int slow = up.median < SL_NOT_FASTER_YET;
    if (strcmp(c->tree, "solutions") == 0 || !sol_known)
        snprintf(out, len, "%s; busy: %s%s", slow ? "right" : "ok", mine,
                 slow ? ", no faster than scalar" : "");
    else if (slow && sol_up.median < SL_NOT_FASTER_YET)
        snprintf(out, len, "right; busy: %s, solution no faster", mine);
    else if (slow)
        snprintf(out, len, "not faster yet; busy: %s, solution %.1fx", mine, sol_up.median);
    else if (sol_up.median > SL_BEHIND_SOLUTION * up.median)
        snprintf(out, len, "right; busy: %s, solution %.1fx", mine, sol_up.median);
    else
        snprintf(out, len, "ok; busy: %s, solution %.1fx", mine, sol_up.median);
    return 1;
}

int sl_verdict_paired(const sl_suite *s, const sl_config *c)
{
    char words[128];
    if (!c->valid || !c->timed || !c->contaminated || sl_gpu_stand_in(c->outcome.where))
        return 0;
    const sl_config *sol = strcmp(c->tree, "exercises") == 0 ? sl_counterpart(s, c) : NULL;
    return busy_words(s, c, sol, words, sizeof words);
}

void sl_verdict_words(const sl_suite *s, const sl_config *c, char *out, size_t len)
{
    const sl_config *sol = strcmp(c->tree, "exercises") == 0 ? sl_counterpart(s, c) : NULL;
    const sl_verdict *v = c->probe_verdict.ok ? &c->verdict : &c->probe_verdict;
    const sl_outcome *o = c->probe_verdict.ok ? &c->outcome : &c->probe_outcome;
    /* An exhibit's sampling variant within the statistics but on other
     * points than the baseline's: the reproducibility bug it exists for. */
    int baseline = strcmp(c->variant->name, SL_BASELINE_VARIANT) == 0;
    const sl_config *base = sl_suite_baseline(s, c);
    int other_points = c->valid && c->kernel->problem->std_error && base && base->valid &&
                       strcmp(c->tree, "exhibits") == 0 && c->outcome.hits != base->outcome.hits;
    if (c->isolated_failure)
        snprintf(out, len, "WRONG: %.48s", c->error);
    else if (!c->valid && c->kernel->problem->image)
        snprintf(out, len, "WRONG: %.0f wrong pixels%s", v->error,
                 c->probe_verdict.ok ? "" : " (small size)");
    else if (!c->valid && c->kernel->problem->std_error && v->tolerance == 0.0) {
        /* A sampling kernel's count differs from the reference's. */
        int64_t n = c->probe_verdict.ok ? c->problem.size : c->kernel->problem->probe_size;
        double off = (o->value - v->expected) * (double)n / 4.0;
        snprintf(out, len, "WRONG: %+.0f points inside%s", off,
                 c->probe_verdict.ok ? "" : " (small size)");
    }
    else if (!c->valid)
        snprintf(out, len, "WRONG: error %.2g > %.2g%s", v->error, v->tolerance,
                 c->probe_verdict.ok ? "" : " (small size)");
    else if (other_points)
        snprintf(out, len, "WRONG: %+lld inside, on purpose",
                 (long long)(c->outcome.hits - base->outcome.hits));
    else if (!c->timed)
        snprintf(out, len, "right, not timed: %.40s", c->error[0] ? c->error : "no baseline");
    else if (sl_gpu_stand_in(c->outcome.where))
        /* Its speed is the host's: neither a GPU figure nor a goal, and no
         * speed verdict however busy the machine was, so this label comes
         * first and is the same on a quiet machine and a busy one. */
        snprintf(out, len, c->outcome.where == SL_RAN_HOST_FALLBACK ? "right; host, not a GPU"
                                                                     : "right; host offload, not a GPU");
    else if (sl_speedup_unjudged(s, c))
        /* Threads on fewer cores than they need beside other programs, or
         * another process shared the CPU and even the pairs disagree:
         * threads, judged in wall time, most of all (they need cores at
         * the same time, which a busy machine does not give them). */
        snprintf(out, len, c->threads_used > 1 ? "right; busy: threads need free cores, "
                 "no speed verdict" : "right; machine busy, no speed verdict");
    else if (c->contaminated && baseline)
        /* The baseline is what the others are measured against. */
        snprintf(out, len, "ok; busy, the baseline");
    else if (c->contaminated && !busy_words(s, c, sol, out, len))
        snprintf(out, len, "right; machine busy, no speed verdict");
    else if (c->contaminated)
        ; /* busy_words wrote it */
    else if (!baseline && c->speedup < SL_NOT_FASTER_YET && strcmp(c->tree, "solutions") == 0)
        /* The solution itself: this rung does not pay here (a
         * memory-bound kernel: the memory, not the core, sets the pace). */
        snprintf(out, len, "ok; no faster than scalar");
    else if (!baseline && c->speedup < SL_NOT_FASTER_YET && sol && sol->timed &&
             sol->speedup < SL_NOT_FASTER_YET)
        snprintf(out, len, "right; solution no faster");
    else if (!baseline && c->speedup < SL_NOT_FASTER_YET)
        snprintf(out, len, "not faster yet");
    else if (!baseline && sol && sol->timed && sol->speedup > 0.0 &&
             c->median > SL_BEHIND_SOLUTION * sol->median)
        snprintf(out, len, "right; solution is %.1fx", sol->speedup);
    else
        snprintf(out, len, "ok");
}

/* A wrong threaded answer that is exactly threads_used times the
 * reference (a sum each thread computed whole). */
static int whole_loop_per_thread(const sl_config *c)
{
    const sl_verdict *v = c->probe_verdict.ok ? &c->verdict : &c->probe_verdict;
    const sl_outcome *o = c->probe_verdict.ok ? &c->outcome : &c->probe_outcome;
    if (c->threads_used < 2 || v->expected == 0.0 || c->kernel->problem->image)
        return 0;
    double times = o->value / v->expected;
    return fabs(times - c->threads_used) < 1e-6 * c->threads_used;
}

sl_wrong_class sl_wrong_class_of(const sl_config *c)
{
    const sl_verdict *v = c->probe_verdict.ok ? &c->verdict : &c->probe_verdict;
    if (c->valid || !c->validated)
        return SL_WRONG_NONE;
    if (c->isolated_failure)
        return SL_WRONG_CRASHED;
    if (whole_loop_per_thread(c))
        return SL_WRONG_WHOLE_LOOP;
    if (v->hint)
        return SL_WRONG_CHECKED;
    if (c->variant->flags & SL_USES_THREADS)
        return SL_WRONG_RACE;
    return SL_WRONG_OTHER;
}

static const char *const wrong_names[SL_WRONG_CLASSES][2] = {
    { "none", "right" },
    { "crashed", "crashed or hung" },
    { "whole_loop", "parallel without for" },
    { "checked", "the kernel's check named it" },
    { "race", "race on a shared sum" },
    { "wrong", "wrong, cause unknown" },
};

const char *sl_wrong_class_name(sl_wrong_class k)
{
    return k >= 0 && k < SL_WRONG_CLASSES ? wrong_names[k][0] : "wrong";
}

const char *sl_wrong_class_words(sl_wrong_class k)
{
    return k >= 0 && k < SL_WRONG_CLASSES ? wrong_names[k][1] : "wrong, cause unknown";
}
