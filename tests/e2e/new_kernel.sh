#!/bin/sh
# new_kernel.sh - end-to-end: `make new-kernel NAME=stencil` in a copy of
# this checkout adds the kernel's folders and nothing else, and straight
# away `make stencil` builds, validates and times it and the bench reports
# it: no file of the kit had to name it. Sourced by tests/e2e/run.sh.

# The working tree as it is (committed or not), as a fresh repository.
copy_kit() {
    mkdir -p "$1" || return 1
    (cd "$top" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$top" && xargs -0 sh -c 'for f; do [ -e "$f" ] && cp --parents -- "$f" "$0"; done' "$1")
    git -C "$1" init -q && git -C "$1" add -A &&
        git -C "$1" -c user.name=test -c user.email=test@localhost commit -qm base
}

case_new_kernel() {
    brief_timing
    command -v git >/dev/null 2>&1 || { echo "skipped: no git"; exit 77; }
    kit="$tmp/kit"
    copy_kit "$kit" || { fail "cannot copy the kit"; return; }
    expect_rc 0 "make new-kernel NAME=stencil" make -C "$kit" new-kernel NAME=stencil
    git -C "$kit" status --porcelain --untracked-files=normal | sort >"$tmp/status"
    printf '%s\n' '?? exercises/stencil/' '?? kernels/stencil/' '?? solutions/stencil/' >"$tmp/want"
    if cmp -s "$tmp/status" "$tmp/want"; then
        ok "git status: the kernel's three folders, nothing else"
    else
        fail "git status after new-kernel: $(tr '\n' ' ' <"$tmp/status")"
    fi
    expect_rc 2 "a name that is taken" make -C "$kit" new-kernel NAME=stencil
    expect_rc 2 "a name that is a make target" make -C "$kit" new-kernel NAME=bench
    expect_rc 2 "a name that is no C name" make -C "$kit" new-kernel NAME=2d-stencil
    expect_in "$tmp/err" "a name is a lower-case letter" "says what a name may be"
    # Names that hold shell: refused by the kit's own rule, as typed, and
    # nothing in them runs (a command substitution, backquotes, a quote
    # that ends the word, a lone quote).
    for name in '$$(touch '"$tmp"'/ran)' '$(shell touch '"$tmp"'/ran)' '`touch '"$tmp"'/ran`' \
                'a";touch '"$tmp"'/ran;"' "it's" 'x$$y'; do
        expect_rc 2 "a name holding shell: $name" make -C "$kit" new-kernel NAME="$name"
        expect_in "$tmp/err" "a name is a lower-case letter" "refused by the name rule: $name"
    done
    [ ! -e "$tmp/ran" ] && ok "nothing in those names ran" || fail "a command in a name ran"
    # BUILD and JOBS, named unquoted everywhere, are refused unless plain.
    for var in BUILD JOBS; do
        for value in '$(shell touch '"$tmp"'/ran)' 'a b' 'x;touch '"$tmp"'/ran'; do
            expect_rc 2 "make $var='$value'" make -C "$kit" help "$var=$value"
            expect_in "$tmp/err" "$var=$value: a plain word here" "make $var='$value': refused"
        done
    done
    [ ! -e "$tmp/ran" ] && ok "nothing in BUILD or JOBS ran" || fail "a command in BUILD or JOBS ran"
    # Names the kit itself uses (a symbol prefix, a header): refused up
    # front, not a generated file that does not compile.
    for name in kernel sl hybrid tree; do
        expect_rc 2 "a name the kit uses: $name" make -C "$kit" new-kernel NAME=$name
        expect_in "$tmp/err" "'$name' collides with the kit's own names" "says $name collides"
    done
    git -C "$kit" status --porcelain --untracked-files=normal | sort >"$tmp/status"
    cmp -s "$tmp/status" "$tmp/want" && ok "the refusals left nothing behind" ||
        fail "after the refusals: $(tr '\n' ' ' <"$tmp/status")"
    # Offload and CUDA off: the kernel's own build is what is tested. MPI
    # stays (only configured: a lesson builds the runner alone).
    # Configured as the other tests' copies are (lib.sh's copy_checkout),
    # at their depth: with ccache, the kernels' compiles are theirs.
    build="$kit/build"
    copy_launcher
    expect_rc 0 "make stencil (build, validate, time)" make -C "$kit" stencil BUILD="$build" \
        CMAKE_ARGS="-DSPEEDLAB_OFFLOAD=OFF -DSPEEDLAB_CUDA=OFF $launcher" \
        ARGS="--min-time 0.01 --reps 1"
    n=$(grep -cE '^(exercises|solutions) +(scalar|simd|threads|threads_simd|expert|gpu) ' "$tmp/out")
    [ "$n" -eq 12 ] && ok "12 rows: six rungs in each tree" || fail "$n rows, not 12"
    expect_not_in "$tmp/out" "WRONG" "every copy of scalar is right"
    # The names' rule for the other values make hands a script or a
    # program (make's own $(shell ...) too: make expands a command-line
    # value to export it, so those are not exported); in the lesson's build
    # folder, which has what they build but for speedlab-compare.
    for call in "racecheck KERNEL" "compare A" "hint STEP" "reset FILE" "report RUN" \
                "compare RESULTS" "help RANKS"; do
        set -- $call
        for value in '$$(touch '"$tmp"'/ran)' '$(shell touch '"$tmp"'/ran)' '`touch '"$tmp"'/ran`'; do
            make -C "$kit" "$1" "$2=$value" B=x BUILD="$build" >/dev/null 2>&1
            [ ! -e "$tmp/ran" ] && ok "make $1 $2=$value: nothing ran" || { fail "make $1 $2=$value ran it"; rm -f "$tmp/ran"; }
        done
    done
    # One exercise that does not compile stops its own lesson only: another
    # lesson's make sets it aside, says so and runs; its own lesson says to
    # fix it; the build folder is configured back for every other target.
    broken="exercises/$(folder_of "$e2e_example")/scalar.c"
    printf 'this is not C;\n' >>"$kit/$broken"
    expect_rc 0 "make stencil with another lesson's exercise broken" make -C "$kit" stencil \
        BUILD="$build" ARGS="--min-time 0.01 --reps 1"
    grep -qE "$broken:[0-9]+ does not compile" "$tmp/err" && ok "names the broken file" ||
        fail "the broken file is not named: $(cat "$tmp/err")"
    expect_in "$tmp/err" "set aside for this run" "says it is set aside"
    n=$(grep -cE '^(exercises|solutions) +(scalar|simd|threads|threads_simd|expert|gpu) ' "$tmp/out")
    [ "$n" -eq 12 ] && ok "the lesson ran: 12 rows" || fail "$n rows, not 12"
    grep -q '^SPEEDLAB_SET_ASIDE:STRING=$' "$build/CMakeCache.txt" &&
        ok "the build folder is configured back" || fail "SPEEDLAB_SET_ASIDE left set"
    expect_rc 2 "make ${e2e_example} with its own exercise broken" make -C "$kit" ${e2e_example} \
        BUILD="$build" ARGS="--min-time 0.01 --reps 1"
    grep -qE "your $broken:[0-9]+ does not compile" "$tmp/err" && ok "says to fix it" ||
        fail "its own lesson: $(cat "$tmp/err")"
    git -C "$kit" checkout -q -- "$broken"
    # Lesson 6's mpi.c is in the build but not in the runner: half-written,
    # it stops no lesson (make mpi and make bench meet it).
    mpi="exercises/$(folder_of "$e2e_example")/mpi.c"
    if [ -f "$kit/$mpi" ] && grep -q "$mpi" "$build/compile_commands.json"; then
        printf 'this is not C;\n' >>"$kit/$mpi"
        expect_rc 0 "make ${e2e_example} with its mpi.c broken" make -C "$kit" ${e2e_example} \
            BUILD="$build" ARGS="--min-time 0.01 --reps 1"
        expect_not_in "$tmp/err" "does not compile" "nothing set aside, nothing to fix"
        git -C "$kit" checkout -q -- "$mpi"
    else
        echo "note: no MPI in this build, so the broken mpi.c case is not tried"
    fi
    expect_rc 0 "the bench builds" cmake --build "$build" --target speedlab-bench-solutions
    expect_rc 0 "the bench times it" "$build/bench/speedlab-bench-solutions" --quick \
        --kernel stencil --reps 2 --min-time 0.01 --no-plots --results "$tmp/res"
    run="$tmp/res/latest"
    valid=$(awk -F, 'NR > 1 && $2 == "stencil" && $22 == "yes"' "$run/results.csv" | wc -l)
    [ "$valid" -ge 6 ] && ok "results.csv: $valid valid stencil rows" ||
        fail "results.csv: $valid valid stencil rows"
    expect_in "$run/summary.md" "stencil" "the summary reports it"
    expect_in "$run/index.html" "stencil" "so does the page"
    expect_rc 0 "the runner lists it" "$build/bench/speedlab" --help
    expect_in "$tmp/out" "stencil" "among the lessons"
    git -C "$kit" status --porcelain --untracked-files=normal | sort >"$tmp/status"
    cmp -s "$tmp/status" "$tmp/want" && ok "still only the kernel's folders" ||
        fail "git status after building: $(tr '\n' ' ' <"$tmp/status")"
}
