"""numba.py - lesson 8: pi by the midpoint rule, as numba's ladder.

The same sum as solutions/pi/scalar.c, h * sum of 4 / (1 + x^2) at the
midpoints x = (i + 0.5) h. One body, compiled four ways: `prange` is a plain
`range` unless parallel=True, so the scalar rung and the threaded one are
the same Python text. fastmath=True lets LLVM reorder the sum, which is what
vectorising a reduction needs (C says it with `omp simd reduction`); the
answer moves in its last bits, well inside pi's tolerance. On its own it
changes nothing in a serial @njit: Python's rules make 4.0 / d raise
ZeroDivisionError, so numba tests d == 0 inside the loop, and a branch that
may leave the loop stops LLVM's vectoriser. error_model="numpy" (IEEE
division: inf, no exception; what parallel=True uses anyway) removes it.
No @vectorize rung: a ufunc needs the 400 million terms as an array first
(3.2 GB).
"""
from numba import njit, prange


def pi_sum(steps):
    h = 1.0 / steps
    total = 0.0
    for i in prange(steps):
        x = (i + 0.5) * h
        total += 4.0 / (1.0 + x * x)
    return h * total


def call(fn, problem):
    """One call: the answer as (value, hits, image)."""
    return fn(problem["size"]), 0, None


def work(problem, answer):
    return float(problem["size"])


# name, how to build it (compiles on the first call), takes threads, check
VARIANTS = [
    ("njit", lambda: njit(pi_sum), False, "exact"),
    ("njit_fastmath", lambda: njit(fastmath=True, error_model="numpy")(pi_sum), False,
     "exact"),
    ("prange", lambda: njit(parallel=True)(pi_sum), True, "exact"),
    ("prange_fastmath", lambda: njit(parallel=True, fastmath=True)(pi_sum), True, "exact"),
]

KERNELS = {"pi": {"variants": VARIANTS, "call": call, "work": work}}
