/* args.h - strict parsing of what users type: numbers, lists, names, env.
 *
 * Every parser accepts the whole text or nothing: "12abc", "", "-1" and
 * overflow are refused with a one-line reason naming the value and what is
 * allowed. Callers print the reason and exit SL_EXIT_USAGE before measuring.
 */
#ifndef SPEEDLAB_ARGS_H
#define SPEEDLAB_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/* The most threads any list may ask for: far above any node we expect, low
 * enough that a typo (100000) is caught before the runtime tries it. */
#define SL_MAX_THREADS 1024

/* The longest thread list a run may sweep. */
#define SL_MAX_THREAD_COUNTS 32

/* The most kernels that a run can give a size of their own. */
#define SL_MAX_KERNEL_SIZES 8

/* "--size mandelbrot=8192": one kernel's size (kernel points into argv). */
typedef struct sl_kernel_size {
    const char *kernel;
    size_t kernel_len;
    int64_t size;
} sl_kernel_size;

/* Parse a whole integer in [min, max]. Accepts digits with an optional
 * decimal exponent ("400000000", "4e8") so numbers read the way Python
 * users write them. Returns 0 and sets *out, or -1 with the reason in why. */
int sl_parse_i64(const char *what, const char *text, int64_t min, int64_t max,
                 int64_t *out, char *why, size_t whylen);

/* Parse a comma-separated list of thread counts ("1,2,4"), each in
 * [1, SL_MAX_THREADS], at most cap entries, no duplicates. */
int sl_parse_thread_list(const char *what, const char *text, int *out,
                         int cap, int *count, char *why, size_t whylen);

/* The longest folder path the kit takes from its user. Every file it
 * writes under one (a run folder, its hidden partial twin, a picture named
 * after a configuration) then fits SL_PATH_BUF, the kit's one size of path
 * buffer, so no path is ever cut short and written somewhere else. */
#define SL_PATH_LIMIT 2000
/* The limit, a run folder's name (time, host, ".partial"), a file's name
 * and the terminator, with room to spare. */
#define SL_PATH_BUF (2 * SL_PATH_LIMIT + 96)
/* The longest folder name the kit adds under it: a sub-folder ("mandelbrot",
 * "compare") or a run folder (<UTC time>-<host>). */
#define SL_SUBFOLDER_MAX 96
/* A message that names such a path in full, with room for its reason. */
#define SL_WHY_BUF (SL_PATH_BUF + 1024)

/* dir + "/" + name into out: the kit's one way to build a path. 0, or -1
 * with errno ENAMETOOLONG when it does not fit: never a path cut short
 * that names some other file. */
int sl_path_join(char *out, size_t len, const char *dir, const char *name);

/* A path from a format ("%s/speedup-%s.dat"), under the same rule: 0, or -1
 * with errno ENAMETOOLONG and out empty when it does not fit. */
int sl_path_format(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The kit's one way to fail with a reason: why = the formatted line,
 * errno kept, returns -1 (so "return sl_fail(why, whylen, ...)"). */
int sl_fail(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Refuse a longer path: 0, or -1 with why ("--results: path too long:
 * 2500 > 2000 characters"). */
int sl_check_path(const char *what, const char *path, char *why, size_t whylen);

/* Parse one OpenMP loop schedule: static, dynamic or guided, optionally
 * followed by ",CHUNK" (1 to 1000000), e.g. "static,1", "dynamic"; or
 * "as-written", the schedule in the variant's own pragma. */
int sl_parse_schedule(const char *what, const char *text, sl_schedule *out,
                      char *why, size_t whylen);

/* The name in names[0..n) nearest to word by edit distance, or NULL when
 * nothing is close enough to be a plausible typo. */
const char *sl_nearest(const char *word, const char *const *names, size_t n);

/* Validate the OpenMP environment we rely on (OMP_NUM_THREADS,
 * OMP_PROC_BIND, OMP_PLACES, OMP_WAIT_POLICY, OMP_DYNAMIC,
 * OMP_THREAD_LIMIT). libgomp and libomp react differently to garbage, so
 * we refuse it ourselves. Returns 0 or -1. */
int sl_check_omp_env(char *why, size_t whylen);

#endif
