#!/bin/sh
# lessons.sh - end-to-end: every command a lesson tells a participant to
# run, in its code blocks or in its text, run as written at its default
# size (in this build folder, with results in a scratch folder), in the
# repository's root as a participant would: each exits as the lesson says,
# and none leaves a file in the working tree outside results/ and build/.
# The reference's table "The lessons' commands in make test" names those
# make test leaves out, and why; lesson_commands_all runs them too, in a
# copy of the checkout, by hand. A command that cannot run here is listed
# as skipped, with why. Sourced by tests/e2e/run.sh.

# lesson_commands: "lesson<TAB>command" for every command line in the
# lessons' shell code blocks (``` or ```sh; not their output), with
# continuation lines joined and trailing comments dropped, and every whole
# make command quoted in their text (`make hint STEP=1.2`, even across a line
# break; not `make <lesson>`); each command once, where it first appears.
lesson_commands() {
    for f in "$top"/course/[0-9][0-9]-*.md; do
        awk -v lesson="$(basename "$f")" '
            function quoted(text,   c) {
                while (match(text, /`make( [^`<]*)?`/)) {
                    c = substr(text, RSTART + 1, RLENGTH - 2); gsub(/[ \t]+/, " ", c)
                    print lesson "\t" c
                    text = substr(text, RSTART + RLENGTH)
                }
            }
            /^```/ {
                if (!inside) { quoted(para); para = "" }
                inside = !inside; shell = $0 ~ /^```(sh)?[ \t]*$/; next
            }
            !inside && /^[ \t]*$/ { quoted(para); para = ""; next }
            !inside { para = para " " $0; next }
            !shell { next }
            { line = held $0; held = "" }
            line ~ /\\$/ { held = substr(line, 1, length(line) - 1) " "; next }
            { sub(/[ \t]+#.*$/, "", line) }
            line ~ /^(make|perf|sh|gcc|python3|\/usr\/bin\/python3|build\/)[ \/]/ || line == "make" ||
                line ~ /^make [a-z]/ { print lesson "\t" line }
            END { quoted(para) }' "$f"
    done | awk -F '\t' '!seen[$2]++'
}

# left_out: the commands the reference's table "The lessons' commands in
# make test" leaves out of make test, one a line (its first column).
left_out() {
    awk '/^### The lessons.* commands in `make test`/ { t = 1; next }
         t && /^#/ { exit }
         t && /^\| `/ { c = $0; sub(/^\| `/, "", c); sub(/` \|.*/, "", c); print c }' \
        "$top/docs/reference.md"
}

# why_not COMMAND: why it cannot run here ("" when it can).
why_not() {
    case $1 in
    "make test") echo "it is the suite this test is part of" ;;
    "make racecheck"*)
        sh "$top/scripts/racecheck.sh" --archer-check >/dev/null 2>&1
        [ $? != 4 ] || echo "this Archer sees no ThreadSanitizer (make racecheck says so and exits 4)" ;;
    perf\ *)
        if ! command -v perf >/dev/null 2>&1; then echo "perf is not installed"
        elif ! perf stat -e task-clock true >/dev/null 2>&1; then echo "perf may not count here"
        fi ;;
    *python3*numpy*)
        py=${1%% *}
        "$py" -c 'import numpy' 2>/dev/null || echo "numpy is not installed for $py" ;;
    esac
}

# want COMMAND: the exit statuses the lesson gives it.
want() {
    case $1 in
    # Lesson 5.1: the runner's 4 without an offload device (make then
    # says "Error 4" and exits 2), 0 with one.
    *--require-device*) echo "0 2" ;;
    # Exhibits that show a wrong answer exit 3 on purpose, and make says
    # so with its own 2.
    "make data-race" | "make fma") echo 2 ;;
    # Without NAME: the kit's one line, and make's 2.
    "make new-kernel") echo 2 ;;
    *) echo 0 ;;
    esac
}

# run_lessons ROOT BUILD ALL: the lessons' commands in ROOT with BUILD as
# the build folder; ALL=1 runs those the reference leaves out of make test.
run_lessons() {
    root=$1 build=$2 all=$3
    cd "$root" || return
    lesson_commands >"$tmp/commands"
    left_out >"$tmp/left-out"
    n=$(wc -l <"$tmp/commands")
    [ "$n" -ge 40 ] && ok "$n commands in the lessons" || fail "only $n lesson commands found"
    while read -r command; do
        cut -f 2 "$tmp/commands" | grep -qxF -- "$command" ||
            fail "the reference leaves out \`$command\`, which no lesson gives"
    done <"$tmp/left-out"
    ran=0
    while IFS="$(printf '\t')" read -r lesson command; do
        why=$(why_not "$command")
        [ -z "$why" ] && [ "$all" != 1 ] && grep -qxF -- "$command" "$tmp/left-out" &&
            why="left out of make test (the reference says why)"
        if [ -n "$why" ]; then
            echo "skipped ($lesson): $command: $why"
            continue
        fi
        # As written, but in this build folder and with the results (and
        # the run history) in a scratch folder.
        # (AUTOVEC=1 and OFFLOAD=host build in folders of their own.)
        case $command in *AUTOVEC=* | *OFFLOAD=*) b="" ;; *) b="BUILD=$build " ;; esac
        # (No \| alternation here: in s|...| it is a plain |.)
        run=$(printf '%s' "$command" | sed -e "s|^make |make -s ${b}RESULTS=$tmp/results |" \
                                           -e "s|^make\$|make -s ${b}RESULTS=$tmp/results|" \
                                           -e "s|build/default/|$build/|g" \
                                           -e "s|\(bench/speedlab [a-z_]*\)|\1 --results $tmp/results|g")
        start=$(date +%s)
        timeout 1800 sh -c "$run" </dev/null >"$tmp/out" 2>"$tmp/err"
        rc=$?
        ran=$((ran + 1))
        case $command in
        *--require-device*) [ "$rc" = 0 ] || grep -q "Error 4" "$tmp/err" || rc="$rc (no Error 4)" ;;
        "make data-race" | "make fma") grep -q "Error 3" "$tmp/err" || rc="$rc (no Error 3)" ;;
        esac
        case " $(want "$command") " in
        *" $rc "*) ok "$lesson: $command (exit $rc, $(($(date +%s) - start)) s)" ;;
        *) fail "$lesson: $command: exit $rc, the lesson expects $(want "$command")"
           tail -n 5 "$tmp/err" "$tmp/out" | sed 's/^/    /' >&2 ;;
        esac
    done <"$tmp/commands"
    [ "$ran" -gt 0 ] || fail "no lesson command ran"
}

case_lesson_commands() {
    brief_timing
    build=$1
    before=""
    (cd "$top" && git rev-parse --git-dir >/dev/null 2>&1) &&
        before=$(cd "$top" && git status --porcelain --untracked-files=all)
    touch "$tmp/stamp"
    folders=$(ls "$top/build" 2>/dev/null)
    flags=$(grep '^CMAKE_C_FLAGS:' "$build/CMakeCache.txt" 2>/dev/null)
    run_lessons "$top" "$build" 0
    # A command that reconfigures the build folder (CMAKE_ARGS) would
    # leave every later test on other flags.
    [ "$(grep '^CMAKE_C_FLAGS:' "$build/CMakeCache.txt" 2>/dev/null)" = "$flags" ] &&
        ok "the build folder's flags unchanged" ||
        fail "a lesson's command changed $build's flags: $(grep '^CMAKE_C_FLAGS:' "$build/CMakeCache.txt")"
    # The checkout's run history and build folders are not the commands'
    # (a make in make test would otherwise build in build/cc: make exports
    # CC). A program run directly may write its files into results/.
    written=$(find "$top/results" -maxdepth 1 -name 'history.sqlite*' -newer "$tmp/stamp" 2>/dev/null)
    [ -z "$written" ] && ok "the checkout's run history untouched" ||
        fail "the lessons' commands ran into the checkout's history: $written"
    new=$(ls "$top/build" 2>/dev/null | grep -vxF "$folders" | grep -vE -- '-(autovec|host-offload)|^racecheck$|^test-ccache$' |
          tr '\n' ' ')
    [ -z "$new" ] && ok "no build folder but $build (and AUTOVEC's, OFFLOAD's, racecheck's; the copies' cache)" ||
        fail "the lessons' commands built in build/$new"
    if (cd "$top" && git rev-parse --git-dir >/dev/null 2>&1); then
        after=$(cd "$top" && git status --porcelain --untracked-files=all)
        [ "$before" = "$after" ] && ok "nothing written outside results/ and build/" ||
            fail "the lessons' commands changed the working tree: $(printf '%s\n%s\n' "$before" "$after" | sort | uniq -u | head -5 | tr '\n' ' ')"
    fi
}

# By hand, before a release (about an hour on 2 cores): every command,
# those left out of make test too, at its default size, in a copy of the
# checkout with its own build folder, in the lessons' order (make
# new-kernel NAME=stencil before make stencil):
#   sh tests/e2e/run.sh lessons lesson_commands_all
case_lesson_commands_all() {
    copy=$tmp/checkout
    mkdir -p "$copy"
    (cd "$top" && tar -cf - --exclude=./build --exclude=./results --exclude='./gpu-bundle*' .) |
        (cd "$copy" && tar -xf -) || { fail "copying the checkout"; return; }
    run_lessons "$copy" "$copy/build/default" 1
}
