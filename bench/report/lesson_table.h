/* lesson_table.h - the participant's table, as `make <lesson>` prints it:
 * a row per variant and tree (time, speedup, result, error, the verdict of
 * verdict.h, where it ran), the notes under it, and what a wrong answer
 * means and where to look. Printing only: the rules are verdict.h's.
 */
#ifndef SPEEDLAB_LESSON_TABLE_H
#define SPEEDLAB_LESSON_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "suite.h"

/* The header and one row per configuration, variant by variant (the
 * participant's above the solution's); a sampling kernel's note. */
void sl_lesson_table(FILE *f, const sl_suite *s);

/* The notes under the table: what a row's marks mean, and why a number
 * is not what it seems. */
void sl_lesson_notes(FILE *f, const sl_suite *s);

/* One line per variant whose code printed while it was checked and timed
 * (sl_config.printed): how many lines, where they are (path; NULL: not
 * kept), and that the printing was timed with the variant. */
void sl_lesson_printed(FILE *f, const sl_suite *s, const char *path);

/* invalid configurations gave a wrong answer: what that means here, the
 * kernels' hints, and the likely cause. */
void sl_lesson_wrong(FILE *f, const sl_suite *s, size_t invalid);

#endif
