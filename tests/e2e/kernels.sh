#!/bin/sh
# kernels.sh - end-to-end: the fractals', Monte Carlo's, the triad's and k-means' evidence,
# invalid variants, pictures.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

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
    expect_not_in "$run/speedup-mandelbrot.dat" '^"threads"	' "wrong variant left out of the speedup plot"
    expect_in "$run/speedup-mandelbrot.dat" '"threads_simd"	' "right variants still plotted"
    expect_in "$tmp/out" "wrong pixels" "console counts the wrong pixels"
    # The runner: a picture per lesson; the FMA exhibit differs, and says so.
    expect_rc 0 "speedlab julia" "$runner" julia --min-time 0.01 --size 80 --reps 1 --results "$tmp/r"
    [ -s "$tmp/r/julia/latest/image-julia.png" ] && ok "runner drew julia" || fail "runner drew no julia"
    expect_rc 3 "speedlab fma" "$runner" fma --min-time 0.01 --size 256 --reps 1 --results "$tmp/r"
    expect_in "$tmp/out" "WRONG:" "fma exhibit is flagged"
    [ -s "$tmp/r/fma/latest/diff-exhibits-fma-fma.png" ] && ok "fma difference image" ||
        fail "no fma difference image"
    # Bad input: one line, exit 2, nothing written.
    before=$(ls "$tmp/f" | wc -l)
    for args in "--max-iter 0" "--max-iter abc" "--max-iter 1000001" "--schedule auto" \
                "--schedule static,0" "--schedule" "--size 65537"; do
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

# Lesson 7: the triad validates and is timed on both roofs' terms; the
# memory probe's bandwidth is in ceiling.csv, each triad row's memory
# ceiling is that bandwidth over 32 bytes an element on the bus, the
# roofline places it at 1/32 operations per byte; a remainder dropped by a hand-made split
# is caught; the runner's lesson and exhibit run.
case_triad() {
    bench=$1; broken=$2; runner=$3
    expect_rc 0 "bench triad" "$bench" --kernel triad --threads 1,2 --no-weak --reps 2 \
        --min-time 0.01 --results "$tmp/t"
    run="$tmp/t/$(readlink "$tmp/t/latest")"
    total=$(awk -F, 'NR > 1 && $2 == "triad"' "$run/results.csv" | wc -l)
    valid=$(grep -c ',triad,.*,yes,' "$run/results.csv")
    [ "$total" -ge 7 ] && [ "$valid" -eq "$total" ] && ok "all $total triad configurations valid" ||
        fail "$valid of $total triad configurations valid"
    cores=$(nproc)
    awk -F, -v c="$cores" '$1 == "memory bandwidth" && $5 > 0 { t[$3] = 1 }
                           END { exit !(t[1] && t[c]) }' "$run/ceiling.csv" &&
        ok "ceiling.csv: memory bandwidth on 1 and $cores threads" ||
        fail "ceiling.csv has no bandwidth rows: $(cat "$run/ceiling.csv")"
    bw1=$(awk -F, '$1 == "memory bandwidth" && $3 == 1 { print $5 }' "$run/ceiling.csv")
    # scalar, 1 thread: ceiling = bandwidth / 32 bytes on the bus (to
    # ceiling.csv's 6 digits), memory-bound, at 1/32 operations per byte.
    # The bandwidth is 1 thread's, or every core's when that measured less
    # (this machine's memory is shared with its neighbours: it happens).
    bwc=$(awk -F, -v c="$cores" '$1 == "memory bandwidth" && $3 == c { print $5 }' "$run/ceiling.csv")
    bw1=$(awk -v a="$bw1" -v b="$bwc" 'BEGIN { print (b < a ? b : a) }')
    row=$(awk -F, '$2 == "triad" && $3 == "scalar"' "$run/evidence.csv")
    echo "$row" | awk -F, -v bw="$bw1" '{ d = $11 * 32 / (bw * 1e9) - 1
        exit !(d * d < 1e-6 && $13 == "memory-bound" && $14 == 0.03125) }' &&
        ok "evidence: scalar's memory ceiling is $bw1 GB/s over 32 bytes" ||
        fail "evidence row: $row (bandwidth $bw1)"
    # STREAM's count of the same runs: 24 bytes where the bus saw 32 or 24.
    # (to the CSV's 6 digits)
    awk -F, '$1 == "memory bandwidth" { r = $8 / $5
        if (!(($7 == "plain" && r > 0.74999 && r < 0.75001) || ($7 == "non-temporal" && r > 0.99999 && r < 1.00001))) bad = 1 }
        END { exit bad }' "$run/ceiling.csv" &&
        ok "ceiling.csv: STREAM's 24-byte count beside the bus's" || fail "stream_gb_per_s inconsistent"
    awk -F, 'NR > 1 && $2 == "pi"' "$run/evidence.csv" | grep -q . &&
        fail "a pi row in a triad run" || true
    awk '$2 == "0.03125"' "$run/roofline.dat" | grep -q . &&
        ok "roofline.dat: the triad at 1/32 operations per byte" || fail "roofline.dat: $(cat "$run/roofline.dat")"
    expect_in "$run/summary.md" "GB/s measured" "headline: the triad's roof is the memory's"
    expect_in "$run/summary.md" "The memory probe" "summary: the bandwidth probe"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$run/roofline.png" ] && [ -s "$run/roofline.svg" ] && ok "roofline plotted" ||
            fail "no roofline.png/.svg"
    fi
    expect_rc 3 "broken triad threads exit 3" "$broken" --kernel triad --size 2000003 \
        --variant threads --threads 1,2 --no-weak --reps 1 --min-time 0.01 --no-plots \
        --results "$tmp/tb"
    run="$tmp/tb/$(readlink "$tmp/tb/latest")"
    grep -q ',triad,threads,2,.*,no,host,' "$run/results.csv" &&
        ok "the dropped remainder flagged on 2 threads" || fail "2-thread row not flagged"
    grep -q ',triad,threads,1,.*,yes,host,' "$run/results.csv" &&
        ok "right on 1 thread, where nothing is dropped" || fail "1-thread row not valid"
    expect_rc 0 "speedlab triad_cache" "$runner" triad_cache --min-time 0.01 --variant threads_simd --reps 1
    expect_in "$tmp/out" "exercises  threads_simd" "runner: the participant's triad"
    expect_rc 0 "speedlab first-touch" "$runner" first-touch --min-time 0.01 --reps 1 --threads 2
    for v in parallel_touch serial_touch; do
        grep -qE "^exhibits +$v +2 " "$tmp/out" && ok "exhibit $v ran" || fail "exhibit $v missing"
    done
}

# k-means end to end: the ladder validated and timed (every label the
# reference's), the broken tree's argmin that stops one short flagged
# (exit 3, left out), and lesson 9's whole program: labels written, one a
# point, bad input refused.
case_kmeans() {
    bench=$1; broken=$2; app=$3
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
    expect_rc 2 "the app: too few points" "$app" 5
    expect_rc 2 "the app: not a number" "$app" 12x
    expect_rc 1 "the app: a labels file it cannot write" "$app" 100 "$tmp/no/such/dir/l.txt"
    # The same program in NumPy, and its hot function in numba: the same
    # iterations and labels as the C app's (where numba is installed).
    py=${SPEEDLAB_PYTHON:-/usr/bin/python3}
    if "$py" -c 'import numpy, numba' 2>/dev/null; then
        # It writes its labels where it runs: in $tmp.
        expect_rc 0 "kmeans_numpy.py --numba" sh -c 'cd "$1" && shift && exec "$@"' _ "$tmp" \
            "$py" "$top/kernels/kmeans/app/kmeans_numpy.py" 2003 --numba
        iters=$("$app" 2003 "$tmp/labels.txt" | sed -n 's/.* \([0-9]*\) iterations.*/\1/p')
        expect_in "$tmp/out" "2003 points, 32 clusters, $iters iterations" "NumPy's iterations are C's"
        expect_in "$tmp/out" "numba assign: the same labels" "numba's labels are NumPy's"
        cmp -s "$tmp/labels.txt" "$tmp/kmeans-labels-numpy.txt" && ok "NumPy's labels are C's" ||
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
    expect_rc 0 "kmeans_peer.py" "$py" "$top/python/kmeans_peer.py" --size 20011 --reps 2 \
        --bench "$bench"
    expect_in "$tmp/out" "sklearn lloyd: right (labels exact" "sklearn's answer is the kit's"
    grep -qE '^  threads_simd +[0-9.]+ ms +[0-9.]+x$' "$tmp/out" &&
        ok "the kit's threads_simd beside it" || fail "no threads_simd row: $(cat "$tmp/out")"
    expect_rc 2 "kmeans_peer.py: a bad size" "$py" "$top/python/kmeans_peer.py" --size 5 \
        --bench "$bench"
}
