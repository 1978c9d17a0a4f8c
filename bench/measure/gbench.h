/* gbench.h - a small C API over Google Benchmark (implemented in gbench.cc).
 *
 * C programs register named benchmarks with a callback and a context, run
 * them, and receive every measured repetition through a result callback, so
 * the statistics, files and tables stay in C. Google Benchmark still owns
 * the timing loop, the warm-up and its own JSON output.
 */
#ifndef SPEEDLAB_GBENCH_H
#define SPEEDLAB_GBENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gb_state gb_state;   /* a running benchmark's state */
typedef struct gb_bench gb_bench;   /* a registered benchmark */

/* The body of a benchmark: loop while gb_keep_running(state). */
typedef void gb_body(gb_state *state, void *ctx);

/* Register a benchmark; NULL on failure. A name may be registered more
 * than once (the bench registers each repetition as a benchmark of its
 * own): they run in the order registered. */
gb_bench *gb_register(const char *name, gb_body *body, void *ctx);
void gb_use_real_time(gb_bench *b);               /* wall time: threads, GPU */
void gb_repetitions(gb_bench *b, int n);
/* A fixed count of calls: the bench's repetitions (timing.c sizes each
 * from a calibrated or the fastest call) and MPI ranks (bench/hybrid/:
 * every rank must run the same number of calls, so no rank may pick its
 * own; and the time of a call is the slowest rank's, which the body
 * reports with gb_set_iteration_time). */
void gb_fixed_iterations(gb_bench *b, int64_t n);
void gb_use_manual_time(gb_bench *b);

/* Inside a body. */
int gb_keep_running(gb_state *s);
int64_t gb_iterations(const gb_state *s);
void gb_set_items_processed(gb_state *s, double items); /* -> items_per_second */
void gb_set_iteration_time(gb_state *s, double seconds); /* gb_use_manual_time */

void gb_skip_with_error(gb_state *s, const char *message);
void gb_do_not_optimize(double value);

/* A key/value pair for the JSON output's context block. */
void gb_add_context(const char *key, const char *value);

/* One measured repetition (aggregates are not passed: C computes its own
 * statistics from the repetitions). */
typedef struct gb_result {
    const char *name;
    int64_t repetition;        /* 0-based */
    int64_t iterations;        /* calls timed in this repetition */
    double seconds_per_call;   /* real (wall) time per call */
    int error;                 /* 1 when the body skipped with an error */
    const char *error_message;
} gb_result;
typedef void gb_on_result(const gb_result *r, void *ctx);

/* Hand Google Benchmark its --benchmark_* flags; they are removed from argv.
 * The order of repetitions is the caller's (gb_register's order, Google
 * Benchmark's random interleaving off): in_a_row (may be NULL) is set to 1
 * when the flags ask for no interleaving
 * (--benchmark_enable_random_interleaving=false), else 0.
 * Returns 0, or -1 with the reason in why when a flag is one the library
 * would accept silently but which would measure nothing or garbage. */
int gb_initialize(int *argc, char **argv, int *in_a_row, char *why, size_t whylen);

/* Forget every registered benchmark (before registering a second pass). */
void gb_clear(void);

/* Run every registered benchmark; on_result sees each repetition as it
 * finishes. Returns the number of benchmarks run, or -1 (errno set) when
 * the --benchmark_out file cannot be written or was cut short. */
int gb_run(gb_on_result *on_result, void *ctx);

void gb_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
