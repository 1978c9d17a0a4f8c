/* table.c - the one reader of the kit's CSV files (table.h). */
#define _DEFAULT_SOURCE
#include "table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sl_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (ferror(f) || n < cap - 1)
            break;
        char *grown = realloc(buf, 2 * cap);
        if (grown == NULL) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = buf == NULL || ferror(f);
    int saved = errno;
    fclose(f);
    if (bad) {
        free(buf);
        errno = saved ? saved : EIO;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Split the record at *p in place into fields (at most cap are recorded,
 * all are counted); moves *p past its end of line. Returns the number of
 * fields, or -1 for a quote that is not closed on its line. */
static int split_record(char **p, char **field, int cap)
{
    char *r = *p, *w = *p;
    int n = 0;
    for (;;) {
        if (n < cap)
            field[n] = w;
        n++;
        int quoted = *r == '"';
        r += quoted;
        for (;;) {
            if (quoted && r[0] == '"' && r[1] == '"') {
                *w++ = '"';
                r += 2;
            } else if (quoted && r[0] == '"') {
                quoted = 0;
                r++;
            } else if (quoted && (*r == '\0' || *r == '\n')) {
                return -1;
            } else if (*r == '\0' || *r == '\n' || *r == '\r' || (!quoted && *r == ',')) {
                break;
            } else {
                *w++ = *r++;
            }
        }
        /* The terminator, read before the in-place write can cover it. */
        char stop = *r;
        *w++ = '\0';
        if (stop == ',') {
            r++;
            continue;
        }
        if (stop == '\r') {
            for (r++; *r == '\r'; r++)
                ;
            stop = *r;
        }
        *p = stop == '\n' ? r + 1 : r;
        return n;
    }
}

static int grow(sl_table *t, int *cap)
{
    int want = *cap ? 2 * *cap : 64;
    char **cell = realloc(t->cell, (size_t)want * (size_t)t->ncols * sizeof *cell);
    if (cell == NULL)
        return -1;
    t->cell = cell;
    int *line = realloc(t->line, (size_t)want * sizeof *line);
    if (line == NULL)
        return -1;
    t->line = line;
    *cap = want;
    return 0;
}

/* Keep a comment line (after "#" and one space). */
static int add_comment(sl_table *t, const char *text, size_t len)
{
    char *grown = realloc(t->comments, t->comments_len + len + 2);
    if (grown == NULL)
        return -1;
    t->comments = grown;
    memcpy(t->comments + t->comments_len, text, len);
    t->comments_len += len;
    t->comments[t->comments_len++] = '\n';
    t->comments[t->comments_len] = '\0';
    return 0;
}

/* The header at *p (line lineno): its names, split in place. 0, -1 for a
 * quote not closed, -2 out of memory. */
static int read_header(sl_table *t, char **p, int lineno)
{
    char *copy = strndup(*p, strcspn(*p, "\n")), *c = copy, *probe[1];
    if (copy == NULL)
        return -2;
    int n = split_record(&c, probe, 0);
    free(copy);
    if (n < 0)
        return -1;
    t->name = malloc((size_t)n * sizeof *t->name);
    if (t->name == NULL)
        return -2;
    t->ncols = split_record(p, t->name, n);
    t->header_line = lineno;
    return 0;
}

/* The file's lines: comments kept apart, blank lines skipped, the header,
 * then rows of exactly the header's width. 0 or -1 with why. */
static int parse_lines(sl_table *t, char *why, size_t whylen)
{
    char *p = t->text;
    int lineno = 0, cap = 0, rc = 0;
    while (*p && rc == 0) {
        lineno++;
        size_t end = strcspn(p, "\n"), blank = strspn(p, "\r");
        if (*p == '#' || p[blank] == '\n' || p[blank] == '\0') {
            size_t skip = p[1] == ' ' ? 2 : 1, n = end > skip ? end - skip : 0;
            while (n > 0 && p[skip + n - 1] == '\r')
                n--;
            if (*p == '#' && add_comment(t, p + skip, n) != 0)
                rc = -2;
            p += end + (p[end] == '\n');
        } else if (t->name == NULL) {
            rc = read_header(t, &p, lineno);
        } else if (t->nrows == cap && grow(t, &cap) != 0) {
            rc = -2;
        } else {
            int n = split_record(&p, t->cell + (size_t)t->nrows * (size_t)t->ncols, t->ncols);
            if (n >= 0 && n != t->ncols)
                return sl_fail(why, whylen, "'%s' line %d: %d fields, but the header has %d",
                               t->path, lineno, n, t->ncols);
            rc = n < 0 ? -1 : 0;
            t->line[t->nrows++] = lineno;
        }
    }
    if (rc == -1)
        snprintf(why, whylen, "'%s' line %d: a quote is not closed", t->path, lineno);
    else if (rc == -2)
        snprintf(why, whylen, "out of memory reading '%s'", t->path);
    else if (t->name == NULL)
        snprintf(why, whylen, "'%s' is empty: no header line", t->path);
    return rc == 0 && t->name ? 0 : -1;
}

int sl_table_read(sl_table *t, const char *path, char *why, size_t whylen)
{
    memset(t, 0, sizeof *t);
    if (strlen(path) >= sizeof t->path)
        return sl_fail(why, whylen, "'%.200s...': path too long", path);
    snprintf(t->path, sizeof t->path, "%s", path);
    size_t len;
    t->text = sl_slurp(path, &len);
    if (t->text == NULL)
        return sl_fail(why, whylen, "cannot read '%s': %s", path, strerror(errno));
    if (strlen(t->text) != len) {
        snprintf(why, whylen, "'%s' is not a CSV file (it holds a NUL byte)", path);
        sl_table_free(t);
        return -1;
    }
    if (parse_lines(t, why, whylen) != 0) {
        sl_table_free(t);
        return -1;
    }
    return 0;
}

void sl_table_free(sl_table *t)
{
    free(t->text);
    free(t->cell);
    free(t->name);
    free(t->line);
    free(t->comments);
    memset(t, 0, sizeof *t);
}

int sl_table_col(const sl_table *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->name[c], name) == 0)
            return c;
    return -1;
}

int sl_table_need(const sl_table *t, const char *what, const char *const *names, int n,
                  int *index, char *why, size_t whylen)
{
    for (int i = 0; i < n; i++) {
        index[i] = sl_table_col(t, names[i]);
        if (index[i] < 0)
            return sl_fail(why, whylen, "'%s' line %d: no column '%s': not %s", t->path,
                           t->header_line, names[i], what);
    }
    return 0;
}

const char *sl_table_text(const sl_table *t, int row, int col)
{
    return col < 0 ? "" : t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
}

static int bad_cell(const sl_table *t, int row, int col, const char *v, const char *want,
                    char *why, size_t whylen)
{
    return sl_fail(why, whylen, "'%s' line %d: %s '%.40s' is not %s", t->path, t->line[row],
                   col >= 0 ? t->name[col] : "?", v, want);
}

int sl_table_real(const sl_table *t, int row, int col, int allow_empty, double empty_value,
                  double *out, char *why, size_t whylen)
{
    const char *v = sl_table_text(t, row, col);
    if (*v == '\0') {
        *out = empty_value;
        return allow_empty ? 0 : bad_cell(t, row, col, v, "a number", why, whylen);
    }
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(d))
        return bad_cell(t, row, col, v, "a finite number", why, whylen);
    *out = d;
    return 0;
}

int sl_table_int(const sl_table *t, int row, int col, int allow_empty, long long empty_value,
                 long long *out, char *why, size_t whylen)
{
    const char *v = sl_table_text(t, row, col);
    if (*v == '\0') {
        *out = empty_value;
        return allow_empty ? 0 : bad_cell(t, row, col, v, "a whole number", why, whylen);
    }
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || v[0] == '+' || v[0] == ' ')
        return bad_cell(t, row, col, v, "a whole number", why, whylen);
    *out = n;
    return 0;
}
