#!/bin/sh
# runner.sh - end-to-end: the participant's runner: verdicts, pictures, exhibits.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

case_runner() {
    runner=$1
    # The suite's brief timing, from the environment (lib.sh's brief_timing).
    expect_rc 0 "speedlab ${e2e_example}" env SPEEDLAB_MIN_TIME=0.01 "$runner" ${e2e_example} --size 100003 --reps 1
    expect_in "$tmp/out" "1 repetitions each, >= 0.01 s, none timed again: SPEEDLAB_MIN_TIME" \
        "the run says its brief timing, not retimed when disturbed, came from SPEEDLAB_MIN_TIME"
    expect_in "$tmp/out" "exercises  threads_simd" "runner shows the exercise row"
    expect_in "$tmp/out" "solutions  threads_simd" "runner shows the solution row"
    expect_in "$tmp/out" "verdict" "runner has a verdict column"
    grep -q "gpu .*host fallback" "$tmp/out" || grep -q "gpu .*device" "$tmp/out" &&
        ok "runner says where gpu ran" || fail "runner does not say where gpu ran"
    expect_rc 0 "speedlab ${e2e_example}, brief, --retry-busy 1" env SPEEDLAB_MIN_TIME=0.01 "$runner" ${e2e_example} \
        --size 100003 --reps 1 --retry-busy 1 --variant scalar
    expect_in "$tmp/out" "1 repetitions each, >= 0.01 s: SPEEDLAB_MIN_TIME)" "--retry-busy given: disturbed ones timed again"
    expect_rc 0 "speedlab false-sharing" "$runner" false-sharing --min-time 0.01 --size 200003 --reps 1 --threads 2
    for v in scalar reduction adjacent padded; do
        row_right "$tmp/out" "exhibits +$v " "exhibit $v validated and timed"
    done
    # Its point, a speed, from pairs or said to be out of reach: one
    # repetition is one pair, which has no interval.
    expect_match "$tmp/out" "^padded against adjacent, the point of false-sharing: cannot judge here: (its repetitions disagree|there are more threads)" \
        "one pair: the exhibit's point not judged"
    # The data-race exhibit: the shared sum is wrong on 2 threads (exit 3)
    # and right on 1; critical and atomic are right.
    # 2 x 10^7 steps: each thread runs for tens of milliseconds, so the two
    # overlap even when a noisy host starts the second one late.
    expect_rc 3 "speedlab data-race" "$runner" data-race --min-time 0.01 --size 20000003 --reps 1 --threads 1,2
    grep -qE '^exhibits +shared_sum +2 .*WRONG' "$tmp/out" && ok "the race is flagged WRONG on 2 threads" ||
        fail "the race was not flagged"
    grep -qE '^exhibits +shared_sum +1 .*WRONG' "$tmp/out" && fail "the race flagged on 1 thread" ||
        ok "one thread cannot race"
    n=$(grep -E '^exhibits +(critical|atomic|reduction) ' "$tmp/out" | grep -vc WRONG)
    [ "$n" -eq 6 ] && ok "critical, atomic and reduction are right" || fail "$n of 6 cures right"
    # The missing map(from:): WRONG where the region reaches a device; on
    # the host fallback right, and labelled as a host run (the bug hides).
    "$runner" missing-map --min-time 0.01 --size 100003 --reps 1 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if grep -qE '^exhibits +map_alloc .* device *$' "$tmp/out" ||
       grep -qE '^exhibits +map_alloc .*WRONG' "$tmp/out"; then
        [ "$rc" -eq 3 ] && grep -qE '^exhibits +map_alloc .*WRONG' "$tmp/out" &&
            ok "on a device the missing map(from:) is WRONG (exit 3)" ||
            fail "missing map(from:) on a device: exit $rc, not flagged"
    else
        [ "$rc" -eq 0 ] && grep -qE '^exhibits +map_alloc .*right; host, not a GPU +host fallback' "$tmp/out" &&
            ok "on the host fallback the missing map(from:) hides, labelled host" ||
            fail "missing-map on the host: exit $rc, row: $(grep map_alloc "$tmp/out")"
    fi
    row_right "$tmp/out" "exhibits +map_from " "map(from:) is right"
    # Fewer threads granted than asked: the row says "1 of 2", a note the cause.
    expect_rc 0 "speedlab ${e2e_example} under OMP_THREAD_LIMIT=1" env OMP_THREAD_LIMIT=1 "$runner" ${e2e_example} --variant threads \
        --size 100003 --reps 1
    grep -qE '^solutions +threads +1 of 2 ' "$tmp/out" && ok "the runner marks the short row" ||
        fail "runner threads row: $(grep -E '^solutions +threads ' "$tmp/out")"
    expect_in "$tmp/out" "granted fewer threads than asked (OMP_THREAD_LIMIT=1)" "the runner names the cause"
    # Under taskset to one CPU, 2 threads share it: the runner marks the
    # rows and says why; a fake SLURM job's CPU request gets its warning.
    if command -v taskset >/dev/null 2>&1; then
        expect_rc 0 "speedlab ${e2e_example} on one CPU" env SLURM_CPUS_PER_TASK=4 taskset -c 0 "$runner" ${e2e_example} \
            --size 100003 --reps 1 --threads 2 --variant threads
        grep -qE '^solutions +threads +2\* ' "$tmp/out" && ok "the runner marks an oversubscribed row" ||
            fail "runner threads row: $(grep -E '^solutions +threads ' "$tmp/out")"
        expect_in "$tmp/out" "more threads than cores (oversubscribed)" "the runner says what * means"
        expect_in "$tmp/out" "SLURM_CPUS_PER_TASK=4, but this process may use 1 CPU(s)" \
            "the runner warns about the SLURM request"
    fi
    # Without gnuplot the runner names no picture it did not draw.
    bin_without_gnuplot
    expect_rc 0 "speedlab ${e2e_image} without gnuplot" env PATH="$tmp/bin" "$runner" ${e2e_image} \
        --size 64 --reps 1 --results "$tmp/nognuplot"
    expect_in "$tmp/out" "has the pictures' data but no pictures" "the runner says there are no pictures"
    expect_not_in "$tmp/out" "image-${e2e_image}.png" "the runner names no picture it did not draw"
    expect_rc 2 "speedlab $typo" "$runner" $typo; one_line "speedlab $typo"
    expect_in "$tmp/err" "did you mean '${e2e_example}'" "speedlab $typo suggests ${e2e_example}"
    expect_rc 2 "speedlab (no kernel)" "$runner"
    expect_rc 2 "speedlab ${e2e_example} --threads abc" "$runner" ${e2e_example} --threads abc
    expect_rc 2 "speedlab ${e2e_example} --tree mine" "$runner" ${e2e_example} --tree mine
    require_device "$runner" ${e2e_example} --min-time 0.01 --variant gpu --size 1003 --reps 1
}
