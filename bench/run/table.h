/* table.h - the one reader of the kit's CSV files: results.csv, samples.csv,
 * rows measured by another program (lesson 8's numba run, lesson 6's MPI
 * run) and lesson 6's worker fragments.
 *
 * Strict, the way compare has always read: the columns a caller needs must
 * be in the header (by name, in any order), every row has exactly the
 * header's number of fields, quotes are closed, and a number that is not
 * one is an error naming the file, the line, the column and the value.
 * Lines starting with '#' are kept apart as comments (a fragment's
 * context). Everything is read into memory once and split in place.
 */
#ifndef SPEEDLAB_TABLE_H
#define SPEEDLAB_TABLE_H

#include <stddef.h>

#include "args.h"

typedef struct sl_table {
    char path[SL_PATH_BUF];
    char *text;                /* the file, split in place */
    char **cell;               /* nrows x ncols */
    char **name;               /* the header's ncols names */
    int *line;                 /* each row's line number in the file */
    int ncols, nrows, header_line;
    char *comments;            /* the '#' lines, without "# ", joined */
    size_t comments_len;
} sl_table;

/* The whole file at path, NUL-terminated, its length in *len (may be
 * NULL); NULL with errno set. */
char *sl_slurp(const char *path, size_t *len);

/* Read path. Returns 0, or -1 with the reason in why (and nothing to free). */
int sl_table_read(sl_table *t, const char *path, char *why, size_t whylen);
void sl_table_free(sl_table *t);

/* The column called name, or -1. */
int sl_table_col(const sl_table *t, const char *name);

/* Look up every name of names (n of them) into index; a missing one is an
 * error ("'path' line N: no column 'x': not a <what>"). 0 or -1. */
int sl_table_need(const sl_table *t, const char *what, const char *const *names, int n,
                  int *index, char *why, size_t whylen);

/* A cell as text ("" for a column that is not there: col < 0). */
const char *sl_table_text(const sl_table *t, int row, int col);

/* A cell as a number. Empty cells give empty_value when allowed (allow_empty),
 * else an error; so does text that is not a finite number. 0 or -1. */
int sl_table_real(const sl_table *t, int row, int col, int allow_empty, double empty_value,
                  double *out, char *why, size_t whylen);
/* A whole number (digits, optional leading '-'); empty as for sl_table_real. */
int sl_table_int(const sl_table *t, int row, int col, int allow_empty, long long empty_value,
                 long long *out, char *why, size_t whylen);

#endif
