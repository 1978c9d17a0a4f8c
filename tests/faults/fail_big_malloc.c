/* fail_big_malloc.c - an LD_PRELOAD library for tests: malloc of at least
 * $SL_FAIL_MALLOC_BYTES bytes returns NULL with ENOMEM; smaller ones go to
 * the C library. It reaches the out-of-memory paths that the bench's
 * memory pre-check keeps an ordinary run from (an image or a reference that
 * cannot be allocated while checking), without starving the rest of the
 * process. Never linked into the kit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

void *malloc(size_t n)
{
    static void *(*real)(size_t);
    static size_t limit = (size_t)-1;
    if (real == NULL) {
        real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
        const char *s = getenv("SL_FAIL_MALLOC_BYTES");
        limit = s != NULL ? (size_t)strtoull(s, NULL, 10) : (size_t)-1;
    }
    if (n >= limit) {
        errno = ENOMEM;
        return NULL;
    }
    return real(n);
}
