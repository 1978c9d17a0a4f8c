#!/bin/sh
# exercises.sh - end-to-end: the exercises match their generator; the generator's errors.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# The generator's tree against the committed exercises/. A participant's
# edits are theirs: when exercises/ differs from git's HEAD, the check uses
# HEAD's copy (so it still catches a solutions/ change nobody regenerated)
# and never touches, or advises touching, the working files.
case_exercises_in_sync() {
    sh "$top/scripts/gen_exercises.sh" "$top/solutions" "$tmp/exercises" ||
        { fail "generator failed"; return; }
    against="$top/exercises"
    if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1 &&
       [ -n "$(git -C "$top" status --porcelain -- exercises)" ]; then
        mkdir -p "$tmp/committed"
        git -C "$top" archive HEAD exercises | tar -x -C "$tmp/committed" ||
            { fail "cannot read exercises/ from git's HEAD"; return; }
        against="$tmp/committed/exercises"
        ok "exercises/ holds your edits: the generator is checked against git's copy, and your files are left alone"
    fi
    if diff -r "$tmp/exercises" "$against" >"$tmp/diff"; then
        ok "exercises/ is what the generator makes from solutions/"
    else
        fail "the committed exercises/ differs from what scripts/gen_exercises.sh makes from solutions/ (a solutions/ change that was not regenerated):"
        head -20 "$tmp/diff" >&2
    fi
    # The TODO tags and their steps, in the generated tree: a participant
    # who finished a step may well have deleted its TODO.
    n=$(grep -rc 'TODO([0-9]*\.[0-9]*)' "$tmp/exercises" | awk -F: '{s += $2} END {print s}')
    [ "$n" -gt 0 ] && ok "$n TODO(step) tags in the exercises" || fail "no TODO(step) tags"
    # Every TODO step is a step of its lesson's file (course/NN-*.md).
    for step in $(grep -rho 'TODO([0-9]*\.[0-9]*)' "$tmp/exercises" | sort -u | tr -d 'TODO()'); do
        lesson=$(printf '%02d' "${step%%.*}")
        grep -qE "^## Step $step[:( ]" "$top"/course/"$lesson"-*.md 2>/dev/null &&
            ok "step $step in course/$lesson-*.md" ||
            fail "TODO($step) has no '## Step $step' in course/$lesson-*.md"
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
    # A header region: the exercise's header states the task, not the answer.
    printf '/* k.c - a kernel.\n *\n * BEGIN SOLUTION HEADER\n * the answer\n * EXERCISE HEADER\n * the task\n * END SOLUTION HEADER\n */\n' >"$tmp/src/k/open.c"
    expect_rc 0 "header region" sh "$top/scripts/gen_exercises.sh" "$tmp/src" "$tmp/gen"
    [ "$(cat "$tmp/gen/k/open.c")" = "$(printf '/* k.c - a kernel.\n *\n * the task\n */')" ] &&
        ok "header region replaced by the task" || fail "generated header: $(cat "$tmp/gen/k/open.c")"
    printf '/* k.c\n * BEGIN SOLUTION HEADER\n * the answer\n * END SOLUTION HEADER\n */\n' >"$tmp/src/k/open.c"
    expect_rc 1 "header region without its task" sh "$top/scripts/gen_exercises.sh" "$tmp/src" "$tmp/gen2"
    expect_in "$tmp/err" "open.c:4: END SOLUTION HEADER without EXERCISE HEADER" "header error names file and line"
    # No generated exercise keeps a solution's header. The generator's own
    # tree, not exercises/: a participant who copied a solution file over
    # an exercise has done nothing wrong.
    sh "$top/scripts/gen_exercises.sh" "$top/solutions" "$tmp/fresh" || fail "generator failed"
    grep -rl 'SOLUTION HEADER' "$tmp/fresh" >"$tmp/left" 2>/dev/null
    [ ! -s "$tmp/left" ] && ok "no header markers in exercises/" || fail "header markers left in: $(cat "$tmp/left")"
}

# A participant's finished work: exercises_in_sync passes on a copy whose
# exercises/ was edited, and leaves the edited file as it was.
case_exercises_edited() {
    git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1 ||
        { echo "skipped: not a git checkout"; exit 77; }
    git clone -q "$top" "$tmp/clone" || { fail "git clone"; return; }
    # This checkout's test scripts, whatever is committed.
    cp "$here"/*.sh "$tmp/clone/tests/e2e/"
    file="$tmp/clone/exercises/$(folder_of "$e2e_example")/threads.c"
    printf '/* my reduction goes here */\n' >>"$file"
    sum=$(cksum <"$file")
    expect_rc 0 "exercises_in_sync on edited exercises/" sh "$tmp/clone/tests/e2e/run.sh" \
        exercises exercises_in_sync
    expect_in "$tmp/out" "holds your edits" "says it checked git's copy"
    expect_not_in "$tmp/out" "reset-exercises" "no advice that moves the participant's work"
    [ "$(cksum <"$file")" = "$sum" ] && ok "the edited file is untouched" || fail "the edited file changed"
    [ ! -d "$tmp/clone/exercises-backup" ] && ok "nothing moved to exercises-backup/" ||
        fail "exercises-backup/ appeared"
    # Every TODO done, with correct code: the check still passes, and git
    # sees exactly the participant's files changed, nothing else.
    (cd "$top/solutions" && grep -rl 'BEGIN SOLUTION' .) | sed 's|^\./||' | sort >"$tmp/todo"
    while IFS= read -r f; do
        completed "$top/solutions/$f" >"$tmp/clone/exercises/$f"
    done <"$tmp/todo"
    expect_rc 0 "exercises_in_sync with every TODO done" sh "$tmp/clone/tests/e2e/run.sh" \
        exercises exercises_in_sync
    git -C "$tmp/clone" status --porcelain -- exercises | sed 's|^ M exercises/||' | sort >"$tmp/changed"
    if cmp -s "$tmp/todo" "$tmp/changed"; then
        ok "git status: the $(wc -l <"$tmp/todo") finished files, and nothing else"
    else
        fail "git status differs from the finished files:"
        diff "$tmp/todo" "$tmp/changed" >&2
    fi
}
