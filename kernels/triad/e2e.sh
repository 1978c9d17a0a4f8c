#!/bin/sh
# e2e.sh - the triad's own end-to-end cases and test data. Sourced by
# tests/e2e/run.sh (through lib.sh, which provides the helpers); CMake makes
# each case_<name> below a CTest test e2e.<name>, given: the bench, the
# broken tree's bench, the runner, the build folder.

# A smoke run's size: the quick size is past the last cache (2^25 elements,
# 805 MB, where a VM reports a 480 MiB L3), and there GCC 12's host
# fallback ran gpu_teams' 131072 teams one parallel region each: 6.9 s a
# call, 100 times the scalar loop (Intel Xeon, family 6 model 167).
e2e_smoke="$e2e_smoke --size triad=1000003"

# Lesson 7: the triad validates and is timed on both roofs' terms; the
# memory probe's bandwidth is in ceiling.csv, each triad row's memory
# ceiling is that bandwidth over the loop's 24 bytes an element, the
# roofline places it at 1/24 operations per byte; a remainder dropped by
# a hand-made split is caught; the runner's lesson and exhibit run.
case_triad() {
    bench=$1; broken=$2; runner=$3
    # (No re-timing: nothing here is a speed verdict, and load only slows it.)
    # The roofs re-probed between the pass's two cycles (a full run's
    # share of its pass buys 5; this pass is too short for one).
    expect_rc 0 "bench triad" env SPEEDLAB_WATCH_SHARE=100 "$bench" --kernel triad --threads 1,2 --no-weak --reps 2 --retry-busy 0 \
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
    # scalar, 1 thread: ceiling = bandwidth / 24 bytes (to ceiling.csv's 6
    # digits), memory-bound, at 1/24 operations per byte.
    # The bandwidth is 1 thread's, or every core's when that measured less
    # (this machine's memory is shared with its neighbours: it happens).
    bwc=$(awk -F, -v c="$cores" '$1 == "memory bandwidth" && $3 == c { print $5 }' "$run/ceiling.csv")
    bw1=$(awk -v a="$bw1" -v b="$bwc" 'BEGIN { print (b < a ? b : a) }')
    row=$(awk -F, '$2 == "triad" && $3 == "scalar"' "$run/evidence.csv")
    echo "$row" | awk -F, -v bw="$bw1" '{ d = $11 * 24 / (bw * 1e9) - 1
        exit !(d * d < 1e-6 && $13 == "memory-bound" && $9 == "memory bandwidth" && $14 > 0.041666 && $14 < 0.041667) }' &&
        ok "evidence: scalar's memory ceiling is $bw1 GB/s over 24 bytes, its limit named so" ||
        fail "evidence row: $row (bandwidth $bw1)"
    # Probed 3 times (before, between the cycles, after): each roof's
    # interval holds it, and each row's percent of its ceiling is inside
    # its interval.
    awk -F, 'NR > 1 { n++; if ($11 != 3 || $12 > ($4 $5) * 1.000001 || $13 < ($4 $5) * 0.999999) bad = 1 }
        END { exit bad || n < 6 }' "$run/ceiling.csv" &&
        ok "ceiling.csv: every roof probed 3 times, with its interval" ||
        fail "ceiling.csv: $(cat "$run/ceiling.csv")"
    awk -F, 'NR > 1 && $12 != "" { n++; if ($15 == "" || $15 > $12 + 0.01 || $16 < $12 - 0.01) bad = 1 }
        END { exit bad || n < 6 }' "$run/evidence.csv" &&
        ok "evidence: each percent of ceiling inside its interval" ||
        fail "evidence: $(cat "$run/evidence.csv")"
    expect_in "$run/summary.md" "The roofs were probed 3 times (before and after the timing, and between cycles" \
        "summary: the roofs through the run"
    # The probe's working set: three of its arrays, each past the caches.
    awk -F, '$1 == "memory bandwidth" && ($8 < 3 * 8 * 4194304 || ($7 != "plain" && $7 != "non-temporal")) { bad = 1 }
        END { exit bad }' "$run/ceiling.csv" &&
        ok "ceiling.csv: the probe's store kind and working set" || fail "ceiling.csv: $(cat "$run/ceiling.csv")"
    # The expert rung's streaming stores: valid, and held against the
    # same memory roof with its own reason.
    [ "$(csv_get "$run/results.csv" valid kernel=triad variant=expert | sort -u)" = yes ] &&
        ok "the expert rung (streaming stores) is valid" || fail "expert triad not valid"
    expect_in "$run/summary.md" "streaming stores that skip write-allocate" "its limit is named"
    awk -F, 'NR > 1 && $2 == "pi"' "$run/evidence.csv" | grep -q . &&
        fail "a pi row in a triad run" || true
    awk '$2 > 0.041666 && $2 < 0.041667' "$run/roofline.dat" | grep -q . &&
        ok "roofline.dat: the triad at 1/24 operations per byte" || fail "roofline.dat: $(cat "$run/roofline.dat")"
    expect_in "$run/summary.md" "GB/s measured" "headline: the triad's roof is the memory's"
    expect_in "$run/summary.md" "The memory probe" "summary: the bandwidth probe"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$run/roofline.png" ] && [ -s "$run/roofline.svg" ] && ok "roofline plotted" ||
            fail "no roofline.png/.svg"
    fi
    # Sized into the cache (96 KiB): held against the roof of the cache
    # it fits (L2 on most machines, L3 where an L2 is smaller), never the
    # memory's (it read "912%!" there). Where sysfs names no cache (some
    # VMs; a planted sysfs without a cache folder), CPUID does (getconf
    # LEVEL2_CACHE_SIZE): the same roofs. Where neither does, the kit knows
    # none: nothing to check.
    mkdir -p "$tmp/nosys"
    for sys in /sys "$tmp/nosys"; do
        out="$tmp/tc${sys##*/}"
        expect_rc 0 "bench triad in cache (sysfs: $sys)" env SPEEDLAB_SYSFS_ROOT="$sys" "$bench" \
            --quick --kernel triad --size 4096 --threads 1 --no-weak --reps 2 --min-time 0.01 \
            --no-plots --results "$out"
        if ! ls "$sys"/devices/system/cpu/cpu0/cache/index*/size >/dev/null 2>&1 &&
           [ "$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || echo 0)" -le 0 ] 2>/dev/null; then
            continue
        fi
        expect_match "$out/latest/summary.md" \
            "L[23] bandwidth: [0-9.]+ of the [0-9.]+ GB/s measured there \(its 96 KiB live in L[23]\)" \
            "in cache: held against its cache's roof (sysfs: $sys)"
        expect_not_in "$out/latest/summary.md" "memory: [0-9.]+ of" "no row held against the memory"
        awk -F, '$1 ~ /^L[123] bandwidth$/ && $5 > 0 && $7 == "plain" { n++ } END { exit n < 2 }' \
            "$out/latest/ceiling.csv" && ok "ceiling.csv: the cache levels' roofs (sysfs: $sys)" ||
            fail "ceiling.csv: $(cat "$out/latest/ceiling.csv")"
        awk -F, '$2 == "triad" && $3 == "scalar" { exit !($13 ~ /^L[23]-bound$/ && $9 == substr($13, 1, 2) " bandwidth") }' \
            "$out/latest/evidence.csv" && ok "evidence: bound by its cache level (sysfs: $sys)" ||
            fail "evidence: $(cat "$out/latest/evidence.csv")"
    done
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
