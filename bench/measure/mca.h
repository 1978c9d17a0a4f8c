/* mca.h - the static model beside the measurements: each variant's hot
 * loop as compiled, analysed by llvm-mca for this machine's CPU when the
 * bench is built (scripts/mca.sh writes mca-solutions.csv in the build
 * folder). The report puts its predicted cycles per iteration beside the
 * measured ones (report/mca_report.h).
 */
#ifndef SPEEDLAB_MCA_H
#define SPEEDLAB_MCA_H

#include <stddef.h>

/* Register widths mca.sh counts: 512 >> w bits for w = 0, 1, 2. */
enum { SL_MCA_WIDTHS = 3 };

/* One file's hot loop for one class of limiting instruction. */
typedef struct sl_mca_row {
    char kernel[32], variant[32];
    char cls[8];          /* "div", "fma", "mul64" */
    char loop[16];        /* the loop's label in the assembly */
    int instructions;     /* in one iteration */
    double lanes;         /* lanes of that class in one iteration */
    double cycles;        /* llvm-mca's cycles per iteration, simulated; 0:
                             it could not model the loop (note says why) */
    double rthroughput;   /* its ports-only bound */
    char bound[8];        /* "ports", or "latency" (a dependency chain) */
    char resource[24];    /* the resource most used, and its instruction */
    char instruction[24];
    char chain[24];       /* where the critical dependency chain starts */
    char cpu[24];         /* the CPU model llvm-mca used */
    char note[96];        /* "via simd.c's ...": the loop of a called file */
    int vectors[SL_MCA_WIDTHS]; /* its vector instructions on 512-, 256-
                             and 128-bit registers (scripts/mca.sh) */
} sl_mca_row;

typedef struct sl_mca {
    sl_mca_row *rows;
    size_t count;
} sl_mca;

/* Read the build's analysis (path: mca.csv); 0, or -1 when there is none
 * (llvm-mca was not there when the bench was built). Rows replace any
 * loaded before. */
int sl_mca_load(sl_mca *m, const char *path);

/* The row for a kernel's variant and its limit's class (sl_ceiling_kind);
 * NULL when the analysis has none. */
const sl_mca_row *sl_mca_find(const sl_mca *m, const char *kernel, const char *variant,
                              int ceiling_kind);

#endif
