/* evidence.c - pictures, difference images, per-thread work and lane
 * utilisation for the image kernels (evidence.h). */
#include "evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

double sl_strip_utilisation(const int32_t *counts, int64_t width, int64_t height,
                            int lanes)
{
    double useful = 0.0, executed = 0.0;
    for (int64_t j = 0; j < height; j++) {
        const int32_t *row = counts + j * width;
        for (int64_t i0 = 0; i0 < width; i0 += lanes) {
            int32_t slowest = 0;
            for (int64_t i = i0; i < i0 + lanes && i < width; i++) {
                useful += row[i];
                slowest = row[i] > slowest ? row[i] : slowest;
            }
            /* Every lane steps until the strip's slowest pixel is done. */
            executed += (double)lanes * slowest;
        }
    }
    return executed > 0.0 ? useful / executed : 1.0;
}

double sl_pool_utilisation(const int32_t *counts, int64_t width, int64_t height,
                           int lanes, int check_every)
{
    double useful = 0.0, executed = 0.0;
    int64_t *blocks = calloc((size_t)lanes, sizeof *blocks);
    if (blocks == NULL)
        return 0.0;
    for (int64_t j = 0; j < height; j++) {
        const int32_t *row = counts + j * width;
        int64_t next = 0, rounds = 0;
        for (int l = 0; l < lanes; l++)
            blocks[l] = 0;
        for (;;) {
            /* A check: a free lane takes the next pixel, which keeps it for
             * ceil(count / check_every) blocks of steps, at least one. */
            int busy = 0;
            for (int l = 0; l < lanes; l++) {
                if (blocks[l] == 0 && next < width) {
                    int32_t c = row[next++];
                    useful += c;
                    blocks[l] = c > 0 ? (c + check_every - 1) / check_every : 1;
                }
                busy |= blocks[l] > 0;
            }
            if (!busy)
                break;
            rounds++;
            for (int l = 0; l < lanes; l++)
                blocks[l] -= blocks[l] > 0;
        }
        executed += (double)rounds * check_every * lanes;
    }
    free(blocks);
    return executed > 0.0 ? useful / executed : 1.0;
}

/* A file-name form of a configuration name: "solutions-<kernel>-threads-2-..." */
static void file_name(const char *name, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < len; p++) {
        if (!strncmp(p, "threads:", 8) && p[-1] == '/')
            p += 7, out[k++] = 't';
        else if (!strncmp(p, "schedule:", 9))
            p += 8;
        else
            out[k++] = (*p == '/' || *p == ',' || *p == ':') ? '-' : *p;
    }
    out[k] = '\0';
}

/* Write a W x H int32 picture sampled down to SL_PICTURE_MAX_SIDE, and its
 * gnuplot description. mark (may be NULL): the picture is 1 where any
 * pixel of the block differs from mark, else 0 (a difference image). */
static int write_picture(const char *dir, const char *base, const int32_t *counts,
                         const int32_t *mark, int64_t width, int64_t height,
                         int max_iter, const char *title)
{
    int64_t side = width > height ? width : height;
    int64_t f = (side + SL_PICTURE_MAX_SIDE - 1) / SL_PICTURE_MAX_SIDE;
    int64_t pw = (width + f - 1) / f, ph = (height + f - 1) / f;
    int32_t *pic = malloc((size_t)(pw * ph) * sizeof *pic);
    if (pic == NULL)
        return -1;
    int64_t wrong = 0;
    for (int64_t j = 0; j < ph; j++)
        for (int64_t i = 0; i < pw; i++) {
            int32_t v = 0;
            if (mark == NULL) {
                v = counts[(j * f) * width + i * f];
            } else {
                for (int64_t y = j * f; y < (j + 1) * f && y < height; y++)
                    for (int64_t x = i * f; x < (i + 1) * f && x < width; x++)
                        v |= counts[y * width + x] != mark[y * width + x];
            }
            /* gnuplot's first row is the bottom one: store bottom up. */
            pic[(ph - 1 - j) * pw + i] = v;
        }
    if (mark)
        for (int64_t k = 0; k < width * height; k++)
            wrong += counts[k] != mark[k];

    char path[SL_PATH_BUF], text[1024];
    sl_atomic_file af;
    /* A wrong pixel is too small to see on a slide: the difference image
     * also lists the wrong blocks, drawn as dots on top. */
    if (mark) {
        if (sl_path_format(path, sizeof path, "%s/%s.pts", dir, base) != 0 ||
            sl_atomic_open(&af, path) != 0) {
            free(pic);
            return -1;
        }
        fprintf(af.fp, "# %s: the wrong blocks of %s.bin (x y)\n", base, base);
        for (int64_t k = 0; k < pw * ph; k++)
            if (pic[k])
                fprintf(af.fp, "%lld %lld\n", (long long)(k % pw), (long long)(k / pw));
        if (sl_atomic_commit(&af) != 0) {
            free(pic);
            return -1;
        }
    }
    if (sl_path_format(path, sizeof path, "%s/%s.bin", dir, base) != 0 ||
        sl_atomic_open(&af, path) != 0) {
        free(pic);
        return -1;
    }
    size_t n = fwrite(pic, sizeof *pic, (size_t)(pw * ph), af.fp);
    free(pic);
    if (n != (size_t)(pw * ph)) {
        sl_atomic_abort(&af);
        return -1;
    }
    if (sl_atomic_commit(&af) != 0)
        return -1;
    if (sl_path_format(path, sizeof path, "%s/%s.gp", dir, base) != 0)
        return -1;
    snprintf(text, sizeof text,
             "# %s.bin: %lld x %lld int32, bottom row first (1 pixel per %lld)\n"
             "width = %lld\nheight = %lld\nmax_iter = %d\nwrong = %lld\n"
             "title = \"%s\"\n", base, (long long)pw, (long long)ph, (long long)f,
             (long long)pw, (long long)ph, max_iter, (long long)wrong, title);
    return sl_atomic_write(path, text);
}

/* Do two configurations differ only in their schedule? */
static int same_but_schedule(const sl_config *a, const sl_config *b)
{
    /* The weak study's points are other problems: never part of a sweep. */
    return a->kernel->problem == b->kernel->problem && a->variant == b->variant &&
           strcmp(a->tree, b->tree) == 0 && a->problem.threads == b->problem.threads &&
           !a->weak && !b->weak;
}

/* How many configurations share c's variant and threads, across schedules:
 * a sweep has more than one. */
static int sweep_size(const sl_suite *s, const sl_config *c)
{
    int n = 0;
    for (size_t i = 0; i < s->count; i++)
        n += same_but_schedule(&s->configs[i], c);
    return n;
}

/* The first configuration of each swept (variant, threads): the columns. */
static int is_sweep_head(const sl_suite *s, size_t i)
{
    const sl_config *c = &s->configs[i];
    if (!(c->variant->flags & SL_USES_SCHEDULE) || sweep_size(s, c) < 2)
        return 0;
    for (size_t j = 0; j < i; j++)
        if (same_but_schedule(&s->configs[j], c))
            return 0;
    return 1;
}

/* Each thread's share of the iterations (percent) in shares[0..threads).
 * Returns the threads, or 0 when no row records its thread. */
static int thread_shares(const sl_config *c, double *shares, int cap)
{
    int t = c->problem.threads;
    if (!c->row_work || !c->row_thread || t < 1 || t > cap)
        return 0;
    double total = 0.0;
    for (int k = 0; k < t; k++)
        shares[k] = 0.0;
    int64_t h = sl_problem_height(&c->problem), recorded = 0;
    for (int64_t j = 0; j < h; j++) {
        total += c->row_work[j];
        if (c->row_thread[j] >= 0 && c->row_thread[j] < t) {
            shares[c->row_thread[j]] += c->row_work[j];
            recorded++;
        }
    }
    /* A variant's own pragma records no rows: only its sweep twin does. */
    if (recorded == 0)
        return 0;
    for (int k = 0; k < t; k++)
        shares[k] = total > 0.0 ? 100.0 * shares[k] / total : 0.0;
    return t;
}

/* Was any threaded variant of k0's kernel swept over schedules? (Not in
 * a run of imported rows, such as lesson 8's numba: no figure then.) */
static int swept(const sl_suite *s, const sl_config *k0)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->configs[i].kernel->problem == k0->kernel->problem && is_sweep_head(s, i))
            return 1;
    return 0;
}

/* schedule-<k>.dat: one row per schedule; per swept (variant, threads)
 * three columns: speedup vs scalar and its interval ("-" when not
 * measured or invalid). */
static int write_schedule_data(const char *dir, const sl_suite *s, const sl_config *k0)
{
    char path[SL_PATH_BUF], sched[32];
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/schedule-%s.dat", dir, k0->kernel->problem->name) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# %s: speedup vs scalar per schedule, with its 95%% interval "
                   "(columns: variant x threads, low, high)\nschedule",
            k0->kernel->problem->name);
    for (size_t i = 0; i < s->count; i++)
        if (s->configs[i].kernel->problem == k0->kernel->problem && is_sweep_head(s, i))
            fprintf(af.fp, "\t\"%s x%d%s\"\tlow\thigh", s->configs[i].variant->name,
                    s->configs[i].problem.threads,
                    s->configs[i].oversubscribed ? " (oversubscribed)" : "");
    fputc('\n', af.fp);
    for (size_t r = 0; r < sizeof SL_SWEEP_SCHEDULES / sizeof SL_SWEEP_SCHEDULES[0]; r++) {
        sl_schedule_name(SL_SWEEP_SCHEDULES[r], sched, sizeof sched);
        fprintf(af.fp, "\"%s\"", sched);
        for (size_t i = 0; i < s->count; i++) {
            const sl_config *head = &s->configs[i];
            if (head->kernel->problem != k0->kernel->problem || !is_sweep_head(s, i))
                continue;
            const sl_config *hit = NULL;
            for (size_t j = 0; j < s->count; j++) {
                const sl_config *c = &s->configs[j];
                if (same_but_schedule(c, head) && c->speedup > 0.0 &&
                    sl_schedule_equal(c->problem.schedule, SL_SWEEP_SCHEDULES[r]))
                    hit = c;
            }
            const sl_config *base = hit ? sl_suite_baseline(s, hit) : NULL;
            if (hit && base)
                fprintf(af.fp, "\t%.4f\t%.4f\t%.4f", hit->speedup,
                        base->ci_low / hit->ci_high, base->ci_high / hit->ci_low);
            else
                fprintf(af.fp, "\t-\t-\t-");
        }
        fputc('\n', af.fp);
    }
    return sl_atomic_commit(&af);
}

/* A sweep point of head's (variant, threads): run by the variant's
 * schedule-sweep twin, the only code that records who computed each row
 * (the variant's own pragma, "as-written", records nothing). */
static int swept_twin(const sl_config *c, const sl_config *head)
{
    return same_but_schedule(c, head) && c->problem.schedule.kind != SL_SCHED_DEFAULT;
}

/* threadwork-<k>-<T>.dat: each thread's share of the iterations under each
 * schedule of the `threads` variant's sweep at T threads. */
static int write_threadwork(const char *dir, const sl_suite *s, const sl_config *head)
{
    char path[SL_PATH_BUF], sched[32];
    double shares[SL_MAX_THREADS_SHOWN];
    sl_atomic_file af;
    int t = head->problem.threads;
    if (t > SL_MAX_THREADS_SHOWN)
        return 0;
    if (sl_path_format(path, sizeof path, "%s/threadwork-%s-%d.dat", dir,
             head->kernel->problem->name, t) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# %s, %s on %d threads: each thread's share of the iterations "
                   "(%%), from the rows it computed\nthread", head->kernel->problem->name,
            head->variant->name, t);
    for (size_t j = 0; j < s->count; j++)
        if (swept_twin(&s->configs[j], head)) {
            sl_schedule_name(s->configs[j].problem.schedule, sched, sizeof sched);
            fprintf(af.fp, "\t\"%s\"", sched);
        }
    fputc('\n', af.fp);
    for (int k = 0; k < t; k++) {
        fprintf(af.fp, "%d", k);
        for (size_t j = 0; j < s->count; j++) {
            if (!swept_twin(&s->configs[j], head))
                continue;
            if (thread_shares(&s->configs[j], shares, SL_MAX_THREADS_SHOWN) == t)
                fprintf(af.fp, "\t%.3f", shares[k]);
            else
                fprintf(af.fp, "\t-");
        }
        fputc('\n', af.fp);
    }
    return sl_atomic_commit(&af);
}

/* The lane counts the utilisation figure compares. */
static const int lane_counts[] = { 4, 8, 16, 32, 64 };

static int write_lanes(const char *dir, const sl_config *c, const int32_t *ref)
{
    char path[SL_PATH_BUF];
    sl_atomic_file af;
    int64_t w = c->problem.size, h = sl_problem_height(&c->problem);
    if (sl_path_format(path, sizeof path, "%s/lanes-%s.dat", dir, c->kernel->problem->name) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    fprintf(af.fp, "# %s %lldx%lld: useful / executed lane-iterations (%%)\n"
                   "lanes\t\"fixed strips\"\t\"lane pool, check every %d\"\n",
            c->kernel->problem->name, (long long)w, (long long)h,
            c->kernel->problem->pool_check_every);
    for (size_t i = 0; i < sizeof lane_counts / sizeof lane_counts[0]; i++)
        fprintf(af.fp, "%d\t%.2f\t%.2f\n", lane_counts[i],
                100.0 * sl_strip_utilisation(ref, w, h, lane_counts[i]),
                100.0 * sl_pool_utilisation(ref, w, h, lane_counts[i],
                                            c->kernel->problem->pool_check_every));
    return sl_atomic_commit(&af);
}

/* Monte Carlo's convergence: the error of the estimate at sizes from 10
 * up to the run's size, for CONVERGENCE_SEEDS seeds starting at the
 * run's, against the standard error. Counted by the reference, which every
 * valid variant matches point for point. */
enum { CONVERGENCE_SEEDS = 8, CONVERGENCE_MAX_SIZES = 40 };

/* The sizes: 10^(k/2) for k = 2, 3, ... up to the run's size. */
static int convergence_sizes(int64_t top, int64_t *out, int cap)
{
    int n = 0;
    for (int k = 2; n < cap; k++) {
        int64_t size = (int64_t)llround(pow(10.0, k / 2.0));
        if (size > top)
            break;
        out[n++] = size;
    }
    return n;
}

static int write_convergence(const char *dir, const sl_config *c)
{
    char path[SL_PATH_BUF];
    int64_t sizes[CONVERGENCE_MAX_SIZES];
    int n = convergence_sizes(c->problem.size, sizes, CONVERGENCE_MAX_SIZES);
    sl_atomic_file af;
    if (sl_path_format(path, sizeof path, "%s/convergence-%s.dat", dir, c->kernel->problem->name) != 0 ||
        sl_atomic_open(&af, path) != 0)
        return -1;
    const sl_problem_def *def = c->kernel->problem;
    fprintf(af.fp, "# %s: |estimate - exact| against samples, %d seeds from %llu\n"
                   "# samples\trms_error\tstd_error", c->kernel->problem->name,
            CONVERGENCE_SEEDS, (unsigned long long)c->problem.seed);
    for (int k = 0; k < CONVERGENCE_SEEDS; k++)
        fprintf(af.fp, "\terror_seed%d", k);
    fputc('\n', af.fp);
    for (int i = 0; i < n; i++) {
        double err[CONVERGENCE_SEEDS], sumsq = 0.0;
        for (int k = 0; k < CONVERGENCE_SEEDS; k++) {
            err[k] = fabs(def->estimate_at(sizes[i], c->problem.seed + (uint64_t)k) -
                          def->exact);
            sumsq += err[k] * err[k];
        }
        sl_problem at = c->problem;
        at.size = sizes[i];
        fprintf(af.fp, "%lld\t%.6g\t%.6g", (long long)sizes[i],
                sqrt(sumsq / CONVERGENCE_SEEDS), def->std_error(&at));
        for (int k = 0; k < CONVERGENCE_SEEDS; k++)
            fprintf(af.fp, "\t%.6g", err[k]);
        fputc('\n', af.fp);
    }
    return sl_atomic_commit(&af);
}

/* Pictures, and with all = 1 the data behind the lane and schedule plots. */
static int write_evidence(const char *dir, const sl_suite *s, int all)
{
    char base[256], title[320];
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        const sl_problem_def *def = c->kernel->problem;
        if (all && def->estimate_at && def->std_error && sl_suite_first_of_kernel(s, i) &&
            write_convergence(dir, c) != 0)
            return -1;
        if (!def->image || !def->reference)
            continue;
        int64_t w = c->problem.size, h = sl_problem_height(&c->problem);
        int max_iter = c->problem.max_iter > 0 ? c->problem.max_iter : def->default_max_iter;
        const int32_t *ref = def->reference(&c->problem);
        if (ref == NULL)
            continue;
        if (sl_suite_first_of_kernel(s, i)) {
            if (sl_path_format(base, sizeof base, "image-%s", def->name) != 0)
                return -1;
            snprintf(title, sizeof title, "%s, %lldx%lld, max_iter %d", def->name,
                     (long long)w, (long long)h, max_iter);
            if (write_picture(dir, base, ref, NULL, w, h, max_iter, title) != 0)
                return -1;
            if (all && def->pool_lanes > 0 && def->pool_check_every > 0 &&
                write_lanes(dir, c, ref) != 0)
                return -1;
            if (all && swept(s, c) && write_schedule_data(dir, s, c) != 0)
                return -1;
        }
        if (c->counts) {
            char name[200];
            file_name(c->name, name, sizeof name);
            if (sl_path_format(base, sizeof base, "diff-%s", name) != 0)
                return -1;
            snprintf(title, sizeof title, "%s: wrong pixels (red)", c->name);
            if (write_picture(dir, base, c->counts, ref, w, h, max_iter, title) != 0)
                return -1;
        }
        if (all && is_sweep_head(s, i) && !(c->variant->flags & SL_USES_SIMD) &&
            write_threadwork(dir, s, c) != 0)
            return -1;
    }
    return 0;
}

int sl_write_evidence(const char *dir, const sl_suite *s)
{
    return write_evidence(dir, s, 1);
}

int sl_write_pictures(const char *dir, const sl_suite *s)
{
    return write_evidence(dir, s, 0);
}

void sl_print_evidence(FILE *f, const sl_suite *s)
{
    char sched[32];
    double shares[SL_MAX_THREADS_SHOWN];
    for (size_t i = 0; i < s->count; i++) {
        const sl_config *c = &s->configs[i];
        const sl_problem_def *def = c->kernel->problem;
        if (!def->image || !def->reference || !sl_suite_first_of_kernel(s, i) ||
            def->pool_lanes <= 0 || def->pool_check_every <= 0)
            continue;
        const int32_t *ref = def->reference(&c->problem);
        if (ref == NULL)
            continue;
        int64_t w = c->problem.size, h = sl_problem_height(&c->problem);
        fprintf(f, "\n### %s: lanes and load balance\n\n", def->name);
        fprintf(f, "- SIMD lane utilisation (useful / executed lane-iterations): "
                   "fixed strips of 4 / 8 lanes %.0f%% / %.0f%%; the solution's lane "
                   "pool (%d lanes, checked every %d steps) %.0f%%\n",
                100.0 * sl_strip_utilisation(ref, w, h, 4),
                100.0 * sl_strip_utilisation(ref, w, h, 8), def->pool_lanes,
                def->pool_check_every,
                100.0 * sl_pool_utilisation(ref, w, h, def->pool_lanes, def->pool_check_every));
        for (size_t j = 0; j < s->count; j++) {
            const sl_config *t = &s->configs[j];
            if (t->kernel->problem != def || !(t->variant->flags & SL_USES_SCHEDULE) ||
                (t->variant->flags & SL_USES_SIMD) || sweep_size(s, t) < 2)
                continue;
            int n = thread_shares(t, shares, SL_MAX_THREADS_SHOWN);
            if (n < 1)
                continue;
            double most = 0.0;
            for (int k = 0; k < n; k++)
                most = shares[k] > most ? shares[k] : most;
            sl_schedule_name(t->problem.schedule, sched, sizeof sched);
            char speed[96] = "";
            if (t->speedup > 0.0)
                snprintf(speed, sizeof speed, "; %.2fx scalar%s", t->speedup,
                         t->oversubscribed ? " (oversubscribed)" : "");
            fprintf(f, "- %s, %d threads, schedule(%s): the busiest thread did %.1f%% "
                       "of the iterations (even share %.1f%%)%s\n", t->variant->name, n,
                    sched, most, 100.0 / n, speed);
        }
    }
}
