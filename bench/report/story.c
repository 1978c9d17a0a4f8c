/* story.c - the headline, the findings and the warnings (story.h). */
#include "story.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling_report.h"
#include "context.h"
#include "labels.h"
#include "mca_report.h"
#include "quiet.h"

/* A schedule that changes the time by less than this is "no difference". */
#define SCHEDULE_MATTERS 1.10
/* Twice-measured configurations agree when their intervals overlap or
 * their medians are this close: the noise floor of a quiet machine. */
#define CONSISTENT_WITHIN 0.03
/* A rung this close to its ceiling is at the machine's limit. */
#define AT_THE_LIMIT 75.0
/* A threaded rung below this strong-scaling efficiency is held back by
 * its threads. */
#define EFFICIENT 0.85

static int timed_ok(const sl_config *c)
{
    return c->valid && c->timed > 0;
}

/* The same kernel, tree and variant, strong study. */
static int same_rung(const sl_config *a, const sl_config *b)
{
    return a->kernel->problem == b->kernel->problem && a->variant == b->variant &&
           strcmp(a->tree, b->tree) == 0 && !a->weak && !b->weak;
}

/* Is a a better representative of its rung than b? */
static int better(const sl_config *a, const sl_config *b)
{
    if (b == NULL)
        return 1;
    if (timed_ok(a) != timed_ok(b))
        return timed_ok(a);
    int ia = !a->oversubscribed, ib = !b->oversubscribed;
    if (ia != ib)
        return ia;
    if (a->threads_used != b->threads_used)
        return a->threads_used > b->threads_used;
    if (a->contaminated != b->contaminated)
        return !a->contaminated;
    return timed_ok(a) && a->median < b->median;
}

/* The strong study's 1-thread configuration of c's variant and schedule. */
static const sl_config *one_thread(const sl_suite *s, const sl_config *c)
{
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *o = &s->configs[i];
        if (same_rung(o, c) && timed_ok(o) && o->threads_used == 1 &&
            sl_schedule_equal(o->problem.schedule, c->problem.schedule))
            return o;
    }
    return NULL;
}

/* Strong-scaling efficiency of c against its 1-thread point; 0: none. */
static double efficiency(const sl_suite *s, const sl_config *c)
{
    const sl_config *one = one_thread(s, c);
    if (one == NULL || !timed_ok(c) || c->threads_used < 2)
        return 0.0;
    return one->median / c->median / c->threads_used;
}

/* What holds a rung back, in words. */
static void limit_text(const sl_suite *s, const sl_ceilings *m, const sl_config *c,
                       double pct, char *out, size_t len)
{
    const sl_problem_def *k = c->kernel->problem;
    double eff = efficiency(s, c);
    int memory = m && sl_config_bound(m, c) == SL_BOUND_MEMORY;
    int level = memory ? sl_config_level(m, c) : -1;
    if (c->interrupted)
        snprintf(out, len, "not measured (interrupted)");
    else if (!c->valid)
        snprintf(out, len, "**wrong answer**: not timed, not plotted");
    else if (c->outcome.where == SL_RAN_HOST_FALLBACK)
        snprintf(out, len, "host fallback: CPU code, no GPU here");
    else if (c->outcome.where == SL_RAN_DEVICE)
        snprintf(out, len, "%s", sl_device_words());
    else if (c->variant->flags & SL_FALLBACK)
        snprintf(out, len, "fallback: this build lacks the instructions it needs, so it "
                 "ran the rung below's code");
    else if (!c->foreign && (m == NULL || !m->measured))
        /* Every reason below is held against a measured ceiling. */
        snprintf(out, len, "not known: %s", m == NULL ? "the run stopped before the "
                 "machine's ceilings were probed" : "the ceiling probe measured nothing");
    else if (memory && level > 0)
        snprintf(out, len, "%s bandwidth: %.1f of the %.1f GB/s measured there (its %.0f KiB "
                 "live in %s)", sl_level_name(level),
                 c->rate * k->bytes_moved(&c->problem) / c->outcome.work * 1e-9,
                 sl_config_bandwidth(m, c) * 1e-9, k->bytes_held(&c->problem) / 1024.0,
                 sl_level_name(level));
    else if (memory)
        snprintf(out, len, "memory: %.1f of the %.1f GB/s measured",
                 c->rate * k->bytes_moved(&c->problem) / c->outcome.work * 1e-9,
                 sl_config_bandwidth(m, c) * 1e-9);
    else if ((c->variant->flags & (SL_USES_SIMD | SL_EXPERT)) && sl_mca_limit_text(m, c, out, len))
        ; /* the analysis of its loop, beside what it measured */
    else if (pct >= AT_THE_LIMIT)
        snprintf(out, len, "the machine: %s", sl_config_limit(m, c).why ?
                 sl_config_limit(m, c).why : "its ceiling");
    else if (eff > 0.0 && eff < EFFICIENT)
        snprintf(out, len, "threads: %.0f%% efficiency on %d", 100.0 * eff, c->threads_used);
    else if (c->foreign)
        snprintf(out, len, "not known: %s's compiled code", c->tree);
    else if (!(c->variant->flags & SL_USES_SIMD))
        snprintf(out, len, "one lane per instruction (scalar code)");
    else if (k->image && (c->variant->flags & SL_EXPERT))
        snprintf(out, len, "the escape test and count beside the multiplies");
    else if (k->image)
        snprintf(out, len, "lanes idle on early-escaping pixels; iteration latency");
    else
        snprintf(out, len, "the work unit's other instructions");
}

/* Is `name` a teaching stage of kernel k's own table (SL_STAGE)? Another
 * compiler's build of it is a stage too. */
static int own_stage(const sl_kernel *k, const char *name)
{
    const sl_variant *v = sl_find_variant(k, name);
    return v && (v->flags & SL_STAGE);
}

/* The variants a headline block walks, in ladder order: the kernel table's
 * (teaching stages aside), or for rows another program measured (foreign.h)
 * theirs, in the order its file gave them. */
static void block_variants(const sl_suite *s, const sl_config *k0, const sl_variant **out,
                           int *n)
{
    *n = 0;
    if (!k0->foreign) {
        for (size_t v = 0; v < k0->kernel->count && *n < SL_MAX_RUNGS; v++)
            if (!(k0->kernel->variants[v].flags & SL_STAGE))
                out[(*n)++] = &k0->kernel->variants[v];
        return;
    }
    for (size_t i = 0; i < s->count && *n < SL_MAX_RUNGS; i++) {
        const sl_config *c = &s->configs[i];
        int seen = 0;
        for (int j = 0; j < *n; j++)
            seen |= out[j] == c->variant;
        if (!seen && c->foreign && c->kernel->problem == k0->kernel->problem &&
            strcmp(c->tree, k0->tree) == 0 && !own_stage(k0->kernel, c->variant->name))
            out[(*n)++] = c->variant;
    }
}

/* The rungs of the kernel of configuration k0: each variant of its table
 * that is not a stage, at the most threads with a core each and, for
 * variants with a schedule, the fastest undisturbed schedule. Returns how
 * many (into out[0 .. cap)). */
static int sl_story_rungs(const sl_suite *s, const sl_ceilings *m, const sl_config *k0,
                          sl_rung *out, int cap)
{
    int n = 0, nvars = 0;
    const sl_variant *vars[SL_MAX_RUNGS];
    block_variants(s, k0, vars, &nvars);
    for (int v = 0; v < nvars && n < cap; v++) {
        const sl_variant *var = vars[v];
        const sl_config *best = NULL;
        for (size_t i = 0; i < s->count; i++) {
            const sl_config *c = &s->configs[i];
            if (c->variant == var &&
                c->kernel->problem == k0->kernel->problem && !c->weak &&
                strcmp(c->tree, k0->tree) == 0 && better(c, best))
                best = c;
        }
        if (best == NULL)
            continue;
        sl_rung *r = &out[n++];
        r->c = best;
        double ceil = m && timed_ok(best) ? sl_config_ceiling(m, best) : 0.0;
        r->pct = ceil > 0.0 ? 100.0 * best->rate / ceil : 0.0;
        limit_text(s, m, best, r->pct, r->limit, sizeof r->limit);
    }
    return n;
}

int sl_story_is_rung(const sl_suite *s, const sl_config *c)
{
    sl_rung rungs[SL_MAX_RUNGS];
    int n = sl_story_rungs(s, NULL, c, rungs, SL_MAX_RUNGS);
    for (int i = 0; i < n; i++)
        if (rungs[i].c == c)
            return 1;
    return 0;
}

/* The first configuration of each kernel and tree: the headline's blocks. */
static int starts_block(const sl_suite *s, size_t i)
{
    const sl_config *c = &s->configs[i];
    for (size_t j = 0; j < i; j++)
        if (s->configs[j].kernel->problem == c->kernel->problem &&
            strcmp(s->configs[j].tree, c->tree) == 0)
            return 0;
    return 1;
}

/* % of ceiling; a little above 100 is the probe's own noise. */
/* Above this, a rate past its ceiling is no rounding: the footnote says
 * what it means. */
#define PAST_CEILING 110.0

static void pct_text(double pct, char *out, size_t len)
{
    if (pct <= 0.0)
        snprintf(out, len, "-");
    else if (pct > 100.0 && pct <= PAST_CEILING)
        snprintf(out, len, "~100%%");
    else if (pct > PAST_CEILING)
        snprintf(out, len, "%.0f%%!", pct);
    else
        snprintf(out, len, "%.0f%%", pct);
}

/* "383 ms ±1%", and "(disturbed)" when its median holds disturbed
 * repetitions. */
static void median_text(const sl_config *c, char *out, size_t len)
{
    char pm[16];
    sl_time_text(out, len, timed_ok(c) ? c->median : NAN);
    sl_precision_text(c, pm, sizeof pm);
    if (timed_ok(c) && pm[0])
        snprintf(out + strlen(out), len - strlen(out), " %s", pm);
    if (timed_ok(c) && c->contaminated)
        snprintf(out + strlen(out), len - strlen(out), " (disturbed)");
}

/* Is c a timed row whose interval is wider than the run's target? */
static int short_of_target(const sl_config *c)
{
    return timed_ok(c) && c->short_of != SL_AT_TARGET && c->short_of != SL_NO_TARGET;
}

/* Under the headline: what ± is, and each row short of the target with
 * its reason. */
static void precision_note(FILE *f, const sl_suite *s, const sl_config *const *rows, int n)
{
    char list[1024] = "", pm[16], variant[80];
    size_t len = 0;
    int missed = 0;
    for (int i = 0; i < n; i++) {
        const sl_config *c = rows[i];
        if (!short_of_target(c) || len + 1 >= sizeof list)
            continue;
        sl_config_label(c, variant, sizeof variant);
        if (c->up.n > 0)
            sl_speedup_precision_text(c, pm, sizeof pm);
        else
            sl_precision_text(c, pm, sizeof pm);
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s %s %s%s (%s, %d "
                                "repetitions)", missed++ ? "; " : "",
                                c->kernel->problem->name, variant, c->up.n > 0 ? "speedup " : "",
                                pm, sl_short_of_name(c->short_of), c->up.n > 0 ? c->up.n : c->kept);
    }
    char interval[64];
    sl_interval_label(s, interval, sizeof interval);
    fprintf(f, "\n\u00b1: the wider side of the interval (%s): a time's, of its median; a "
               "speedup's, of the ratios of its repetitions to scalar's timed beside them, "
               "which a slower host slows alike.", interval);
    if (s->target > 0.0 && missed == 0)
        fprintf(f, " Every row is within the \u00b1%.3g%% target.", 100.0 * s->target);
    else if (s->target > 0.0)
        fprintf(f, " Short of the \u00b1%.3g%% target: %s.", 100.0 * s->target, list);
    fprintf(f, "\n");
}

/* "7.97x ±1%": the speedup, and its paired interval's wider side. */
static void speedup_text(const sl_config *c, char *out, size_t len)
{
    char pm[16];
    sl_speedup_precision_text(c, pm, sizeof pm);
    if (c->speedup > 0.0)
        snprintf(out, len, "%.2fx%s%s", c->speedup, pm[0] ? " " : "", pm);
    else
        snprintf(out, len, "-");
}

void sl_story_headline_md(FILE *f, const sl_suite *s, const sl_ceilings *m)
{
    sl_rung rungs[SL_MAX_RUNGS];
    const sl_config *shown[4 * SL_MAX_RUNGS];
    int past = 0, nshown = 0;
    fprintf(f, "| kernel | rung | threads | median | speedup | %% of ceiling "
               "| what limits it |\n|---|---|--:|--:|--:|--:|---|\n");
    for (size_t i = 0; i < s->count; i++) {
        if (!starts_block(s, i))
            continue;
        int n = sl_story_rungs(s, m, &s->configs[i], rungs, SL_MAX_RUNGS);
        for (int r = 0; r < n; r++) {
            const sl_config *c = rungs[r].c;
            if (nshown < (int)(sizeof shown / sizeof shown[0]))
                shown[nshown++] = c;
            char kernel[64] = "";
            if (r == 0)
                snprintf(kernel, sizeof kernel, sl_config_shows_tree(c) ? "%s (%s)" : "%s",
                         c->kernel->problem->name, c->tree);
            char variant[80], threads[48], med[48], sp[24], pct[16];
            sl_config_label(c, variant, sizeof variant);
            sl_config_threads(c, threads, sizeof threads);
            median_text(c, med, sizeof med);
            speedup_text(c, sp, sizeof sp);
            pct_text(rungs[r].pct, pct, sizeof pct);
            past |= rungs[r].pct > PAST_CEILING;
            fprintf(f, "| %s | %s | %s | %s | %s | %s | %s |\n", kernel, variant, threads, med,
                    sp, pct, rungs[r].limit);
        }
    }
    precision_note(f, s, shown, nshown);
    if (past)
        fprintf(f, "\n! above the ceiling: a rate the model does not allow, so the "
                   "measurement is outside it (a clock that boosts for the kernel but not for "
                   "the probe, a disturbed probe, or a memory whose bandwidth changed between "
                   "the probe and the kernel, as a shared host's does): read it as about "
                   "100%%.\n");
}

/* Do two measurements of the same thing agree? */
static int agree(const sl_config *a, const sl_config *b)
{
    if (a->ci_low <= b->ci_high && b->ci_low <= a->ci_high)
        return 1;
    return fabs(a->median - b->median) <= CONSISTENT_WITHIN * fmin(a->median, b->median);
}

/* Do a and b measure the same thing twice? A weak point whose problem is
 * the strong one's; or one thread under two schedules (one thread does
 * every row whatever the schedule). */
static int measured_twice(const sl_config *a, const sl_config *b)
{
    if (a->kernel->problem != b->kernel->problem || a->variant != b->variant ||
        strcmp(a->tree, b->tree) != 0 || a->threads_used != b->threads_used ||
        a->problem.size != b->problem.size ||
        sl_problem_height(&a->problem) != sl_problem_height(&b->problem))
        return 0;
    if (a->weak != b->weak)
        return sl_schedule_equal(a->problem.schedule, b->problem.schedule);
    return !a->weak && a->threads_used == 1 &&
           !sl_schedule_equal(a->problem.schedule, b->problem.schedule);
}

/* Two configurations measured twice (a weak point equal to a strong one, a
 * 1-thread point under two schedules) whose medians disagree beyond their
 * intervals: written as list items; returns how many. */
static int sl_story_inconsistent(FILE *f, const sl_suite *s)
{
    int n = 0;
    for (size_t i = 0; i < s->count; i++)
        for (size_t j = i + 1; j < s->count; j++) {
            const sl_config *a = &s->configs[i], *b = &s->configs[j];
            if (!timed_ok(a) || !timed_ok(b) || !measured_twice(a, b) || agree(a, b))
                continue;
            char ta[80], tb[80];
            sl_interval_text(ta, sizeof ta, a->median, a->ci_low, a->ci_high);
            sl_interval_text(tb, sizeof tb, b->median, b->ci_low, b->ci_high);
            if (f)
                fprintf(f, "- **inconsistent**: %s took %s and %s %s: the same work "
                           "measured twice disagrees, so something else ran (or the "
                           "machine changed speed) while one of them was timed.\n",
                        a->name, ta, b->name, tb);
            n++;
        }
    return n;
}

/* The warning for the configurations still disturbed after timing (what:
 * "disturbed" by other processes, "stalled"), saying "even after being
 * measured again" only where that happened. Returns the lines written. */
static int disturbed_line(FILE *f, const char *what, const char *why, int n, int again,
                          int timed, int stopped)
{
    if (n == 0)
        return 0;
    fprintf(f, "- **%s**: %d of %d configurations %s%s: marked \"disturbed\" in every "
               "table and plot. Rerun on a quiet machine before putting them on a slide.\n",
            what, n, timed, why,
            again == n ? ", even after being measured again" :
            again ? "; some were measured again, and still were" :
            stopped ? ", and were not measured again (the run was interrupted)" :
            ", and were not measured again (--retry-busy 0)");
    return 1;
}

/* How many configurations missed the precision target, and why. */
static void precision_warning(FILE *f, const sl_suite *s, const int *short_of, int missed,
                              int timed)
{
    static const struct { int why; const char *says; } whys[] = {
        { SL_SHORT_NOISY, "too noisy (its repetitions all spent)" },
        { SL_SHORT_BUDGET, "the time budget ran out first (--budget)" },
        { SL_SHORT_DISTURBED, "too few undisturbed repetitions" },
        { SL_SHORT_SHIFTED, "shifted over time (their repetitions came in stretches, "
                            "faster and slower: the machine's speed changed while they "
                            "ran, e.g. a neighbour on a shared host, and their intervals "
                            "assume it did not)" },
        { SL_SHORT_INTERRUPTED, "interrupted" } };
    fprintf(f, "- **precision**: %d of %d configurations are short of the \u00b1%.3g%% target "
               "for the median's 95%% interval:", missed, timed, 100.0 * s->target);
    const char *sep = " ";
    for (size_t k = 0; k < sizeof whys / sizeof whys[0]; k++)
        if (short_of[whys[k].why]) {
            fprintf(f, "%s%d %s", sep, short_of[whys[k].why], whys[k].says);
            sep = ", ";
        }
    fprintf(f, ". The details give each row's.\n");
}

/* A stretch in which every configuration ran slower while this machine
 * was quiet (slow: repetitions left out for it). Returns the items written. */
static int drift_warning(FILE *f, const sl_suite *s, int slow)
{
    sl_drift d;
    if (!sl_suite_drift(s, &d) || d.others > SL_BUSY_CORES)
        return 0;
    fprintf(f, "- **the machine itself slowed down**: from %.0f s to %.0f s into the "
               "timing, repetitions of every configuration ran %.0f%% slower than their "
               "medians, all at once, while other processes here used at most %.2f of "
               "a core: something outside this machine's view (a neighbour on a shared "
               "host, the CPU's clock). %s\n", d.from, d.to, 100.0 * (d.slowest - 1.0),
            d.others, slow ? "The repetitions timed in such stretches were left out "
            "of the medians and timed again (samples.csv: left_out \"slow\")." :
            "The medians absorb part of it; compare runs with care.");
    return 1;
}

int sl_story_warnings(FILE *f, const sl_suite *s, const sl_breakdown *bd)
{
    int n = 0, stopped = 0, invalid = 0, disturbed = 0, disturbed_again = 0, again = 0;
    int stalled = 0, stalled_again = 0, unknown = 0, timed = 0;
    int short_of[SL_SHORT_INTERRUPTED + 1] = { 0 }, missed = 0, fallback = 0, short_threads = 0;
    int slow = 0;
    const sl_config *first_bad = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        stopped += c->interrupted;
        short_threads += sl_config_short_of_threads(c);
        if (!c->valid && !c->interrupted) {
            invalid++;
            first_bad = first_bad ? first_bad : c;
        }
        if (!timed_ok(c))
            continue;
        timed++;
        disturbed += c->contaminated && c->disturbed > 0;
        disturbed_again += c->contaminated && c->disturbed > 0 && c->remeasured > 0;
        stalled += c->contaminated && c->stalled > 0;
        stalled_again += c->contaminated && c->stalled > 0 && c->remeasured > 0;
        again += c->remeasured > 0 && !c->contaminated;
        unknown += c->others_cpu < 0.0;
        missed += short_of_target(c);
        short_of[c->short_of] += short_of_target(c);
        for (int r = 0; !c->foreign && r < c->timed; r++)
            slow += (c->left_out[r] & SL_LEFT_SLOW) != 0;
        fallback += c->outcome.where == SL_RAN_HOST_FALLBACK;
    }
    if (stopped && ++n)
        fprintf(f, "- **INTERRUPTED**: a signal stopped this run; %d of %zu configurations "
                   "were not measured. What is here was validated and timed in full.\n",
                stopped, s->count);
    if (invalid && ++n)
        fprintf(f, "- **%d configuration(s) gave a wrong answer** (first: %s): not timed, "
                   "no speedup, left out of the plots; exit code 3.\n", invalid,
                first_bad->name);
    char why[96];
    snprintf(why, sizeof why, "ran while other processes used more than %.2g of a core",
             SL_BUSY_CORES);
    n += disturbed_line(f, "disturbed", why, disturbed, disturbed_again, timed, stopped);
    n += disturbed_line(f, "stalled", "had repetitions in which the bench itself hardly "
                        "ran (stopped: SIGSTOP or Ctrl-Z, a suspended virtual machine, a "
                        "spent CPU quota)", stalled, stalled_again, timed, stopped);
    if (again && ++n)
        fprintf(f, "- re-measured: %d configuration(s) had repetitions disturbed by other "
                   "processes, stopped, or timed while the whole machine ran slower; those "
                   "were left out of the medians and timed again at the end (samples.csv: "
                   "left_out; results.csv: remeasured).\n", again);
    char slurm[512];
    if (sl_slurm_cpu_warning(slurm, sizeof slurm) && ++n)
        fprintf(f, "- **SLURM gave fewer CPUs than asked**: %s.\n", slurm);
    if (short_threads && ++n)
        fprintf(f, "- **fewer threads than asked**: %d configuration(s) got fewer threads "
                   "than they asked for (%s): their rows say so (\"1 (2 asked)\"), and the "
                   "scaling studies leave them out.\n", short_threads,
                sl_threads_short_cause());
    if (unknown == timed && timed && ++n)
        fprintf(f, "- other processes' CPU time could not be read on this system: the "
                   "machine's quietness was **not measured**.\n");
    n += drift_warning(f, s, slow);
    if (missed && ++n)
        precision_warning(f, s, short_of, missed, timed);
    n += sl_story_inconsistent(f, s);
    if (fallback && ++n)
        fprintf(f, "- %d gpu configuration(s) ran on the **host fallback** (no offload "
                   "device): their times are CPU figures, not GPU ones%s.\n", fallback,
                bd && bd->wanted ? ", and so is the GPU breakdown" : "");
    if (s->nskipped && ++n)
        fprintf(f, "- %d variant(s) skipped (%s): %s.\n", s->nskipped, s->skipped[0],
                s->skip_reason);
    return n;
}

/* The largest effect of the schedule at any thread count of a kernel:
 * slowest / fastest median, with the two schedules and the threads. */
static double schedule_effect(const sl_suite *s, const sl_config *k0, const sl_config **fast,
                              const sl_config **slow)
{
    double most = 1.0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *a = &s->configs[i];
        /* The sweep's schedules only: "as-written" names none. */
        if (!timed_ok(a) || a->weak || !(a->variant->flags & SL_USES_SCHEDULE) ||
            a->kernel->problem != k0->kernel->problem || strcmp(a->tree, k0->tree) != 0 ||
            a->problem.schedule.kind == SL_SCHED_DEFAULT)
            continue;
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *b = &s->configs[j];
            if (!timed_ok(b) || !same_rung(a, b) || b->threads_used != a->threads_used ||
                b->problem.schedule.kind == SL_SCHED_DEFAULT || a->median >= b->median)
                continue;
            if (b->median / a->median > most) {
                most = b->median / a->median;
                *fast = a;
                *slow = b;
            }
        }
    }
    return most;
}

/* One finding per kernel: its best rung, how far SIMD and threads each
 * took it, and the schedule's effect where there is one. */
static void kernel_finding(FILE *f, const sl_suite *s, const sl_ceilings *m,
                           const sl_config *k0)
{
    sl_rung rungs[SL_MAX_RUNGS];
    int n = sl_story_rungs(s, m, k0, rungs, SL_MAX_RUNGS);
    const sl_rung *best = NULL, *simd = NULL, *threads = NULL;
    for (int r = 0; r < n; r++) {
        const sl_config *c = rungs[r].c;
        if (c->speedup <= 0.0 || c->outcome.where != SL_RAN_HOST)
            continue;
        /* The ladder's first rung of each kind: an imported ladder may
         * have several threaded rungs (numba's prange, prange_nprandom). */
        unsigned fl = c->variant->flags & (SL_USES_SIMD | SL_USES_THREADS);
        if (fl == SL_USES_SIMD && !simd)
            simd = &rungs[r];
        if (fl == SL_USES_THREADS && !threads)
            threads = &rungs[r];
        if (best == NULL || c->speedup > best->c->speedup)
            best = &rungs[r];
    }
    if (best == NULL)
        return;
    char label[80];
    sl_config_label(best->c, label, sizeof label);
    char kernel[64];
    snprintf(kernel, sizeof kernel, sl_config_shows_tree(k0) ? "%s (%s)" : "%s", k0->kernel->problem->name,
             k0->tree);
    fprintf(f, "- **%s**: %s on %d thread%s is %.1fx scalar", kernel, label, best->c->threads_used, best->c->threads_used == 1 ? "" : "s",
            best->c->speedup);
    char pct[16];
    pct_text(best->pct, pct, sizeof pct);
    if (best->pct > 0.0 && m && sl_config_bound(m, best->c) == SL_BOUND_MEMORY)
        fprintf(f, " (%s of the %s roof: %s-bound)", pct,
                sl_level_name(sl_config_level(m, best->c)),
                sl_level_name(sl_config_level(m, best->c)));
    else if (best->pct > 0.0)
        fprintf(f, " (%s of the %s ceiling)", pct,
                sl_ceiling_name(sl_config_limit(m, best->c).kind));
    if (simd && simd != best)
        fprintf(f, "; SIMD alone %.1fx", simd->c->speedup);
    if (threads && threads != best)
        fprintf(f, ", threads alone %.1fx", threads->c->speedup);
    double eff = efficiency(s, best->c);
    if (eff > 1.0)
        fprintf(f, "; scaling ideal within noise on %d threads", best->c->threads_used);
    else if (eff > 0.0)
        fprintf(f, "; %.0f%% parallel efficiency on %d threads", 100.0 * eff,
                best->c->threads_used);
    const sl_config *fast = NULL, *slow = NULL;
    double effect = schedule_effect(s, k0, &fast, &slow);
    char a[32], b[32];
    if (fast && effect >= SCHEDULE_MATTERS) {
        sl_schedule_name(fast->problem.schedule, a, sizeof a);
        sl_schedule_name(slow->problem.schedule, b, sizeof b);
        fprintf(f, "; the schedule matters most for %s on %d threads%s: %s is %.2fx "
                   "faster than %s", fast->variant->name, fast->threads_used,
                fast->oversubscribed ? " (oversubscribed)" : "", a, effect, b);
    } else if (fast) {
        fprintf(f, "; the schedule changed the time by less than %.0f%%",
                100.0 * (SCHEDULE_MATTERS - 1.0));
    }
    fprintf(f, ".\n");
}

int sl_story_findings(FILE *f, const sl_suite *s, const sl_ceilings *m,
                      const sl_breakdown *bd)
{
    int n = 0;
    for (size_t i = 0; i < s->count; i++)
        if (starts_block(s, i)) {
            kernel_finding(f, s, m, &s->configs[i]);
            n++;
        }
    double most = -1.0;
    int timed = 0, again = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (timed_ok(c) && c->others_cpu >= 0.0) {
            most = c->others_cpu > most ? c->others_cpu : most;
            timed++;
            again += c->remeasured > 0;
        }
    }
    if (timed && most <= SL_BUSY_CORES && again && ++n)
        fprintf(f, "- The measurements kept are quiet: other processes used at most %.2f of a "
                   "core while they ran (%d configuration(s) were measured again to get "
                   "there).\n", most, again);
    else if (timed && most <= SL_BUSY_CORES && ++n)
        fprintf(f, "- The machine was quiet: other processes used at most %.2f of a core "
                   "while any configuration was timed.\n", most);
    if (bd && bd->wanted && bd->nrows > 0 && bd->cross_where == SL_RAN_DEVICE && ++n) {
        if (bd->crossover)
            fprintf(f, "- GPU: end to end, the device beats the best CPU from %lldx%lld "
                       "pixels up.\n", (long long)bd->crossover, (long long)bd->crossover);
        else
            fprintf(f, "- GPU: end to end, the best CPU was faster at every size "
                       "measured.\n");
    }
    return n;
}
