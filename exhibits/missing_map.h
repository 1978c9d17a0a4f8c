/* missing_map.h - the missing-map(from:) exhibit's variants (pi_fn
 * signature): terms mapped back with map(from:), and with map(alloc:). */
#ifndef SPEEDLAB_MISSING_MAP_H
#define SPEEDLAB_MISSING_MAP_H

#include "kernel.h"
#include "pi_problem.h"

pi_fn pi_map_from, pi_map_alloc;

#endif
