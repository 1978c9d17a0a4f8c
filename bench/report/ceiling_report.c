/* ceiling_report.c - hold every configuration's rate against the ceiling
 * the probe measured (ceiling_report.h): ceiling.csv, evidence.csv and the
 * summary's section.
 *
 * The ceiling is an upper bound, not a prediction: it counts only the one
 * instruction a work unit cannot avoid, so 100% is out of reach and the
 * interesting number is how far below it each rung of the ladder sits
 * (scalar code does one lane's work per instruction).
 */
#include "ceiling_report.h"

#include <string.h>

#include "atomic_file.h"
#include "labels.h"

const char *sl_ceiling_name(int kind)
{
    switch (kind) {
    case SL_CEILING_FMA: return "FMA";
    case SL_CEILING_DIVIDE: return "divide";
    case SL_CEILING_MUL64: return "64-bit multiply";
    }
    return "none";
}

/* Cores a configuration had: its threads, at most the machine's; a target
 * region on the host fallback uses the runtime's default team. */
static int cores_used(const sl_config *c)
{
    int cores = sl_cores_available();
    int t = c->threads_used > 0 ? c->threads_used : cores;
    return t < cores ? t : cores;
}

double sl_config_ceiling(const sl_ceilings *m, const sl_config *c)
{
    const sl_problem_def *k = c->kernel->problem;
    if (!m->measured || k->ceiling == SL_CEILING_NONE || k->ceiling_ops <= 0.0 ||
        c->outcome.where == SL_RAN_DEVICE)
        return 0.0;
    return m->per_core[k->ceiling] * cores_used(c) / k->ceiling_ops;
}

/* Configurations the evidence covers: valid, timed, strong study. */
static int has_evidence(const sl_config *c)
{
    return c->valid && c->timed > 0 && !c->weak;
}

int sl_write_ceilings(const char *dir, const sl_ceilings *m, const sl_suite *s)
{
    char path[4096];
    sl_atomic_file af;
    if (!m->measured)
        return 0;
    snprintf(path, sizeof path, "%s/ceiling.csv", dir);
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "instruction,lanes,per_core_lane_ops_per_s,spread\n");
    for (int k = SL_CEILING_DIVIDE; k <= SL_CEILING_MUL64; k++)
        fprintf(af.fp, "%s,%d,%.6g,%.4f\n", sl_ceiling_name(k), m->lanes, m->per_core[k],
                m->spread[k]);
    if (sl_atomic_commit(&af) != 0)
        return -1;

    snprintf(path, sizeof path, "%s/evidence.csv", dir);
    if (sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "tree,kernel,variant,threads_used,schedule,ran_on,rate_per_s,work_unit,"
                   "limit,ops_per_unit,ceiling_per_s,percent_of_ceiling\n");
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!has_evidence(c))
            continue;
        const sl_problem_def *k = c->kernel->problem;
        char sched[32] = "";
        if (c->variant->flags & SL_USES_SCHEDULE)
            sl_schedule_name(c->problem.schedule, sched, sizeof sched);
        double ceil = sl_config_ceiling(m, c);
        fprintf(af.fp, "%s,%s,%s,%d,\"%s\",%s,%.6g,%s,%s,%g,", c->tree, k->name,
                c->variant->name, c->threads_used, sched, sl_config_where(c), c->rate,
                k->work_unit, sl_ceiling_name(k->ceiling), k->ceiling_ops);
        if (ceil > 0.0)
            fprintf(af.fp, "%.6g,%.2f\n", ceil, 100.0 * c->rate / ceil);
        else
            fprintf(af.fp, ",\n");
    }
    return sl_atomic_commit(&af);
}

/* The headline: per kernel, the configuration closest to its ceiling. */
static void print_headline(FILE *f, const sl_ceilings *m, const sl_suite *s)
{
    int any = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (!sl_suite_first_of_kernel(s, i))
            continue;
        const sl_config *best = NULL;
        double best_pct = 0.0;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *c = &s->configs[j];
            double ceil = sl_config_ceiling(m, c);
            if (c->kernel->problem != s->configs[i].kernel->problem || !has_evidence(c) ||
                ceil <= 0.0 || c->oversubscribed)
                continue;
            if (100.0 * c->rate / ceil > best_pct)
                best_pct = 100.0 * c->rate / ceil, best = c;
        }
        if (best == NULL)
            continue;
        char variant[80];
        sl_config_label(best, variant, sizeof variant);
        fprintf(f, "%s**%s %.0f%%** (%s, %d thread%s)", any++ ? "; " : "**Closest to the "
                "machine**: ", best->kernel->problem->name, best_pct, variant,
                best->threads_used > 0 ? best->threads_used : sl_cores_available(),
                best->threads_used == 1 ? "" : "s");
    }
    if (any)
        fprintf(f, ".\n\n");
}

void sl_print_ceilings(FILE *f, const sl_ceilings *m, const sl_suite *s)
{
    if (!m->measured)
        return;
    fprintf(f, "\n## How close to the machine\n\nA probe measured one core's peak "
               "throughput (%d-lane vectors, median of %d runs, probed before and after the "
               "timing and the faster kept): ", m->lanes, SL_PROBE_RUNS);
    for (int k = SL_CEILING_DIVIDE; k <= SL_CEILING_MUL64; k++)
        fprintf(f, "%s%s %.3g G lane-ops/s (spread %.0f%%)", k > SL_CEILING_DIVIDE ?
                ", " : "", sl_ceiling_name(k), m->per_core[k] * 1e-9, 100.0 * m->spread[k]);
    fprintf(f, ". A variant's ceiling is that peak times the cores it had, over the "
               "operations one work unit needs; it counts only that one instruction, "
               "so it is an upper bound. Scalar code does one lane's work per "
               "instruction, so it sits far below (though a scalar divide is cheaper "
               "than 1/%d of a packed one, so scalar pi gets more than 1/%d).\n\n",
            m->lanes, m->lanes);
    print_headline(f, m, s);
    fprintf(f, "| kernel | variant | threads | rate /s | ceiling /s | %% of ceiling "
               "| limit |\n|---|---|---|--:|--:|--:|---|\n");
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!has_evidence(c))
            continue;
        const sl_problem_def *k = c->kernel->problem;
        char variant[80], threads[48], pct[32] = "-", ceil_text[32] = "-";
        sl_config_label(c, variant, sizeof variant);
        sl_config_threads(c, threads, sizeof threads);
        double ceil = sl_config_ceiling(m, c);
        if (ceil > 0.0) {
            snprintf(ceil_text, sizeof ceil_text, "%.3g", ceil);
            snprintf(pct, sizeof pct, "**%.1f%%**", 100.0 * c->rate / ceil);
        }
        fprintf(f, "| %s | %s | %s | %.3g %s | %s | %s | %s%s |\n", k->name, variant,
                threads, c->rate, k->work_unit, ceil_text, pct, k->ceiling_why ?
                k->ceiling_why : "no probe", c->outcome.where == SL_RAN_HOST_FALLBACK ?
                "; ran on the host (fallback)" : c->outcome.where == SL_RAN_DEVICE ?
                "; ran on the device: no CPU ceiling" : "");
    }
}
