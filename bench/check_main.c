/* check_main.c - speedlab-check: the kit's own checks for answers computed
 * elsewhere (lesson 8's numba ladder, python/), so a numba variant is held
 * to the very references and tolerances a C variant is, by the same code.
 *
 *   speedlab-check --sizes       one line per kernel: name, default size,
 *                                quick size, probe size, default max_iter,
 *                                work unit (the numba driver plans from it)
 *   speedlab-check MANIFEST      one answer per line (below); one verdict
 *                                line per answer on stdout
 *
 * A manifest line and its verdict line: common/answer.h (the check
 * itself, unit-tested in tests/test_answer.c). Exit 0 when every
 * answer is right, 3 when any is wrong, 2 for a bad manifest (one line on
 * stderr naming the line).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "args.h"
#include "exitcodes.h"
#include "kernel.h"
#include "tree.h"

extern const sl_kernel *const SL_TREE_SYMBOL(kernels)[];

/* In lesson order: the numba driver plans in this order too. */
static void print_sizes(void)
{
    const sl_kernel *k[SL_MAX_KERNELS];
    size_t n = sl_kernels_by_lesson(SL_TREE_SYMBOL(kernels), k, SL_MAX_KERNELS);
    for (size_t i = 0; i < n; i++) {
        const sl_problem_def *d = k[i]->problem;
        printf("%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%d\t%s\n", d->name,
               d->default_size, d->quick_size, d->probe_size, d->default_max_iter,
               d->work_unit);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--sizes") == 0) {
        print_sizes();
        return SL_EXIT_OK;
    }
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s --sizes | %s MANIFEST\n", argv[0], argv[0]);
        return SL_EXIT_USAGE;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "%s: cannot read '%s': %s\n", argv[0], argv[1], strerror(errno));
        return SL_EXIT_USAGE;
    }
    char line[8192], out[512], why[SL_WHY_BUF];
    int lineno = 0, wrong = 0;
    while (fgets(line, sizeof line, f)) {
        int ok = 0;
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sl_answer_check(SL_TREE_SYMBOL(kernels), line, out, sizeof out, &ok, why,
                            sizeof why) != 0) {
            fprintf(stderr, "%s: %s line %d: %s\n", argv[0], argv[1], lineno, why);
            fclose(f);
            return SL_EXIT_USAGE;
        }
        fputs(out, stdout);
        wrong += !ok;
    }
    fclose(f);
    return wrong ? SL_EXIT_INVALID : SL_EXIT_OK;
}
