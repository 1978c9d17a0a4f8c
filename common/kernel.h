/* kernel.h - the table that drives tests, bench and runner for every kernel.
 *
 * A kernel (pi, mandelbrot, ...) is a fixed problem plus a ladder of variants
 * with one signature. The harness never calls a variant by name: it walks
 * sl_kernel.variants. Work per call comes from the kernel, so rates are
 * computed from data, not typed in.
 */
#ifndef SPEEDLAB_KERNEL_H
#define SPEEDLAB_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* Where a variant's computation ran. Every variant reports it; only an
 * offload region that really reached a device may say SL_RAN_DEVICE. */
typedef enum sl_where {
    SL_RAN_HOST = 0,          /* ordinary CPU code */
    SL_RAN_HOST_FALLBACK = 1, /* a target region that ran on the host */
    SL_RAN_DEVICE = 2         /* a target region that ran on a device */
} sl_where;

const char *sl_where_name(sl_where where);

/* Is this build's offload device LLVM's host offload device
 * (SPEEDLAB_OFFLOAD=HOST)? It has memory of its own, so every map copies
 * as to a GPU, but it is this CPU: SL_RAN_DEVICE is then named
 * "host offload device", never a GPU. */
int sl_device_is_host(void);

/* What a device row is, in words for a report's reason column. */
const char *sl_device_words(void);

/* Did a gpu variant run on this CPU in place of a GPU (the host fallback,
 * or the host offload device)? Its time is then the CPU's: no speed
 * verdict, no GPU figure. */
int sl_gpu_stand_in(sl_where where);

/* What a variant needs from the machine. */
enum sl_variant_flags {
    SL_USES_THREADS = 1u << 0, /* honours the threads argument */
    SL_USES_SIMD = 1u << 1,    /* vectorised on purpose */
    SL_USES_GPU = 1u << 2,     /* an offload region: may run on a device */
    SL_USES_SCHEDULE = 1u << 3, /* has a schedule-sweep twin (fractal threads) */
    SL_USES_CUDA = 1u << 4,    /* CUDA C: runs only on a CUDA device, so the
                                  harness skips it (and says so) without one */
    SL_STAGE = 1u << 5,        /* a teaching stage beside the ladder (pi's
                                  spmd, gpu_v1, gpu_v2, gpu_v4): timed and
                                  shown in the details, not a rung of the
                                  headline (sl_variant_lesson: whose step) */
    SL_EXPERT = 1u << 6,       /* the expert rung, past threads_simd: a rung
                                  of the headline, held against its own limit
                                  (sl_problem_def.expert_*), since it changes
                                  the instructions a work unit needs */
    SL_FALLBACK = 1u << 7,     /* in this build the variant runs the rung
                                  below's code (an expert rung built without
                                  the instructions it needs): labelled
                                  "(fallback)" in every table and plot, and
                                  held against the rung below's limit */
    SL_SHAPE = 1u << 8         /* another shape of an offload loop (lesson 5,
                                  step 5.7: rows, loop, teams), planned only
                                  where --variant names it (the GPU bundle
                                  does); with SL_STAGE, beside the ladder */
};

/* The GPU time breakdown's workload for a kernel (bench/measure/
 * breakdown.c): what its data does on the way to and from a device. */
typedef enum sl_breakdown_kind {
    SL_BREAKDOWN_NONE = 0,
    SL_BREAKDOWN_IMAGE,       /* results come back: an image made on the device */
    SL_BREAKDOWN_ARRAY_IN     /* input goes in: an array summed on the device */
} sl_breakdown_kind;

/* An OpenMP loop schedule as data, so a lesson can sweep it. The kinds have
 * omp_sched_t's values; chunk 0 means the schedule's default chunk. */
typedef enum sl_schedule_kind {
    SL_SCHED_DEFAULT = 0,     /* the one written in the variant's pragma */
    SL_SCHED_STATIC = 1,
    SL_SCHED_DYNAMIC = 2,
    SL_SCHED_GUIDED = 3
} sl_schedule_kind;

typedef struct sl_schedule {
    sl_schedule_kind kind;
    int chunk;
} sl_schedule;

/* Do two schedules name the same kind and chunk? */
static inline int sl_schedule_equal(sl_schedule a, sl_schedule b)
{
    return a.kind == b.kind && a.chunk == b.chunk;
}

/* "static", "static,1", "dynamic", ... into out (at least 24 bytes). */
void sl_schedule_name(sl_schedule s, char *out, size_t len);

/* pi to double precision: what pi and montecarlo estimate (M_PI is not
 * in C11). */
#define SL_PI 3.14159265358979323846

/* The variant every speedup is measured against; every table has one. */
#define SL_BASELINE_VARIANT "scalar"

/* A generic pointer to a variant; the kernel's own run() casts it back to the
 * kernel's signature (converting function pointers and back is defined C). */
typedef void sl_any_fn(void);

typedef struct sl_variant {
    const char *name;     /* "scalar", "simd", "threads", ... */
    sl_any_fn *fn;        /* the variant, as the kernel's signature */
    unsigned flags;       /* enum sl_variant_flags */
    /* SL_USES_SCHEDULE variants: the same loop with schedule(runtime), for
     * the bench's schedule sweep. fn keeps the schedule its pragma says (a
     * problem with SL_SCHED_DEFAULT runs fn; any other schedule runs this
     * twin), so every row's schedule label is true. */
    sl_any_fn *sweep;
    /* Kernels whose data outlives a call (triad's arrays): this variant's
     * own set-up, outside the clock (a threaded variant touches each element
     * first from the thread its loop gives it; a gpu variant also maps the
     * arrays onto the device), and the step that brings its results home
     * (a gpu variant's target exit data). NULL: nothing to do. Signatures:
     * the kernel's own (kernels/triad/triad_problem.h). */
    sl_any_fn *setup;
    sl_any_fn *collect;
} sl_variant;

/* One call's problem. Every kernel reads size and threads; the image
 * kernels (fractals) also read height, max_iter and schedule; the sampling
 * kernel (montecarlo) reads seed. */
typedef struct sl_problem {
    int64_t size;         /* steps, samples; fractals: image width */
    int64_t height;       /* fractals: image rows; 0 means square (= size) */
    int max_iter;         /* fractals: iteration cap; 0: the kernel's default */
    sl_schedule schedule; /* SL_USES_SCHEDULE variants (default: as written) */
    int threads;          /* OpenMP threads for SL_USES_THREADS variants */
    uint64_t seed;        /* montecarlo: the generator's seed (any value) */
} sl_problem;

/* An image kernel's rows (height 0 means square). */
static inline int64_t sl_problem_height(const sl_problem *p)
{
    return p->height > 0 ? p->height : p->size;
}

/* One call's outcome. */
typedef struct sl_outcome {
    double value;         /* the answer: pi estimate, sum of counts, ... */
    double work;          /* work units this call executed */
    sl_where where;       /* where it ran */
    int64_t hits;         /* montecarlo: points inside; others: 0 */
    /* Image kernels only, owned by the caller. In: a buffer of width*height
     * counts (NULL: run() refuses). Out: the counts image, row 0 at the top. */
    int32_t *counts;
    /* Image kernels only: NULL, or height entries set to the OpenMP thread
     * that computed each row (-1 where the variant does not record it). */
    int32_t *row_thread;
    /* Kernels with data (sl_problem_def.prepare): their arrays, made by
     * prepare and freed by sl_release. NULL otherwise. */
    void *data;
} sl_outcome;

/* The verdict of a reference check, with the numbers behind it. */
typedef struct sl_verdict {
    int ok;               /* 1 when the outcome is within tolerance */
    double expected;      /* the reference value */
    double error;         /* |value - expected| */
    double tolerance;     /* the largest error accepted at this size */
    int no_reference;     /* the reference could not be made (out of
                             memory): no verdict either way */
    const char *hint;     /* a wrong answer's likeliest cause in plain
                             words, when the check can tell (a static
                             string), or NULL */
} sl_verdict;

/* The machine limit a kernel's rate is held against: the instruction its
 * work unit cannot do without, whose peak throughput per core the bench
 * measures (bench/measure/ceiling.c). */
typedef enum sl_ceiling_kind {
    SL_CEILING_NONE = 0,
    SL_CEILING_DIVIDE,        /* packed double divides */
    SL_CEILING_FMA,           /* packed double FMAs (the multiply units) */
    SL_CEILING_MUL64,         /* packed 64-bit integer multiplies */
    /* Any vector instruction: the rate at which the core issues the
     * cheapest (packed 64-bit xors). A kernel whose other instructions
     * outnumber its limiting one can be held to this instead (its
     * issue_ops). */
    SL_CEILING_VECTOR,
    SL_CEILING_KINDS
} sl_ceiling_kind;

/* The lesson of the staged offload variants (SL_STAGE | SL_USES_GPU). */
#define SL_GPU_TRACK_LESSON 5

/* The problem definition shared by both trees: tree-independent. */
typedef struct sl_problem_def {
    const char *name;         /* "pi" */
    /* The course lesson that teaches this kernel (course/NN-*.md): make
     * check reports by lesson. Its SL_STAGE offload variants belong to the
     * GPU track, SL_GPU_TRACK_LESSON. */
    int lesson;
    const char *size_name;    /* what size counts: "steps" */
    const char *work_unit;    /* what work counts: "steps" */
    int64_t default_size;     /* the bench's size */
    int64_t quick_size;       /* QUICK=1 and the runner */
    /* A size from this machine (triad: from its caches), used instead of
     * both when set. */
    int64_t (*size_here)(void);
    int64_t probe_size;       /* an awkward size where the check is tight */
    int64_t max_size;         /* the largest size accepted on input */
    int image;                /* 1: outcomes carry a counts image (fractals) */
    const char *error_name;   /* what sl_verdict.error counts: "abs error" */
    /* Awkward problems every variant must get right (tests/test_tree.c runs
     * each at threads 1, 2 and 3); ends with a zero size. */
    const sl_problem *test_cases;
    /* Call variant v on problem p: the call the bench times, and nothing
     * else. Fills out (image kernels: counts, row_thread and where; value
     * and work come from tally). Allocates nothing. Returns 0, or -1 when
     * the problem cannot run (an image kernel given no image). */
    int (*run)(const sl_variant *v, const sl_problem *p, sl_outcome *out);
    /* Image kernels: value and work from the counts (their sum), outside
     * the clock, since summing a 2048^2 image is ~6% of a 2-thread Julia
     * call. NULL: run() sets value and work (reading one number is free). */
    void (*tally)(const sl_problem *p, sl_outcome *out);
    /* Compare an outcome with the reference at this size. */
    sl_verdict (*check)(const sl_problem *p, const sl_outcome *out);
    /* Image kernels: the reference counts image for p (owned by the kernel,
     * valid until the next call); NULL without memory. Others: NULL. */
    const int32_t *(*reference)(const sl_problem *p);
    /* Sampling kernels: the standard error of a correct answer at p's size,
     * so reports can give the error in sigmas. Deterministic ones: NULL. */
    double (*std_error)(const sl_problem *p);
    /* Sampling kernels: the check for a generator other than the kit's
     * (lesson 8's numba variants with numba's own generator), whose points
     * cannot match the reference's: statistics only. NULL: none. */
    sl_verdict (*check_statistics)(const sl_problem *p, const sl_outcome *out);
    /* The limit: one work unit needs ceiling_ops of the ceiling's
     * instruction (lanes count one each), so no variant can beat
     * peak / ceiling_ops work units per second per core. */
    sl_ceiling_kind ceiling;
    double ceiling_ops;
    const char *ceiling_why;  /* "1 divide per step" */
    /* The same for the expert rung (SL_EXPERT), which changes the
     * instructions (pi's has no divide). NONE: the kernel's own. */
    sl_ceiling_kind expert_ceiling;
    double expert_ceiling_ops;
    const char *expert_ceiling_why;
    /* What the report needs to know, so that it never names a kernel. */
    double exact;             /* the value the answer approximates (pi) */
    int default_max_iter;     /* image kernels: the cap when none is given */
    /* Sampling kernels: the reference's estimate at any size and seed, for
     * the convergence figure. Others: NULL. */
    double (*estimate_at)(int64_t size, uint64_t seed);
    sl_breakdown_kind breakdown;
    /* Image kernels: the lane pool of their simd variants (how many pixels
     * iterate together, steps between checks), for the report's model of
     * useful lanes. 0: no pool. */
    int pool_lanes, pool_check_every;
    /* A kernel the runner runs right after another one, the lesson's
     * contrast (triad_cache after triad: "make triad" runs both), names
     * that one here. NULL: none. */
    const char *companion_of;
    /* An exhibit's point, which the runner judges from pairs: the variant
     * it shows slow and the one that cures it (false sharing: adjacent,
     * padded). NULL: none, its point is an answer, not a speed. */
    const char *contrast_slow, *contrast_fast;
    /* Kernels whose data outlives a call (triad): make it for variant v at
     * p into out->data, outside the clock, through the variant's setup;
     * returns 0, or -1 without memory. collect brings the results home
     * (the variant's collect) so that tally and check can read them;
     * release frees out->data. NULL: the kernel has no data. */
    int (*prepare)(const sl_variant *v, const sl_problem *p, sl_outcome *out);
    void (*collect)(const sl_variant *v, const sl_problem *p, sl_outcome *out);
    void (*release)(sl_outcome *out);
    /* Kernels whose answer is arrays (k-means' labels and centroids): an
     * answer computed elsewhere (lesson 8's numba, by speedlab-check), read
     * from the file at path into out->data as prepare made it, so that
     * tally and check see it as a variant's. Returns 0, or -1 with why.
     * NULL: the answer is the value and hits (and an image). */
    int (*read_answer)(const sl_problem *p, const char *path, sl_outcome *out, char *why,
                       size_t whylen);
    /* The roofline: the bytes one call at p must read and write at least
     * when its data does not fit in the caches, each counted once, as the
     * loop names them (triad: 24 per element; a store's write-allocate read
     * is not counted, bandwidth.h). NULL or 0: none worth counting (pi
     * draws nothing from memory), so only a compute roof applies. The
     * memory ceiling of a configuration is the measured bandwidth (counted
     * the same way) over these bytes. */
    double (*bytes_moved)(const sl_problem *p);
    /* Kernels with data: the memory it occupies at p (the bench refuses a
     * size whose data does not fit). NULL: none. */
    double (*bytes_held)(const sl_problem *p);
    /* The vector instructions a work unit needs at the least, whatever
     * they are (0: not counted): a second compute roof, the issue roof,
     * at SL_CEILING_VECTOR's rate; the lower of the two binds. */
    double issue_ops;
    const char *issue_why;    /* "25 vector instructions per sample" */
} sl_problem_def;

/* The limit a variant is held against: the kernel's, or the expert
 * rung's own. */
typedef struct sl_limit {
    sl_ceiling_kind kind;
    double ops;           /* of that instruction per work unit */
    const char *why;      /* "1 divide per step" */
} sl_limit;

static inline sl_limit sl_variant_limit(const sl_problem_def *k, const sl_variant *v)
{
    if ((v->flags & SL_EXPERT) && !(v->flags & SL_FALLBACK) &&
        k->expert_ceiling != SL_CEILING_NONE) {
        sl_limit l = { k->expert_ceiling, k->expert_ceiling_ops, k->expert_ceiling_why };
        return l;
    }
    sl_limit l = { k->ceiling, k->ceiling_ops, k->ceiling_why };
    return l;
}

/* A kernel as one tree implements it: the problem and the tree's variants. */
typedef struct sl_kernel {
    const sl_problem_def *problem;
    const sl_variant *variants;
    size_t count;
} sl_kernel;

/* The names of the kernel and variant whose call is in progress (sl_solve,
 * every timing loop, lesson 6's ranks), or NULL: a program's exit handler
 * (isolate.h's sl_exit_guard) tells an exit() inside a participant's code
 * from its own. */
extern const char *volatile sl_calling_kernel;
extern const char *volatile sl_calling_variant;

/* prepare() (kernels with data), run(), collect() then tally(): a complete
 * outcome, for validation and tests. Returns 0, -1 when run() refused, -2
 * without memory for the kernel's data. Free it with sl_release. */
int sl_solve(const sl_problem_def *def, const sl_variant *v, const sl_problem *p,
             sl_outcome *out);

/* Free what sl_solve (or def->prepare) made in out; harmless otherwise. */
void sl_release(const sl_problem_def *def, sl_outcome *out);

/* Find a variant by name; NULL when there is none. */
const sl_variant *sl_find_variant(const sl_kernel *k, const char *name);

/* The lesson that teaches variant v of kernel k: the kernel's own, except
 * for offload stages (SL_STAGE | SL_USES_GPU), which belong to the GPU
 * track. Any other stage (pi's spmd) is a step of the kernel's lesson. */
static inline int sl_variant_lesson(const sl_kernel *k, const sl_variant *v)
{
    unsigned track = SL_STAGE | SL_USES_GPU;
    return (v->flags & track) == track ? SL_GPU_TRACK_LESSON : k->problem->lesson;
}

/* The largest iteration cap --max-iter accepts, for any kernel with one. */
#define SL_MAX_ITER_LIMIT 1000000

/* The most kernels a tree may have. */
#define SL_MAX_KERNELS 64

/* A tree's kernels (a NULL-terminated list, in any order) in lesson order,
 * those of one lesson in the list's order, into out (at most cap); returns
 * how many. */
size_t sl_kernels_by_lesson(const sl_kernel *const *list, const sl_kernel **out, size_t cap);

/* Find a kernel by name in a NULL-terminated list; NULL when there is none. */
const sl_kernel *sl_find_kernel(const sl_kernel *const *list, const char *name);

#endif
