"""numba.py - lesson 8: Monte Carlo pi as numba's ladder, with two
generators.

"counter" rungs use the kit's scheme (common/rng.h): point i's x and y are
draws 2i and 2i+1 of SplitMix64, each a pure function of (seed, draw), so
any split between threads counts exactly the reference's points inside. In
numba every constant must be a uint64: an int64 meeting a uint64 becomes a
float64 and the mixing silently goes wrong. The test A^2 + B^2 < 2^128 on
the draws with their low 11 bits cleared is
kernels/montecarlo/montecarlo_problem.h's, so both ladders run the same
instructions.

"nprandom" rungs use numba's own np.random (a Mersenne Twister per thread):
what a Python user writes first. Its points are not the reference's, so it
is held to the statistical check only (6 standard errors).
"""
import numpy as np
from numba import njit, prange

GAMMA = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S27, S30, S31 = np.uint64(27), np.uint64(30), np.uint64(31)
TOP_53 = np.uint64(0xFFFFFFFFFFFFF800)
ONE, TWO = np.uint64(1), np.uint64(2)
LIMIT = 2.0 ** 128


@njit
def draw(seed, k):
    z = seed + (k + ONE) * GAMMA
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


def count_counter(samples, seed):
    inside = 0
    for i in prange(samples):
        k = TWO * np.uint64(i)
        a = np.float64(draw(seed, k) & TOP_53)
        b = np.float64(draw(seed, k + ONE) & TOP_53)
        if a * a + b * b < LIMIT:
            inside += 1
    return inside


def count_nprandom(samples, seed):
    np.random.seed(np.int64(seed & 0x7FFFFFFF))
    inside = 0
    for i in prange(samples):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return inside


def call(fn, problem):
    hits = fn(problem["size"], np.uint64(problem["seed"]))
    return 4.0 * hits / problem["size"], int(hits), None


def work(problem, answer):
    return float(problem["size"])


VARIANTS = [
    ("njit", lambda: njit(count_counter), False, "exact"),
    ("prange", lambda: njit(parallel=True)(count_counter), True, "exact"),
    ("njit_nprandom", lambda: njit(count_nprandom), False, "statistical"),
    ("prange_nprandom", lambda: njit(parallel=True)(count_nprandom), True, "statistical"),
]

KERNELS = {"montecarlo": {"variants": VARIANTS, "call": call, "work": work}}
