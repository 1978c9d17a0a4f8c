/* foreign.h - rows measured by another program, joining this run's suite.
 *
 * Lesson 8's numba driver (python/numba_bench.py) validates its variants
 * with the kit's own checks (speedlab-check) and times them by the bench's
 * rules, then writes results.csv with the bench's columns. `--import FILE`
 * reads those rows into the suite after this run's own timing, so that the
 * summary, the plots and the exit code treat them as rows of one more tree:
 * a wrong one is flagged and gives exit code 3, speedups are against this
 * run's scalar. What they lack is marked by sl_config.foreign: no
 * per-repetition times here (no drift analysis, no samples.csv rows).
 */
#ifndef SPEEDLAB_FOREIGN_H
#define SPEEDLAB_FOREIGN_H

#include <stddef.h>

#include "suite.h"

/* numba's compile phases, as compile.csv names them (<phase>_s). */
#define SL_JIT_PHASES 5
extern const char *const sl_jit_phase[SL_JIT_PHASES];

/* The first call of a variant of another program with a JIT (numba's
 * compile.csv beside its results.csv): compile phases, then its run. */
typedef struct sl_first_call {
    char tree[32], kernel[32], variant[48];
    int threads, functions;
    double first, compile, run, phase[SL_JIT_PHASES], warm;   /* seconds */
} sl_first_call;

/* Add the rows of `path` whose kernel this suite measured, and every row of
 * lesson 6's grid (a rank count set) to s->grid. Refuses (-1,
 * why: one line naming the file and line) a file that is not a results.csv,
 * a row of this suite's own tree, or a row at a size this run did not
 * measure its scalar at (its speedup would compare different work). On
 * success returns the number of ladder rows added and sets *skipped to the number
 * left out because this run did not measure their kernel. */
int sl_suite_import(sl_suite *s, const char *path, int *skipped, char *why, size_t whylen);
/* A compile.csv beside it is read too (the same strictness), into
 * s->first_calls. */

/* What sl_suite_import_counted added from one file: ladder and grid rows,
 * how many of them are invalid, and whether rows were left out. */
typedef struct sl_imported {
    int rows, invalid, skipped;
} sl_imported;

/* sl_suite_import, counting what it added. 0, or -1 with why. */
int sl_suite_import_counted(sl_suite *s, const char *path, sl_imported *got, char *why,
                            size_t whylen);

/* Free what imported rows point into (sl_suite_free calls it through
 * sl_suite.free_foreign). */
void sl_foreign_free(void *list);

#endif
