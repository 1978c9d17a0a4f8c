/* columns.c - results.csv's header and rows from the one table
 * (columns.h). */
#include "columns.h"

#include <stdarg.h>
#include <string.h>

static const char *const names[SL_NCOLUMNS] = {
#define SL_COLUMN(name, unit, meaning) #name,
#include "columns.def"
#undef SL_COLUMN
};

void sl_csv_row_clear(sl_csv_row *r)
{
    for (int c = 0; c < SL_NCOLUMNS; c++)
        r->cell[c][0] = '\0';
}

void sl_csv_cell(sl_csv_row *r, sl_column c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->cell[c], sizeof r->cell[c], fmt, ap);
    va_end(ap);
}

void sl_csv_num(sl_csv_row *r, sl_column c, const char *fmt, double v, int available)
{
    if (available)
        snprintf(r->cell[c], sizeof r->cell[c], fmt, v);
    else
        r->cell[c][0] = '\0';
}

void sl_csv_header(FILE *f)
{
    for (int c = 0; c < SL_NCOLUMNS; c++)
        fprintf(f, "%s%s", c ? "," : "", names[c]);
    fputc('\n', f);
}

/* A text cell with a comma, a quote or a line break is quoted, its
 * quotes doubled (RFC 4180); so is a note, and the schedule always, as
 * every writer has always written it. */
static void put_cell(FILE *f, sl_column c, const char *s)
{
    int quote = c == SL_COL_schedule || (c == SL_COL_note && s[0]) ||
                strpbrk(s, ",\"\n\r") != NULL;
    if (!quote) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

void sl_csv_row_write(FILE *f, const sl_csv_row *r)
{
    for (int c = 0; c < SL_NCOLUMNS; c++) {
        if (c)
            fputc(',', f);
        put_cell(f, (sl_column)c, r->cell[c]);
    }
    fputc('\n', f);
}
