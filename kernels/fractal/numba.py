"""numba.py - lesson 8: Mandelbrot and Julia as numba's ladder.

The same image as kernels/fractal/fractal_problem.c's reference: pixel centres
x = x0 + (i + 0.5) dx, y = y1 - (j + 0.5) dy, and the escape loop of
solutions/fractal/fractal.h, so the counts must equal the C reference pixel
for pixel. That holds only while LLVM rounds every operation as written: the
"fastmath" rung asks for no reassociation and no contraction into fused
multiply-adds (fastmath=True allows both and moves pixels across the
|z|^2 = 4 line; lesson 8 shows how many). `prange` hands rows to threads;
nothing in numba vectorises the escape loop, whose exit differs per pixel
(C needs the lane pool of step 2.2 for that). @vectorize makes the pixel a
ufunc over the grid of centres; its parallel target splits the grid.
"""
import numpy as np
from numba import njit, prange, vectorize

# What fastmath may do here and keep every pixel: no reassoc, no contract.
EXACT_FASTMATH = {"nnan", "ninf", "nsz", "arcp", "afn"}


def escape(zr, zi, cr, ci, max_iter):
    n = 0
    while n < max_iter:
        zr2 = zr * zr
        zi2 = zi * zi
        if zr2 + zi2 > 4.0:
            break
        zi = 2.0 * zr * zi + ci
        zr = zr2 - zi2 + cr
        n += 1
    return n


def make_pixel(**options):
    """The pixel's count, compiled with the variant's own options (a helper
    keeps the options it was compiled with; LLVM inlines it into the loop).
    njit(inline="always") would inline it in numba's IR instead: 0.35 s
    more compile time per variant here, for no speed."""
    esc = njit(**options)(escape)

    def pixel(x, y, julia, cr, ci, max_iter):
        if julia:
            return esc(x, y, cr, ci, max_iter)
        return esc(0.0, 0.0, x, y, max_iter)
    return pixel


def make_image_fn(**options):
    helper = {k: v for k, v in options.items() if k != "parallel"}
    px = njit(**helper)(make_pixel(**helper))

    def image(out, x0, x1, y0, y1, julia, cr, ci, max_iter):
        height, width = out.shape
        dx = (x1 - x0) / width
        dy = (y1 - y0) / height
        for j in prange(height):
            y = y1 - (j + 0.5) * dy
            for i in range(width):
                out[j, i] = px(x0 + (i + 0.5) * dx, y, julia, cr, ci, max_iter)
    return njit(**options)(image)


def make_ufunc(target):
    sig = ["int32(float64, float64, boolean, float64, float64, int64)"]
    return vectorize(sig, target=target)(make_pixel())


# The two problems, as kernels/fractal/fractal_problem.c states them.
VIEWS = {
    "mandelbrot": dict(x0=-2.0, x1=0.5, y0=-1.25, y1=1.25, julia=False),
    "julia": dict(x0=-1.6, x1=1.6, y0=-1.0, y1=1.0, julia=True),
}
C_JULIA = (-0.8, 0.156)


def job(kernel, problem):
    v = VIEWS[kernel]
    width = problem["size"]
    height = problem["height"] or width
    return v, width, height


def make_call(kernel):
    def call(fn, problem):
        v, width, height = job(kernel, problem)
        if isinstance(fn, GridUfunc):
            dx = (v["x1"] - v["x0"]) / width
            dy = (v["y1"] - v["y0"]) / height
            xs = v["x0"] + (np.arange(width) + 0.5) * dx
            ys = (v["y1"] - (np.arange(height) + 0.5) * dy)[:, None]
            image = fn.ufunc(xs, ys, v["julia"], C_JULIA[0], C_JULIA[1], problem["max_iter"])
        else:
            image = np.empty((height, width), dtype=np.int32)
            fn(image, v["x0"], v["x1"], v["y0"], v["y1"], v["julia"], C_JULIA[0],
               C_JULIA[1], problem["max_iter"])
        return float(image.sum(dtype=np.int64)), 0, image
    return call


def work(problem, answer):
    return answer[0]   # iterations: the image's sum, as in C


class GridUfunc:
    """A per-pixel ufunc, called on the grid of pixel centres."""
    def __init__(self, target):
        self.ufunc = make_ufunc(target)   # compiles now: signatures given


def ufunc(target):
    return lambda: GridUfunc(target)


VARIANTS = [
    ("njit", lambda: make_image_fn(), False, "exact"),
    ("njit_fastmath", lambda: make_image_fn(fastmath=EXACT_FASTMATH), False, "exact"),
    ("prange", lambda: make_image_fn(parallel=True), True, "exact"),
    ("vectorize", ufunc("cpu"), False, "exact"),
    ("vectorize_parallel", ufunc("parallel"), True, "exact"),
]

KERNELS = {k: {"variants": VARIANTS, "call": make_call(k), "work": work, "image": True}
           for k in VIEWS}
