/* kernels.c - every kernel this tree implements, for the harness to walk. */
#include "tree.h"
#include "fractal/fractal.h"
#include "montecarlo/montecarlo.h"
#include "pi/pi.h"
#include "triad/triad.h"

const sl_kernel *const SL_TREE_SYMBOL(kernels)[] = {
    &pi_kernel,
    &mandelbrot_kernel,
    &julia_kernel,
    &montecarlo_kernel,
    &triad_kernel,
    &triad_cache_kernel,
    NULL,
};
