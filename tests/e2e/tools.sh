#!/bin/sh
# tools.sh - end-to-end: make vecreport and make racecheck.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# make vecreport: the SIMD files hold packed instructions, the scalar ones
# none; the compiler's remarks name the vectorised loops.
case_vecreport() {
    build=$1
    expect_rc 0 "vecreport" sh "$top/scripts/vecreport.sh" "$build"
    packed() { awk -v f="$1" '$1 == f { print $2 }' "$tmp/out"; }
    scalar() { awk -v f="$1" '$1 == f { print $3 }' "$tmp/out"; }
    if ! command -v objdump >/dev/null 2>&1; then
        echo "vecreport: objdump missing, counts not checked"; return
    fi
    for f in pi/simd.c pi/threads_simd.c fractal/simd.c montecarlo/simd.c; do
        n=$(packed "solutions/$f")
        [ "${n:-0}" -gt 0 ] && ok "$f: $n packed FP instructions" || fail "$f: no packed instructions"
    done
    for f in pi/scalar.c fractal/scalar.c; do
        n=$(packed "solutions/$f"); m=$(scalar "solutions/$f")
        [ "${n:-1}" -eq 0 ] && [ "${m:-0}" -gt 0 ] && ok "$f: 0 packed, $m scalar" ||
            fail "$f: packed '$n', scalar '$m'"
    done
    grep -qE 'optimized: loop vectorized|remark: vectorized loop' "$tmp/out" &&
        ok "remarks name vectorised loops" || fail "no vectorisation remark"

    # TREE=exercises: the participant's files, named as theirs.
    expect_rc 0 "vecreport exercises" sh "$top/scripts/vecreport.sh" "$build" exercises
    grep -q '^exercises/pi/simd.c ' "$tmp/out" && ok "exercises/pi/simd.c reported" ||
        fail "vecreport exercises does not list exercises/pi/simd.c"
    expect_not_in "$tmp/out" '^solutions/' "vecreport exercises lists no solutions/ file"
    expect_rc 2 "vecreport TREE=bogus" sh "$top/scripts/vecreport.sh" "$build" bogus
    expect_rc 2 "vecreport without a build folder" sh "$top/scripts/vecreport.sh" "$tmp"
}

# make racecheck: the planted races (pi threads without its reduction,
# threads_simd with a shared x, Monte Carlo threads without its reduction)
# are reported in plain words at their lines; the solutions have none.
case_racecheck() {
    command -v clang >/dev/null 2>&1 || { echo "racecheck: no clang, skipped"; exit 77; }
    export RACECHECK_BUILD=$1
    expect_rc 3 "racecheck finds the planted races" sh "$top/scripts/racecheck.sh" racy pi
    expect_in "$tmp/out" "DATA RACE in tests/racy/pi_threads_no_reduction.c, line 16, on 'sum'" \
        "names the file, line and variable of the missing reduction"
    expect_in "$tmp/out" "Add reduction(+:sum)" "suggests the reduction"
    expect_in "$tmp/out" "DATA RACE in tests/racy/pi_threads_simd_shared_x.c, line 14, on 'x'" \
        "names the shared temporary"
    expect_in "$tmp/out" "Declare it inside the loop body, or add private(x)" "suggests private"
    expect_in "$tmp/out" "2 data race(s) found" "counts the races"
    # The racy Monte Carlo: its count is an integer, so a lost update is a
    # wrong count, and the race is named, never "no data race".
    expect_rc 3 "racecheck finds the racy Monte Carlo" sh "$top/scripts/racecheck.sh" racy montecarlo
    expect_in "$tmp/out" "DATA RACE in tests/racy/montecarlo_threads_no_reduction.c, line 16, on 'inside'" \
        "names the Monte Carlo race's file, line and variable"
    expect_in "$tmp/out" "Add reduction(+:inside)" "suggests the Monte Carlo reduction"
    expect_not_in "$tmp/out" "no data race" "never says there is no race beside one"
    # k-means' update without its array reduction: the sums and counts
    # every thread adds into, named, with the array reduction suggested.
    expect_rc 3 "racecheck finds the racy k-means update" sh "$top/scripts/racecheck.sh" racy kmeans
    expect_in "$tmp/out" "DATA RACE in tests/racy/kmeans_threads_no_reduction.c" "names the k-means race's file"
    expect_in "$tmp/out" "an array reduction" "suggests the array reduction"
    expect_rc 0 "racecheck: no race in the solutions" sh "$top/scripts/racecheck.sh" solutions
    expect_in "$tmp/out" "no data races in the solutions tree" "says the solutions are clean"
    expect_rc 2 "racecheck: unknown tree" sh "$top/scripts/racecheck.sh" nosuch
    expect_rc 2 "racecheck: unknown kernel" sh "$top/scripts/racecheck.sh" solutions pie
}

# Two builds in one checkout take turns (scripts/locked.sh, used by the
# GNUmakefile's configure and build steps): while one holds the build
# folder's lock, the second says so once, waits, and then runs.
case_build_lock() {
    command -v flock >/dev/null 2>&1 || { echo "build_lock: no flock, skipped"; exit 77; }
    dir="$tmp/build"
    mkdir -p "$dir"
    flock "$dir/.speedlab-build.lock" sleep 2 &
    holder=$!
    sleep 0.3
    start=$(date +%s)
    expect_rc 0 "a second build waits for the lock" sh "$top/scripts/locked.sh" "$dir" \
        sh -c 'echo ran >"$0/second"' "$dir"
    took=$(( $(date +%s) - start ))
    wait "$holder"
    expect_in "$tmp/err" "another build is running in $dir; waiting for it to finish" \
        "the second build says another one is running"
    [ "$(grep -c 'another build' "$tmp/err")" -eq 1 ] && ok "said once" || fail "said more than once"
    [ "$took" -ge 1 ] && ok "it waited (${took} s)" || fail "it did not wait"
    [ -s "$dir/second" ] && ok "then it ran" || fail "it never ran"
    expect_rc 0 "without a holder it runs at once" sh "$top/scripts/locked.sh" "$dir" true
    expect_not_in "$tmp/err" "another build" "and says nothing"
}
