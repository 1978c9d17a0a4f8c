#!/bin/sh
# e2e.sh - end-to-end contract tests for the programs and scripts, one case
# per CTest test: sh tests/e2e.sh CASE ARGS...
#
# Each case checks values that would be wrong if the code were wrong: exit
# codes, the files of a run folder, what the JSON and CSV contain, that bad
# input writes nothing, and that the exercises match their generator.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
tmp=$(mktemp -d /tmp/speedlab-e2e.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# expect_rc WANT LABEL CMD...: run CMD, check its exit status.
expect_rc() {
    want=$1; label=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$label: exit $rc, expected $want"
        sed 's/^/    /' "$tmp/err" "$tmp/out" | tail -8 >&2
    else
        ok "$label (exit $rc)"
    fi
}
# expect_in FILE TEXT LABEL
expect_in() {
    if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3: '$2' not in $1"; fi
}
expect_not_in() {
    if grep -qE -- "$2" "$1"; then fail "$3: '$2' found in $1"; else ok "$3"; fi
}
# bin_without_gnuplot: $tmp/bin holds the tools the scripts use, not gnuplot.
bin_without_gnuplot() {
    mkdir -p "$tmp/bin"
    for tool in sh grep tr basename dirname cat rm mv; do
        ln -sf "$(command -v $tool)" "$tmp/bin/$tool"
    done
}
# failing_gnuplot: $tmp/bin/gnuplot leaves an empty output file and fails
# (call bin_without_gnuplot first).
failing_gnuplot() {
    printf '#!/bin/sh\nfor a; do case "$a" in *outfile=*) f=${a#*outfile=\x27}; f=${f%%%%\x27*}; : > "$f";; esac; done\nexit 1\n' >"$tmp/bin/gnuplot"
    chmod +x "$tmp/bin/gnuplot"
}
# wait_for_first_timing: until a bench writing to $tmp/out has timed its
# first configuration (at most a minute).
wait_for_first_timing() {
    for _ in $(seq 1 600); do
        grep -q '^timing ' "$tmp/out" && break
        sleep 0.1
    done
    # The line comes just before the first repetition: let it start.
    sleep 0.5
}
# quick_bench WANT LABEL BENCH [more args]: a short bench run into
# $tmp/results; sets $run to the folder results/latest points at.
quick_bench() {
    want=$1; label=$2; bench=$3; shift 3
    expect_rc "$want" "$label" "$bench" --quick --kernel pi --size 2000003 --reps 2 \
        --min-time 0.01 --results "$tmp/results" "$@"
    run="$tmp/results/$(readlink "$tmp/results/latest")"
}
# one_line: a usage error is one line on stderr.
one_line() {
    n=$(wc -l <"$tmp/err")
    if [ "$n" -eq 1 ]; then ok "$1: one line"; else fail "$1: $n lines on stderr"; fi
}

case_bench_quick() {
    bench=$1
    res="$tmp/results"
    quick_bench 0 "quick bench" "$bench" --threads 1,2
    [ -d "$run" ] || { fail "results/latest does not point at a run folder"; return; }
    for f in bench.json results.csv samples.csv summary.md index.html run.gp \
             speedup-pi.dat scaling-pi.dat weak-pi.dat evidence.csv ceiling.csv; do
        [ -s "$run/$f" ] && ok "$f written" || fail "$f missing or empty"
    done
    if command -v gnuplot >/dev/null 2>&1; then
        for f in speedup-pi.png speedup-pi.svg scaling-pi.png scaling-pi.svg weak-pi.png; do
            [ -s "$run/$f" ] && ok "$f plotted" || fail "$f missing or empty"
        done
    fi
    expect_not_in "$run/bench.json" 'NaN|Infinity|-?inf[,}]' "JSON has no NaN/Inf"
    for key in '"compiler"' '"kernel_flags"' '"openmp_version"' '"cpu_model"' \
               '"simd_isa"' '"threads_requested": "1,2"' '"threads_used"' \
               '"thread_binding"' '"gpu_variant_ran_on"' '"cores_available"'; do
        expect_in "$run/bench.json" "$key" "JSON context has $key"
    done
    expect_in "$run/bench.json" '"real_time"' "JSON has timings"
    rows=$(tail -n +2 "$run/results.csv" | wc -l)
    # scalar, simd, threads x2, threads_simd x2, lesson 5's four gpu stages,
    # and the weak-scaling study's threads_simd x2.
    [ "$rows" -eq 12 ] && ok "CSV has 12 configurations" || fail "CSV has $rows rows, expected 12"
    valid=$(grep -c ',yes,' "$run/results.csv")
    [ "$valid" -eq 12 ] && ok "all 12 valid" || fail "$valid of 12 valid"
    # Weak scaling: 2000003 / 2 steps per thread, so 1000001 and 2000002.
    weak=$(awk -F, '$26 == "weak" { printf "%s:%s ", $4, $8 }' "$run/results.csv")
    [ "$weak" = "1:1000001 2:2000002 " ] && ok "weak study grows N with threads" ||
        fail "weak rows: '$weak'"
    # Every repetition is in samples.csv: 12 configurations x 2.
    n=$(tail -n +2 "$run/samples.csv" | wc -l)
    [ "$n" -eq 24 ] && ok "samples.csv has every repetition" || fail "samples.csv has $n rows"
    for v in gpu_v1 gpu_v2 gpu gpu_v4; do
        grep ",$v," "$run/results.csv" | grep -qE ',(host fallback|device),' &&
            ok "$v row says where it ran" || fail "$v row missing, or does not say where it ran"
    done
    expect_in "$run/summary.md" "| pi | threads_simd | 2 |" "summary has the speedup table"
    ls -a "$res" | grep -q partial && fail "a .partial folder was left" || ok "no partial folder"

    # A second run leaves the first untouched and moves latest.
    sum1=$(cat "$run"/* | cksum)
    sleep 1
    first=$run
    quick_bench 0 "second quick bench" "$bench" --threads 1 --no-plots
    [ "$(cat "$first"/* | cksum)" = "$sum1" ] && ok "first run untouched" || fail "first run changed"
    [ "$run" != "$first" ] && ok "latest moved" || fail "latest not moved"
}

case_bench_no_gnuplot() {
    bench=$1
    res="$tmp/results"
    bin_without_gnuplot
    expect_rc 0 "bench without gnuplot" env PATH="$tmp/bin" "$bench" --quick --kernel pi --size 200003 \
        --reps 2 --min-time 0.01 --threads 1 --results "$res"
    run="$res/$(readlink "$res/latest")"
    [ -s "$run/results.csv" ] && [ -s "$run/bench.json" ] && [ -s "$run/speedup-pi.dat" ] &&
        ok "data written without gnuplot" || fail "data missing without gnuplot"
    n=$(find "$run" -name '*.png' -o -name '*.svg' | wc -l)
    [ "$n" -eq 0 ] && ok "no images without gnuplot" || fail "$n images without gnuplot"
    expect_in "$tmp/out" "install it with: sudo apt-get install gnuplot-nox" "says how to install gnuplot"
}

case_bench_invalid() {
    bench=$1
    quick_bench 3 "broken tree exits 3" "$bench" --threads 1,2
    n=$(grep -c ',pi,threads,.*,no,host,' "$run/results.csv")
    [ "$n" -eq 2 ] && ok "both threads rows flagged invalid" || fail "$n threads rows flagged"
    grep ',threads,' "$run/results.csv" | awk -F, '$17 != ""' | grep -q . &&
        fail "an invalid row has a speedup" || ok "invalid rows have no speedup"
    expect_not_in "$run/speedup-pi.dat" '"threads x' "invalid variant left out of the speedup plot"
    expect_in "$run/speedup-pi.dat" '"threads_simd x2"' "valid variants still plotted"
    expect_not_in "$run/scaling-pi.dat" '^"threads"$' "invalid variant left out of the scaling plot"
    expect_in "$run/summary.md" "INVALID" "summary flags the invalid variant"
    expect_in "$tmp/out" "exit code 3" "console says why the exit code is 3"
}

case_bad_input() {
    bench=$1
    res="$tmp/results"
    mkdir -p "$res"
    touch "$tmp/afile"
    expect_rc 2 "--size abc" "$bench" --size abc --results "$res"; one_line "--size abc"
    expect_in "$tmp/err" "'abc' is not a whole number" "--size abc names the value"
    expect_rc 2 "--size 0" "$bench" --size 0 --results "$res"
    expect_rc 2 "--size -5" "$bench" --size -5 --results "$res"
    expect_rc 2 "--size 12abc" "$bench" --size 12abc --results "$res"
    expect_rc 2 "--size overflow" "$bench" --size 99999999999999999999 --results "$res"
    expect_rc 2 "--size above the kernel's max" "$bench" --size 9e18 --results "$res"
    expect_rc 2 "--size without a value" "$bench" --size
    expect_rc 2 "--threads 0" "$bench" --threads 0 --results "$res"
    expect_rc 2 "--threads 1,,2" "$bench" --threads 1,,2 --results "$res"
    expect_rc 2 "--threads 99999" "$bench" --threads 99999 --results "$res"
    expect_rc 2 "--kernel pie" "$bench" --kernel pie --results "$res"; one_line "--kernel pie"
    expect_in "$tmp/err" "did you mean 'pi'" "--kernel pie suggests pi"
    expect_rc 2 "--variant smid" "$bench" --variant smid --results "$res"
    expect_in "$tmp/err" "did you mean 'simd'" "--variant smid suggests simd"
    expect_rc 2 "--reps 0" "$bench" --reps 0 --results "$res"
    expect_rc 2 "--min-time 0.05s" "$bench" --min-time 0.05s --results "$res"
    expect_rc 2 "--benchmark_min_time=0.05s" "$bench" --benchmark_min_time=0.05s --results "$res"
    expect_rc 2 "--benchmark_repetitions=0" "$bench" --benchmark_repetitions=0 --results "$res"
    expect_rc 2 "--benchmark_format=xml" "$bench" --benchmark_format=xml --results "$res"
    expect_rc 2 "--benchmark_out=x" "$bench" --benchmark_out=x --results "$res"
    expect_rc 2 "--benchmark_filter that matches nothing" "$bench" --quick --size 1000 \
        --benchmark_filter=nomatch --results "$res"
    expect_rc 2 "unknown option" "$bench" --frobnicate --results "$res"
    expect_rc 2 "results path is a file" "$bench" --quick --results "$tmp/afile"
    expect_rc 2 "OMP_NUM_THREADS=abc" env OMP_NUM_THREADS=abc "$bench" --results "$res"
    expect_in "$tmp/err" "OMP_NUM_THREADS: 'abc'" "OMP_NUM_THREADS=abc named"
    expect_rc 2 "OMP_NUM_THREADS=0" env OMP_NUM_THREADS=0 "$bench" --results "$res"
    expect_rc 2 "OMP_PROC_BIND=bogus" env OMP_PROC_BIND=bogus "$bench" --results "$res"
    left=$(ls -A "$res" | wc -l)
    [ "$left" -eq 0 ] && ok "bad input wrote nothing" || { fail "bad input left files:"; ls -A "$res" >&2; }
    expect_rc 0 "--help" "$bench" --help
    require_device "$bench" --kernel pi --variant gpu --size 1003 --reps 1 --min-time 0.01 \
        --results "$res"
    left=$(ls -A "$res" | wc -l)
    [ "$rc" -ne 4 ] || [ "$left" -eq 0 ] && ok "--require-device wrote nothing" ||
        fail "--require-device left files"
}

# require_device PROGRAM ARGS...: with --require-device a machine without an
# offload device exits 4 with one line; one with a device runs (exit 0).
require_device() {
    prog=$1; shift
    "$prog" --require-device "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 4 ]; then
        expect_in "$tmp/err" "no offload device" "--require-device, no device: exit 4"
        one_line "--require-device"
    elif [ "$rc" -eq 0 ]; then
        grep -qE '\(device\)| device$' "$tmp/out" &&
            ok "--require-device with a device: exit 0, and gpu ran on it" ||
            fail "--require-device: exit 0 but gpu did not run on a device"
    else
        fail "--require-device: exit $rc, expected 4 (no device) or 0"
    fi
}

case_runner() {
    runner=$1
    expect_rc 0 "speedlab pi" "$runner" pi --size 100003 --reps 1
    expect_in "$tmp/out" "exercises  threads_simd" "runner shows the exercise row"
    expect_in "$tmp/out" "solutions  threads_simd" "runner shows the solution row"
    expect_in "$tmp/out" "verdict" "runner has a verdict column"
    grep -q "gpu .*host fallback" "$tmp/out" || grep -q "gpu .*device" "$tmp/out" &&
        ok "runner says where gpu ran" || fail "runner does not say where gpu ran"
    expect_rc 0 "speedlab false-sharing" "$runner" false-sharing --size 200003 --reps 1 --threads 2
    for v in scalar reduction adjacent padded; do
        grep -qE "^exhibits +$v .* ok|^exhibits +$v .* not faster yet" "$tmp/out" &&
            ok "exhibit $v validated and timed" || fail "exhibit $v missing or wrong"
    done
    # The data-race exhibit: the shared sum is wrong on 2 threads (exit 3)
    # and right on 1; critical and atomic are right.
    expect_rc 3 "speedlab data-race" "$runner" data-race --size 1000003 --reps 1 --threads 1,2
    grep -qE '^exhibits +shared_sum +2 .*WRONG' "$tmp/out" && ok "the race is flagged WRONG on 2 threads" ||
        fail "the race was not flagged"
    grep -qE '^exhibits +shared_sum +1 .*WRONG' "$tmp/out" && fail "the race flagged on 1 thread" ||
        ok "one thread cannot race"
    n=$(grep -E '^exhibits +(critical|atomic|reduction) ' "$tmp/out" | grep -vc WRONG)
    [ "$n" -eq 6 ] && ok "critical, atomic and reduction are right" || fail "$n of 6 cures right"
    # The missing map(from:): WRONG where the region reaches a device; on
    # the host fallback right, and labelled as a host run (the bug hides).
    "$runner" missing-map --size 100003 --reps 1 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -qE '^exhibits +map_alloc .* device *$' "$tmp/out" ||
       grep -qE '^exhibits +map_alloc .*WRONG' "$tmp/out"; then
        [ "$rc" -eq 3 ] && grep -qE '^exhibits +map_alloc .*WRONG' "$tmp/out" &&
            ok "on a device the missing map(from:) is WRONG (exit 3)" ||
            fail "missing map(from:) on a device: exit $rc, not flagged"
    else
        [ "$rc" -eq 0 ] && grep -qE '^exhibits +map_alloc .*right; host, not a GPU' "$tmp/out" &&
            ok "on the host fallback the missing map(from:) hides, labelled host" ||
            fail "missing-map on the host: exit $rc, row: $(grep map_alloc "$tmp/out")"
    fi
    grep -qE '^exhibits +map_from .*(right|ok)' "$tmp/out" && ok "map(from:) is right" ||
        fail "map(from:) row: $(grep map_from "$tmp/out")"
    expect_rc 2 "speedlab pie" "$runner" pie; one_line "speedlab pie"
    expect_in "$tmp/err" "did you mean 'pi'" "speedlab pie suggests pi"
    expect_rc 2 "speedlab (no kernel)" "$runner"
    expect_rc 2 "speedlab pi --threads abc" "$runner" pi --threads abc
    expect_rc 2 "speedlab pi --tree mine" "$runner" pi --tree mine
    require_device "$runner" pi --variant gpu --size 1003 --reps 1
}

# Mandelbrot and Julia end to end: the schedule sweep and its evidence, the
# pictures, a wrong image flagged and drawn, the runner's pictures, the FMA
# exhibit, and the fractal options' bad input.
case_fractals() {
    bench=$1; broken=$2; runner=$3
    fbench() {
        want=$1; label=$2; b=$3; shift 3
        expect_rc "$want" "$label" "$b" --size 96 --threads 1,2 --reps 1 \
            --min-time 0.01 --results "$tmp/f" "$@"
        run="$tmp/f/$(readlink "$tmp/f/latest")"
    }
    fbench 0 "bench mandelbrot" "$bench" --kernel mandelbrot
    for f in image-mandelbrot.png schedule-mandelbrot.png lanes-mandelbrot.png \
             threadwork-mandelbrot-2.png threadwork-mandelbrot-3.png speedup-mandelbrot.png; do
        [ -s "$run/$f" ] && ok "bench drew $f" || fail "bench did not draw $f"
    done
    n=$(grep -c '^solutions,mandelbrot,threads,2,.*"static,1"' "$run/results.csv")
    [ "$n" -eq 1 ] && ok "csv has the static,1 row at 2 threads" || fail "$n static,1 rows"
    expect_in "$run/summary.md" "lane utilisation" "summary gives the lane utilisation"
    expect_in "$run/summary.md" "schedule(static): the busiest thread did" "summary gives each schedule's busiest thread"
    # Every thread's share is there and the shares add up to 100%.
    awk 'NR > 2 { s += $2 } END { exit !(s > 99.9 && s < 100.1) }' "$run/threadwork-mandelbrot-3.dat" &&
        ok "static shares add up to 100%" || fail "static shares do not add up"
    # Both fractals in one run share a variant table; each scaling study
    # must hold only its own kernel's points: threads 1, 2 (and 3).
    fbench 0 "bench mandelbrot and julia" "$bench" --variant threads_simd --no-weak
    for k in mandelbrot julia; do
        rows=$(awk '/^"threads_simd"/ { b = 1; next } b && NF == 7 { printf "%s ", $1 }' "$run/scaling-$k.dat")
        [ "$rows" = "1 2 3 " ] && ok "$k's scaling study has only its own points" ||
            fail "$k's scaling study has rows for threads '$rows'"
    done
    fbench 3 "broken fractal threads exits 3" "$broken" --kernel mandelbrot
    n=$(ls "$run" | grep -c '^diff-broken-mandelbrot-threads-.*\.png$')
    [ "$n" -ge 1 ] && ok "difference images for the wrong variant ($n)" || fail "no difference image"
    expect_not_in "$run/speedup-mandelbrot.dat" '"threads x' "wrong variant left out of the speedup plot"
    expect_in "$run/speedup-mandelbrot.dat" '"threads_simd x2"' "right variants still plotted"
    expect_in "$tmp/out" "wrong pixels" "console counts the wrong pixels"
    # The runner: a picture per lesson; the FMA exhibit differs, and says so.
    expect_rc 0 "speedlab julia" "$runner" julia --size 80 --reps 1 --results "$tmp/r"
    [ -s "$tmp/r/julia/latest/image-julia.png" ] && ok "runner drew julia" || fail "runner drew no julia"
    expect_rc 3 "speedlab fma" "$runner" fma --size 256 --reps 1 --results "$tmp/r"
    expect_in "$tmp/out" "WRONG:" "fma exhibit is flagged"
    [ -s "$tmp/r/fma/latest/diff-exhibits-fma-fma.png" ] && ok "fma difference image" ||
        fail "no fma difference image"
    # Bad input: one line, exit 2, nothing written.
    before=$(ls "$tmp/f" | wc -l)
    for args in "--max-iter 0" "--max-iter abc" "--max-iter 1000001" "--schedule auto" \
                "--schedule static,0" "--schedule" "--size 16385"; do
        # shellcheck disable=SC2086
        expect_rc 2 "bench --kernel mandelbrot $args" "$bench" --kernel mandelbrot \
            --results "$tmp/f" $args
        one_line "bench $args"
    done
    [ "$(ls "$tmp/f" | wc -l)" -eq "$before" ] && ok "bad input wrote nothing" ||
        fail "bad input wrote into the results folder"
}

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
    [ "$valid" -eq 9 ] && ok "all 9 configurations valid" || fail "$valid of 9 valid"
    # The estimates table: one count inside, whatever the variant or threads.
    counts=$(grep '^| montecarlo |' "$run/summary.md" | awk -F'|' 'NF > 12 { print $7 }' | sort -u)
    [ "$(echo "$counts" | wc -l)" -eq 1 ] && [ -n "$counts" ] &&
        ok "every variant counted$counts points inside" || fail "counts differ: $counts"
    expect_in "$run/summary.md" "| std error | error | error / std error |" "summary has the standard error"
    # std_error column: 1.642/sqrt(2000003) = 0.00116.
    awk -F, 'NR > 1 && $24 != "" { if ($24 < 0.00115 || $24 > 0.00117) bad = 1; n++ }
             END { exit bad || n != 9 }' "$run/results.csv" &&
        ok "CSV std_error is 1.642/sqrt(N)" || fail "CSV std_error wrong"
    rows=$(grep -vc '^#' "$run/convergence-montecarlo.dat")
    [ "$rows" -eq 11 ] && ok "convergence data from 10 to 10^6 samples" || fail "$rows convergence rows"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$run/convergence-montecarlo.png" ] && ok "convergence plotted" || fail "no convergence plot"
    fi
    first=$counts
    mbench 0 "bench montecarlo, another seed" "$bench" --seed 6 --variant scalar
    counts=$(grep '^| montecarlo |' "$run/summary.md" | awk -F'|' 'NF > 12 { print $7 }' | sort -u)
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
    expect_rc 0 "speedlab montecarlo" "$runner" montecarlo --size 100003 --reps 1 --threads 2
    expect_in "$tmp/out" "every correct variant counted the same points" "runner: all variants agree"
    expect_in "$tmp/out" "sigma" "runner gives the error in sigmas"
    # The exhibit: rand and shared state run; only the counter generator
    # gives one answer on 1 and 2 threads; per-thread seeds do not.
    expect_rc 0 "speedlab shared-rng" "$runner" shared-rng --size 200003 --reps 1 --threads 1,2
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
}

# Lesson 5: the staged offload files, the GPU breakdown with its honest
# label, the crossover, and the CUDA variants skipped with a reason.
case_gpu() {
    bench=$1; runner=$2
    res="$tmp/results"
    expect_rc 0 "bench mandelbrot with the breakdown" "$bench" --quick --kernel mandelbrot \
        --size 256 --threads 2 --reps 2 --min-time 0.01 --results "$res"
    run="$res/$(readlink "$res/latest")"
    csv="$run/breakdown.csv"
    [ -s "$csv" ] && ok "breakdown.csv written" || { fail "breakdown.csv missing"; return; }
    for step in first_target_region to_device kernel to_host release \
                staged_end_to_end per_call_end_to_end best_cpu; do
        grep -q ",$step," "$csv" && ok "breakdown has $step" || fail "breakdown lacks $step"
    done
    expect_in "$csv" "mandelbrot 256x256,mandelbrot,256,0,262144," "image bytes back: 256*256*4"
    if [ "$(grep -c . "$run/crossover-mandelbrot.dat")" -eq 4 ]; then
        ok "crossover sweep: 64, 128, 256"
    else
        fail "crossover-mandelbrot.dat: $(cat "$run/crossover-mandelbrot.dat")"
    fi
    if grep -q ',device,' "$csv"; then
        ok "a device is present: labels checked on the device run"
    else
        grep ',kernel,' "$csv" | grep -q ',host fallback,' &&
            ok "kernel step labelled host fallback" || fail "kernel step not labelled host fallback"
        expect_not_in "$csv" ',device,' "no figure claims the device"
        expect_in "$run/summary.md" "n/a (host fallback)" "no GPU speedup claimed in the summary"
        expect_in "$run/summary.md" "none: the gpu variant ran on the host" "no crossover claimed"
        expect_in "$run/breakdown-gpu.gp" 'host fallback, not a GPU' "plot title says host fallback"
        expect_in "$run/speedup-mandelbrot.dat" "gpu (host fallback)" "speedup bar labelled host fallback"
    fi
    if command -v gnuplot >/dev/null 2>&1; then
        for f in breakdown-gpu.png crossover-mandelbrot.png; do
            [ -s "$run/$f" ] && ok "$f plotted" || fail "$f missing or empty"
        done
    fi

    expect_rc 0 "bench pi: staged files and pi from an array" "$bench" --quick --kernel pi \
        --size 2000003 --threads 2 --reps 2 --min-time 0.01 --results "$res"
    run="$res/$(readlink "$res/latest")"
    expect_in "$run/breakdown.csv" "pi, array of 1e+07,pi,10000000,80000000,8," \
        "pi from an array: 8 bytes per element in, one double out"
    for v in gpu_v1 gpu_v2 gpu gpu_v4; do
        grep -q "^solutions,pi,$v," "$run/results.csv" && ok "bench timed $v" || fail "bench lacks $v"
    done

    expect_rc 0 "runner pi" "$runner" pi --size 100003
    for v in gpu_v1 gpu_v2 gpu_v4; do
        grep -qE "^solutions +$v .*(host fallback|device)" "$tmp/out" &&
            ok "runner shows $v and where it ran" || fail "runner lacks $v"
    done
    grep -q "right; host, not a GPU" "$tmp/out" || grep -q " device$" "$tmp/out" &&
        ok "runner: a host fallback is not a GPU figure" || fail "runner verdict for host fallback"

    # CUDA: built (nvcc found) and no device: skipped with a reason, exit 4
    # when asked for by name; not built: an unknown variant, exit 2.
    "$bench" --quick --kernel pi --variant cuda --reps 2 --min-time 0.01 \
        --results "$tmp/cuda" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $rc in
    4) expect_in "$tmp/err" "cannot run here: no CUDA device" "--variant cuda, no device: exit 4"
       one_line "--variant cuda"
       [ ! -e "$tmp/cuda/latest" ] && ok "nothing written" || fail "a run folder was written" ;;
    2) expect_in "$tmp/err" "unknown variant 'cuda'" "no nvcc: cuda is not a variant" ;;
    0) ok "--variant cuda ran on a CUDA device" ;;
    *) fail "--variant cuda: exit $rc" ;;
    esac
}

case_plots() {
    run="$tmp/run"
    mkdir -p "$run"
    printf 'lanes = 8\ncores = 2\nmachine = "test"\n' >"$run/run.gp"
    printf '# header only\n# label\tspeedup\n' >"$run/speedup-pi.dat"
    # No gnuplot on PATH: exit 3, no image.
    bin_without_gnuplot
    expect_rc 3 "plot.sh without gnuplot" env PATH="$tmp/bin" sh "$top/plots/plot.sh" "$run"
    expect_in "$tmp/err" "apt-get install gnuplot-nox" "says how to install gnuplot"
    # A gnuplot that fails after creating an empty file: no 0-byte image.
    failing_gnuplot
    printf '"scalar"\t1.0\t1\t"host"\n' >>"$run/speedup-pi.dat"
    expect_rc 1 "plot.sh with a failing gnuplot" env PATH="$tmp/bin" sh "$top/plots/plot.sh" "$run"
    found=$(find "$run" -name '*.png' -o -name '*.svg' -o -name '.*tmp' | wc -l)
    [ "$found" -eq 0 ] && ok "no 0-byte or temporary image left" || fail "$found image files left"
    # Header-only data: no plot, not an error.
    printf '# header only\n' >"$run/speedup-pi.dat"
    expect_rc 0 "plot.sh with no valid data" sh "$top/plots/plot.sh" "$run"
    [ ! -e "$run/speedup-pi.png" ] && ok "no image from empty data" || fail "image from empty data"
}

# browser_check PAGE: the image-check line of PAGE after a headless
# chromium has loaded it (its script counts the images that loaded).
browser_check() {
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
        --virtual-time-budget=10000 --dump-dom "file://$1" 2>/dev/null |
        grep -o 'id="image-check"[^<]*' | sed 's/.*>//'
}

# The instructor's report: the scaling and evidence sections, the Amdahl
# fit on data with a known answer, index.html in a real browser (every
# image loads; a missing one is reported), and make compare.
case_report() {
    bench=$1; compare=$2
    quick_bench 0 "report bench" "$bench" --threads 1,2 --reps 6
    for section in "## Strong scaling" "## Weak scaling" "## How close to the machine" \
                   "**Closest to the machine**" "Amdahl fit of the scaling plots needs 3" \
                   "median [95% CI]"; do
        expect_in "$run/summary.md" "$section" "summary has '$section'"
    done
    # The evidence: the ceiling scales with the cores a configuration had
    # (2 threads: twice 1 thread's), and percent = 100 x rate / ceiling.
    # Nothing here depends on how fast the machine was.
    col() { awk -F, -v v="$1" -v t="$2" -v c="$3" '$2 == "pi" && $3 == v && $4 == t { print $c }' "$run/evidence.csv"; }
    c1=$(col scalar 1 11); c2=$(col threads_simd 2 11)
    awk -v a="$c1" -v b="$c2" 'BEGIN { exit !(a > 0 && b > 0 && (b / a - 2) ^ 2 < 1e-8) }' &&
        ok "evidence: the 2-thread ceiling is twice the 1-thread one" ||
        fail "evidence ceilings: 1 thread '$c1', 2 threads '$c2'"
    awk -F, 'NR > 1 && $11 != "" { n++; d = 100 * $7 / $11 - $12; if (d * d > 1e-4) bad = 1 }
             END { exit bad || n < 10 }' "$run/evidence.csv" &&
        ok "evidence: every percent is 100 x rate / ceiling" || fail "evidence percentages inconsistent"
    n=$(awk -F, 'NR > 1 && $3 > 0' "$run/ceiling.csv" | wc -l)
    [ "$n" -eq 3 ] && ok "ceiling.csv: 3 probes measured" || fail "ceiling.csv has $n probes"
    # 6 repetitions: every interval is at the 96.9% level.
    awk -F, 'NR > 1 { n++; if ($31 != "0.9688") bad = 1 } END { exit bad || n != 12 }' "$run/results.csv" &&
        ok "6 repetitions give the 96.9% interval" || fail "interval level wrong"
    expect_in "$run/scaling-pi.gp" "fit_points = 2" "2 in-core thread counts: fit skipped"

    # Amdahl fit on synthetic data with serial fraction 0.1: found again.
    if command -v gnuplot >/dev/null 2>&1; then
        syn="$tmp/syn"; mkdir -p "$syn"
        printf 'lanes = 8\ncores = 8\nmachine = "test"\n' >"$syn/run.gp"
        printf 'fit_points = 4\nfit_min = 3\nfit_note = "x"\n' >"$syn/scaling-syn.gp"
        awk 'BEGIN { print "# t"; print "\"threads\""
                     for (p = 1; p <= 8; p *= 2) { s = 1 / (0.1 + 0.9 / p)
                         printf "%d\t%.6f\t%.6f\t%.6f\t%.6f\tNaN\t0\n", p, s, s / p, s, s }
                     print "9\t1.0\t0.1\t1.0\t1.0\tNaN\t1" }' >"$syn/scaling-syn.dat"
        expect_rc 0 "plot synthetic scaling" sh "$top/plots/plot.sh" "$syn"
        f=$(awk '{ print $4 }' "$syn/fit-syn.txt")
        awk -v f="$f" 'BEGIN { exit !(f > 0.0999 && f < 0.1001) }' &&
            ok "Amdahl fit finds serial fraction $f (0.1)" || fail "Amdahl fit gave '$f'"
    fi

    # The page in a real browser.
    chromium=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$chromium" ] || ! command -v gnuplot >/dev/null 2>&1; then
        echo "report: skipped the browser check: chromium or gnuplot is not installed"
        exit 77
    fi
    pngs=$(ls "$run"/*.png | wc -l)
    got=$(browser_check "$run/index.html")
    [ "$got" = "images: $pngs of $pngs loaded" ] && ok "browser: $got" ||
        fail "browser says '$got', expected all $pngs images loaded"
    cp -R "$run" "$tmp/damaged"
    rm "$tmp/damaged/speedup-pi.png"
    got=$(browser_check "$tmp/damaged/index.html")
    case $got in
    *"broken: speedup-pi.png"*) ok "browser reports the missing image" ;;
    *) fail "a missing image went unnoticed: '$got'" ;;
    esac

    # make compare: a run against itself differs nowhere; against a copy
    # whose every time is doubled, B is slower everywhere, by 2.
    expect_rc 0 "compare a run with itself" "$compare" "$run" "$run" --results "$tmp/c"
    n=$(grep -c 'no significant difference' "$tmp/out")
    [ "$n" -eq 12 ] && ok "itself: 12 of 12 not different" || fail "itself: $n of 12 not different"
    cp -R "$run" "$tmp/slow"
    awk -F, 'BEGIN { OFS = "," } NR > 1 { $NF = $NF * 2 } { print }' "$run/samples.csv" \
        >"$tmp/slow/samples.csv"
    expect_rc 0 "compare with a run twice as slow" "$compare" "$run" "$tmp/slow" \
        --label-a fast --label-b slow --results "$tmp/c"
    n=$(grep -c ' 2.000 .*B slower' "$tmp/out")
    [ "$n" -eq 12 ] && ok "twice as slow: 12 of 12 B slower, ratio 2.000" ||
        fail "twice as slow: $n of 12 found"
    cmp_run="$tmp/c/compare/$(readlink "$tmp/c/compare/latest")"
    for f in compare.csv summary.md index.html compare-runs.png; do
        [ -s "$cmp_run/$f" ] && ok "compare wrote $f" || fail "compare did not write $f"
    done
    got=$(browser_check "$cmp_run/index.html")
    [ "$got" = "images: 1 of 1 loaded" ] && ok "compare page: $got" || fail "compare page: '$got'"
    expect_rc 2 "compare with one folder" "$compare" "$run"; one_line "compare with one folder"
    expect_rc 2 "compare with a folder that is not a run" "$compare" "$run" "$tmp"
    one_line "compare with a folder that is not a run"
    expect_in "$tmp/err" "is not a run folder" "says what is wrong"
}

# A signal mid-run (Ctrl-C, SLURM's time-limit signal): exit 128 + signal,
# what was measured written and marked interrupted, no Google Benchmark
# JSON with skipped entries, the earlier run untouched.
case_interrupt() {
    bench=$1
    quick_bench 0 "an earlier run" "$bench" --threads 1 --no-plots
    earlier=$run; sum=$(cat "$earlier"/* | cksum)
    for sig in TERM INT; do
        "$bench" --kernel pi --size 100000000 --threads 1,2 --reps 6 --min-time 0.2 \
            --no-plots --results "$tmp/results" >"$tmp/out" 2>"$tmp/err" &
        pid=$!
        wait_for_first_timing
        kill -"$sig" "$pid"
        wait "$pid"
        rc=$?
        want=$([ "$sig" = TERM ] && echo 143 || echo 130)
        [ "$rc" -eq "$want" ] && ok "SIG$sig: exit $rc" || fail "SIG$sig: exit $rc, expected $want"
        run="$tmp/results/$(readlink "$tmp/results/latest")"
        expect_in "$run/summary.md" "**INTERRUPTED**" "SIG$sig: summary marked interrupted"
        grep -q ',interrupted,' "$run/results.csv" && ok "SIG$sig: CSV marks the rest" ||
            fail "SIG$sig: no interrupted rows in the CSV"
        n=$(grep -c ',yes,' "$run/results.csv")
        [ "$n" -ge 1 ] && ok "SIG$sig: $n configuration(s) measured in full kept" ||
            fail "SIG$sig: nothing kept"
        [ ! -e "$run/bench.json" ] && ok "SIG$sig: no JSON with skipped entries" ||
            fail "SIG$sig: bench.json written"
        ls -a "$tmp/results" | grep -q partial && fail "SIG$sig: a .partial folder left" ||
            ok "SIG$sig: no partial folder"
        expect_in "$tmp/err" "stopping: finishing the configuration in progress" "SIG$sig: says what it does"
    done
    [ "$(cat "$earlier"/* | cksum)" = "$sum" ] && ok "earlier run untouched" || fail "earlier run changed"
}

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

    expect_rc 2 "vecreport without a build folder" sh "$top/scripts/vecreport.sh" "$tmp"
}

# make racecheck: the planted races (pi threads without its reduction,
# threads_simd with a shared x) are reported in plain words at their
# lines; the solutions have none.
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
    expect_rc 0 "racecheck: no race in the solutions" sh "$top/scripts/racecheck.sh" solutions
    expect_in "$tmp/out" "no data races in the solutions tree" "says the solutions are clean"
    expect_rc 2 "racecheck: unknown tree" sh "$top/scripts/racecheck.sh" nosuch
    expect_rc 2 "racecheck: unknown kernel" sh "$top/scripts/racecheck.sh" solutions pie
}

# Faults before measuring: a full disk (a 64 KiB tmpfs, when mounting is
# allowed), an unwritable results folder (as a user who is not root),
# /dev/full as the results folder; and gnuplot failing mid-run. Each fails
# with one clear line before anything is timed, and leaves what was on
# disk as it was.
case_faults() {
    bench=$1
    ran=0
    mnt="$tmp/tiny"
    mkdir -p "$mnt"
    if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
        ran=$((ran + 1))
        echo kept >"$mnt/earlier.txt"
        expect_rc 2 "full disk" "$bench" --quick --kernel pi --results "$mnt/results"
        one_line "full disk"
        expect_in "$tmp/err" "only 60 KiB free, a run needs about 16 MiB" "full disk: says how much is free"
        grep -q '^timing' "$tmp/out" && fail "full disk: measured anyway" || ok "full disk: nothing measured"
        [ "$(cat "$mnt/earlier.txt")" = kept ] && ok "full disk: the file already there is intact" ||
            fail "full disk: earlier file damaged"
        [ -z "$(ls -A "$mnt/results")" ] && ok "full disk: no partial folder left" ||
            fail "full disk: left $(ls -A "$mnt/results")"
        umount "$mnt"
    else
        echo "faults: cannot mount a tmpfs here; the full-disk case is not run"
    fi
    ro="$tmp/readonly"
    mkdir -p "$ro"
    chmod 555 "$ro"
    as_user=""
    if [ "$(id -u)" = 0 ]; then
        command -v setpriv >/dev/null 2>&1 && as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
        chmod 755 "$tmp"
    else
        as_user=env
    fi
    if [ -n "$as_user" ]; then
        ran=$((ran + 1))
        # shellcheck disable=SC2086
        expect_rc 2 "unwritable results folder" $as_user "$bench" --quick --kernel pi --results "$ro"
        one_line "unwritable results folder"
        expect_in "$tmp/err" "is not writable: Permission denied" "unwritable: says why"
        [ -z "$(ls -A "$ro")" ] && ok "unwritable: nothing written" || fail "unwritable: files written"
    fi
    expect_rc 2 "/dev/full as the results folder" "$bench" --quick --kernel pi --results /dev/full
    one_line "/dev/full as the results folder"
    expect_in "$tmp/err" "is not a folder" "/dev/full: says it is not a folder"

    # gnuplot that fails after leaving an empty file: the run still ends
    # well (the data is complete), with no empty or temporary image.
    bin_without_gnuplot
    failing_gnuplot
    expect_rc 0 "bench with a failing gnuplot" env PATH="$tmp/bin" "$bench" --quick --kernel pi \
        --size 200003 --reps 2 --min-time 0.01 --threads 1 --no-weak --results "$tmp/g"
    expect_in "$tmp/out" "gnuplot failed (see above); the data files are complete" "says gnuplot failed"
    run="$tmp/g/$(readlink "$tmp/g/latest")"
    n=$(find "$run" \( -name '*.png' -o -name '*.svg' -o -name '.*tmp' \) | wc -l)
    [ "$n" -eq 0 ] && ok "failing gnuplot: no empty or temporary image" || fail "failing gnuplot: $n image files"
    [ -s "$run/results.csv" ] && [ -s "$run/summary.md" ] && [ -s "$run/index.html" ] &&
        ok "failing gnuplot: data, summary and page written" || fail "failing gnuplot: files missing"
    # Exit 1: the results folder stops taking writes mid-run (as a user
    # who is not root, so that permissions bind): the run says which file
    # it could not write, and the earlier run in the folder is untouched.
    if [ "$(id -u)" = 0 ] && [ -n "$as_user" ] && [ "$as_user" != env ]; then
        ran=$((ran + 1))
        w="$tmp/w"; mkdir -p "$w"; chown 65534:65534 "$w"
        $as_user "$bench" --quick --kernel pi --size 20003 --variant scalar --reps 1 \
            --min-time 0.01 --no-plots --no-weak --results "$w" >/dev/null 2>&1
        earlier="$w/$(readlink "$w/latest")"; sum=$(cat "$earlier"/* | cksum)
        $as_user "$bench" --kernel pi --size 100000000 --threads 1,2 --reps 6 --min-time 0.2 \
            --no-plots --no-weak --results "$w" >"$tmp/out" 2>"$tmp/err" &
        pid=$!
        wait_for_first_timing
        chmod 555 "$w"/.*.partial
        wait "$pid"; rc=$?
        [ "$rc" -eq 1 ] && ok "unwritable mid-run: exit 1" || fail "unwritable mid-run: exit $rc, expected 1"
        expect_in "$tmp/err" "cannot write" "unwritable mid-run: says which file"
        [ "$(cat "$earlier"/* | cksum)" = "$sum" ] && ok "unwritable mid-run: earlier run untouched" ||
            fail "unwritable mid-run: earlier run changed"
        chmod -R u+w "$w"
    fi
    [ "$ran" -gt 0 ] || exit 77
}

# bad LABEL CMD...: exit 2, one line on stderr that contains $says (when
# set). GCC's libgomp warns about a bad OMP_* variable itself before main
# runs ("libgomp: Invalid value ..."); those lines are not ours and are
# left out of the count (LLVM's libomp says nothing).
bad() {
    label=$1; shift
    expect_rc 2 "$label" "$@"
    grep -v '^libgomp: \|^$' "$tmp/err" >"$tmp/err.ours"
    n=$(wc -l <"$tmp/err.ours")
    [ "$n" -eq 1 ] && ok "$label: one line" || fail "$label: $n lines on stderr"
    [ -z "$says" ] || expect_in "$tmp/err" "$says" "$label: says '$says'"
}

# Bad input everywhere a user can type, for every program and script: each
# is refused before anything runs, with exit 2 and one line naming the
# value, and nothing is written. (e2e.bad_input has the bench's own list.)
case_bad_input_all() {
    bench=$1; runner=$2; compare=$3
    res="$tmp/results"
    mkdir -p "$res"
    echo keep >"$res/earlier.txt"
    sum=$(cksum <"$res/earlier.txt")
    # The runner.
    says="did you mean 'pi'";         bad "speedlab pie" "$runner" pie --results "$res"
    says="not a whole number";        bad "speedlab pi --size abc" "$runner" pi --size abc --results "$res"
    says="";                          bad "speedlab pi --size -1" "$runner" pi --size -1 --results "$res"
    says="";                          bad "speedlab pi --size 0" "$runner" pi --size 0 --results "$res"
    says="";                          bad "speedlab pi --size 12abc" "$runner" pi --size 12abc --results "$res"
    says="at most";                   bad "speedlab pi --size 9e18 (over the max)" "$runner" pi --size 9000000000000000000 --results "$res"
    says="at most";                   bad "speedlab julia --size 10^9 (memory)" "$runner" julia --size 1000000000 --results "$res"
    says="";                          bad "speedlab pi --threads abc" "$runner" pi --threads abc --results "$res"
    says="";                          bad "speedlab pi --threads 4abc" "$runner" pi --threads 4abc --results "$res"
    says="";                          bad "speedlab pi --threads -3" "$runner" pi --threads -3 --results "$res"
    says="";                          bad "speedlab pi --threads 99999999999" "$runner" pi --threads 99999999999 --results "$res"
    says="";                          bad "speedlab pi --threads 1,,2" "$runner" pi --threads 1,,2 --results "$res"
    says="";                          bad "speedlab pi --reps 0" "$runner" pi --reps 0 --results "$res"
    says="";                          bad "speedlab pi --reps 101" "$runner" pi --reps 101 --results "$res"
    says="did you mean 'simd'";       bad "speedlab pi --variant smid" "$runner" pi --variant smid --results "$res"
    says="";                          bad "speedlab pi --tree mine" "$runner" pi --tree mine --results "$res"
    says="";                          bad "speedlab montecarlo --seed -1" "$runner" montecarlo --seed -1 --results "$res"
    says="";                          bad "speedlab montecarlo --seed 1e30" "$runner" montecarlo --seed 1e30 --results "$res"
    says="";                          bad "speedlab mandelbrot --max-iter 0" "$runner" mandelbrot --max-iter 0 --results "$res"
    says="";                          bad "speedlab mandelbrot --schedule bogus" "$runner" mandelbrot --schedule bogus --results "$res"
    says="";                          bad "speedlab mandelbrot --schedule static,x" "$runner" mandelbrot --schedule static,x --results "$res"
    says="unknown argument";          bad "speedlab pi --frobnicate" "$runner" pi --frobnicate --results "$res"
    says="needs a value";             bad "speedlab pi --size (no value)" "$runner" pi --size
    says="";                          bad "speedlab (no kernel)" "$runner"
    # The OpenMP environment, for the runner and the bench.
    for v in abc 0 -3 4abc 99999999999; do
        says="OMP_NUM_THREADS";       bad "speedlab: OMP_NUM_THREADS=$v" env OMP_NUM_THREADS=$v "$runner" pi --results "$res"
    done
    for v in -3 4abc 99999999999; do
        says="OMP_NUM_THREADS";       bad "bench: OMP_NUM_THREADS=$v" env OMP_NUM_THREADS=$v "$bench" --results "$res"
    done
    says="OMP_PROC_BIND";             bad "speedlab: OMP_PROC_BIND=bogus" env OMP_PROC_BIND=bogus "$runner" pi --results "$res"
    # The bench, beyond e2e.bad_input.
    says="";                          bad "bench --max-iter abc" "$bench" --max-iter abc --results "$res"
    says="";                          bad "bench --schedule static,x" "$bench" --schedule static,x --results "$res"
    says="--tree is for the runner";  bad "bench --tree solutions" "$bench" --tree solutions --results "$res"
    says="empty folder name";         bad "bench --results ''" "$bench" --results ""
    says="";                          bad "bench --min-time 61" "$bench" --min-time 61 --results "$res"
    says="";                          bad "bench --min-time -1" "$bench" --min-time -1 --results "$res"
    says="";                          bad "bench --threads with 33 counts" "$bench" --results "$res" \
        --threads 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33
    says="";                          bad "bench --benchmark_repetitions=abc" "$bench" --benchmark_repetitions=abc --results "$res"
    # make compare's program.
    says="give two run folders";      bad "compare (no folders)" "$compare" --results "$res"
    says="give two run folders";      bad "compare (one folder)" "$compare" "$res" --results "$res"
    says="is not a run folder";       bad "compare (no such folder)" "$compare" "$tmp/nosuch" "$tmp/nosuch2" --results "$res"
    says="is not a run folder";       bad "compare (a folder that is not a run)" "$compare" "$res" "$res" --results "$res"
    says="needs a value";             bad "compare --label-a (no value)" "$compare" "$res" "$res" --label-a
    says="unknown argument";          bad "compare --frobnicate" "$compare" --frobnicate
    says="may not hold quotes";       bad "compare --label-a with a quote" "$compare" "$res" "$res" --label-a 'a"b' --results "$res"
    # The scripts.
    says="unknown tree";              bad "racecheck.sh nosuch" sh "$top/scripts/racecheck.sh" nosuch
    says="unknown kernel";            bad "racecheck.sh solutions pie" sh "$top/scripts/racecheck.sh" solutions pie
    says="usage";                     bad "vecreport.sh (no build folder)" sh "$top/scripts/vecreport.sh" "$tmp/nosuch"
    says="usage";                     bad "plot.sh (no run folder)" sh "$top/plots/plot.sh" "$tmp/nosuch"
    # Nothing was written, and what was there is intact.
    [ "$(ls -A "$res")" = earlier.txt ] && ok "bad input wrote nothing" ||
        fail "bad input left: $(ls -A "$res" | tr '\n' ' ')"
    [ "$(cksum <"$res/earlier.txt")" = "$sum" ] && ok "the file already there is intact" ||
        fail "earlier file changed"
    # A path with spaces is not bad input: it works.
    expect_rc 0 "a results folder with spaces" "$bench" --quick --kernel pi --size 20003 \
        --variant scalar --reps 1 --min-time 0.01 --no-plots --no-weak --results "$tmp/my results"
    [ -s "$tmp/my results/latest/summary.md" ] && ok "results written under a path with spaces" ||
        fail "no results under a path with spaces"
}

case_exercises_in_sync() {
    sh "$top/scripts/gen_exercises.sh" "$top/solutions" "$tmp/exercises" ||
        { fail "generator failed"; return; }
    if diff -r "$tmp/exercises" "$top/exercises" >"$tmp/diff"; then
        ok "exercises/ is what the generator makes from solutions/"
    else
        fail "exercises/ differs from the generated tree (run: make reset-exercises):"
        head -20 "$tmp/diff" >&2
    fi
    n=$(grep -rc 'TODO([0-9]*\.[0-9]*)' "$top/exercises" | awk -F: '{s += $2} END {print s}')
    [ "$n" -gt 0 ] && ok "$n TODO(step) tags in exercises/" || fail "no TODO(step) tags"
    # Every TODO step exists in COURSE.md.
    for step in $(grep -rho 'TODO([0-9]*\.[0-9]*)' "$top/exercises" | sort -u | tr -d 'TODO()'); do
        grep -q "^#### Step $step" "$top/COURSE.md" && ok "step $step in COURSE.md" ||
            fail "TODO($step) has no '#### Step $step' in COURSE.md"
    done
}

case_generator_errors() {
    mkdir -p "$tmp/src/k"
    printf 'int a;\n/* BEGIN SOLUTION */\nint b;\n' >"$tmp/src/k/open.c"
    expect_rc 1 "unclosed region" sh "$top/scripts/gen_exercises.sh" "$tmp/src" "$tmp/gen"
    expect_in "$tmp/err" "open.c:2: region opened here is never closed" "names file and line"
    [ ! -e "$tmp/gen" ] && ok "nothing written on error" || fail "output written on error"
    printf '/* BEGIN SOLUTION */\nint b;\n/* EXERCISE\nint c;\nEND SOLUTION */\n' >"$tmp/src/k/open.c"
    expect_rc 0 "well-formed region" sh "$top/scripts/gen_exercises.sh" "$tmp/src" "$tmp/gen"
    [ "$(cat "$tmp/gen/k/open.c")" = "int c;" ] && ok "region replaced by its exercise" ||
        fail "generated: $(cat "$tmp/gen/k/open.c")"
}

name=$1
shift
"case_$name" "$@"
echo "$name: $failures failure(s)"
[ "$failures" -eq 0 ]
