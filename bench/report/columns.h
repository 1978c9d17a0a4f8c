/* columns.h - results.csv's columns, declared once (columns.def), and a
 * row filled by column rather than by position: every writer of
 * results.csv (the ladder's, lesson 6's grid) fills the cells it knows and
 * leaves the rest empty, and one function writes them in the table's
 * order. */
#ifndef SPEEDLAB_COLUMNS_H
#define SPEEDLAB_COLUMNS_H

#include <stdio.h>

typedef enum sl_column {
#define SL_COLUMN(name, unit, meaning) SL_COL_##name,
#include "columns.def"
#undef SL_COLUMN
    SL_NCOLUMNS
} sl_column;

/* One row: each cell's text, empty unless set. */
enum { SL_CELL_MAX = 512 };         /* a grid row's note (grid.h) */
typedef struct sl_csv_row {
    char cell[SL_NCOLUMNS][SL_CELL_MAX];
} sl_csv_row;

void sl_csv_row_clear(sl_csv_row *r);
/* Set a cell, printf-style; a text that must be quoted (a comma, a quote)
 * is written quoted by sl_csv_row_write. */
void sl_csv_cell(sl_csv_row *r, sl_column c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A number, or an empty cell when it is not available. */
void sl_csv_num(sl_csv_row *r, sl_column c, const char *fmt, double v, int available);

void sl_csv_header(FILE *f);
void sl_csv_row_write(FILE *f, const sl_csv_row *r);

#endif
