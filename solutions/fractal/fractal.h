/* fractal.h - the Mandelbrot and Julia variants of this tree, and the
 * iteration code they all share.
 *
 * Both kernels run the same variants: only the job differs (where z starts
 * and where c comes from; kernels/fractal/fractal_problem.h). Every variant computes
 * a pixel's count with the helpers below, in the same order of operations,
 * and the fractal files are compiled with -ffp-contract=off, so every
 * variant's image must equal the reference pixel for pixel.
 */
#ifndef SPEEDLAB_FRACTAL_H
#define SPEEDLAB_FRACTAL_H

#include <omp.h>
#include <stdint.h>

#include "device_fn.h"
#include "fractal_problem.h"
#include "kernel.h"
#include "tree.h"

/* Each tree gets its own symbol names (see common/tree.h). */
#define fractal_row_scalar SL_TREE_SYMBOL(fractal_row_scalar)
#define fractal_row_simd SL_TREE_SYMBOL(fractal_row_simd)
#define fractal_scalar SL_TREE_SYMBOL(fractal_scalar)
#define fractal_simd SL_TREE_SYMBOL(fractal_simd)
#define fractal_threads SL_TREE_SYMBOL(fractal_threads)
#define fractal_threads_simd SL_TREE_SYMBOL(fractal_threads_simd)
#define fractal_expert SL_TREE_SYMBOL(fractal_expert)
#define fractal_gpu SL_TREE_SYMBOL(fractal_gpu)
#define fractal_gpu_rows SL_TREE_SYMBOL(fractal_gpu_rows)
#define fractal_gpu_loop SL_TREE_SYMBOL(fractal_gpu_loop)
#define fractal_gpu_teams SL_TREE_SYMBOL(fractal_gpu_teams)
#define fractal_cuda SL_TREE_SYMBOL(fractal_cuda)
#define fractal_threads_sweep SL_TREE_SYMBOL(fractal_threads_sweep)
#define fractal_threads_simd_sweep SL_TREE_SYMBOL(fractal_threads_simd_sweep)
#define mandelbrot_kernel SL_TREE_SYMBOL(mandelbrot_kernel)
#define julia_kernel SL_TREE_SYMBOL(julia_kernel)

/* One row j of the image into row[0 .. width): one pixel at a time
 * (scalar.c), or many pixels per instruction (simd.c). */
void fractal_row_scalar(const fractal_job *job, int64_t j, int32_t *row);
void fractal_row_simd(const fractal_job *job, int64_t j, int32_t *row);

/* The five rungs, with the signature fractal_fn (kernels/fractal/fractal_problem.h). */
fractal_fn fractal_scalar, fractal_simd, fractal_threads, fractal_threads_simd,
    fractal_gpu;

/* Other shapes of the gpu variant's loops (gpu_shapes.c, step 5.7), timed
 * on a GPU node by the bundle. */
fractal_fn fractal_gpu_rows, fractal_gpu_loop, fractal_gpu_teams;

/* Beyond the ladder (expert.c, step 3.5): what an expert gets. */
fractal_fn fractal_expert;

/* The bench's schedule sweep (sweep.c): threads and threads_simd with
 * schedule(runtime), so that one build times every schedule. */
fractal_sweep_fn fractal_threads_sweep, fractal_threads_simd_sweep;

/* CUDA C for comparison (cuda.cu; built when nvcc is found, run only on a
 * CUDA device). */
fractal_fn fractal_cuda;

extern const sl_kernel mandelbrot_kernel;
extern const sl_kernel julia_kernel;

/* The helpers are called inside the gpu variant's target region too, and
 * by the CUDA variant (SL_DEVICE_FN). */
#pragma omp declare target

/* The centre of pixel column i and of row j (row 0 at the top). */
static inline SL_DEVICE_FN double fractal_x(const fractal_job *job, int64_t i)
{
    return job->x0 + ((double)i + 0.5) * ((job->x1 - job->x0) / (double)job->width);
}
static inline SL_DEVICE_FN double fractal_y(const fractal_job *job, int64_t j)
{
    return job->y1 - ((double)j + 0.5) * ((job->y1 - job->y0) / (double)job->height);
}

/* Where z starts and what c is for the point (x, y): the only difference
 * between the two kernels. */
static inline SL_DEVICE_FN void fractal_start(const fractal_job *job, double x, double y,
                                 double *zr, double *zi, double *cr, double *ci)
{
    *zr = job->julia ? x : 0.0;
    *zi = job->julia ? y : 0.0;
    *cr = job->julia ? job->cr : x;
    *ci = job->julia ? job->ci : y;
}

/* The escape loop for one point: updates made while |z|^2 <= 4, at most
 * max_iter. Its exit comes at a different step for every pixel, which is
 * why `omp simd` cannot vectorise it as it stands. */
static inline SL_DEVICE_FN int fractal_count(double zr, double zi, double cr, double ci,
                                int max_iter)
{
    int n = 0;
    while (n < max_iter) {
        double zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0)
            break;
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        n++;
    }
    return n;
}

/* Pixel (i, j)'s count: start, then iterate. */
static inline SL_DEVICE_FN int fractal_pixel(const fractal_job *job, int64_t i, int64_t j)
{
    double zr, zi, cr, ci;
    fractal_start(job, fractal_x(job, i), fractal_y(job, j), &zr, &zi, &cr, &ci);
    return fractal_count(zr, zi, cr, ci, job->max_iter);
}

#pragma omp end declare target

#endif
