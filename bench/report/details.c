/* details.c - the report's appendix (details.h): every configuration of
 * the run in one table, the sampling kernels' estimates, and the notes,
 * grouped so that four host-fallback configurations make one line. */
#include "details.h"

#include <math.h>
#include <string.h>

#include "labels.h"
#include "quiet.h"

/* One row of the summary table. */
static void summary_row(FILE *f, const sl_config *c)
{
    char threads[40], speedup[48], time[80], rate[32], variant[80], others[48] = "-";
    sl_config_label(c, variant, sizeof variant);
    sl_config_threads(c, threads, sizeof threads);
    char pm[16], precision[80] = "-";
    sl_precision_text(c, pm, sizeof pm);
    if (c->valid && c->timed) {
        sl_interval_text(time, sizeof time, c->median, c->ci_low, c->ci_high);
        snprintf(rate, sizeof rate, "%.3g", c->rate);
        snprintf(precision, sizeof precision, "%s (%d)%s%s", pm[0] ? pm : "-", c->kept,
                 sl_short_of_name(c->short_of)[0] ? " " : "",
                 sl_short_of_name(c->short_of));
    } else {
        snprintf(time, sizeof time, "-");
        snprintf(rate, sizeof rate, "-");
    }
    if (c->valid && c->timed && c->others_cpu >= 0.0)
        snprintf(others, sizeof others, "%.2f%s%s", c->others_cpu,
                 c->contaminated ? " **disturbed**" : "", c->remeasured ? " (again)" : "");
    else if (c->valid && c->timed)
        snprintf(others, sizeof others, "not measured");
    if (c->speedup > 0.0)
        snprintf(speedup, sizeof speedup, "%.2fx%s", c->speedup,
                 c->outcome.where == SL_RAN_HOST_FALLBACK ? " (host, not GPU)" : "");
    else
        snprintf(speedup, sizeof speedup, "-");
    fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %.3g%s | %s | %s |\n",
            c->kernel->problem->name, variant, threads, time, rate, speedup,
            precision, others, c->verdict.error, c->kernel->problem->image ? " px" : "",
            sl_config_where(c),
            c->interrupted ? "interrupted" : c->valid ? "ok" : "**INVALID**");
}

/* Every configuration of the strong study, in plan order. */
static void summary_table(FILE *f, const sl_suite *s)
{
    char interval[64];
    sl_interval_label(s, interval, sizeof interval);
    fprintf(f, "| kernel | variant | threads | median [%s] | rate /s | speedup vs scalar "
               "| \u00b1 (repetitions) | others' CPU (cores) | error | ran on | check |\n",
            interval);
    fprintf(f, "|---|---|---|--:|--:|--:|--:|--:|--:|---|---|\n");
    for (size_t i = 0; i < s->count; i++)
        if (!s->configs[i].weak)
            summary_row(f, &s->configs[i]);
}

/* Notes grouped: one line per kind of note, naming the configurations. */
typedef struct note_group {
    int n;
    char names[512];
} note_group;

static void note_add(note_group *g, const sl_config *c)
{
    size_t len = strlen(g->names);
    if (g->n++ < 6)
        snprintf(g->names + len, sizeof g->names - len, "%s%s", len ? ", " : "", c->name);
    else if (g->n == 7)
        snprintf(g->names + len, sizeof g->names - len, ", ...");
}

static void summary_notes(FILE *f, const sl_suite *s)
{
    note_group fallback = { 0 }, over = { 0 }, disturbed = { 0 }, again = { 0 };
    note_group missed[SL_SHORT_INTERRUPTED + 1] = { { 0 } };
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (c->isolated_failure || (c->foreign && !c->valid && c->error[0]))
            fprintf(f, "- **%s is INVALID**: %s. It is not timed, has no speedup and is "
                       "left out of the plots.\n", c->name, c->error);
        else if (!c->valid && !c->interrupted)
            fprintf(f, "- **%s is INVALID**: got %.17g, expected %.17g (error %.3g > "
                       "tolerance %.3g%s). It is not timed, has no speedup and is "
                       "left out of the plots.\n", c->name, c->probe_verdict.ok ?
                       c->outcome.value : c->probe_outcome.value, c->verdict.expected,
                    c->probe_verdict.ok ? c->verdict.error : c->probe_verdict.error,
                    c->probe_verdict.ok ? c->verdict.tolerance : c->probe_verdict.tolerance,
                    c->probe_verdict.ok ? "" : ", at the probe size");
        if (c->valid && c->outcome.where == SL_RAN_HOST_FALLBACK)
            note_add(&fallback, c);
        if (c->valid && c->timed && c->short_of > SL_NO_TARGET)
            note_add(&missed[c->short_of], c);
        if (c->oversubscribed)
            note_add(&over, c);
        if (c->valid && c->timed && c->contaminated)
            note_add(&disturbed, c);
        if (c->valid && c->timed && c->remeasured && !c->contaminated)
            note_add(&again, c);
    }
    if (fallback.n)
        fprintf(f, "- %d gpu configuration(s) ran on the **host (host fallback)**: no "
                   "offload device was used, so their times are CPU figures, not GPU "
                   "ones: %s.\n", fallback.n, fallback.names);
    if (disturbed.n)
        fprintf(f, "- %d configuration(s) stayed **disturbed** (other processes used more "
                   "than %.2g of a core during a repetition, or the bench itself was "
                   "stopped): %s.\n", disturbed.n, SL_BUSY_CORES, disturbed.names);
    if (again.n)
        fprintf(f, "- %d configuration(s) had disturbed repetitions, left out of their "
                   "medians and timed again: %s.\n", again.n, again.names);
    for (int why = SL_SHORT_NOISY; why <= SL_SHORT_INTERRUPTED; why++)
        if (missed[why].n)
            fprintf(f, "- %d configuration(s) short of the \u00b1%.3g%% target, %s: %s.\n",
                    missed[why].n, 100.0 * s->target, sl_short_of_name(why),
                    missed[why].names);
    for (int i = 0; i < s->nskipped; i++)
        fprintf(f, "- %s was **skipped**: %s.\n", s->skipped[i], s->skip_reason);
    if (over.n)
        fprintf(f, "- %d configuration(s) marked oversubscribed use more threads than "
                   "there are cores: they share cores, so their times say little about "
                   "scaling.\n", over.n);
}

/* Sampling kernels: each variant's estimate with its standard error. A
 * wrong count shows as a different estimate; right ones are identical. */
static void estimates_table(FILE *f, const sl_suite *s)
{
    int header = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        const sl_problem_def *def = c->kernel->problem;
        if (!def->std_error)
            continue;
        if (!header++)
            fprintf(f, "\n| kernel | variant | threads | seed | %s | inside | estimate "
                       "| std error | error | error / std error | check |\n"
                       "|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n", def->size_name);
        char variant[80], threads[48];
        sl_config_label(c, variant, sizeof variant);
        sl_config_threads(c, threads, sizeof threads);
        double se = def->std_error(&c->problem);
        double err = fabs(c->outcome.value - def->exact);
        /* Imported rows carry the estimate, not the count. */
        char inside[32] = "n/a";
        if (!c->foreign)
            snprintf(inside, sizeof inside, "%lld", (long long)c->outcome.hits);
        fprintf(f, "| %s | %s | %s | %llu | %lld | %s | %.10f | %.3g | %.3g | %.2f | %s |\n",
                def->name, variant, threads, (unsigned long long)c->problem.seed,
                (long long)c->problem.size, inside, c->outcome.value,
                se, err, err / se, c->valid ? "ok" : "**INVALID**");
    }
}

void sl_details_configs(FILE *f, const sl_suite *s)
{
    summary_table(f, s);
    estimates_table(f, s);
    fprintf(f, "\n");
    summary_notes(f, s);
}
