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

#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "atomic_file.h"
#include "compare.h"
#include "defaults.h"
#include "labels.h"

const char *sl_ceiling_name(int kind)
{
    switch (kind) {
    case SL_CEILING_FMA: return "FMA";
    case SL_CEILING_DIVIDE: return "divide";
    case SL_CEILING_MUL64: return "64-bit multiply";
    case SL_CEILING_VECTOR: return "vector instruction";
    }
    return "none";
}

/* Cores a configuration had: its threads, at most the machine's; a target
 * region on the host fallback uses the runtime's default team. */
int sl_config_cores(const sl_config *c)
{
    int cores = sl_cores_available();
    int t = c->threads_used > 0 ? c->threads_used : cores;
    return t < cores ? t : cores;
}

/* A limit that names an instruction and counts it: a probe gives it a roof. */
static int counted(sl_limit l)
{
    return l.kind != SL_CEILING_NONE && l.ops > 0.0;
}

/* c's two compute limits: its kernel's instruction (the variant's own
 * where it has one) and the issue roof's vector instructions. */
static void config_limits(const sl_config *c, sl_limit *own, sl_limit *issue)
{
    const sl_problem_def *k = c->kernel->problem;
    *own = sl_variant_limit(k, c->variant);
    *issue = (sl_limit){ SL_CEILING_VECTOR, k->issue_ops, k->issue_why };
}

/* A compute limit's roof for c, in work units per second (0: none). */
static double limit_roof(const sl_ceilings *m, const sl_config *c, sl_limit l)
{
    if (!m->measured || !counted(l) || c->outcome.where == SL_RAN_DEVICE)
        return 0.0;
    return m->per_core[l.kind] * sl_config_cores(c) / l.ops;
}

/* The lower of the kernel's instruction roof and its issue roof, and
 * its limit. */
static sl_limit binding_limit(const sl_ceilings *m, const sl_config *c, double *roof)
{
    sl_limit own, issue;
    config_limits(c, &own, &issue);
    double a = limit_roof(m, c, own), b = limit_roof(m, c, issue);
    int lower = b > 0.0 && (a <= 0.0 || b < a);
    *roof = lower ? b : a;
    return lower ? issue : own;
}

sl_limit sl_config_limit(const sl_ceilings *m, const sl_config *c)
{
    double roof;
    return binding_limit(m, c, &roof);
}

unsigned sl_suite_ceiling_kinds(const sl_suite *s)
{
    unsigned kinds = 0;
    for (size_t i = 0; i < s->count; i++) {
        sl_limit own, issue;
        config_limits(&s->configs[i], &own, &issue);
        kinds |= (counted(own) ? 1u << own.kind : 0u) | (counted(issue) ? 1u << issue.kind : 0u);
    }
    return kinds;
}

/* The two roofs apart, in work units per second (0: none). */
static double sl_config_compute_roof(const sl_ceilings *m, const sl_config *c)
{
    double roof;
    binding_limit(m, c, &roof);
    return roof;
}

/* Where c's arrays live by the cache sizes in b (sl_config_level). */
static int held_level(const sl_bandwidth *b, const sl_config *c)
{
    const sl_problem_def *k = c->kernel->problem;
    if (!k->bytes_moved)
        return -1;
    /* Without its arrays' size, a kernel's bytes come from memory. */
    return k->bytes_held ? sl_cache_level_of(b, k->bytes_held(&c->problem),
                                             sl_config_cores(c)) : 0;
}

int sl_config_level(const sl_ceilings *m, const sl_config *c)
{
    return m->measured ? held_level(&m->memory, c) : -1;
}

unsigned sl_suite_memory_roofs(const sl_suite *s)
{
    sl_bandwidth sizes;
    sl_bandwidth_sizes(&sizes);
    unsigned roofs = 0;
    for (size_t i = 0; i < s->count; i++) {
        int level = held_level(&sizes, &s->configs[i]);
        if (level >= 0)
            roofs |= level > 0 ? SL_ROOF_CACHES : SL_ROOF_MEMORY;
    }
    return roofs;
}

double sl_config_bandwidth(const sl_ceilings *m, const sl_config *c)
{
    int level = sl_config_level(m, c);
    return level > 0 ? sl_cache_bandwidth_for(&m->memory, level, sl_config_cores(c))
           : level == 0 ? sl_bandwidth_for(&m->memory, sl_config_cores(c)) : 0.0;
}

/* Arrays that fit a cache are held against that cache's roof, not the
 * memory's (a memory kernel sized into the cache read "912%" against
 * the memory's). */
static double sl_config_memory_roof(const sl_ceilings *m, const sl_config *c)
{
    const sl_problem_def *k = c->kernel->problem;
    double bytes = k->bytes_moved ? k->bytes_moved(&c->problem) : 0.0;
    double bw = sl_config_bandwidth(m, c);
    if (!m->measured || bytes <= 0.0 || bw <= 0.0 || c->outcome.work <= 0.0 ||
        c->outcome.where == SL_RAN_DEVICE)
        return 0.0;
    return bw * c->outcome.work / bytes;
}

/* The lower of the two roofs (0: neither), and which it is. */
static double lower_roof(const sl_ceilings *m, const sl_config *c, sl_bound *bound)
{
    double compute = sl_config_compute_roof(m, c), memory = sl_config_memory_roof(m, c);
    if (memory > 0.0 && (compute <= 0.0 || memory < compute)) {
        *bound = SL_BOUND_MEMORY;
        return memory;
    }
    *bound = compute > 0.0 ? SL_BOUND_COMPUTE : SL_BOUND_NONE;
    return compute;
}

double sl_config_ceiling(const sl_ceilings *m, const sl_config *c)
{
    sl_bound bound;
    return lower_roof(m, c, &bound);
}

sl_bound sl_config_bound(const sl_ceilings *m, const sl_config *c)
{
    sl_bound bound;
    lower_roof(m, c, &bound);
    return bound;
}

/* A bandwidth roof's words, by level (0: the memory): its short name,
 * ceiling.csv's name for it, and a row's bound under it. */
static const struct {
    const char *name, *roof, *bound;
} LEVELS[SL_CACHE_LEVELS + 1] = {
    { "memory", "memory bandwidth", "memory-bound" },
    { "L1", "L1 bandwidth", "L1-bound" },
    { "L2", "L2 bandwidth", "L2-bound" },
    { "L3", "L3 bandwidth", "L3-bound" },
};

/* level, or 0 (the memory) where it names no level. */
static int level_or_memory(int level)
{
    return level > 0 && level <= SL_CACHE_LEVELS ? level : 0;
}

const char *sl_level_name(int level)
{
    return LEVELS[level_or_memory(level)].name;
}

/* "memory-bound", "L2-bound", "compute-bound" or "". */
static const char *bound_name(const sl_ceilings *m, const sl_config *c)
{
    sl_bound b = sl_config_bound(m, c);
    return b == SL_BOUND_MEMORY ? LEVELS[level_or_memory(sl_config_level(m, c))].bound
           : b == SL_BOUND_COMPUTE ? "compute-bound" : "";
}

/* The roof c's ceiling is (ceiling.csv's name for it): a bandwidth's for a
 * memory- or cache-bound row, else its instruction's. */
static const char *roof_name(const sl_ceilings *m, const sl_config *c)
{
    if (sl_config_bound(m, c) == SL_BOUND_MEMORY)
        return LEVELS[level_or_memory(sl_config_level(m, c))].roof;
    return sl_ceiling_name(sl_config_limit(m, c).kind);
}

/* The watch's slot of c's ceiling (ceiling.h): its bandwidth's on 1
 * thread or every core, whichever sl_bandwidth_for took, or its
 * instruction's. */
static int ceiling_slot(const sl_ceilings *m, const sl_config *c)
{
    if (sl_config_bound(m, c) != SL_BOUND_MEMORY)
        return sl_config_limit(m, c).kind;
    int level = level_or_memory(sl_config_level(m, c));
    const double *bw = level ? m->memory.cache[level - 1].bytes_per_s : m->memory.bytes_per_s;
    return sl_roof_slot(level, bw[1] > 0.0 && bw[1] < bw[0] * sl_config_cores(c));
}

int sl_config_percent_interval(const sl_ceilings *m, const sl_config *c, double *low,
                               double *high)
{
    double ceil = sl_config_ceiling(m, c), lo, hi;
    *low = *high = 0.0;
    if (ceil <= 0.0 || c->rate <= 0.0 || c->median <= 0.0 || c->ci_low <= 0.0 ||
        c->ci_high <= 0.0)
        return -1;
    sl_roof_interval(m, ceiling_slot(m, c), &lo, &hi);
    *low = 100.0 * c->rate * c->median / c->ci_high / (ceil * hi);
    *high = 100.0 * c->rate * c->median / c->ci_low / (ceil * lo);
    return 0;
}

/* Operations of the kernel's ceiling instruction per byte from memory
 * (the roofline's x); 0 when the kernel moves no bytes worth counting. */
static double sl_config_intensity(const sl_config *c)
{
    const sl_problem_def *k = c->kernel->problem;
    double bytes = k->bytes_moved ? k->bytes_moved(&c->problem) : 0.0;
    if (bytes <= 0.0 || c->outcome.work <= 0.0)
        return 0.0;
    return sl_variant_limit(k, c->variant).ops * c->outcome.work / bytes;
}

/* Configurations the evidence covers: valid, timed, strong study. */
static int has_evidence(const sl_config *c)
{
    return c->valid && c->timed > 0 && !c->weak;
}

/* The vector width kind k's roof was measured at: the build's, or half
 * of it where that did more lanes a second (ceiling.c). */
static int roof_lanes(const sl_ceilings *m, int k)
{
    return sl_ceiling_has_half(m, k) && m->by_width[k][1] > m->by_width[k][0] ? m->half_lanes
                                                                               : m->lanes;
}

/* A ceiling.csv row's tail: the probe calls its slot stands on through
 * the run, and the roof's interval from their spread (ceiling.h). */
static void write_watch(FILE *f, const sl_ceilings *m, int slot, double roof)
{
    double lo, hi;
    int calls = sl_roof_interval(m, slot, &lo, &hi);
    fprintf(f, ",%d,%.6g,%.6g\n", calls, roof * lo, roof * hi);
}

/* evidence.csv's percent_of_ceiling's interval (its last two columns),
 * or empty fields. */
static void write_percent_interval(FILE *f, const sl_ceilings *m, const sl_config *c)
{
    double lo, hi;
    if (sl_config_percent_interval(m, c, &lo, &hi) == 0)
        fprintf(f, ",%.2f,%.2f\n", lo, hi);
    else
        fputs(",,\n", f);
}

int sl_write_ceilings(const char *dir, const sl_ceilings *m, const sl_suite *s)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;
    if (!m->measured)
        return 0;
    if (sl_path_join(path, sizeof path, dir, SL_FILE_CEILINGS) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    /* Compute roofs per core, in lane-operations/s; the memory roof for
     * 1 thread and every core, in GB/s of the loop's own bytes
     * (bandwidth.h), with the probe's working set. */
    fprintf(af.fp, "limit,lanes,threads,per_core_lane_ops_per_s,gb_per_s,spread,stores,"
                   "working_set_bytes,disturbed,others_cpu,probes,interval_low,interval_high\n");
    for (int k = SL_CEILING_DIVIDE; k < SL_CEILING_KINDS; k++) {
        fprintf(af.fp, "%s,%d,1,%.6g,,%.4f,,,%s,", sl_ceiling_name(k), roof_lanes(m, k),
                m->per_core[k], m->spread[k], m->disturbed[k] ? "yes" : "no");
        if (m->others[k] >= 0.0)
            fprintf(af.fp, "%.3f", m->others[k]);
        write_watch(af.fp, m, k, m->per_core[k]);
    }
    for (int k = 0; k < 2 && m->memory.elements > 0; k++) {
        fprintf(af.fp, "memory bandwidth,,%d,,%.6g,%.4f,%s,%lld,%s,", m->memory.threads[k],
                m->memory.bytes_per_s[k] * 1e-9, m->memory.spread[k],
                m->memory.nontemporal[k] ? "non-temporal" : "plain",
                (long long)(3 * 8 * m->memory.elements),
                sl_bandwidth_disturbed(&m->memory, k) ? "yes" : "no");
        write_watch(af.fp, m, sl_roof_slot(0, k), m->memory.bytes_per_s[k] * 1e-9);
    }
    for (int level = 1; level <= SL_CACHE_LEVELS && m->memory.measured; level++) {
        const sl_cache_roof *r = &m->memory.cache[level - 1];
        for (int k = 0; k < 2 && r->bytes_per_s[0] > 0.0; k++) {
            fprintf(af.fp, "%s,,%d,,%.6g,,plain,%lld,%s,", LEVELS[level].roof,
                    m->memory.threads[k], r->bytes_per_s[k] * 1e-9,
                    (long long)(3 * 8 * r->elements[k]), r->disturbed[k] ? "yes" : "no");
            write_watch(af.fp, m, sl_roof_slot(level, k), r->bytes_per_s[k] * 1e-9);
        }
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;

    if (sl_path_format(path, sizeof path, "%s/evidence.csv", dir) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "tree,kernel,variant,threads_used,schedule,ran_on,rate_per_s,work_unit,"
                   "limit,ops_per_unit,ceiling_per_s,percent_of_ceiling,bound,"
                   "ops_per_byte,percent_low,percent_high\n");
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!has_evidence(c))
            continue;
        const sl_problem_def *k = c->kernel->problem;
        char sched[32] = "";
        if (c->variant->flags & SL_USES_SCHEDULE)
            sl_schedule_name(c->problem.schedule, sched, sizeof sched);
        double ceil = sl_config_ceiling(m, c);
        sl_limit l = sl_config_limit(m, c);
        fprintf(af.fp, "%s,%s,%s,%d,\"%s\",%s,%.6g,%s,%s,%g,", c->tree, k->name,
                c->variant->name, c->threads_used, sched, sl_config_where(c), c->rate,
                k->work_unit, roof_name(m, c), l.ops);
        if (ceil > 0.0)
            fprintf(af.fp, "%.6g,%.2f,", ceil, 100.0 * c->rate / ceil);
        else
            fprintf(af.fp, ",,");
        double intensity = sl_config_intensity(c);
        fprintf(af.fp, "%s,", bound_name(m, c));
        if (intensity > 0.0)
            fprintf(af.fp, "%.6g", intensity);
        write_percent_interval(af.fp, m, c);
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

/* The cache probe's paragraph: each level's roof on 1 thread and on
 * every core. */
static void print_cache_roofs(FILE *f, const sl_bandwidth *b)
{
    int any = 0;
    for (int level = 1; level <= SL_CACHE_LEVELS; level++) {
        const sl_cache_roof *r = &b->cache[level - 1];
        if (r->bytes_per_s[0] <= 0.0)
            continue;
        char whose[48];
        snprintf(whose, sizeof whose, r->shared_by > 1 ? "shared by %d" : "a core's own",
                 r->shared_by);
        fprintf(f, "%sL%d (%lld KiB, %s; probed over %lld KiB) **%.1f GB/s on 1 thread**, "
                   "%.1f on %d%s",
                any++ ? "; " : "The cache probe (the same loop over half of each level, at most "
                "4x the level below, plain stores, repeated inside one parallel region; the "
                "fastest of the calls before, through and after the timing): ", level,
                (long long)(r->cache_bytes >> 10), whose,
                (long long)((24 * r->elements[0] + 512) >> 10),
                r->bytes_per_s[0] * 1e-9, r->bytes_per_s[1] * 1e-9, b->threads[1],
                r->disturbed[0] || r->disturbed[1] ? " (disturbed)" : "");
    }
    if (!any)
        return;
    fprintf(f, ". A kernel whose arrays fit a level (a core's own level holding one "
               "thread's part) is held against that level's roof, not the memory's. "
               "`sh scripts/likwid_roofs.sh <this run's folder>` checks every roof "
               "against likwid-bench's (the reference, \"the cache roofs\").");
    /* A shared host's cores at once (compare.h's sl_compare_host reads the
     * same two roofs): what every threaded speedup here stood on. */
    const sl_cache_roof *l1 = &b->cache[0];
    if (l1->bytes_per_s[0] > 0.0 && l1->bytes_per_s[1] > 0.0 && b->threads[1] > 1)
        fprintf(f, " With %d cores at once each core's L1 ran at %.0f%% of its speed alone: "
                   "the threaded speedups here stand on that share, which a shared host can "
                   "change from one run to the next (`make compare` says so).",
                b->threads[1],
                100.0 * sl_compare_together(l1->bytes_per_s[0], l1->bytes_per_s[1], b->threads[1]));
    fputs("\n\n", f);
}

/* A watched roof's name, "memory on 2 threads", "FMA" (ceiling.h's slot). */
static void slot_name(const sl_ceilings *m, int slot, char *out, size_t len)
{
    if (slot < SL_CEILING_KINDS) {
        snprintf(out, len, "%s", sl_ceiling_name(slot));
        return;
    }
    int level = (slot - SL_CEILING_KINDS) / 2, k = (slot - SL_CEILING_KINDS) % 2;
    snprintf(out, len, "%s on %d thread%s", LEVELS[level].name, m->memory.threads[k],
             m->memory.threads[k] == 1 ? "" : "s");
}

/* The roofs through the run (ceiling.h's watch): the calls they stand
 * on, the widest spread, and each drift of 5% or more. */
static void print_watch(FILE *f, const sl_ceilings *m)
{
    int calls = m->watch.n, widest = -1, drifts = 0;
    double lo = 1.0, hi = 1.0;
    for (int slot = 0; slot < SL_ROOF_SLOTS; slot++) {
        double l, h;
        if (sl_roof_interval(m, slot, &l, &h) >= 2 && h - l > hi - lo)
            lo = l, hi = h, widest = slot;
    }
    if (calls < 2 || widest < 0)
        return;
    char name[64];
    slot_name(m, widest, name, sizeof name);
    fprintf(f, "The roofs were probed %d times (before and after the timing"
               "%s); a row's %% of ceiling below has an interval from its own and its roof's, "
               "each roof's from how far its calls spread (the widest, the %s: %+.0f%% to "
               "%+.0f%% of their median).",
            calls, calls > 2 ? ", and between cycles of the timing" : "", name,
            100.0 * (lo - 1.0), 100.0 * (hi - 1.0));
    for (int slot = 0; slot < SL_ROOF_SLOTS; slot++) {
        double d = sl_roof_drift(m, slot);
        if (fabs(d) < 0.05)
            continue;
        slot_name(m, slot, name, sizeof name);
        fprintf(f, "%s%s %+.0f%%", drifts++ ? ", " : " **The host moved through the run**: "
                "the later half of the probes against the earlier, ", name, 100.0 * d);
    }
    fputs(drifts ? " (the rows were timed across that: a speedup pairs its repetitions "
                   "with its baseline's, and a % of ceiling carries its roof's interval).\n\n"
                 : "\n\n", f);
}

/* The bench probes only the roofs its rows stand under: the one it left
 * out, when it probed the other, and why. */
static void print_roofs_left_out(FILE *f, const sl_bandwidth *b)
{
    if (!b->measured || b->roofs == (SL_ROOF_MEMORY | SL_ROOF_CACHES))
        return;
    fprintf(f, "%s\n\n", b->roofs & SL_ROOF_MEMORY
        ? "The caches' roofs were not probed: no row's arrays fit a cache, so no row stands "
          "under one (a run with a row whose arrays fit one probes them)."
        : "The memory's bandwidth was not probed: every row's arrays fit a cache, so no row "
          "stands under the memory's roof (a run with a row past the last cache probes it).");
}

/* The instructions' probes, in a sentence: each roof, and where it was
 * probed at two widths (ceiling.c), which won and the other's figure. */
static void print_probes(FILE *f, const sl_ceilings *m)
{
    fprintf(f, "A probe measured one core's peak throughput (%d-lane vectors", m->lanes);
    if (m->half_lanes > 0 && m->half_lanes < m->lanes)
        fprintf(f, ", and for some instructions %d-lane ones too, the faster per lane kept",
                m->half_lanes);
    fprintf(f, "; median of %d runs, probed before, through and after the timing and the "
               "fastest kept): ", SL_PROBE_RUNS);
    for (int k = SL_CEILING_DIVIDE; k < SL_CEILING_KINDS; k++) {
        fprintf(f, "%s%s %.3g G lane-ops/s", k > SL_CEILING_DIVIDE ? ", " : "",
                sl_ceiling_name(k), m->per_core[k] * 1e-9);
        const double *w = m->by_width[k];
        if (roof_lanes(m, k) != m->lanes)
            fprintf(f, " in %d-lane vectors (%.3g G in %d-lane ones; ", m->half_lanes,
                    w[0] * 1e-9, m->lanes);
        else if (sl_ceiling_has_half(m, k))
            fprintf(f, " (%.3g G in %d-lane vectors; ", w[1] * 1e-9, m->half_lanes);
        else
            fputs(" (", f);
        fprintf(f, "spread %.0f%%)", 100.0 * m->spread[k]);
    }
}

void sl_print_ceilings(FILE *f, const sl_ceilings *m, const sl_suite *s)
{
    if (!m->measured)
        return;
    fputs("\n## How close to the machine\n\n", f);
    print_probes(f, m);
    int any = 0;
    for (int k = SL_CEILING_DIVIDE; k < SL_CEILING_KINDS; k++)
        any |= m->disturbed[k];
    for (int k = 0; k < 2 && m->memory.measured; k++) {
        any |= sl_bandwidth_disturbed(&m->memory, k);
        for (int level = 0; level < SL_CACHE_LEVELS; level++)
            any |= m->memory.cache[level].disturbed[k];
    }
    if (any)
        fprintf(f, ". **Disturbed probes**: other processes used the CPU while a probe "
                   "ran (or every core's bandwidth came out below one thread's): the "
                   "roofs marked \"disturbed\" in ceiling.csv and roofline.png may be low, "
                   "and percentages of them high");
    fprintf(f, ". A variant's ceiling is that peak times the cores it had, over the "
               "operations one work unit needs; it counts only that one instruction "
               "(or, for a kernel that counts them, every vector instruction at the "
               "cheapest one's rate, where that roof is the lower), so it is an upper "
               "bound. Scalar code does one lane's work per "
               "instruction, so it sits far below (though a scalar divide is cheaper "
               "than 1/%d of a packed one, so a scalar divide-bound rung gets more "
               "than 1/%d).\n\n",
            m->lanes, m->lanes);
    if (m->memory.elements > 0)
        fprintf(f, "The memory probe (STREAM's a = b + s*c over three arrays of %lld MiB; "
                   "bytes counted as the loop reads and writes them, 24 an element, as STREAM "
                   "and likwid-bench count) sustained **%.1f GB/s on 1 thread** and **%.1f "
                   "GB/s on %d** (%s stores, the faster; the median of %d passes before, "
                   "through and after the timing, which spread over %.0f%% of it: a shared "
                   "host's memory is shared). A kernel that declares the bytes a call moves "
                   "also has a "
                   "memory roof: that bandwidth for its threads over those bytes; the lower "
                   "roof is its ceiling, and names what bounds it (`roofline.png`). A plain "
                   "store first reads the line it writes (write-allocate), bytes the count "
                   "leaves out; non-temporal stores skip that read. %s\n\n",
                (long long)(m->memory.elements * 8 >> 20), m->memory.bytes_per_s[0] * 1e-9,
                m->memory.bytes_per_s[1] * 1e-9, m->memory.threads[1],
                m->memory.nontemporal[1] ? "non-temporal" : "plain", m->memory.npass[1],
                100.0 * m->memory.spread[1],
                m->memory.nontemporal[1]
                    ? "Here they were the faster, so a loop with plain stores reaches at most "
                      "(reads + writes) / (reads + 2 writes) of the roof: 75% for a = b + s*c."
                    : "Here plain stores were the faster: write-allocate costs this machine's "
                      "memory nothing a roof can show.");
    if (m->memory.measured)
        print_cache_roofs(f, &m->memory);
    print_roofs_left_out(f, &m->memory);
    print_headline(f, m, s);
    print_watch(f, m);
    fprintf(f, "| kernel | variant | threads | rate /s | ceiling /s | %% of ceiling [95%%] "
               "| bound | limit |\n|---|---|---|--:|--:|--:|---|---|\n");
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        if (!has_evidence(c))
            continue;
        const sl_problem_def *k = c->kernel->problem;
        char variant[80], threads[48], pct[48] = "-", ceil_text[32] = "-";
        sl_config_label(c, variant, sizeof variant);
        sl_config_threads(c, threads, sizeof threads);
        double ceil = sl_config_ceiling(m, c);
        double lo, hi;
        if (ceil > 0.0) {
            snprintf(ceil_text, sizeof ceil_text, "%.3g", ceil);
            if (sl_config_percent_interval(m, c, &lo, &hi) == 0)
                snprintf(pct, sizeof pct, "**%.1f%%** [%.1f, %.1f]", 100.0 * c->rate / ceil,
                         lo, hi);
            else
                snprintf(pct, sizeof pct, "**%.1f%%**", 100.0 * c->rate / ceil);
        }
        const char *why = sl_config_limit(m, c).why;
        fprintf(f, "| %s | %s | %s | %.3g %s | %s | %s | %s | %s%s |\n", k->name, variant,
                threads, c->rate, k->work_unit, ceil_text, pct,
                bound_name(m, c), why ? why : "no probe", c->outcome.where == SL_RAN_HOST_FALLBACK ?
                "; ran on the host (fallback)" : c->outcome.where == SL_RAN_DEVICE ?
                (sl_device_is_host() ? "; ran on the host offload device: copies like a GPU, "
                                       "CPU speed" : "; ran on the device: no CPU ceiling") : "");
    }
}

/* The roofline's points: per kernel, tree and variant, the fastest valid
 * strong-study configuration that ran on this CPU (a device run is under
 * the device's roofs, not these). */
static int roofline_point(const sl_suite *s, size_t i)
{
    const sl_config *c = &s->configs[i];
    if (!has_evidence(c) || c->oversubscribed || c->outcome.where == SL_RAN_DEVICE ||
        (c->variant->flags & SL_STAGE) || c->rate <= 0.0)
        return 0;
    for (size_t j = 0; j < s->count; j++) {
        const sl_config *o = &s->configs[j];
        if (j == i || o->variant != c->variant || o->kernel->problem != c->kernel->problem ||
            strcmp(o->tree, c->tree) != 0 || !has_evidence(o) || o->oversubscribed)
            continue;
        if (o->rate > c->rate || (o->rate == c->rate && j < i))
            return 0;
    }
    return 1;
}

/* Is point i the fastest of its kernel and tree (the one labelled)? A gpu
 * variant here ran on the host fallback: a point, never a label. */
static int fastest_point(const sl_suite *s, const char *point, size_t i)
{
    const sl_config *c = &s->configs[i];
    if (c->variant->flags & SL_USES_GPU)
        return 0;
    for (size_t j = 0; j < s->count; j++) {
        const sl_config *o = &s->configs[j];
        if (j != i && o->kernel->problem == c->kernel->problem &&
            strcmp(o->tree, c->tree) == 0 && point[j] && !(o->variant->flags & SL_USES_GPU) &&
            (o->rate > c->rate || (o->rate == c->rate && j < i)))
            return 0;
    }
    return 1;
}

/* The roofs, for plots/roofline.gp: every core's compute peaks, the
 * memory's bandwidth (0 when not measured), the axes, the kernels in
 * their points' order, and which roofs were probed while disturbed. */
static int write_roofs(const char *dir, const sl_ceilings *m, const char *names, double least,
                       double edge, double slowest)
{
    char path[SL_PATH_BUF];
    int cores = sl_cores_available();
    char gp[2048];
    if (sl_path_format(path, sizeof path, "%s/roofline.gp", dir) != 0)
        return -1;
    snprintf(gp, sizeof gp,
             "cores = %d\nroof_divide = %.6g\nroof_fma = %.6g\nroof_mul64 = %.6g\n"
             "bw_all = %.6g\nbw_threads = %d\nbw_one = %.6g\nxmin = %.6g\nxedge = %.6g\n"
             "ymin = %.6g\nkernels = \"%s\"\n"
             "divide_disturbed = %d\nfma_disturbed = %d\nmul64_disturbed = %d\n"
             "bw_disturbed = %d\n",
             cores, m->per_core[SL_CEILING_DIVIDE] * cores, m->per_core[SL_CEILING_FMA] * cores,
             m->per_core[SL_CEILING_MUL64] * cores,
             m->memory.measured ? m->memory.bytes_per_s[1] : 0.0,
             m->memory.measured ? m->memory.threads[1] : cores,
             m->memory.measured ? m->memory.bytes_per_s[0] : 0.0, least / 4.0, edge,
             slowest / 4.0, names, m->disturbed[SL_CEILING_DIVIDE], m->disturbed[SL_CEILING_FMA],
             m->disturbed[SL_CEILING_MUL64],
             m->memory.measured && (sl_bandwidth_disturbed(&m->memory, 0) ||
                                    sl_bandwidth_disturbed(&m->memory, 1)));
    /* Each cache level's roof on every core (0: not measured). */
    for (int level = 1; level <= SL_CACHE_LEVELS; level++)
        snprintf(gp + strlen(gp), sizeof gp - strlen(gp), "bw_l%d = %.6g\n", level,
                 m->memory.measured ? m->memory.cache[level - 1].bytes_per_s[1] : 0.0);
    return sl_atomic_write(path, gp);
}

int sl_write_roofline(const char *dir, const sl_ceilings *m, const sl_suite *s)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;
    if (!m->measured)
        return 0;
    /* Which configurations are points: decided once (each look is a pass
     * over the suite). */
    char *point = calloc(s->count ? s->count : 1, 1);
    if (point == NULL)
        return -1;
    for (size_t i = 0; i < s->count; i++)
        point[i] = (char)roofline_point(s, i);
    /* Kernels that move no bytes worth counting sit at the right edge:
     * ten times the largest finite intensity, at least 100 ops per byte. */
    double most = 1.0, least = 1.0, slowest = 1e9;
    for (size_t i = 0; i < s->count; i++) {
        double x = point[i] ? sl_config_intensity(&s->configs[i]) : 0.0;
        double y = s->configs[i].rate *
                   sl_variant_limit(s->configs[i].kernel->problem, s->configs[i].variant).ops;
        if (point[i] && y > 0.0 && y < slowest)
            slowest = y;
        if (x > most)
            most = x;
        if (x > 0.0 && x < least)
            least = x;
    }
    double edge = most * 10.0 > 100.0 ? most * 10.0 : 100.0;
    if (sl_path_format(path, sizeof path, "%s/roofline.dat", dir) != 0 ||
        sl_atomic_open(&af, path) != 0) {
        free(point);
        return -1;
    }
    fprintf(af.fp, "# kernel_number ops_per_byte ops_per_s label (the kernel's limiting "
                   "instruction: ops = work units x ops per unit; no memory traffic: "
                   "drawn from %g right, a column per kernel)\n", edge);
    /* Every rung is a point; the fastest of each kernel and tree is
     * labelled with its name and rung (more labels would overlap). */
    int kernel_no = 0, at_edge = 0;
    double edge_x = 0.0;
    char names[512] = "";
    for (size_t i = 0; i < s->count; i++) {
        if (sl_suite_first_of_kernel(s, i)) {
            kernel_no++, edge_x = 0.0;
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     kernel_no > 1 ? " " : "", s->configs[i].kernel->problem->name);
        }
        if (!point[i])
            continue;
        const sl_config *c = &s->configs[i];
        const sl_problem_def *k = c->kernel->problem;
        int fastest = fastest_point(s, point, i);
        double x = sl_config_intensity(c);
        /* No memory traffic: each such kernel its own column right of the
         * edge, so that their points do not pile up in one. */
        if (x <= 0.0 && edge_x == 0.0)
            edge_x = edge * pow(1.6, at_edge++);
        char variant[80], whose[48] = "";
        sl_config_label(c, variant, sizeof variant);
        if (strcmp(c->tree, "exercises") == 0)
            snprintf(whose, sizeof whose, " (yours)");
        else if (sl_config_shows_tree(c))
            snprintf(whose, sizeof whose, " (%s)", c->tree);
        fprintf(af.fp, "%d %.6g %.6g \"%s%s%s%s\"\n", kernel_no, x > 0.0 ? x : edge_x,
                c->rate * sl_variant_limit(k, c->variant).ops, fastest ? k->name : "",
                fastest ? " " : "", fastest ? variant : "", fastest ? whose : "");
    }
    free(point);
    if (sl_atomic_commit(&af) != 0)
        return -1;

    return write_roofs(dir, m, names, least, edge, slowest);
}
