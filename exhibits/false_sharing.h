/* false_sharing.h - the false-sharing exhibit's variants (pi_fn signature)
 * (its row of table.c: solutions' scalar and threads, the reduction, for
 * reference, then adjacent and padded partial sums). */
#ifndef SPEEDLAB_FALSE_SHARING_H
#define SPEEDLAB_FALSE_SHARING_H

#include "kernel.h"
#include "pi_problem.h"

pi_fn pi_adjacent, pi_padded;

#endif
