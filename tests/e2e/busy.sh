#!/bin/sh
# busy.sh - end-to-end: a planted CPU-bound process, and what the bench and
# the runner say about it. The one area whose subject is how busy the
# machine is: it may read the runner's speed verdicts, and every check
# holds however much *more* load runs beside it (stress-ng, a second test).
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# busy_loop SECONDS: a CPU-bound process (another user's job) for that
# long; its pid in $busy.
busy_loop() {
    timeout "$1" sh -c 'while :; do :; done' &
    busy=$!
}

# Interference: a planted CPU-bound process must never leave a silently
# corrupted number. Loaded throughout and no re-measuring: every
# configuration is flagged disturbed everywhere. Loaded at the start only:
# the disturbed configurations are measured again, clean, and the summary
# says so; no kept repetition ran under the load unflagged.
case_busy() {
    bench=$1; runner=$2
    # The participant's runner on the untouched solutions, under load
    # throughout: it says so and holds back every speed verdict.
    busy_loop 60
    expect_rc 0 "make ${e2e_example} under load" "$runner" ${e2e_example} --tree solutions --size 20000003 --retry-busy 0
    kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null
    rows=$(grep -cE '^solutions ' "$tmp/out")
    held=$(grep -cE '^solutions .*(machine busy, no speed verdict|right; host, not a GPU)' "$tmp/out")
    [ "$rows" -ge 5 ] && [ "$held" -eq "$rows" ] && ok "all $rows rows hold back their speed verdict" ||
        fail "under load, $held of $rows rows held back: $(grep -E '^solutions ' "$tmp/out" | head -3)"
    expect_not_in "$tmp/out" "not faster yet|  ok  " "no speed verdict under load"
    expect_in "$tmp/out" "their speed is not judged" "the runner says the machine was busy"
    busy_loop 60
    expect_rc 0 "bench under load, --retry-busy 0" "$bench" --quick --kernel ${e2e_example} \
        --size 20000003 --threads 1,2 --no-weak --reps 3 --min-time 0.1 --retry-busy 0 \
        --no-plots --results "$tmp/r0"
    kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null
    run="$tmp/r0/$(readlink "$tmp/r0/latest")"
    # Columns: others_cpu 32, disturbed_reps 33, contaminated 34, remeasured 35.
    awk -F, 'NR > 1 && $22 == "yes" { n++; if ($34 != 1 || $32 < 0.3) bad++ }
             END { exit n < 8 || bad > 0 }' "$run/results.csv" &&
        ok "under load throughout: every configuration disturbed, others' CPU >= 0.3" ||
        fail "under load: $(cut -d, -f3,4,32-35 "$run/results.csv" | tr '\n' ' ')"
    expect_in "$run/summary.md" "**disturbed**" "summary warns of disturbed configurations"
    expect_in "$run/summary.md" "and were not measured again (--retry-busy 0)" \
        "no claim of a re-measurement that --retry-busy 0 did not make"
    expect_in "$run/summary.md" "(disturbed)" "the headline marks them"
    expect_in "$tmp/out" "disturbed" "the console says so"
    awk -F'\t' '!/^#/ && $7 != 2 { bad++ } END { exit bad > 0 }' "$run/speedup-${e2e_example}.dat" &&
        ok "every speedup bar marked disturbed" || fail "an unmarked bar: $(cat "$run/speedup-${e2e_example}.dat")"

    # Load for the first seconds of timing only: re-measured at the end.
    "$bench" --quick --kernel ${e2e_example} --size 20000003 --threads 1,2 --no-weak --reps 3 \
        --min-time 0.1 --retry-busy 3 --no-plots --results "$tmp/r1" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_for_first_timing
    busy_loop 2
    wait "$pid"; rc=$?
    wait "$busy" 2>/dev/null
    [ "$rc" -eq 0 ] && ok "bench with a burst of load (exit 0)" || fail "burst: exit $rc"
    run="$tmp/r1/$(readlink "$tmp/r1/latest")"
    n=$(awk -F, 'NR > 1 && $35 > 0' "$run/results.csv" | wc -l)
    [ "$n" -ge 1 ] && ok "$n configuration(s) measured again after the burst" ||
        fail "nothing re-measured after a burst of load"
    expect_in "$tmp/out" "measuring" "the console says what is measured again"
    # Every configuration is clean now, or flagged: none keeps a repetition
    # that ran under a whole core of load without saying so (a left-out
    # one, samples.csv's left_out, is not in its median). A repetition in
    # which others used under 0.03 CPU-seconds cannot be judged (quiet.h's
    # floor: the kernel counts in 10 ms ticks).
    # results.csv column 5 and samples.csv column 4 are threads_used;
    # samples.csv 11 others_cpu, 13 left_out, 14 window_s.
    awk -F, 'NR == FNR { if (FNR > 1) flag[$3 "/" $5] = $34; next }
             FNR > 1 && $11 != "" && $11 >= 0.9 && $11 * $14 >= 0.03 && $13 == "" &&
             flag[$3 "/" $4] != 1 { bad++ }
             END { exit bad > 0 }' "$run/results.csv" "$run/samples.csv" &&
        ok "no unflagged repetition ran under the load" ||
        fail "an unflagged repetition under load: $(cat "$run/samples.csv" | tr '\n' ' ')"
    grep -q "re-measured\|disturbed" "$run/summary.md" &&
        ok "the summary says what was measured again" || fail "the summary is silent"
}

# stop_until PID ERE: stop PID for 0.3 s in every 0.35 s until ERE shows in
# $tmp/out or PID ends. The stops begin at once, not when the console says
# "timing": on a busy machine the first pass can be over before a poll sees
# that line. A call of about 0.3 s (the example kernel's scalar variant at
# 3e8) spans a stop even when a loaded machine stretches the 50 ms between
# stops.
stop_until() {
    while kill -0 "$1" 2>/dev/null && ! grep -qE "$2" "$tmp/out"; do
        kill -STOP "$1"; sleep 0.3; kill -CONT "$1"; sleep 0.05
    done
}

# The bench itself stopped again and again during its first timing pass
# (SIGSTOP/SIGCONT, as a job suspended and resumed): other processes' CPU
# cannot see it, the bench's own CPU time can. With a re-measurement every
# repetition is measured again; without one, the configuration is marked
# disturbed and the summary says the bench was stopped.
case_stalled() {
    bench=$1
    for retry in 1 0; do
        "$bench" --kernel ${e2e_example} --variant scalar --size 300000000 --threads 1 --reps 3 \
            --min-time 0.01 --no-weak --no-plots --retry-busy "$retry" --results "$tmp/st$retry" \
            >"$tmp/out" 2>"$tmp/err" &
        pid=$!
        stop_until "$pid" "measuring .* again|^probing"
        wait "$pid"; rc=$?
        [ "$rc" -eq 0 ] && ok "stopped again and again, --retry-busy $retry: exit 0" ||
            fail "stopped, --retry-busy $retry: exit $rc"
        csv="$tmp/st$retry/latest/results.csv"
        if [ "$retry" = 1 ]; then
            [ "$(csv_get "$csv" remeasured variant=scalar)" = 1 ] &&
                ok "the stalled configuration was measured again" ||
                fail "stall with a retry: remeasured '$(csv_get "$csv" remeasured variant=scalar)'"
            expect_in "$tmp/out" "measuring 1 disturbed configuration(s) again" "the console says so"
        else
            [ "$(csv_get "$csv" contaminated variant=scalar)" = 1 ] &&
                ok "without a retry: marked disturbed" || fail "stall without a retry: not marked"
            expect_in "$tmp/st0/latest/summary.md" \
                "**stalled**: 1 of 1 configurations had repetitions in which the bench itself hardly ran" \
                "the summary says the bench was stopped"
        fi
    done
}
