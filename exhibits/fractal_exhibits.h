/* fractal_exhibits.h - the fractal exhibits' variants (fractal_fn). */
#ifndef SPEEDLAB_FRACTAL_EXHIBITS_H
#define SPEEDLAB_FRACTAL_EXHIBITS_H

#include "fractal_problem.h"

fractal_fn fractal_fma;

#endif
