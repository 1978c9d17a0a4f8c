/* mca.c - read the build's static analysis (mca.h). */
#include "mca.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

/* Field i of a CSV line without quotes, into out. */
static void field(const char *line, int i, char *out, size_t len)
{
    const char *p = line;
    for (int k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    size_t n = p ? strcspn(p, ",\n") : 0;
    if (n >= len)
        n = len - 1;
    memcpy(out, p ? p : "", n);
    out[n] = '\0';
}

static double number(const char *line, int i)
{
    char text[32];
    field(line, i, text, sizeof text);
    return text[0] ? atof(text) : 0.0;
}

int sl_mca_load(sl_mca *m, const char *path)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    free(m->rows);
    memset(m, 0, sizeof *m);
    if (f == NULL)
        return -1;
    char line[512];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "kernel,", 7) == 0)
            continue;
        if (m->count == cap) {
            size_t more = cap ? 2 * cap : 64;
            sl_mca_row *rows = realloc(m->rows, more * sizeof *rows);
            if (rows == NULL)
                break;
            m->rows = rows, cap = more;
        }
        sl_mca_row *r = &m->rows[m->count];
        memset(r, 0, sizeof *r);
        field(line, 0, r->kernel, sizeof r->kernel);
        field(line, 1, r->variant, sizeof r->variant);
        field(line, 2, r->cls, sizeof r->cls);
        field(line, 3, r->loop, sizeof r->loop);
        r->instructions = (int)number(line, 4);
        r->lanes = number(line, 5);
        r->cycles = number(line, 6);
        r->rthroughput = number(line, 7);
        field(line, 8, r->bound, sizeof r->bound);
        field(line, 9, r->resource, sizeof r->resource);
        field(line, 11, r->instruction, sizeof r->instruction);
        field(line, 12, r->chain, sizeof r->chain);
        field(line, 13, r->cpu, sizeof r->cpu);
        field(line, 14, r->note, sizeof r->note);
        for (int w = 0; w < SL_MCA_WIDTHS; w++)
            r->vectors[w] = (int)number(line, 15 + w);
        /* A row llvm-mca could not model has no cycles, and says why. */
        if (r->lanes > 0.0)
            m->count++;
    }
    fclose(f);
    return 0;
}

const sl_mca_row *sl_mca_find(const sl_mca *m, const char *kernel, const char *variant,
                              int ceiling_kind)
{
    const char *cls = ceiling_kind == SL_CEILING_DIVIDE ? "div"
                      : ceiling_kind == SL_CEILING_FMA ? "fma"
                      : ceiling_kind == SL_CEILING_MUL64 ? "mul64" : "";
    for (size_t i = 0; m && i < m->count; i++)
        if (strcmp(m->rows[i].kernel, kernel) == 0 && strcmp(m->rows[i].variant, variant) == 0 &&
            strcmp(m->rows[i].cls, cls) == 0)
            return &m->rows[i];
    return NULL;
}
