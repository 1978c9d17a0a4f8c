/* fractal_fma.c - the FMA exhibit: Mandelbrot with fused multiply-adds.
 *
 * A fused multiply-add computes a*b + c with one rounding instead of two.
 * That is more accurate, and it is what a compiler emits when it may
 * contract (GCC's default outside ISO C mode, clang's within a statement,
 * most GPU compilers'). Near the edge of the set a point's orbit is chaotic:
 * one rounding difference early on grows until |z|^2 crosses 4 at another
 * step, and the pixel's count changes. The kit's fractal files are compiled
 * with -ffp-contract=off so that every variant matches the reference; this
 * file calls fma() explicitly to show what contraction would do. It is
 * checked like a variant, and fails: `make fma` prints how many pixels
 * differ and draws where they are.
 */
#include <math.h>

#include "fractal_exhibits.h"

void fractal_fma(const fractal_job *job, int32_t *counts, sl_where *where)
{
    *where = SL_RAN_HOST;
    double dx = (job->x1 - job->x0) / (double)job->width;
    double dy = (job->y1 - job->y0) / (double)job->height;
    for (int64_t j = 0; j < job->height; j++) {
        double y = job->y1 - ((double)j + 0.5) * dy;
        for (int64_t i = 0; i < job->width; i++) {
            double x = job->x0 + ((double)i + 0.5) * dx;
            double zr = job->julia ? x : 0.0, zi = job->julia ? y : 0.0;
            double cr = job->julia ? job->cr : x, ci = job->julia ? job->ci : y;
            int n = 0;
            while (n < job->max_iter) {
                double zi2 = zi * zi;
                /* |z|^2 = zr*zr + zi2, rounded once */
                if (fma(zr, zr, zi2) > 4.0)
                    break;
                /* zi = 2*zr*zi + ci and zr = zr*zr - zi2 + cr, each with
                 * one fused multiply-add where the plain code rounds twice */
                double next_zi = fma(2.0 * zr, zi, ci);
                zr = fma(zr, zr, -zi2) + cr;
                zi = next_zi;
                n++;
            }
            counts[j * job->width + i] = n;
        }
    }
}
