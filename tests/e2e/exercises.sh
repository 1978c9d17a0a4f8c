#!/bin/sh
# exercises.sh - end-to-end: the exercises match their generator; the generator's errors.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

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
