/* shared_rng.h - lesson 4's exhibit: Monte Carlo pi with the random number
 * generators people reach for first, in a parallel loop (montecarlo_fn
 * signature). Compare them with the counter-based generator of the
 * solutions (exhibits/table.c puts them side by side). */
#ifndef SPEEDLAB_SHARED_RNG_H
#define SPEEDLAB_SHARED_RNG_H

#include "kernel.h"
#include "montecarlo_problem.h"

montecarlo_fn mc_rand, mc_shared_state, mc_per_thread_seed;

#endif
