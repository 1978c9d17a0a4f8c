#!/usr/bin/env python3
"""kmeans_numpy.py - lesson 9's whole program for Python users: the C app's
k-means (kmeans_app.c) as a NumPy user writes it, to be profiled first.

usage: python3 -m cProfile -s tottime kernels/kmeans/app/kmeans_numpy.py [POINTS]
       python3 kernels/kmeans/app/kmeans_numpy.py [POINTS] --numba

The same stages as the C app: make the kit's points (the SplitMix64 draws
of kernels/kmeans/kmeans_problem.h), standardise every feature, points 0,
20, 40, ... as the first centroids, Lloyd's iterations until no label changes, the
inertia, the labels written. Each stage is a function, so cProfile's table
names them. --numba then swaps the hot function (the assignment) for a
numba version with prange, checks that every iteration gives the same
labels as NumPy's, and times both (lesson 8's njit and prange).
Exit: 0, 2 bad input, 3 the numba labels differ, 4 numba missing.
"""
import os
import sys
import time

import numpy as np

D, K, MAX_ITERS, FIRST_STRIDE = 16, 32, 100, 20
CENTRE_SEED, POINT_SEED = 0x6b6d65616e73, 0x706f696e7473


def unit(seed, k):
    """common/rng.h's draw k of SplitMix64 seeded with seed, in [0, 1)."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (k + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def generate(n, d=D):
    """n points of d features (kmeans_problem.h's KMEANS_D, 16 by default)."""
    centres = (20.0 * unit(CENTRE_SEED, np.arange(K * d, dtype=np.uint64)) - 10.0).reshape(K, d)
    offsets = 2.0 * unit(POINT_SEED, np.arange(n * d, dtype=np.uint64)).reshape(n, d) - 1.0
    return centres[np.arange(n) % K] + offsets


def standardise(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def assign(x, centroids):
    """Each point's nearest centroid: the (n, K) squared distances by
    broadcasting, then the argmin (the lowest index on a tie)."""
    d = ((x[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return d.argmin(axis=1).astype(np.int32)


def update(x, labels, centroids):
    sums = np.zeros((K, D))
    np.add.at(sums, labels, x)
    counts = np.bincount(labels, minlength=K)
    new = centroids.copy()
    some = counts > 0
    new[some] = sums[some] / counts[some, None]
    return new


def inertia(x, labels, centroids):
    return float(((x - centroids[labels]) ** 2).sum())


def write_labels(path, labels):
    np.savetxt(path, labels, fmt="%d")


def kmeans(x, assign_fn):
    n = x.shape[0]
    centroids = x[np.arange(K) * FIRST_STRIDE % n].copy()
    labels = np.full(n, -1, dtype=np.int32)
    for it in range(MAX_ITERS):
        new = assign_fn(x, centroids)
        changed = int(np.count_nonzero(new != labels))
        labels = new
        centroids = update(x, labels, centroids)
        if changed == 0:
            return labels, centroids, it + 1
    return labels, centroids, MAX_ITERS


def numba_assign():
    """The hot function in numba: a loop a C programmer would write, over
    the points in parallel (prange), each point's distances in a row."""
    try:
        from numba import njit, prange
    except ImportError:
        print("kmeans_numpy: numba is missing; install it with: apt-get install python3-numba",
              file=sys.stderr)
        sys.exit(4)

    @njit(parallel=True, fastmath=False)
    def assign_nb(x, centroids):
        n = x.shape[0]
        labels = np.empty(n, dtype=np.int32)
        for i in prange(n):
            best, best_d = 0, np.inf
            for c in range(K):
                dist = 0.0
                for f in range(D):
                    e = x[i, f] - centroids[c, f]
                    dist += e * e
                if dist < best_d:
                    best, best_d = c, dist
            labels[i] = best
        return labels
    return assign_nb


def main(argv):
    args = [a for a in argv if a != "--numba"]
    try:
        n = int(args[0]) if args else 100000
    except ValueError:
        n = 0
    if not K <= n <= 1 << 24:
        print(f"kmeans_numpy: POINTS must be {K} to {1 << 24}", file=sys.stderr)
        return 2
    x = standardise(generate(n))
    start = time.perf_counter()
    labels, centroids, iters = kmeans(x, assign)
    numpy_s = time.perf_counter() - start
    print(f"{n} points, {K} clusters, {iters} iterations: inertia "
          f"{inertia(x, labels, centroids):.6g} (NumPy: {numpy_s:.2f} s)")
    os.makedirs("results", exist_ok=True)    # nothing beside the sources
    write_labels("results/kmeans-labels-numpy.txt", labels)
    if "--numba" not in argv:
        return 0
    assign_nb = numba_assign()
    assign_nb(x[:K], x[:K])            # the first call compiles
    start = time.perf_counter()
    nb_labels, _, nb_iters = kmeans(x, assign_nb)
    numba_s = time.perf_counter() - start
    if nb_iters != iters or not np.array_equal(nb_labels, labels):
        print("kmeans_numpy: numba's labels differ from NumPy's: WRONG", file=sys.stderr)
        return 3
    print(f"numba assign: the same labels, {nb_iters} iterations in {numba_s:.2f} s "
          f"({numpy_s / numba_s:.1f}x NumPy)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
