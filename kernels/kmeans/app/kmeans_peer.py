#!/usr/bin/env python3
"""kmeans_peer.py - lesson 9's peer: what a Python user would pick instead.

scikit-learn's Lloyd k-means on the kit's k-means data
(kernels/kmeans/kmeans_problem.h: the same points from the same
generator, the same 32 clusters started from the same first 32 points, the
same 5 iterations), then the kit's C rungs at the same size by the bench,
in the same sitting, and one table of both.

sklearn's KMeans.fit stops as soon as no label changes (here after 2
iterations), so the peer times what fit repeats: sklearn's own Lloyd
iteration (sklearn.cluster._k_means_lloyd.lloyd_iter_chunked_dense, the
Cython kernel fit calls: distances as a BLAS matrix product per chunk of
256 points, then the argmin and the per-cluster sums), 5 times, BLAS held
to one thread as fit holds it. Its labels must be the reference's (point
i in cluster i % 32: the clusters are far apart) and its centroids the
kit's to 1e-9, or it is not timed.

--features F (default 16) times both at F features per point: the kit is
then built a second time, in build/kmeans-d<F> with -DKMEANS_D=<F> (a
minute or two, once), since its feature count is a compile-time constant.

usage: kernels/kmeans/app/kmeans_peer.py [--size N] [--reps R] [--threads T]
                                         [--features F] [--min-time S] [--bench PROGRAM]
Exit: 0, 2 bad input, 3 sklearn's answer is not the kit's, 4 scikit-learn
missing (install: apt-get install python3-sklearn).
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time

PROG = "kmeans_peer"
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
ITERS = 5


def fail(code, message):
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(code)


try:
    import numpy as np
    from sklearn.cluster._k_means_lloyd import lloyd_iter_chunked_dense
    from threadpoolctl import threadpool_limits
    import sklearn
    # The kit's points, from lesson 9's NumPy program (its SplitMix64 draws).
    from kmeans_numpy import D, K, generate
except ImportError as e:
    sudo = "" if os.geteuid() == 0 else "sudo "
    fail(4, f"scikit-learn is not installed for {sys.executable} ({e}); install it with: "
         f"{sudo}apt-get install python3-sklearn (then run this with /usr/bin/python3)")


OLD_SIGNATURE = "x_squared_norms :" in (lloyd_iter_chunked_dense.__doc__ or "")


def lloyd(x, threads):
    """The kit's 5 iterations with sklearn's kernel: labels, centroids."""
    n = x.shape[0]
    weights = np.ones(n)
    centres = x[:K].copy()
    new = np.empty_like(centres)
    in_cluster = np.empty(K)
    labels = np.empty(n, dtype=np.int32)
    shift = np.empty(K)
    # scikit-learn 0.23 (Ubuntu 22.04's; 1.2 does not) takes the points'
    # squared norms too, third; fit computes them once, before iterating.
    norms = [np.einsum("ij,ij->i", x, x)] if OLD_SIGNATURE else []
    with threadpool_limits(limits=1, user_api="blas"):
        for _ in range(ITERS):
            lloyd_iter_chunked_dense(x, weights, *norms, centres, new, in_cluster, labels, shift,
                                     threads)
            centres, new = new, centres
    return labels, centres


def reference_centroids(x):
    """The kit's answer with labels i % K: each centroid its points' mean."""
    return np.stack([x[c::K].mean(axis=0) for c in range(K)])


def time_peer(x, threads, reps):
    labels, centres = lloyd(x, threads)
    want = np.arange(x.shape[0]) % K
    if not np.array_equal(labels, want):
        fail(3, f"sklearn's labels differ from the reference's at "
             f"{int(np.count_nonzero(labels != want))} points")
    err = float(np.max(np.abs(centres - reference_centroids(x))))
    if not err <= 1e-9:
        fail(3, f"sklearn's centroids differ from the kit's by {err:.3g} (> 1e-9)")
    seconds = []
    for _ in range(reps):
        start = time.perf_counter()
        lloyd(x, threads)
        seconds.append(time.perf_counter() - start)
    return sorted(seconds)[len(seconds) // 2], err


def kit_rungs(bench, size, threads, reps, min_time):
    """The bench's k-means ladder at this size: {rung: median seconds}."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [bench, "--kernel", "kmeans", "--size", str(size), "--threads", str(threads),
               "--no-weak", "--no-plots", "--reps", str(reps), "--results", out]
        if min_time is not None:
            cmd += ["--min-time", str(min_time)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode not in (0, 3):
            fail(1, f"the bench failed ({run.returncode}): {run.stderr.strip()[-300:]}")
        rows = {}
        with open(os.path.join(out, "latest", "results.csv")) as f:
            for r in csv.DictReader(f):
                if r["study"] == "strong" and r["valid"] == "yes" and r["median_s"] and \
                        r["variant"] not in rows and r["threads_requested"] in ("0", str(threads)):
                    rows[r["variant"]] = float(r["median_s"])
        return rows


def wide_bench(features):
    """The bench built with KMEANS_D = features (configured and built here
    the first time, as `make` configures build/default)."""
    build = os.path.join(TOP, "build", f"kmeans-d{features}")
    bench = os.path.join(build, "bench", "speedlab-bench-solutions")
    steps = [["cmake", "-S", TOP, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
              f"-DCMAKE_C_FLAGS=-DKMEANS_D={features}"],
             ["cmake", "--build", build, "-j", str(len(os.sched_getaffinity(0))),
              "--target", "speedlab-bench-solutions"]]
    print(f"building the kit with {features} features per point in {build} ...", flush=True)
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True)
        if run.returncode != 0:
            fail(1, f"{' '.join(step[:2])} failed: {(run.stdout + run.stderr).strip()[-400:]}")
    return bench


def main(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=400000, help="points (default 400000)")
    p.add_argument("--reps", type=int, default=6, help="repetitions (default 6)")
    p.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    p.add_argument("--features", type=int, default=D,
                   help=f"features per point (default {D}; another builds the kit again)")
    p.add_argument("--min-time", type=float, help="seconds each of the bench's repetitions "
                   "lasts at least (default: the bench's)")
    p.add_argument("--bench", help="the bench program (default: build/default's, or the "
                   "one built for --features)")
    a = p.parse_args(argv)
    if not K <= a.size <= 1 << 27 or not 1 <= a.reps <= 64 or a.threads < 1 or \
            not 1 <= a.features <= 256 or a.size * a.features > 1 << 30:
        fail(2, "--size 32 to 2^27, --reps 1 to 64, --threads at least 1, "
             "--features 1 to 256, size x features at most 2^30")
    if a.bench is None:
        a.bench = os.path.join(TOP, "build", "default", "bench",
                               "speedlab-bench-solutions") if a.features == D \
            else wide_bench(a.features)
    if not os.access(a.bench, os.X_OK):
        fail(2, f"no bench at {a.bench}: build the kit first (make), or give --bench")
    x = generate(a.size, a.features)
    print(f"scikit-learn {sklearn.__version__} (numpy {np.__version__}): {a.size} points "
          f"of {a.features} features, {K} clusters, {ITERS} Lloyd iterations, {a.threads} thread(s)")
    peer, err = time_peer(x, a.threads, a.reps)
    print(f"  sklearn lloyd: right (labels exact, centroids within {err:.1e}); "
          f"median {peer * 1e3:.1f} ms")
    print("the kit's rungs, the same size, now:")
    rows = kit_rungs(a.bench, a.size, a.threads, a.reps, a.min_time)
    print(f"  {'rung':<14} {'median':>10}  {'vs sklearn':>10}")
    print(f"  {'sklearn':<14} {peer * 1e3:>8.1f} ms  {1.0:>9.2f}x")
    for rung, s in rows.items():
        print(f"  {rung:<14} {s * 1e3:>8.1f} ms  {peer / s:>9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
