/* worker.c - lesson 6's measurement under mpirun (worker.h). */
#include "worker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "gbench.h"
#include "grid.h"
#include "kernel.h"
#include "labels.h"
#include "platform.h"
#include "quiet.h"
#include "sample.h"

#define HOST_LINE (MPI_MAX_PROCESSOR_NAME + 64)

/* This launch, as every configuration of it sees it. Other processes' CPU
 * is counted on the CPUs this rank's node may use (the union of its ranks'
 * affinity masks), so that on a machine shared by several jobs, or by the
 * test cluster's namespace "nodes", only the CPUs of the node count. */
typedef struct launch {
    MPI_Comm node;                   /* the ranks on this rank's node */
    unsigned char cpus[SL_MAX_CPUS]; /* the node's CPUs */
    char *lines;                     /* rank 0: each rank's "host: CPUs" line */
    double compute, wall;            /* this rank's seconds over its timed calls */
    double others, window;           /* node leaders: others' CPU-seconds, and in what */
} launch;

/* One configuration on this rank: the problem, the share, the buffers. */
typedef struct config {
    const sl_hybrid_job *job;
    const sl_hybrid_variant *v;
    sl_problem p;
    sl_share me;
    sl_outcome out;
    MPI_Comm comm;
    launch *at;
    /* Per repetition, as every rank agreed (rank 0 keeps them). */
    sl_sample total, compute, compute_mean;
    double others[SL_MAX_REPS];
    int disturbed;
    double node_others;   /* node leaders: others' CPU-seconds over the repetitions */
    int busiest;          /* a rank on the node most disturbed, or -1 */
    double work_balance;  /* the mean rank's work units over the busiest's */
} config;

static int rank_of(MPI_Comm c)
{
    int r;
    MPI_Comm_rank(c, &r);
    return r;
}

/* Did every rank get its memory? A collective answer, so that no rank
 * goes on to a call the others will not make. */
static int all_ok(MPI_Comm comm, int mine)
{
    int all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

static void release(config *c)
{
    free(c->me.rows);
    free(c->me.gathered);
    free(c->out.counts);
    c->me.rows = c->me.gathered = c->out.counts = NULL;
}

/* Rows buffers for the image kernels: this rank's rows; on rank 0 the
 * whole image and room to gather every rank's rows. */
static int allocate(config *c, double *mib)
{
    const sl_problem_def *def = c->job->kernel->problem;
    *mib = 0;
    if (!def->image)
        return 0;
    const int64_t w = c->p.size, h = sl_problem_height(&c->p);
    int64_t mine = c->v->row_count(c->me.rank, c->me.ranks, h), all = 0;
    for (int r = 0; r < c->me.ranks; r++)
        all += c->v->row_count(r, c->me.ranks, h);
    size_t bytes_mine = (size_t)(mine > 0 ? mine : 1) * (size_t)w * sizeof(int32_t);
    size_t bytes_root = (size_t)(all + h) * (size_t)w * sizeof(int32_t);
    c->me.rows = malloc(bytes_mine);
    if (c->me.rank == 0) {
        c->me.gathered = malloc((size_t)(all > 0 ? all : 1) * (size_t)w * sizeof(int32_t));
        c->out.counts = malloc((size_t)w * (size_t)h * sizeof(int32_t));
    }
    *mib = (double)(bytes_mine + (c->me.rank == 0 ? bytes_root : 0)) / (1024.0 * 1024.0);
    if (c->me.rows == NULL || (c->me.rank == 0 && (c->me.gathered == NULL || c->out.counts == NULL)))
        return -1;
    /* A row nobody sent must not pass for a computed one. */
    if (c->me.rank == 0)
        memset(c->out.counts, 0xff, (size_t)w * (size_t)h * sizeof(int32_t));
    return 0;
}

/* One call on every rank; *total and *compute are this rank's seconds. */
static int one_call(config *c, double *total, double *compute)
{
    MPI_Barrier(c->comm);
    sl_calling_kernel = c->job->kernel->problem->name;
    sl_calling_variant = c->v->name;
    double t0 = MPI_Wtime();
    c->v->compute(&c->p, &c->me);
    double t1 = MPI_Wtime();
    int rc = c->v->combine(&c->p, &c->me, c->comm, &c->out);
    double t2 = MPI_Wtime();
    sl_calling_variant = NULL;
    *total = t2 - t0;
    *compute = t1 - t0;
    return rc;
}

/* Check the combined answer on rank 0 and tell every rank. When it is
 * wrong, every rank checks its own share and rank 0 names the wrong ones. */
static int validate(config *c, sl_verdict *verdict, char *note, size_t len)
{
    const sl_problem_def *def = c->job->kernel->problem;
    int ok = 0;
    note[0] = '\0';
    if (c->me.rank == 0) {
        if (def->tally != NULL)
            def->tally(&c->p, &c->out);
        *verdict = def->check(&c->p, &c->out);
        ok = verdict->ok;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, c->comm);
    if (ok)
        return 1;
    char why[200] = "";
    int share = c->job->kernel->share_ok(&c->p, &c->me, why, sizeof why);
    char *all = c->me.rank == 0 ? calloc((size_t)c->me.ranks, sizeof why) : NULL;
    int *shares = c->me.rank == 0 ? calloc((size_t)c->me.ranks, sizeof(int)) : NULL;
    MPI_Gather(why, sizeof why, MPI_CHAR, all, sizeof why, MPI_CHAR, 0, c->comm);
    MPI_Gather(&share, 1, MPI_INT, shares, 1, MPI_INT, 0, c->comm);
    if (c->me.rank == 0 && all != NULL && shares != NULL) {
        size_t at = 0;
        for (int r = 0; r < c->me.ranks && at < len; r++)
            if (!shares[r])
                at += (size_t)snprintf(note + at, len - at, "%srank %d of %d: %s",
                                       at ? "; " : "", r, c->me.ranks, all + r * sizeof why);
        if (at == 0)
            snprintf(note, len, "every rank's share is right: the combining step is wrong");
    }
    free(all);
    free(shares);
    return 0;
}

/* How evenly the work was shared, from the work itself rather than the
 * clock, so that it holds on a busy or oversubscribed machine: an image's
 * rows' iterations, or a block's steps and points (common/hybrid_problem.h). */
static double work_balance(config *c)
{
    double mine = 0, most, all;
    if (c->job->kernel->problem->image) {
        const int64_t cells = c->me.rows_done * c->p.size;
        for (int64_t i = 0; i < cells; i++)
            mine += c->me.rows[i];
    } else {
        int64_t first, count;
        sl_block(c->p.size, c->me.rank, c->me.ranks, &first, &count);
        mine = (double)count;
    }
    MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, c->comm);
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, c->comm);
    return most > 0 ? all / c->me.ranks / most : 1.0;
}

/* One repetition of gb_fixed_iterations calls (Google Benchmark's body). */
static void body(gb_state *s, void *vc)
{
    config *c = vc;
    sl_quiet_mark a, b;
    sl_quiet_mark_on(&a, c->at->cpus, SL_MAX_CPUS);
    double sum_total = 0, sum_compute = 0, sum_mean = 0;
    int64_t n = 0;
    while (gb_keep_running(s)) {
        double mine[2], worst[2], sum;
        one_call(c, &mine[0], &mine[1]);
        MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, c->comm);
        MPI_Allreduce(&mine[1], &sum, 1, MPI_DOUBLE, MPI_SUM, c->comm);
        gb_set_iteration_time(s, worst[0]);
        sum_total += worst[0];
        sum_compute += worst[1];
        sum_mean += sum / c->me.ranks;
        c->at->wall += mine[0];
        c->at->compute += mine[1];
        n++;
    }
    sl_quiet_mark_on(&b, c->at->cpus, SL_MAX_CPUS);
    /* Other processes' CPU on each node: all of its CPUs' busy time, less
     * this job's ranks there. The slowest node decides, so take the most
     * (whose node it was is found over all the repetitions: run_config). */
    double self = b.self - a.self, selves = 0, others = -1, worst;
    MPI_Allreduce(&self, &selves, 1, MPI_DOUBLE, MPI_SUM, c->at->node);
    if (a.ok && b.ok && rank_of(c->at->node) == 0) {
        others = (b.all_busy - a.all_busy) - selves;
        others = others < 0 ? 0 : others;
        c->at->others += others;
        c->at->window += b.wall - a.wall;
        c->node_others += others;
    }
    MPI_Allreduce(&others, &worst, 1, MPI_DOUBLE, MPI_MAX, c->comm);
    if (c->me.rank == 0 && n > 0) {
        int k = c->total.n;
        sl_sample_add(&c->total, sum_total / (double)n);
        sl_sample_add(&c->compute, sum_compute / (double)n);
        sl_sample_add(&c->compute_mean, sum_mean / (double)n);
        double wall = b.wall - a.wall;
        if (k < SL_MAX_REPS)
            c->others[k] = worst >= 0 && wall > 0 ? worst / wall : -1;
        if (worst >= 0 && sl_quiet_disturbed(worst, wall))
            c->disturbed++;
    }
}

static void on_result(const gb_result *r, void *ctx)
{
    (void)r;
    (void)ctx;
}

/* Time c: iterations fixed from the validation call, so that every rank
 * makes the same number of calls. */
static void time_config(config *c, const sl_hybrid_plan *plan, double first_call)
{
    int64_t iters = first_call > 0 ? (int64_t)(plan->min_time / first_call) + 1 : 1;
    iters = iters > 100000 ? 100000 : iters;
    char name[160];
    snprintf(name, sizeof name, "%s/%s/ranks:%d/threads:%d", c->job->kernel->problem->name,
             c->v->name, c->me.ranks, c->p.threads);
    gb_bench *b = gb_register(name, body, c);
    gb_repetitions(b, plan->reps);
    gb_fixed_iterations(b, iters);
    gb_use_manual_time(b);
    gb_run(on_result, NULL);
    gb_clear();
}

/* The medians and intervals of what was timed (nothing, if nothing was). */
static void summarise(config *c)
{
    if (c->total.n == 0)
        return;
    sl_sample_summarise(&c->total);
    sl_sample_summarise(&c->compute);
    sl_sample_summarise(&c->compute_mean);
}

static double median_others(const config *c)
{
    double v[SL_MAX_REPS];
    int n = 0;
    for (int k = 0; k < c->total.n && k < SL_MAX_REPS; k++)
        if (c->others[k] >= 0)
            v[n++] = c->others[k];
    return n ? sl_median(v, n) : -1;
}

static void write_row(FILE *f, const config *c, const char *variant, int ranks, int valid,
                      const sl_verdict *vd, const char *note)
{
    const sl_problem_def *def = c->job->kernel->problem;
    const sl_sample *t = &c->total, *cm = &c->compute, *mean = &c->compute_mean;
    int timed = t->n > 0;
    double comm = timed ? t->median - cm->median : 0;
    fprintf(f, "%s,%s,%d,%d,%" PRId64 ",%" PRId64 ",%.17g,%d,", def->name, variant, ranks,
            c->p.threads, c->p.size, def->image ? sl_problem_height(&c->p) : 0, c->out.work,
            t->n);
    if (timed)
        fprintf(f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.4f,", t->median, t->ci_low,
                t->ci_high, t->min, t->max, cm->median, mean->median, comm < 0 ? 0 : comm,
                cm->median > 0 ? mean->median / cm->median : 1.0);
    else
        fputs(",,,,,,,,,", f);
    fprintf(f, "%.4f,", c->work_balance);
    fprintf(f, "%s,%.17g,%.17g,%.3g,%.3g,", valid ? "yes" : "no", c->out.value, vd->expected,
            vd->error, vd->tolerance);
    double others = timed ? median_others(c) : -1;
    if (others >= 0)
        fprintf(f, "%.3f,", others);
    else
        fputs(",", f);
    /* The note is free text, quoted, and the last column (the reader keeps
     * its commas); its own quotes become apostrophes. */
    fprintf(f, "%d,\"", c->disturbed);
    for (const char *s = note; *s; s++)
        fputc(*s == '"' ? '\'' : *s, f);
    fputs("\"\n", f);
}

/* The single-process scalar variant at the same size, on this rank alone
 * (a 1-rank launch): the baseline of every speedup. */
static int baseline(FILE *f, const sl_hybrid_job *job, const sl_hybrid_plan *plan)
{
    const sl_problem_def *def = job->kernel->problem;
    const sl_variant *v = sl_find_variant(job->single, SL_BASELINE_VARIANT);
    config c = { .job = job, .work_balance = 1.0 };
    c.p = (sl_problem){ .size = job->size, .threads = 1, .seed = 1 };
    sl_outcome out = { 0 };
    int64_t cells = def->image ? c.p.size * sl_problem_height(&c.p) : 0;
    if (cells > 0 && (out.counts = malloc((size_t)cells * sizeof(int32_t))) == NULL)
        return -1;
    int reps = plan->reps < 3 ? plan->reps : 3;
    sl_verdict vd = { 0 };
    /* The first call is checked (and warms up); each repetition then makes
     * enough calls to fill min_time, so that short calls are not below the
     * clock's resolution. */
    sl_calling_kernel = def->name;
    sl_calling_variant = v->name;
    double t0 = sl_now();
    int rc = def->run(v, &c.p, &out);
    double first = sl_now() - t0;
    if (rc == 0) {
        if (def->tally != NULL)
            def->tally(&c.p, &out);
        vd = def->check(&c.p, &out);
    }
    int64_t calls = (int64_t)(plan->min_time / (first > 1e-7 ? first : 1e-7)) + 1;
    calls = calls > 1000000 ? 1000000 : calls;
    for (int k = 0; rc == 0 && vd.ok && k < reps; k++) {
        t0 = sl_now();
        for (int64_t n = 0; n < calls; n++)
            def->run(v, &c.p, &out);
        double t = (sl_now() - t0) / (double)calls;
        sl_sample_add(&c.total, t);
        sl_sample_add(&c.compute, t);
        sl_sample_add(&c.compute_mean, t);
        c.others[k] = -1;
    }
    sl_calling_variant = NULL;
    summarise(&c);
    c.out = out;
    write_row(f, &c, v->name, 1, vd.ok, &vd, "single process, no MPI");
    printf("  %-11s %-14s baseline, 1 process x 1 thread: %s\n", def->name, v->name,
           vd.ok ? "valid" : "INVALID");
    free(out.counts);
    return 0;
}

/* This launch's facts, as comment lines the driver copies into the run's
 * context: the MPI library, each rank's host and the CPUs it may use. Also
 * fills at->cpus, the CPUs of this rank's node, and on rank 0 at->lines. */
static void describe(FILE *f, MPI_Comm comm, launch *at)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[MPI_MAX_PROCESSOR_NAME];
    int len, ranks;
    MPI_Comm_size(comm, &ranks);
    MPI_Get_library_version(lib, &len);
    MPI_Get_processor_name(host, &len);
    char line[HOST_LINE];
    /* Where the system cannot say, every CPU counts as this rank's. */
    unsigned char mine[SL_MAX_CPUS];
    int cpus = sl_affinity_get(mine, SL_MAX_CPUS), first = -1;
    if (cpus == 0) {
        cpus = -1;
        memset(mine, 1, sizeof mine);
    }
    for (int i = 0; i < SL_MAX_CPUS && first < 0 && cpus > 0; i++)
        if (mine[i])
            first = i;
    MPI_Allreduce(mine, at->cpus, SL_MAX_CPUS, MPI_UNSIGNED_CHAR, MPI_MAX, at->node);
    snprintf(line, sizeof line, "%s: %d CPU(s) allowed, the first %d", host, cpus, first);
    at->lines = rank_of(comm) == 0 ? calloc((size_t)ranks, sizeof line) : NULL;
    MPI_Gather(line, sizeof line, MPI_CHAR, at->lines, sizeof line, MPI_CHAR, 0, comm);
    if (f == NULL || at->lines == NULL)
        return;
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = '\0';
    fprintf(f, "# mpi_library: %s\n", lib);
    for (int r = 0; r < ranks; r++)
        fprintf(f, "# rank %d: %s\n", r, at->lines + (size_t)r * sizeof line);
}

/* Rank r's host, from its describe line ("host: ..."). */
static void host_of(const launch *at, int r, char *out, size_t len)
{
    const char *line = at->lines + (size_t)r * HOST_LINE;
    snprintf(out, len, "%.*s", (int)strcspn(line, ":"), line);
}

/* Each rank's share of its timed calls spent computing and the rest
 * (communicating, or waiting for the slowest rank), and the other
 * processes' CPU on its node over the launch: per-node facts beside the
 * grid's per-launch ones, as context lines. */
static void describe_totals(FILE *f, MPI_Comm comm, launch *at)
{
    double node[2] = { at->others, at->window };
    MPI_Bcast(node, 2, MPI_DOUBLE, 0, at->node);
    double mine[4] = { at->compute, at->wall, node[0], node[1] };
    int ranks;
    MPI_Comm_size(comm, &ranks);
    double *all = rank_of(comm) == 0 ? malloc((size_t)ranks * sizeof mine) : NULL;
    MPI_Gather(mine, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, 0, comm);
    for (int r = 0; f != NULL && all != NULL && at->lines != NULL && r < ranks; r++) {
        const double *t = all + 4 * r;
        if (t[1] <= 0)
            continue;
        char host[MPI_MAX_PROCESSOR_NAME];
        host_of(at, r, host, sizeof host);
        fprintf(f, "# rank %d on %s: computing %.0f%% of its timed calls, communicating or "
                "waiting %.0f%%", r, host, 100 * t[0] / t[1], 100 * (1 - t[0] / t[1]));
        if (t[3] > 0)
            fprintf(f, "; other processes on its node: %.2f of a core", t[2] / t[3]);
        fputc('\n', f);
    }
    free(all);
}

/* Validate, then time, one variant at this launch's ranks and threads. */
static int run_config(FILE *f, const sl_hybrid_job *job, const sl_hybrid_variant *v,
                      const sl_hybrid_plan *plan, launch *at)
{
    config c = { .job = job, .v = v, .comm = MPI_COMM_WORLD, .at = at, .busiest = -1 };
    c.p = (sl_problem){ .size = job->size, .threads = plan->threads, .seed = 1 };
    MPI_Comm_rank(c.comm, &c.me.rank);
    MPI_Comm_size(c.comm, &c.me.ranks);
    c.me.def = job->kernel->problem;
    c.me.row_of = v->row_of;
    c.me.row_count = v->row_count;
    double mib = 0;
    if (!all_ok(c.comm, allocate(&c, &mib) == 0)) {
        if (c.me.rank == 0)
            fprintf(stderr, "%s: out of memory: %s %s needs %.0f MiB on rank 0\n",
                    plan->program, job->kernel->problem->name, v->name, mib);
        release(&c);
        return SL_EXIT_RUNTIME;
    }
    double total, compute, worst;
    one_call(&c, &total, &compute);
    MPI_Allreduce(&total, &worst, 1, MPI_DOUBLE, MPI_MAX, c.comm);
    sl_verdict vd = { 0 };
    char note[1024];
    int valid = validate(&c, &vd, note, sizeof note);
    c.work_balance = work_balance(&c);
    if (valid && plan->reps > 0) {
        time_config(&c, plan, worst);
        /* The busiest node over all the repetitions, not in the last
         * disturbed one: one noisy repetition elsewhere does not name it. */
        struct { double v; int rank; } mine = { c.node_others, c.me.rank }, most;
        if (rank_of(at->node) != 0)
            mine.v = -1;
        MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c.comm);
        c.busiest = most.v > 0 ? most.rank : -1;
        if (c.me.rank == 0)
            summarise(&c);
    }
    if (c.me.rank == 0) {
        int64_t idle = 0;
        if (v->row_count != NULL)
            for (int r = 0; r < c.me.ranks; r++)
                idle += v->row_count(r, c.me.ranks, sl_problem_height(&c.p)) == 0;
        if (idle > 0 && valid)
            snprintf(note, sizeof note, "%" PRId64 " of %d ranks had no rows (more ranks than rows)",
                     idle, c.me.ranks);
        if (c.disturbed > 0 && c.busiest >= 0 && at->lines != NULL) {
            char host[MPI_MAX_PROCESSOR_NAME];
            host_of(at, c.busiest, host, sizeof host);
            size_t used = strlen(note);
            snprintf(note + used, sizeof note - used,
                     "%sother processes busy on %s (rank %d's node)", used ? "; " : "", host,
                     c.busiest);
        }
        write_row(f, &c, v->name, c.me.ranks, valid, &vd, note);
        printf("  %-11s %-14s %d rank(s) x %d thread(s): %s", job->kernel->problem->name,
               v->name, c.me.ranks, c.p.threads, valid ? "valid" : "INVALID");
        if (valid && c.total.n > 0) {
            char total[32], compute[32], comm[32];
            sl_time_text(total, sizeof total, c.total.median);
            sl_time_text(compute, sizeof compute, c.compute.median);
            sl_time_text(comm, sizeof comm, c.total.median - c.compute.median);
            printf(", %s (compute %s, communication %s, balance %.0f%%, work %.0f%%)", total,
                   compute, comm, 100.0 * c.compute_mean.median / c.compute.median,
                   100.0 * c.work_balance);
        }
        printf("%s%s\n", note[0] ? ": " : "", note);
        if (!valid)
            fprintf(stderr, "%s: INVALID: %s %s at %d rank(s) x %d thread(s): got %.17g,"
                    " expected %.17g%s%s\n", plan->program, job->kernel->problem->name,
                    v->name, c.me.ranks, c.p.threads, c.out.value, vd.expected,
                    note[0] ? "; " : "", note);
        fflush(stdout);
    }
    release(&c);
    /* A wrong answer is in the fragment (valid=no) for the driver; the
     * launch itself succeeded, so mpirun has no failure to announce. */
    return SL_EXIT_OK;
}

int sl_hybrid_work(const sl_hybrid_plan *plan)
{
    int rank, code = SL_EXIT_OK, open_ok = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    launch at = { 0 };
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &at.node);
    FILE *f = NULL;
    if (rank == 0) {
        f = fopen(plan->frag, "w");
        if (f == NULL) {
            fprintf(stderr, "%s: cannot write %s: %s\n", plan->program, plan->frag, strerror(errno));
            open_ok = 0;
        }
    }
    if (!all_ok(MPI_COMM_WORLD, open_ok)) {
        MPI_Comm_free(&at.node);
        return SL_EXIT_RUNTIME;
    }
    describe(f, MPI_COMM_WORLD, &at);
    for (int k = 0; f != NULL && k < SL_GRID_FRAGMENT_COLUMNS; k++)
        fprintf(f, "%s%c", sl_grid_columns[k], k + 1 < SL_GRID_FRAGMENT_COLUMNS ? ',' : '\n');
    for (int j = 0; j < plan->njobs && code != SL_EXIT_RUNTIME; j++) {
        const sl_hybrid_job *job = &plan->jobs[j];
        if (plan->baseline && rank == 0 && baseline(f, job, plan) != 0)
            code = SL_EXIT_RUNTIME;
        for (size_t k = 0; k < job->kernel->count && code != SL_EXIT_RUNTIME; k++) {
            code = run_config(f, job, &job->kernel->variants[k], plan, &at);
        }
    }
    if (code != SL_EXIT_RUNTIME)
        describe_totals(f, MPI_COMM_WORLD, &at);
    if (f != NULL && (fclose(f) != 0) && code == SL_EXIT_OK) {
        fprintf(stderr, "%s: write failed: %s: %s\n", plan->program, plan->frag, strerror(errno));
        code = SL_EXIT_RUNTIME;
    }
    /* Every rank returns the same code. */
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&at.node);
    free(at.lines);
    return code;
}

int sl_hybrid_ranks_list(const char *frag, char *out, size_t len)
{
    int n = snprintf(out, len, "%s.ranks", frag);
    return n > 0 && (size_t)n < len ? 0 : -1;
}
