#!/bin/sh
# check.sh - end-to-end: make check (scripts/check.sh), the participant's
# first command: one line per lesson, every planted bug named in its
# lesson's line, "N passed, N failed", and the exit code.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

case_check() {
    build=$1
    expect_rc 0 "make check on the solutions" sh "$top/scripts/check.sh" "$build" solutions
    tail -1 "$tmp/out" | grep -qE '^[0-9]+ passed, 0 failed$' && ok "ends: $(tail -1 "$tmp/out")" ||
        fail "last line: $(tail -1 "$tmp/out")"
    for lesson in 1 2 3 4 5 7 9; do
        grep -qE "^lesson $lesson .* right" "$tmp/out" && ok "lesson $lesson right" ||
            fail "lesson $lesson: $(grep "^lesson $lesson " "$tmp/out")"
    done
    expect_not_in "$tmp/out" "WRONG" "no lesson wrong"
    # The broken tree beside the solutions: pi's threads skip a step, the
    # fractal threads shift a row (both fractal lessons), Monte Carlo's
    # threads overlap, the triad drops a remainder, k-means' argmin stops
    # one short; lesson 5's stages are
    # the solutions' own, so it stays right.
    expect_rc 1 "make check with the broken tree" sh "$top/scripts/check.sh" "$build" solutions broken
    for want in "1 .*WRONG: broken/pi/threads" "2 .*WRONG: broken/mandelbrot/threads" \
                "3 .*WRONG: broken/julia/threads" "4 .*WRONG: broken/montecarlo/threads" \
                "5 .* right" "7 .*WRONG: broken/triad/threads" "9 .*WRONG: broken/kmeans/threads"; do
        grep -qE "^lesson $want" "$tmp/out" && ok "lesson $want" ||
            fail "lesson ${want%% *}: $(grep "^lesson ${want%% *} " "$tmp/out")"
    done
    tail -1 "$tmp/out" | grep -qE '^[0-9]+ passed, [1-9][0-9]* failed$' && ok "ends: $(tail -1 "$tmp/out")" ||
        fail "last line: $(tail -1 "$tmp/out")"
    expect_in "$tmp/out" "  pi/threads 1 steps, threads 1: got 0, expected 3.14" "the first failing case is shown"
    expect_rc 2 "make check without a build folder" sh "$top/scripts/check.sh"
}
