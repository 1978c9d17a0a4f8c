"""numba.py - lesson 9's hot loop in lesson 8's numba ladder: k-means.

The kit's problem (kernels/kmeans/kmeans_problem.h): n points of KMEANS_D
features from the kit's SplitMix64 draws (made once per size, outside the
clock, by lesson 9's NumPy program), KMEANS_K centroids started from the
first K points, KMEANS_ITERS Lloyd iterations. One body, compiled four
ways, as pi's: the assignment (every point against every centroid, the
argmin) is the hot loop and the one `prange` parallelises; the update's
per-cluster sums stay serial, since a prange loop that adds into
sums[label] from every thread is a race (C needs reduction(+: sums[:k*d])
for it; numba has no array reduction over indexed elements). The answer is
the labels and centroids, checked by the kit's own k-means check: every
label the reference's, every centroid within 1e-9.
"""
import os
import sys

import numpy as np
from numba import njit, prange

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "app"))
from kmeans_numpy import D, K, generate  # noqa: E402

ITERS = 5
_points = {}


def points(n):
    """The kit's points for n, made once (two sizes are in use: the run's
    and the probe's)."""
    if n not in _points:
        if len(_points) >= 2:
            _points.clear()
        _points[n] = generate(n)
    return _points[n]


def lloyd(x, labels, centroids):
    # K and D are module globals, so numba compiles them in as constants,
    # as C's KMEANS_K and KMEANS_D are: read from centroids.shape instead,
    # the njit rung took 1077 ms a call at 400,000 points, not 257 ms (the
    # distance loop's trip count unknown, LLVM neither unrolls nor
    # vectorises it).
    n = x.shape[0]
    k, d = K, D
    for _ in range(ITERS):
        for i in prange(n):
            best, best_d = 0, np.inf
            for c in range(k):
                dist = 0.0
                for f in range(d):
                    e = x[i, f] - centroids[c, f]
                    dist += e * e
                if dist < best_d:
                    best, best_d = c, dist
            labels[i] = best
        sums = np.zeros((k, d))
        counts = np.zeros(k, dtype=np.int64)
        for i in range(n):
            counts[labels[i]] += 1
            for f in range(d):
                sums[labels[i], f] += x[i, f]
        for c in range(k):
            if counts[c] > 0:
                for f in range(d):
                    centroids[c, f] = sums[c, f] / counts[c]


def call(fn, problem):
    """One call: the answer as (value, hits, (labels, centroids))."""
    x = points(problem["size"])
    labels = np.empty(x.shape[0], dtype=np.int32)
    centroids = x[:K].copy()
    fn(x, labels, centroids)
    return 0.0, 0, (labels, centroids)


def write(answer, path):
    """The answer file speedlab-check reads: n int32 labels, then the K x D
    centroids as doubles, native byte order."""
    labels, centroids = answer
    with open(path, "wb") as f:
        labels.astype(np.int32).tofile(f)
        centroids.astype(np.float64).tofile(f)


def work(problem, answer):
    return float(problem["size"])


# name, how to build it (compiles on the first call), takes threads, check.
# fastmath lets LLVM reorder each distance's sum; the labels on the kit's
# well-separated clusters do not move, and the check says so.
VARIANTS = [
    ("njit", lambda: njit(lloyd), False, "exact"),
    ("njit_fastmath", lambda: njit(fastmath=True)(lloyd), False, "exact"),
    ("prange", lambda: njit(parallel=True)(lloyd), True, "exact"),
    ("prange_fastmath", lambda: njit(parallel=True, fastmath=True)(lloyd), True, "exact"),
]

KERNELS = {"kmeans": {"variants": VARIANTS, "call": call, "work": work, "write": write}}
