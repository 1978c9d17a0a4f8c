/* data_race.h - the data-race exhibit's variants (pi_fn signature):
 * a shared sum without reduction, and critical and atomic cures. */
#ifndef SPEEDLAB_DATA_RACE_H
#define SPEEDLAB_DATA_RACE_H

#include "kernel.h"
#include "pi_problem.h"

pi_fn pi_shared_sum, pi_critical, pi_atomic;

#endif
