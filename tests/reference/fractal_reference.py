# fractal_reference.py - an independent IEEE-double reference for the figures
# tests/test_fractal.c quotes: pure Python floats (binary64, no fused
# multiply-add), pixel centres, row 0 at the top. Not run by the tests (the
# kit needs no Python); run it to re-derive the numbers:
#   python3 tests/reference/fractal_reference.py 1024 1000 mandelbrot
import sys
from multiprocessing import Pool
W = H = int(sys.argv[1]); MAXIT = int(sys.argv[2]); kind = sys.argv[3]
if kind == "mandelbrot":
    x0, x1, y0, y1 = -2.0, 0.5, -1.25, 1.25
else:
    x0, x1, y0, y1 = -1.6, 1.6, -1.0, 1.0
dx = (x1 - x0) / W; dy = (y1 - y0) / H
def row(j):
    y = y1 - (j + 0.5) * dy
    s = 0; full = 0
    for i in range(W):
        x = x0 + (i + 0.5) * dx
        if kind == "mandelbrot":
            zr = 0.0; zi = 0.0; cr = x; ci = y
        else:
            zr = x; zi = y; cr = -0.8; ci = 0.156
        n = 0
        while n < MAXIT:
            zr2 = zr * zr; zi2 = zi * zi
            if zr2 + zi2 > 4.0: break
            zi = 2.0 * zr * zi + ci
            zr = zr2 - zi2 + cr
            n += 1
        s += n; full += (n == MAXIT)
    return s, full
with Pool(2) as p:
    r = p.map(row, range(H))
print(kind, W, H, MAXIT, "sum", sum(a for a, b in r), "at_max", sum(b for a, b in r))
