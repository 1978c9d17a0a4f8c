/* check_main.c - speedlab-check: the kit's own checks for answers computed
 * elsewhere (lesson 8's numba ladder, python/), so a numba variant is held
 * to the very references and tolerances a C variant is, by the same code.
 *
 *   speedlab-check --sizes       one line per kernel: name, default size,
 *                                quick size, probe size, default max_iter,
 *                                work unit (the numba driver plans from it)
 *   speedlab-check MANIFEST      one answer per line (below); one verdict
 *                                line per answer on stdout
 *
 * A manifest line: id kernel size height max_iter seed mode value hits answer
 * (tab-separated; mode "exact" is the kernel's own check, "statistical" its
 * check_statistics, for a generator other than the kit's; answer: for an
 * image kernel a file of width*height native int32 counts, row 0 at the
 * top; for a kernel with read_answer the file it reads (k-means: the labels,
 * then the centroids); else "-"). A verdict
 * line: id ok|wrong expected error tolerance error_name. Exit 0 when every
 * answer is right, 3 when any is wrong, 2 for a bad manifest (one line on
 * stderr naming the line).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "exitcodes.h"
#include "kernel.h"
#include "tree.h"

extern const sl_kernel *const SL_TREE_SYMBOL(kernels)[];

/* In lesson order: the numba driver plans in this order too. */
static void print_sizes(void)
{
    const sl_kernel *k[SL_MAX_KERNELS];
    size_t n = sl_kernels_by_lesson(SL_TREE_SYMBOL(kernels), k, SL_MAX_KERNELS);
    for (size_t i = 0; i < n; i++) {
        const sl_problem_def *d = k[i]->problem;
        printf("%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%d\t%s\n", d->name,
               d->default_size, d->quick_size, d->probe_size, d->default_max_iter,
               d->work_unit);
    }
}

/* Read an image of exactly n int32 counts; NULL with errno on failure. */
static int32_t *read_image(const char *path, int64_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    int32_t *counts = malloc((size_t)n * sizeof *counts);
    int extra = EOF;
    size_t got = counts ? fread(counts, sizeof *counts, (size_t)n, f) : 0;
    if (counts && got == (size_t)n)
        extra = fgetc(f);
    fclose(f);
    if (!counts || got != (size_t)n || extra != EOF) {
        free(counts);
        errno = counts ? EINVAL : ENOMEM;
        return NULL;
    }
    return counts;
}

/* One manifest line into a verdict; -1 with why for a malformed line. */
static int check_line(char *line, char *out, size_t outlen, int *ok, char *why,
                      size_t whylen)
{
    char id[64], kernel[64], mode[16], image[SL_PATH_BUF];
    long long size, height, hits;
    int max_iter;
    uint64_t seed;
    double value;
    _Static_assert(sizeof image == 4096, "the %4095s below is image's size less one");
    if (sscanf(line, "%63s %63s %lld %lld %d %" SCNu64 " %15s %lf %lld %4095s", id, kernel,
               &size, &height, &max_iter, &seed, mode, &value, &hits, image) != 10)
        return sl_fail(why, whylen, "expected 10 tab-separated fields");
    const sl_kernel *k = sl_find_kernel(SL_TREE_SYMBOL(kernels), kernel);
    if (!k)
        return sl_fail(why, whylen, "unknown kernel '%s'", kernel);
    const sl_problem_def *d = k->problem;
    if (size < 1 || size > d->max_size || height < 0 || max_iter < 0)
        return sl_fail(why, whylen, "size %lld is outside 1..%" PRId64, size, d->max_size);
    int statistical = strcmp(mode, "statistical") == 0;
    if ((!statistical && strcmp(mode, "exact") != 0) || (statistical && !d->check_statistics))
        return sl_fail(why, whylen, "mode '%s' is not one %s has", mode, d->name);
    sl_problem p = { .size = size, .height = height, .max_iter = max_iter, .seed = seed };
    sl_outcome o = { .value = value, .hits = hits, .where = SL_RAN_HOST };
    if (d->image) {
        o.counts = read_image(image, (int64_t)size * sl_problem_height(&p));
        if (!o.counts)
            return sl_fail(why, whylen, "image '%s': %s (want %lld x %lld int32 counts)", image,
                           errno == EINVAL ? "wrong length" : strerror(errno), size,
                           (long long)sl_problem_height(&p));
    } else if (d->read_answer) {
        if (d->prepare(NULL, &p, &o) != 0) {
            sl_release(d, &o);
            return sl_fail(why, whylen, "out of memory for %s at %lld", d->name, size);
        }
        if (d->read_answer(&p, image, &o, why, whylen) != 0) {
            sl_release(d, &o);
            return -1;
        }
        if (d->tally)
            d->tally(&p, &o);
    }
    sl_verdict v = statistical ? d->check_statistics(&p, &o) : d->check(&p, &o);
    free(o.counts);
    sl_release(d, &o);
    *ok = v.ok && !v.no_reference;
    snprintf(out, outlen, "%s\t%s\t%.17g\t%.6g\t%.6g\t%s\n", id, *ok ? "ok" : "wrong",
             v.expected, v.error, v.tolerance, d->error_name ? d->error_name : "error");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--sizes") == 0) {
        print_sizes();
        return SL_EXIT_OK;
    }
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s --sizes | %s MANIFEST\n", argv[0], argv[0]);
        return SL_EXIT_USAGE;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read '%s': %s\n", argv[0], argv[1], strerror(errno));
        return SL_EXIT_USAGE;
    }
    char line[8192], out[512], why[SL_WHY_BUF];
    int lineno = 0, wrong = 0;
    while (fgets(line, sizeof line, f)) {
        int ok = 0;
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (check_line(line, out, sizeof out, &ok, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s line %d: %s\n", argv[0], argv[1], lineno, why);
            fclose(f);
            return SL_EXIT_USAGE;
        }
        fputs(out, stdout);
        wrong += !ok;
    }
    fclose(f);
    return wrong ? SL_EXIT_INVALID : SL_EXIT_OK;
}
