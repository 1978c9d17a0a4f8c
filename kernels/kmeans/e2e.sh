#!/bin/sh
# e2e.sh - k-means' own end-to-end cases and test data. Sourced by
# tests/e2e/run.sh (through lib.sh, which provides the helpers); CMake makes
# each case_<name> below a CTest test e2e.<name>, given: the bench, the
# broken tree's bench, the runner, the build folder.

# k-means end to end: the ladder validated and timed (every label the
# reference's), the broken tree's argmin that stops one short flagged
# (exit 3, left out), and lesson 9's whole program: labels written, one a
# point, bad input refused.
case_kmeans() {
    bench=$1; broken=$2; app=$4/kernels/kmeans/speedlab-kmeans-app
    expect_rc 0 "bench kmeans" "$bench" --kernel kmeans --size 20011 --threads 1,2 --reps 2 \
        --min-time 0.01 --no-weak --no-plots --results "$tmp/r"
    run="$tmp/r/latest"
    rows=$(awk -F, 'NR > 1 && $2 == "kmeans" && $22 == "yes"' "$run/results.csv" | wc -l)
    [ "$rows" -ge 9 ] && ok "$rows valid kmeans rows" || fail "$rows valid kmeans rows"
    expect_in "$run/summary.md" "| kmeans | scalar |" "the headline has its ladder"
    expect_rc 3 "the broken argmin" "$broken" --kernel kmeans --variant threads --size 20011 \
        --threads 2 --reps 1 --min-time 0.01 --no-weak --no-plots --results "$tmp/b"
    expect_in "$tmp/out" "wrong labels and centroid features" "says what is wrong"
    expect_in "$tmp/out" "does the argmin's loop stop one short?" "and the likely cause, in words"
    expect_rc 0 "the app" "$app" 2003 "$tmp/labels.txt"
    expect_in "$tmp/out" "2003 points, 32 clusters" "reports its run"
    [ "$(wc -l <"$tmp/labels.txt")" -eq 2003 ] && ok "a label a point" ||
        fail "$(wc -l <"$tmp/labels.txt") labels for 2003 points"
    # By default its labels go under results/: lesson 9.1 runs it from the
    # repository's root, which must not gain an untracked file.
    mkdir -p "$tmp/cwd"
    expect_rc 0 "the app, default labels file" sh -c 'cd "$1" && exec "$2" 1009' _ "$tmp/cwd" "$app"
    [ "$(ls "$tmp/cwd")" = results ] && [ "$(wc -l <"$tmp/cwd/results/kmeans-labels.txt")" -eq 1009 ] &&
        ok "default: results/kmeans-labels.txt, nothing else written" ||
        fail "default labels file: $(ls -R "$tmp/cwd" | tr '\n' ' ')"
    expect_rc 2 "the app: too few points" "$app" 5
    expect_rc 2 "the app: not a number" "$app" 12x
    expect_rc 1 "the app: a labels file it cannot write" "$app" 100 "$tmp/no/such/dir/l.txt"
    # An answer from elsewhere (lesson 8's numba driver writes labels, then
    # centroids) through the kit's checker: all in cluster 0 is WRONG (3),
    # a short file is refused (2).
    checker=$4/bench/speedlab-check
    /usr/bin/python3 -c 'import array, sys
with open(sys.argv[1], "wb") as f:
    array.array("i", [0] * 1009).tofile(f)
    array.array("d", [0.0] * 32 * 16).tofile(f)' "$tmp/zero.bin"
    printf 'z\tkmeans\t1009\t0\t0\t0\texact\t0\t0\t%s\n' "$tmp/zero.bin" >"$tmp/m.tsv"
    expect_rc 3 "the checker: every point in cluster 0" "$checker" "$tmp/m.tsv"
    expect_in "$tmp/out" "wrong labels and centroid features" "named as wrong"
    head -c 100 "$tmp/zero.bin" >"$tmp/short.bin"
    sed "s|zero.bin|short.bin|" "$tmp/m.tsv" >"$tmp/m2.tsv"
    expect_rc 2 "the checker: a short answer file" "$checker" "$tmp/m2.tsv"
    expect_in "$tmp/err" "wrong length (want 1009 int32 labels, then 512 doubles)" "says what it wants"
    # The same program in NumPy, and its hot function in numba: the same
    # iterations and labels as the C app's (where numba is installed).
    py=${SPEEDLAB_PYTHON:-/usr/bin/python3}
    if "$py" -c 'import numpy, numba' 2>/dev/null; then
        # It writes its labels under results/ where it runs: in $tmp.
        expect_rc 0 "kmeans_numpy.py --numba" sh -c 'cd "$1" && shift && exec "$@"' _ "$tmp" \
            "$py" "$top/kernels/kmeans/app/kmeans_numpy.py" 2003 --numba
        iters=$("$app" 2003 "$tmp/labels.txt" | sed -n 's/.* \([0-9]*\) iterations.*/\1/p')
        expect_in "$tmp/out" "2003 points, 32 clusters, $iters iterations" "NumPy's iterations are C's"
        expect_in "$tmp/out" "numba assign: the same labels" "numba's labels are NumPy's"
        cmp -s "$tmp/labels.txt" "$tmp/results/kmeans-labels-numpy.txt" && ok "NumPy's labels are C's" ||
            fail "NumPy's labels differ from the C app's"
    else
        echo "kmeans_numpy.py: not run (no numpy and numba for $py)"
    fi
}

# Lesson 9's peer: scikit-learn's Lloyd on the kit's points checked against
# the kit's answer (labels exact), then the kit's rungs beside it; skipped,
# saying so, where Debian's python3-sklearn is not installed.
case_kmeans_peer() {
    bench=$1
    py=${SPEEDLAB_PYTHON:-/usr/bin/python3}
    "$py" -c 'import sklearn, threadpoolctl' 2>/dev/null ||
        { echo "skipped: no scikit-learn for $py (apt-get install python3-sklearn)"; exit 77; }
    expect_rc 0 "kmeans_peer.py" "$py" "$top/kernels/kmeans/app/kmeans_peer.py" --size 20011 --reps 2 \
        --min-time 0.01 --bench "$bench"
    expect_in "$tmp/out" "sklearn lloyd: right (labels exact" "sklearn's answer is the kit's"
    grep -qE '^  threads_simd +[0-9.]+ ms +[0-9.]+x$' "$tmp/out" &&
        ok "the kit's threads_simd beside it" || fail "no threads_simd row: $(cat "$tmp/out")"
    expect_rc 2 "kmeans_peer.py: a bad size" "$py" "$top/kernels/kmeans/app/kmeans_peer.py" --size 5 \
        --bench "$bench"
    expect_rc 2 "kmeans_peer.py: no features" "$py" "$top/kernels/kmeans/app/kmeans_peer.py" --features 0
    expect_in "$tmp/err" "--features 1 to 256" "says the range"
}

# make racecheck on the racy tree: the update without its array reduction.
# The sums and counts every thread adds into, named, with the array
# reduction suggested.
racecheck_kmeans() {
    expect_rc 3 "racecheck finds the racy k-means update" sh "$top/scripts/racecheck.sh" racy kmeans
    expect_in "$tmp/out" "DATA RACE in kernels/kmeans/planted/racy/threads.c" "names the k-means race's file"
    expect_in "$tmp/out" "an array reduction" "suggests the array reduction"
}
