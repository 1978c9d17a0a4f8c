/* args.c - strict parsing of numbers, thread lists, names and the OpenMP
 * environment. Tested by tests/test_args.c with the inputs people really
 * type: "abc", "12abc", "-1", "0", "", overflow, "4e8". */
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse [+]digits into *out; -1 on anything else or overflow. */
static int parse_digits(const char **p, int64_t *out, int *overflow)
{
    const char *s = *p;
    int64_t v = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    for (; isdigit((unsigned char)*s); s++) {
        int d = *s - '0';
        if (v > (INT64_MAX - d) / 10)
            *overflow = 1;
        else
            v = v * 10 + d;
    }
    *p = s;
    *out = v;
    return 0;
}

int sl_parse_i64(const char *what, const char *text, int64_t min, int64_t max,
                 int64_t *out, char *why, size_t whylen)
{
    const char *s = text;
    int64_t mant = 0, exp = 0;
    int overflow = 0;

    if (text == NULL || *text == '\0')
        return sl_fail(why, whylen, "%s: missing value (expected a whole number "
                       "from %lld to %lld)", what, (long long)min, (long long)max);
    if (*s == '-')
        return sl_fail(why, whylen, "%s: '%s' is negative (expected a whole number "
                       "from %lld to %lld)", what, text, (long long)min, (long long)max);
    if (*s == '+')
        s++;
    if (parse_digits(&s, &mant, &overflow) != 0)
        goto not_a_number;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (parse_digits(&s, &exp, &overflow) != 0)
            goto not_a_number;
        for (int64_t i = 0; i < exp && !overflow && mant != 0; i++) {
            if (mant > INT64_MAX / 10)
                overflow = 1;
            else
                mant *= 10;
        }
    }
    if (*s != '\0')
        goto not_a_number;
    if (overflow || mant > max || mant < min)
        return sl_fail(why, whylen, "%s: %s is out of range (expected %lld to %lld)",
                       what, text, (long long)min, (long long)max);
    *out = mant;
    return 0;

not_a_number:
    return sl_fail(why, whylen, "%s: '%s' is not a whole number (expected %lld to "
                   "%lld, e.g. %lld)", what, text, (long long)min, (long long)max,
                   (long long)max < 1000 ? (long long)max : 1000LL);
}

int sl_parse_thread_list(const char *what, const char *text, int *out,
                         int cap, int *count, char *why, size_t whylen)
{
    char item[64];
    const char *s = text;
    int n = 0;

    if (text == NULL || *text == '\0')
        return sl_fail(why, whylen, "%s: missing value (expected thread counts "
                       "like 1,2,4)", what);
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        int64_t v;
        if (len >= sizeof item)
            return sl_fail(why, whylen, "%s: '%s' has an entry too long to be a "
                           "thread count", what, text);
        memcpy(item, s, len);
        item[len] = '\0';
        if (sl_parse_i64(what, item, 1, SL_MAX_THREADS, &v, why, whylen) != 0)
            return -1;
        for (int i = 0; i < n; i++)
            if (out[i] == (int)v)
                return sl_fail(why, whylen, "%s: '%s' lists %d twice", what, text,
                               (int)v);
        if (n == cap)
            return sl_fail(why, whylen, "%s: '%s' has more than %d entries", what,
                           text, cap);
        out[n++] = (int)v;
        if (!comma)
            break;
        s = comma + 1;
    }
    *count = n;
    return 0;
}

/* Levenshtein distance, capped: names are short, so a small table will do. */
static size_t edit_distance(const char *a, const char *b)
{
    enum { CAP = 64 };
    size_t la = strlen(a), lb = strlen(b), row[CAP + 1];
    if (la > CAP || lb > CAP)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) !=
                          tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int sl_path_join(char *out, size_t len, const char *dir, const char *name)
{
    return sl_path_format(out, len, "%s/%s", dir, name);
}

int sl_path_format(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len) {
        if (len > 0)
            out[0] = '\0';
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

int sl_fail(char *why, size_t whylen, const char *fmt, ...)
{
    int err = errno;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
    errno = err;
    return -1;
}

int sl_check_path(const char *what, const char *path, char *why, size_t whylen)
{
    size_t n = strlen(path);
    if (n <= SL_PATH_LIMIT)
        return 0;
    return sl_fail(why, whylen, "%s: path too long: %zu > %d characters", what, n, SL_PATH_LIMIT);
}

int sl_parse_schedule(const char *what, const char *text, sl_schedule *out,
                      char *why, size_t whylen)
{
    static const struct { const char *name; sl_schedule_kind kind; } kinds[] = {
        { "static", SL_SCHED_STATIC }, { "dynamic", SL_SCHED_DYNAMIC },
        { "guided", SL_SCHED_GUIDED }, { "as-written", SL_SCHED_DEFAULT },
    };
    const char *comma = text ? strchr(text, ',') : NULL;
    size_t len = text ? (comma ? (size_t)(comma - text) : strlen(text)) : 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (len != strlen(kinds[k].name) || strncmp(text, kinds[k].name, len) != 0)
            continue;
        int64_t chunk = 0;
        if (comma && kinds[k].kind == SL_SCHED_DEFAULT)
            break;
        if (comma) {
            char chunk_what[96];
            snprintf(chunk_what, sizeof chunk_what, "%s: the chunk of '%s'", what, text);
            if (sl_parse_i64(chunk_what, comma + 1, 1, 1000000, &chunk, why, whylen) != 0)
                return -1;
        }
        out->kind = kinds[k].kind;
        out->chunk = (int)chunk;
        return 0;
    }
    return sl_fail(why, whylen, "%s: '%s' is not a schedule (expected static, dynamic or "
                   "guided, optionally with ,CHUNK: e.g. static,1; or as-written)", what,
                   text ? text : "");
}

const char *sl_nearest(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    /* Beyond a third of the word's length it is not a typo any more. */
    if (best && best_d <= 1 + strlen(word) / 3)
        return best;
    return NULL;
}

/* Is text one of the words in the NULL-terminated list? */
static int one_of(const char *text, const char *const *words)
{
    for (; *words; words++)
        if (strcmp(text, *words) == 0)
            return 1;
    return 0;
}

/* OMP_PLACES's grammar as libgomp's manual gives it (GCC 12, "OMP_PLACES"),
 * spaces aside: an abstract name, optionally (N), or a list of places such
 * as {0,1},{2,3}, {0:4}:2:4, !{1}, or bare numbers (a place of one
 * hardware thread needs no braces: 0,1,2). Each parser advances *p past
 * what it read and returns 0, or -1 on anything else. */
static int places_number(const char **p, int sign)
{
    if (sign && **p == '-')
        (*p)++;
    if (!isdigit((unsigned char)**p))
        return -1;
    while (isdigit((unsigned char)**p))
        (*p)++;
    return 0;
}

/* item, then optionally :length and :stride (a signed stride). */
static int places_interval(const char **p, int (*item)(const char **))
{
    if (**p == '!') {
        (*p)++;
        return item(p);
    }
    if (item(p) != 0)
        return -1;
    for (int k = 0; k < 2 && **p == ':'; k++) {
        (*p)++;
        if (places_number(p, k == 1) != 0)
            return -1;
    }
    return 0;
}

static int places_resource(const char **p)
{
    return places_number(p, 0);
}

static int places_place(const char **p)
{
    if (isdigit((unsigned char)**p))
        return places_number(p, 0);
    if (*(*p)++ != '{')
        return -1;
    do {
        if (places_interval(p, places_resource) != 0)
            return -1;
    } while (**p == ',' && (*p)++);
    return *(*p)++ == '}' ? 0 : -1;
}

static int places_valid(const char *v)
{
    static const char *const names[] = {
        "threads", "cores", "sockets", "ll_caches", "numa_domains", NULL };
    char text[256];
    size_t n = 0;
    for (; *v && n + 1 < sizeof text; v++)
        if (!isspace((unsigned char)*v))
            text[n++] = (char)tolower((unsigned char)*v);
    text[n] = '\0';
    if (*v || n == 0)
        return 0;
    size_t word = strcspn(text, "(");
    for (const char *const *name = names; *name; name++) {
        if (strlen(*name) != word || strncmp(text, *name, word) != 0)
            continue;
        const char *p = text + word;
        return *p == '\0' || (*p++ == '(' && places_number(&p, 0) == 0 &&
                               *p++ == ')' && *p == '\0');
    }
    const char *p = text;
    do {
        if (places_interval(&p, places_place) != 0)
            return 0;
    } while (*p == ',' && p++);
    return *p == '\0';
}

int sl_check_omp_env(char *why, size_t whylen)
{
    static const char *const binds[] = {
        "true", "false", "master", "primary", "close", "spread",
        "TRUE", "FALSE", "MASTER", "PRIMARY", "CLOSE", "SPREAD", NULL };
    static const char *const bools[] = {
        "true", "false", "TRUE", "FALSE", NULL };
    static const char *const waits[] = {
        "active", "passive", "ACTIVE", "PASSIVE", NULL };
    const char *v;
    int list[SL_MAX_THREAD_COUNTS], n;

    if ((v = getenv("OMP_NUM_THREADS")) != NULL &&
        sl_parse_thread_list("OMP_NUM_THREADS", v, list, SL_MAX_THREAD_COUNTS,
                             &n, why, whylen) != 0)
        return -1;
    if ((v = getenv("OMP_THREAD_LIMIT")) != NULL) {
        int64_t lim;
        if (sl_parse_i64("OMP_THREAD_LIMIT", v, 1, SL_MAX_THREADS, &lim, why,
                         whylen) != 0)
            return -1;
    }
    if ((v = getenv("OMP_PROC_BIND")) != NULL) {
        char copy[128];
        int tokens = 0, bad = *v == '\0' || strlen(v) >= sizeof copy ||
                              v[strlen(v) - 1] == ',' || strstr(v, ",,");
        snprintf(copy, sizeof copy, "%s", v);
        for (char *tok = strtok(copy, ","); tok && !bad; tok = strtok(NULL, ",")) {
            bad = !one_of(tok, binds);
            tokens++;
        }
        if (bad || tokens == 0)
            return sl_fail(why, whylen, "OMP_PROC_BIND: '%s' is not allowed "
                           "(expected true, false, primary, close or spread)", v);
    }
    /* libgomp warns about a bad OMP_PLACES and runs unbound; refused here
     * as a bad OMP_PROC_BIND is, so that a run never claims a binding it
     * did not have. */
    if ((v = getenv("OMP_PLACES")) != NULL && !places_valid(v))
        return sl_fail(why, whylen, "OMP_PLACES: '%s' is not allowed (expected threads, cores, "
                       "sockets, ll_caches or numa_domains, optionally with (N), or places "
                       "such as {0,1},{2,3} or {0}:4:1)", v);
    if ((v = getenv("OMP_WAIT_POLICY")) != NULL && !one_of(v, waits))
        return sl_fail(why, whylen, "OMP_WAIT_POLICY: '%s' is not allowed (expected active "
                       "or passive)", v);
    if ((v = getenv("OMP_DYNAMIC")) != NULL && !one_of(v, bools))
        return sl_fail(why, whylen, "OMP_DYNAMIC: '%s' is not allowed (expected "
                       "true or false)", v);
    return 0;
}
