#!/bin/sh
# e2e.sh - Monte Carlo's own end-to-end cases and test data. Sourced by
# tests/e2e/run.sh (through lib.sh, which provides the helpers); CMake makes
# each case_<name> below a CTest test e2e.<name>, given: the bench, the
# broken tree's bench, the runner, the build folder.

# The harness's tests of --seed use it: the kernel with a seed.
e2e_seeded=montecarlo
# Lesson 6's wrong-rank cases use its planted mpi.c (rank 1 drops a point).
e2e_wrong_rank=montecarlo
# Its generator multiplies 64-bit lanes: GCC 12 leaves simd.c scalar on
# AVX2 (lesson 4 says so; e2e.vecreport accepts it there).
e2e_simd_needs_avx512="${e2e_simd_needs_avx512}montecarlo "

# Monte Carlo end to end: the same count on every variant and thread count,
# the estimate's standard error, the convergence plot, the seed, a subtle
# wrong count flagged, the runner, the shared-RNG exhibit and bad seeds.
case_montecarlo() {
    bench=$1; broken=$2; runner=$3
    mbench() {
        want=$1; label=$2; b=$3; shift 3
        expect_rc "$want" "$label" "$b" --kernel montecarlo --size 2000003 --threads 1,2,3 \
            --no-weak --reps 1 --min-time 0.01 --results "$tmp/m" "$@"
        run="$tmp/m/$(readlink "$tmp/m/latest")"
    }
    mbench 0 "bench montecarlo" "$bench" --seed 5
    valid=$(grep -c ',yes,' "$run/results.csv")
    # scalar, simd, threads x3, threads_simd x3, expert x3, gpu
    [ "$valid" -eq 12 ] && ok "all 12 configurations valid" || fail "$valid of 12 valid"
    # The estimates table: one count inside, whatever the variant or threads.
    counts=$(awk -F'|' '/\| inside \|/ { t = 1; next } t && !/^\|/ { t = 0 }
                        t && $2 ~ /montecarlo/ { print $7 }' "$run/summary.md" | sort -u)
    [ "$(echo "$counts" | wc -l)" -eq 1 ] && [ -n "$counts" ] &&
        ok "every variant counted$counts points inside" || fail "counts differ: $counts"
    expect_in "$run/summary.md" "| std error | error | error / std error |" "summary has the standard error"
    # std_error column: 1.642/sqrt(2000003) = 0.00116.
    awk -F, 'NR > 1 && $24 != "" { if ($24 < 0.00115 || $24 > 0.00117) bad = 1; n++ }
             END { exit bad || n != 12 }' "$run/results.csv" &&
        ok "CSV std_error is 1.642/sqrt(N)" || fail "CSV std_error wrong"
    rows=$(grep -vc '^#' "$run/convergence-montecarlo.dat")
    [ "$rows" -eq 11 ] && ok "convergence data from 10 to 10^6 samples" || fail "$rows convergence rows"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$run/convergence-montecarlo.png" ] && ok "convergence plotted" || fail "no convergence plot"
    fi
    first=$counts
    mbench 0 "bench montecarlo, another seed" "$bench" --seed 6 --variant scalar
    counts=$(awk -F'|' '/\| inside \|/ { t = 1; next } t && !/^\|/ { t = 0 }
                        t && $2 ~ /montecarlo/ { print $7 }' "$run/summary.md" | sort -u)
    [ "$counts" != "$first" ] && ok "another seed, other points" || fail "seed ignored"
    mbench 3 "overlapping draws exit 3" "$broken"
    n=$(grep -c ',montecarlo,threads,.*,no,host,' "$run/results.csv")
    [ "$n" -eq 3 ] && ok "the 3 threads rows flagged invalid" || fail "$n threads rows flagged"
    expect_not_in "$run/speedup-montecarlo.dat" '"threads x' "wrong count left out of the speedup plot"
    for args in "--seed -1" "--seed abc" "--seed 1e30" "--seed" "--seed 12x"; do
        # shellcheck disable=SC2086
        expect_rc 2 "bench $args" "$bench" --kernel montecarlo --results "$tmp/m" $args
        one_line "bench $args"
    done
    expect_rc 0 "speedlab montecarlo" "$runner" montecarlo --min-time 0.01 --size 100003 --reps 1 --threads 2
    expect_in "$tmp/out" "every correct variant counted the same points" "runner: all variants agree"
    expect_in "$tmp/out" "sigma" "runner gives the error in sigmas"
    # The exhibit: rand and shared state run; only the counter generator
    # gives one answer on 1 and 2 threads; per-thread seeds do not.
    expect_rc 0 "speedlab shared-rng" "$runner" shared-rng --min-time 0.01 --size 200003 --reps 1 --threads 1,2
    for v in counter rand shared_state per_thread_seed; do
        n=$(grep -cE "^exhibits +$v +[12] " "$tmp/out")
        [ "$n" -eq 2 ] && ok "exhibit $v ran on 1 and 2 threads" || fail "exhibit $v: $n rows"
    done
    # The result column is the estimate: the field with 5+ decimals.
    results() {
        grep -E "^exhibits +$1 " "$tmp/out" |
            awk '{ for (i = 4; i <= NF; i++) if ($i ~ /^[0-9]\.[0-9][0-9][0-9][0-9][0-9]+$/) { print $i; break } }' |
            sort -u | wc -l
    }
    [ "$(results counter)" -eq 1 ] && ok "counter: same answer on 1 and 2 threads" ||
        fail "counter answers differ"
    [ "$(results per_thread_seed)" -eq 2 ] && ok "per-thread seeds: answer changes with threads" ||
        fail "per-thread seeds gave one answer"
    expect_in "$tmp/out" "did not all count the same points" "exhibit says the answers differ"
    # Other points than the baseline's: WRONG, on purpose, in the row itself.
    grep -qE '^exhibits +per_thread_seed +2 .*WRONG: [-+][0-9]+ inside, on purpose' "$tmp/out" &&
        ok "per-thread seeds on 2 threads: WRONG, on purpose" || fail "per_thread_seed 2 not flagged"
    expect_not_in "$tmp/out" '^exhibits +counter .*WRONG' "the counter rows are not flagged"
}

# make racecheck on the racy tree: the count without its reduction.
racecheck_montecarlo() {
    expect_rc 3 "racecheck finds the racy Monte Carlo" sh "$top/scripts/racecheck.sh" racy montecarlo
    expect_in "$tmp/out" "DATA RACE in kernels/montecarlo/planted/racy/threads.c, line 16, on 'inside'" \
        "names the Monte Carlo race's file, line and variable"
    expect_in "$tmp/out" "Add reduction(+:inside)" "suggests the Monte Carlo reduction"
    expect_not_in "$tmp/out" "no data race" "never says there is no race beside one"
}

# The harness's isolation case (tests/e2e/isolation.sh) plants these in a
# copy's exercise FILE; each fails when its line is not there any more.
# simd without its linear clause: still right (the compilers see the step).
e2e_plant_no_linear() {
    sed -i 's/ linear(z: MC_COUNTER_STEP)//' "$1" && ! grep -q 'linear' "$1"
}
# threads without its reduction: a race, a wrong count.
e2e_plant_race() {
    sed -i 's/ reduction(+:inside)//' "$1" && ! grep -q 'reduction(+:inside)' "$1"
}
