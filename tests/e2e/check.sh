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
    # Lesson 0 shows this output: its figures are the tool's.
    shown=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$top/course/00-setup.md")
    [ "$shown" = "$(tail -1 "$tmp/out")" ] && ok "lesson 0 shows the count the tool prints" ||
        fail "lesson 0 shows '$shown', make check prints '$(tail -1 "$tmp/out")'"
    # Its line for lesson 1 is make check's over both trees, twice this
    # one tree's variants and cases.
    first=$(grep -E '^lesson 1 ' "$top/course/00-setup.md" | awk '{ print $1, $2, $3, $4, $6 }')
    here=$(grep -E '^lesson 1 ' "$tmp/out" | awk '{ print $1, $2, $3, 2 * $4, 2 * $6 }')
    [ -n "$first" ] && [ "$first" = "$here" ] && ok "lesson 0's line for lesson 1 is the tool's" ||
        fail "lesson 0 shows '$first', make check on both trees would print '$here'"
    lines=$(grep -c '^lesson ' "$tmp/out")
    right=$(grep -cE '^lesson .* right' "$tmp/out")
    [ "$lines" -ge "$(sh "$top/scripts/kernels.sh" | awk '{ print $2 }' | sort -u | wc -l)" ] &&
        [ "$right" -eq "$lines" ] && ok "every lesson right ($lines lines)" ||
        fail "$right of $lines lessons right: $(cat "$tmp/out")"
    expect_not_in "$tmp/out" "WRONG" "no lesson wrong"
    # The broken tree beside the solutions: each planted bug the kernels
    # keep (kernels/<k>/planted/broken/<variant>.c) named in the line of
    # every lesson of its folder's kernels; every other lesson stays right
    # (lesson 5's stages are the solutions' own); a planted mpi.c is lesson 6's.
    expect_rc 1 "make check with the broken tree" sh "$top/scripts/check.sh" "$build" solutions broken
    named=" "
    for file in "$top"/kernels/*/planted/broken/*.c; do
        [ -f "$file" ] || continue
        variant=$(basename "$file" .c)
        folder=$(basename "$(dirname "$(dirname "$(dirname "$file")")")")
        if [ "$variant" = mpi ]; then
            # Lesson 6's line, for a hybrid variant of one of the folder's kernels.
            names=$(sh "$top/scripts/kernels.sh" | awk -v f="$folder" '$3 == f { printf "%s%s", s, $1; s = "|" }')
            grep -qE "^lesson 6 .*WRONG: broken/($names)/hybrid" "$tmp/out" &&
                ok "lesson 6 names the planted $folder/mpi.c" || fail "lesson 6: $(grep "^lesson 6 " "$tmp/out")"
            named="${named}6 "
            continue
        fi
        # A line holds a lesson's kernels and names the first wrong one.
        for lesson in $(sh "$top/scripts/kernels.sh" | awk -v f="$folder" '$3 == f { print $2 }' | sort -u); do
            names=$(sh "$top/scripts/kernels.sh" |
                    awk -v f="$folder" -v l="$lesson" '$3 == f && $2 == l { printf "%s%s", s, $1; s = "|" }')
            grep -qE "^lesson $lesson .*WRONG: broken/($names)/$variant" "$tmp/out" &&
                ok "lesson $lesson names the planted $folder/$variant.c" ||
                fail "lesson $lesson: $(grep "^lesson $lesson " "$tmp/out")"
            named="$named$lesson "
        done
    done
    [ "$named" != " " ] && ok "planted bugs in lessons$named" || fail "no kernel keeps a planted bug"
    for lesson in $(sed -n 's/^lesson \([0-9]*\) .*/\1/p' "$tmp/out" | sort -u); do
        case $named in *" $lesson "*) continue ;; esac
        grep -qE "^lesson $lesson .* right" "$tmp/out" && ok "lesson $lesson, no planted bug: right" ||
            fail "lesson $lesson: $(grep "^lesson $lesson " "$tmp/out")"
    done
    tail -1 "$tmp/out" | grep -qE '^[0-9]+ passed, [1-9][0-9]* failed$' && ok "ends: $(tail -1 "$tmp/out")" ||
        fail "last line: $(tail -1 "$tmp/out")"
    grep -qE '^ +[a-z0-9_]+/[a-z0-9_]+ .*: got .*, expected ' "$tmp/out" &&
        ok "the first failing case is shown" || fail "no failing case shown: $(cat "$tmp/out")"
    expect_rc 2 "make check without a build folder" sh "$top/scripts/check.sh"
}
