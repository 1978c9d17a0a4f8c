/* mca_report.c - predicted beside measured cycles (mca_report.h). */
#include "mca_report.h"

#include <string.h>

#include "ceiling_report.h"
#include "labels.h"

/* Measured over predicted outside these, the two disagree. */
#define SLOWER_THAN_MODEL 1.3
#define FASTER_THAN_MODEL 0.77

const sl_mca_row *sl_config_mca(const sl_ceilings *m, const sl_config *c)
{
    /* A gpu variant on the host fallback ran its loop on this CPU too. */
    if (m == NULL || m->mca.count == 0 || strcmp(c->tree, "solutions") != 0 || c->foreign ||
        (c->outcome.where != SL_RAN_HOST && c->outcome.where != SL_RAN_HOST_FALLBACK))
        return NULL;
    sl_limit l = sl_variant_limit(c->kernel->problem, c->variant);
    return l.ops > 0.0 ? sl_mca_find(&m->mca, c->kernel->problem->name, c->variant->name, l.kind)
                       : NULL;
}

/* Work units one iteration covers. */
static double units_per_iteration(const sl_config *c, const sl_mca_row *r)
{
    return r->lanes / sl_variant_limit(c->kernel->problem, c->variant).ops;
}

double sl_config_measured_cycles(const sl_ceilings *m, const sl_config *c,
                                 const sl_mca_row *r)
{
    if (m->clock_hz <= 0.0 || c->rate <= 0.0 || !c->valid || c->timed <= 0)
        return 0.0;
    return m->clock_hz * sl_config_cores(c) * units_per_iteration(c, r) / c->rate;
}

/* Vector instructions of 512 >> w bits the probe saw issued a cycle: its
 * full width's rate for the build's widest vectors, its half width's for
 * narrower ones where it probed that (a core may issue more of them:
 * probe.c); 0 when the rate or the clock is unknown. */
static double issue_per_cycle(const sl_ceilings *m, int w)
{
    int narrower = (512 >> w) < 64 * m->lanes && sl_ceiling_has_half(m, SL_CEILING_VECTOR);
    int lanes = narrower ? m->half_lanes : m->lanes;
    return m->clock_hz > 0.0 && lanes > 0
           ? m->by_width[SL_CEILING_VECTOR][narrower] / lanes / m->clock_hz : 0.0;
}

/* Doubles per vector in the loop's widest vector instructions: 8 or 4
 * (zmm, ymm); 0 for a loop with neither, since xmm registers also hold
 * scalar operands (vmulsd) and mca.sh does not tell them apart. A
 * compiler may build narrower vectors than the ISA has: GCC's and clang's
 * tuning for Intel's AVX-512 cores prefers 256-bit ones. */
static int loop_lanes(const sl_mca_row *r)
{
    return r->vectors[0] > 0 ? 8 : r->vectors[1] > 0 ? 4 : 0;
}

/* The cycles the loop's vector instructions need, each width at its
 * rate; 0 when a rate is unknown. */
static double issue_cycles(const sl_ceilings *m, const sl_mca_row *r)
{
    double cycles = 0.0;
    for (int w = 0; w < SL_MCA_WIDTHS; w++) {
        double per_cycle = issue_per_cycle(m, w);
        if (per_cycle <= 0.0)
            return 0.0;
        cycles += r->vectors[w] / per_cycle;
    }
    return cycles;
}

/* The prediction: llvm-mca's cycles, or the issue bound where that is
 * more (llvm-mca 19 issues Zen 4's 512-bit instructions as if whole). */
static double predicted(const sl_ceilings *m, const sl_mca_row *r)
{
    double issue = issue_cycles(m, r);
    return issue > r->cycles ? issue : r->cycles;
}

/* What binds the loop, in a few words: the model's finding, or the
 * issue bound. */
static void binds(const sl_ceilings *m, const sl_mca_row *r, char *out, size_t len)
{
    double issue = issue_cycles(m, r);
    if (issue > r->cycles) {
        snprintf(out, len, "vector issue:");
        for (int w = 0, first = 1; w < SL_MCA_WIDTHS; w++) {
            if (r->vectors[w] == 0)
                continue;
            snprintf(out + strlen(out), len - strlen(out), first ? " %d %d-bit instructions at "
                     "the %.2f a cycle measured" : ", %d %d-bit at %.2f", r->vectors[w],
                     512 >> w, issue_per_cycle(m, w));
            first = 0;
        }
        snprintf(out + strlen(out), len - strlen(out), " (llvm-mca: %.1f cycles)", r->cycles);
    }
    else if (strcmp(r->bound, "latency") == 0 && r->chain[0])
        snprintf(out, len, "a dependency chain from %s (ports alone: %.1f cycles)", r->chain,
                 r->rthroughput);
    else
        snprintf(out, len, "%s ports, most of all %s", r->resource, r->instruction);
}

/* The section's sentence on the issue bound, with the rates it uses;
 * "" where the probe measured none. */
static void issue_sentence(const sl_ceilings *m, char *out, size_t len)
{
    out[0] = '\0';
    if (issue_per_cycle(m, 0) <= 0.0)
        return;
    snprintf(out, len, " Where the loop's vector instructions, each width at the issue rate "
             "the probe measured for it (a cycle:");
    const char *sep = "";
    for (int w = 0; w < SL_MCA_WIDTHS; w++)
        if ((512 >> w) <= 64 * m->lanes) {
            snprintf(out + strlen(out), len - strlen(out), "%s %d-bit %.2f", sep, 512 >> w,
                     issue_per_cycle(m, w));
            sep = ",";
        }
    snprintf(out + strlen(out), len - strlen(out), "), need more cycles than llvm-mca "
             "simulates, that bound is the prediction.");
}

/* Where to look when measured and predicted disagree; "" when they agree. */
static const char *disagreement(const sl_ceilings *m, const sl_config *c, double ratio)
{
    if (sl_config_bound(m, c) == SL_BOUND_MEMORY && ratio > SLOWER_THAN_MODEL)
        return "the loop waits for its bytes (the model assumes they are in L1)";
    if (ratio > SLOWER_THAN_MODEL && c->kernel->problem->image &&
        (c->variant->flags & SL_USES_SIMD))
        return "lanes idle: a vector iterates until its last pixel escapes, and the model "
               "counts every lane busy";
    if (ratio > SLOWER_THAN_MODEL)
        return "time outside the loop (threads' waits, its tail, calls) or what the model "
               "leaves out (branches mispredicted, memory)";
    if (ratio < FASTER_THAN_MODEL)
        return "faster than modelled: the loop does fewer of the limiting operations a unit "
               "than the kernel counts, or the model is pessimistic";
    return "";
}

int sl_mca_limit_text(const sl_ceilings *m, const sl_config *c, char *out, size_t len)
{
    const sl_mca_row *r = sl_config_mca(m, c);
    double measured = r ? sl_config_measured_cycles(m, c, r) : 0.0;
    if (r == NULL || measured <= 0.0 || r->cycles <= 0.0)
        return 0;
    char what[192];
    binds(m, r, what, sizeof what);
    double p = predicted(m, r);
    const char *why = disagreement(m, c, measured / p);
    char lanes[48] = "";
    int n = loop_lanes(r);
    if (n > 0 && n < m->lanes)
        snprintf(lanes, sizeof lanes, ", %d-lane vectors (the ISA's have %d)", n, m->lanes);
    snprintf(out, len, "llvm-mca%s: %s; %.1f cycles an iteration (%.3g %s) predicted, %.1f "
             "measured%s%s%s", lanes, what, p, units_per_iteration(c, r),
             c->kernel->problem->work_unit, measured, why[0] ? " (" : "", why,
             why[0] ? ")" : "");
    return 1;
}

/* The row to show for c's kernel and variant: its first run on the
 * fewest threads. */
static const sl_config *fewest_threads(const sl_suite *s, const sl_config *c)
{
    const sl_config *best = NULL;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *o = &s->configs[i];
        if (o->kernel->problem == c->kernel->problem && o->variant == c->variant &&
            strcmp(o->tree, "solutions") == 0 && !o->weak && o->valid && o->timed > 0 &&
            (best == NULL || o->threads_used < best->threads_used))
            best = o;
    }
    return best;
}

void sl_print_mca(FILE *f, const sl_ceilings *m, const sl_suite *s)
{
    int rows = 0, narrower = 0;
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        const sl_mca_row *r = sl_config_mca(m, c);
        if (r == NULL || fewest_threads(s, c) != c)
            continue;
        double measured = sl_config_measured_cycles(m, c, r);
        if (measured <= 0.0)
            continue;
        if (rows++ == 0) {
            char issue[320];
            issue_sentence(m, issue, sizeof issue);
            fprintf(f, "\n## Predicted and measured cycles\n\nEach solution rung's hot loop as "
                       "compiled, analysed by llvm-mca for this CPU (%s), beside the cycles an "
                       "iteration took here: the measured rate, the cores, and the clock "
                       "measured by a chain of dependent adds (%.2f GHz). An iteration covers "
                       "its loop's limiting operations over those the kernel counts per "
                       "unit.%s `mca-solutions.csv` in the build folder has every "
                       "loop.\n\n"
                       "| kernel | rung | threads | loop | units an iteration | predicted "
                       "cycles | measured | measured / predicted | what binds "
                       "|\n|---|---|--:|---|--:|--:|--:|--:|---|\n",
                    r->cpu, m->clock_hz * 1e-9, issue);
        }
        char label[80], what[192];
        sl_config_label(c, label, sizeof label);
        if (r->cycles > 0.0)
            binds(m, r, what, sizeof what);
        else
            snprintf(what, sizeof what, "not modelled: %s", r->note);
        char threads[24];
        snprintf(threads, sizeof threads, c->threads_used > 0 ? "%d" : "host fallback",
                 c->threads_used);
        char lanes[40] = "";
        int n = loop_lanes(r);
        if (n > 0 && n < m->lanes) {
            snprintf(lanes, sizeof lanes, ", %d-lane vectors (of %d)", n, m->lanes);
            narrower = n;
        } else if (n > 0)
            snprintf(lanes, sizeof lanes, ", %d-lane vectors", n);
        fprintf(f, "| %s | %s | %s | %s, %d instructions%s%s%s | %.3g | ",
                c->kernel->problem->name, label, threads, r->loop, r->instructions, lanes,
                r->note[0] && r->cycles > 0.0 ? ", " : "", r->cycles > 0.0 ? r->note : "",
                units_per_iteration(c, r));
        if (r->cycles > 0.0) {
            double p = predicted(m, r);
            const char *why = disagreement(m, c, measured / p);
            fprintf(f, "%.1f | %.1f | %.2f | %s%s%s |\n", p, measured, measured / p, what,
                    why[0] ? "; " : "", why);
        }
        else
            fprintf(f, "- | %.1f | - | %s |\n", measured, what);
    }
    if (rows)
        fprintf(f, "\nA ratio near 1: the loop runs as the model says, and what binds it is "
                   "the machine's. Above %.1f: time goes where the model does not look "
                   "(outside the loop, memory, mispredicted branches); below %.2f: the "
                   "loop does less work a unit than the kernel counts.\n",
                SLOWER_THAN_MODEL, FASTER_THAN_MODEL);
    if (narrower)
        fprintf(f, "\nSome vectorised loops use %d-lane vectors where the ISA has %d: the "
                   "compiler's tuning for this CPU chose them (GCC's and clang's for Intel's "
                   "AVX-512 cores prefer 256-bit vectors; `make bench BUILD=build/wide "
                   "CMAKE_ARGS=-DCMAKE_C_FLAGS=-mprefer-vector-width=512` asks for the full "
                   "width in a build folder of its own, which is not always faster). The "
                   "roofs are the full width's.\n",
                narrower, m->lanes);
}
