/* check.h - assertion macros for the tests: they survive -DNDEBUG, print
 * both operands, and count failures instead of stopping at the first. */
#ifndef SPEEDLAB_CHECK_H
#define SPEEDLAB_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond)                                                          \
    do {                                                                     \
        check_count++;                                                       \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

#define CHECK_EQ_LL(a, b)                                                    \
    do {                                                                     \
        long long a_ = (long long)(a), b_ = (long long)(b);                  \
        check_count++;                                                       \
        if (a_ != b_) {                                                      \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld vs %lld\n",        \
                    __FILE__, __LINE__, #a, #b, a_, b_);                     \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

#define CHECK_CONTAINS(text, part)                                           \
    do {                                                                     \
        const char *t_ = (text), *p_ = (part);                               \
        check_count++;                                                       \
        if (strstr(t_, p_) == NULL) {                                        \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, \
                    __LINE__, t_, p_);                                       \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

/* A file's first len - 1 bytes into buf, as a string ("" when it cannot
 * be read). */
static inline void check_read_file(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* End main with this: prints the tally, returns the exit status. */
#define CHECK_DONE()                                                         \
    (printf("%d checks, %d failed\n", check_count, check_failures),          \
     check_failures ? 1 : 0)

#endif
