/* doctor.h - what this machine is and what it hides (make doctor): one
 * finding per line, each with what it means for the numbers. The bench's
 * and the runner's own checks read the same platform calls (platform.h):
 * emulation, the affinity mask, hybrid cores.
 */
#ifndef SPEEDLAB_DOCTOR_H
#define SPEEDLAB_DOCTOR_H

#include <stddef.h>

typedef struct sl_finding {
    char topic[24];           /* "CPU", "cores", "CPU quota", ... */
    char found[256];          /* what is there */
    char means[320];          /* what it means for the numbers, or "" */
    int hides;                /* 1: it changes what a number means */
} sl_finding;

#define SL_MAX_FINDINGS 24

/* What the build itself found (CMake, passed in by the program). */
typedef struct sl_doctor_build {
    int room, mpi;            /* 1: built */
} sl_doctor_build;

/* The machine's findings into out (at most cap): how many. path: the
 * programs' search path for gnuplot (PATH; NULL: none). */
size_t sl_doctor(sl_finding *out, size_t cap, const char *path, const sl_doctor_build *b);

#endif
