/* table.c - lesson 6's hybrid variants of this tree, one table per kernel.
 *
 * The tests, `make mpi` and `make bench-mpi` walk these tables (through
 * hybrid_kernels) and nothing else. Mandelbrot and Julia share the rows
 * code; only their problem differs.
 */
#include "../fractal/fractal.h"
#include "../montecarlo/montecarlo.h"
#include "../pi/pi.h"
#include "hybrid.h"

static const sl_hybrid_variant pi_hybrid_variants[] = {
    { "hybrid", pi_hybrid_compute, pi_hybrid_combine, NULL, NULL },
};

static const sl_hybrid_variant montecarlo_hybrid_variants[] = {
    { "hybrid", montecarlo_hybrid_compute, montecarlo_hybrid_combine, NULL, NULL },
};

static const sl_hybrid_variant fractal_hybrid_variants[] = {
    { "hybrid_block", fractal_hybrid_compute, fractal_hybrid_combine,
      fractal_block_row_of, fractal_block_row_count },
    { "hybrid_cyclic", fractal_hybrid_compute, fractal_hybrid_combine,
      fractal_cyclic_row_of, fractal_cyclic_row_count },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const sl_hybrid_kernel pi_hybrid = {
    &pi_problem, pi_hybrid_variants, COUNT(pi_hybrid_variants), sl_pi_share_ok,
};
static const sl_hybrid_kernel mandelbrot_hybrid = {
    &mandelbrot_problem, fractal_hybrid_variants, COUNT(fractal_hybrid_variants),
    sl_fractal_share_ok,
};
static const sl_hybrid_kernel julia_hybrid = {
    &julia_problem, fractal_hybrid_variants, COUNT(fractal_hybrid_variants),
    sl_fractal_share_ok,
};
static const sl_hybrid_kernel montecarlo_hybrid = {
    &montecarlo_problem, montecarlo_hybrid_variants, COUNT(montecarlo_hybrid_variants),
    sl_montecarlo_share_ok,
};

const sl_hybrid_kernel *const hybrid_kernels[] = {
    &pi_hybrid, &mandelbrot_hybrid, &julia_hybrid, &montecarlo_hybrid, NULL,
};
