/* answer.c - an answer computed elsewhere, checked as a variant's is
 * (answer.h). */
#define _DEFAULT_SOURCE
#include "answer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

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

int sl_answer_check(const sl_kernel *const *kernels, const char *line, char *out,
                    size_t outlen, int *ok, char *why, size_t whylen)
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
    const sl_kernel *k = sl_find_kernel(kernels, kernel);
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

