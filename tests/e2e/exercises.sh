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

# One step at a time (scripts/step.sh), over every step with code: the
# hint names the file and line of its TODO and gives no solution line; the
# solution comes as a diff that patches the generated exercise so that its TODO
# goes and no other step's, except those it says share its code (one
# region of the solution does both). All the steps' diffs in turn give the
# solutions (with the exercises' headers). Then make reset FILE= on a copy:
# one file back, the participant's copy saved, bad names refused.
case_steps() {
    sh "$top/scripts/gen_exercises.sh" "$top/solutions" "$tmp/ex/exercises" ||
        { fail "generator failed"; return; }
    cp -R "$tmp/ex" "$tmp/pristine"
    steps=$(grep -rhoE 'TODO\([0-9]+\.[0-9]+\)' "$top/solutions" | tr -d 'TODO()' | sort -u -t. -k1,1n -k2,2n)
    n=0; bad=0
    for s in $steps; do
        n=$((n + 1))
        make -s -C "$top" hint STEP="$s" >"$tmp/hint" 2>&1 || { fail "make hint STEP=$s: exit $?"; bad=1; }
        files=$(cd "$top/solutions" && grep -rlF "TODO($s)" . | sed 's|^\./||')
        for f in $files; do
            line=$(grep -nF "TODO($s)" "$tmp/pristine/exercises/$f" | head -1 | cut -d: -f1)
            grep -qF "edit: exercises/$f, line $line (TODO($s))" "$tmp/hint" ||
                { fail "make hint STEP=$s does not point at exercises/$f:$line"; bad=1; }
        done
        make -s -C "$top" solution STEP="$s" >"$tmp/sol" 2>&1 || { fail "make solution STEP=$s: exit $?"; bad=1; }
        # A solution line in the hint would give the answer away.
        grep -E '^\+[^+]' "$tmp/sol" | sed 's/^+//' | grep -vE '^[[:space:]]*$|^[[:space:]]*[{}]' |
            while IFS= read -r l; do grep -qxF "$l" "$tmp/hint" && echo "$l"; done >"$tmp/leak"
        [ -s "$tmp/leak" ] && { fail "make hint STEP=$s shows solution code: $(head -1 "$tmp/leak")"; bad=1; }
        # On a fresh copy: this step's TODO goes, and only the TODOs of the
        # steps the output says share its code.
        also=$(sed -n 's/^(this code also does step(s) \([0-9. ]*\):.*/\1/p' "$tmp/sol")
        rm -rf "$tmp/one" && cp -R "$tmp/pristine" "$tmp/one"
        (cd "$tmp/one" && patch -s -p0 --no-backup-if-mismatch) <"$tmp/sol" >"$tmp/patch" 2>&1 ||
            { fail "make solution STEP=$s does not apply: $(head -2 "$tmp/patch")"; bad=1; }
        gone=$(for t in $steps; do
                   [ "$(grep -rhoF "TODO($t)" "$tmp/pristine/exercises" | wc -l)" != \
                     "$(grep -rhoF "TODO($t)" "$tmp/one/exercises" | wc -l)" ] && echo "$t"
               done | tr '\n' ' ')
        [ "$gone" = "$(echo $s $also | tr ' ' '\n' | sort -t. -k1,1n -k2,2n | tr '\n' ' ')" ] ||
            { fail "step $s's diff removes the TODOs of '$gone', not of '$s $also'"; bad=1; }
        # In turn, on one tree: a step another one already solved is done.
        if grep -rqF "TODO($s)" "$tmp/ex/exercises"; then
            (cd "$tmp/ex" && patch -s -p0 --no-backup-if-mismatch) <"$tmp/sol" >"$tmp/patch" 2>&1 ||
                { fail "step $s's diff does not apply after the steps before it"; bad=1; }
        fi
    done
    [ "$bad" = 0 ] && ok "make hint and make solution for all $n steps: each points at its TODO, each diff applies and solves that step only"
    for f in $(cd "$top/solutions" && find . -name '*.[ch]' -o -name '*.cu' | sed 's|^\./||'); do
        awk -v file="$f" -v solve='*' -v has_step=1 -f "$top/scripts/regions.awk" \
            "$top/solutions/$f" | cmp -s - "$tmp/ex/exercises/$f" ||
            { fail "after every step's diff, exercises/$f is not its solution"; bad=1; }
    done
    [ "$bad" = 0 ] && ok "every step's diff in turn gives the solutions"
    expect_rc 2 "make hint without STEP" make -s -C "$top" hint
    expect_in "$tmp/err" "say which step" "it says how"
    expect_rc 2 "make solution STEP=0.9" make -s -C "$top" solution STEP=0.9
    expect_in "$tmp/err" "step 0.9 has no code to write (steps with code: " "it names the steps there are"

    # make reset FILE= on a copy of what it reads and writes.
    mkdir -p "$tmp/copy"
    cp -R "$top/GNUmakefile" "$top/scripts" "$top/solutions" "$top/course" "$tmp/copy/"
    cp -R "$tmp/pristine/exercises" "$tmp/copy/exercises"
    f=$(cd "$top/solutions" && grep -rlF "TODO(" . | sed 's|^\./||' | LC_ALL=C sort | head -1)
    echo "/* my edit */" >>"$tmp/copy/exercises/$f"
    cp "$tmp/copy/exercises/$f" "$tmp/mine"
    other=$(cd "$tmp/copy/exercises" && find . -name '*.c' | sed 's|^\./||' | LC_ALL=C sort | grep -vxF "$f" | head -1)
    echo "/* another edit */" >>"$tmp/copy/exercises/$other"
    expect_rc 0 "make reset FILE=exercises/$f" make -s -C "$tmp/copy" reset FILE="exercises/$f"
    cmp -s "$tmp/copy/exercises/$f" "$tmp/pristine/exercises/$f" && ok "the file is back as generated" ||
        fail "make reset left exercises/$f different from the generated one"
    saved=$(find "$tmp/copy/exercises-backup" -path "*/$f" | head -1)
    [ -n "$saved" ] && cmp -s "$saved" "$tmp/mine" && ok "the participant's copy is saved in exercises-backup/" ||
        fail "no saved copy of exercises/$f"
    grep -q "another edit" "$tmp/copy/exercises/$other" && ok "no other file touched" ||
        fail "make reset touched exercises/$other"
    for bad_file in "" "solutions/$f" "exercises/$f.missing" "exercises/../GNUmakefile"; do
        expect_rc 2 "make reset FILE='$bad_file'" make -s -C "$tmp/copy" reset FILE="$bad_file"
        # make adds its own "make: *** [reset] Error 2" under the line.
        [ "$(grep -vcE '^make(\[[0-9]+\])?: \*\*\*' "$tmp/err")" -eq 1 ] && ok "one line: $(head -1 "$tmp/err")" ||
            fail "not one line: $(cat "$tmp/err")"
    done
    grep -q "another edit" "$tmp/copy/exercises/$other" && ok "refusals change nothing" ||
        fail "a refused reset changed exercises/"
    # Resets in one second: each backup is a new folder, none replaced
    # (the first, the participant's, was lost when the second wrote the
    # same <UTC time>/).
    echo "/* edit 2 */" >>"$tmp/copy/exercises/$f"; cp "$tmp/copy/exercises/$f" "$tmp/mine2"
    make -s -C "$tmp/copy" reset FILE="exercises/$f" >/dev/null &&
        make -s -C "$tmp/copy" reset FILE="exercises/$f" >/dev/null &&
        make -s -C "$tmp/copy" reset-exercises >/dev/null || fail "three resets in a row"
    n=0
    for b in "$tmp/copy"/exercises-backup/*/"$f"; do
        cmp -s "$b" "$tmp/mine2" && n=$((n + 1))
    done
    [ "$n" -eq 1 ] && [ "$(ls "$tmp/copy/exercises-backup" | wc -l)" -eq 4 ] &&
        ok "three more resets, three more backup folders, edit 2 still in one" ||
        fail "backups: edit 2 in $n, folders: $(ls "$tmp/copy/exercises-backup" | tr '\n' ' ')"
    grep -q "another edit" "$tmp/copy"/exercises-backup/*/"$other" 2>/dev/null &&
        ok "make reset-exercises saved the other edit" || fail "make reset-exercises lost exercises/$other"
}
