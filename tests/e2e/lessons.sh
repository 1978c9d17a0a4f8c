#!/bin/sh
# lessons.sh - end-to-end: every command a lesson's code blocks tell a
# participant to run, run as written (in this build folder, with results
# in a scratch folder), in the repository's root as a participant would:
# each exits as the lesson says, and none leaves a file in the working
# tree outside results/ and build/. A command that cannot run here is
# listed as skipped, with why. Sourced by tests/e2e/run.sh.

# lesson_commands: "lesson<TAB>command" for every command line in the
# lessons' shell code blocks (``` or ```sh; not their output), with
# continuation lines joined and trailing comments dropped.
lesson_commands() {
    for f in "$top"/course/[0-9][0-9]-*.md; do
        awk -v lesson="$(basename "$f")" '
            /^```/ { inside = !inside; shell = $0 ~ /^```(sh)?[ \t]*$/; next }
            !inside || !shell { next }
            { line = held $0; held = "" }
            line ~ /\\$/ { held = substr(line, 1, length(line) - 1) " "; next }
            { sub(/[ \t]+#.*$/, "", line) }
            line ~ /^(make|perf|sh|gcc|python3|\/usr\/bin\/python3|build\/)[ \/]/ || line == "make" ||
                line ~ /^make [a-z]/ { print lesson "\t" line }' "$f"
    done
}

# why_not COMMAND: why it cannot run here ("" when it can).
why_not() {
    case $1 in
    "make reset FILE="*) echo "it resets a file of yours; e2e.steps runs it on a copy" ;;
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
    *) echo 0 ;;
    esac
}

case_lesson_commands() {
    build=$1
    cd "$top" || return
    lesson_commands >"$tmp/commands"
    n=$(wc -l <"$tmp/commands")
    [ "$n" -ge 10 ] && ok "$n commands in the lessons' code blocks" || fail "only $n lesson commands found"
    before=""
    git rev-parse --git-dir >/dev/null 2>&1 && before=$(git status --porcelain --untracked-files=all)
    ran=0
    while IFS="$(printf '\t')" read -r lesson command; do
        why=$(why_not "$command")
        if [ -n "$why" ]; then
            echo "skipped ($lesson): $command: $why"
            continue
        fi
        # As written, but in this build folder and with the results (and
        # the run history) in a scratch folder.
        run=$(printf '%s' "$command" | sed -e "s|^make |make -s BUILD=$build RESULTS=$tmp/results |" \
                                           -e "s|build/default/|$build/|g" \
                                           -e "s|\(bench/speedlab [a-z_]*\)|\1 --results $tmp/results|g")
        start=$(date +%s)
        timeout 600 sh -c "$run" </dev/null >"$tmp/out" 2>"$tmp/err"
        rc=$?
        ran=$((ran + 1))
        case $command in
        *--require-device*) [ "$rc" = 0 ] || grep -q "Error 4" "$tmp/err" || rc="$rc (no Error 4)" ;;
        esac
        case " $(want "$command") " in
        *" $rc "*) ok "$lesson: $command (exit $rc, $(($(date +%s) - start)) s)" ;;
        *) fail "$lesson: $command: exit $rc, the lesson expects $(want "$command")"
           tail -5 "$tmp/err" "$tmp/out" | sed 's/^/    /' >&2 ;;
        esac
    done <"$tmp/commands"
    [ "$ran" -gt 0 ] || fail "no lesson command ran"
    if git rev-parse --git-dir >/dev/null 2>&1; then
        after=$(git status --porcelain --untracked-files=all)
        [ "$before" = "$after" ] && ok "nothing written outside results/ and build/" ||
            fail "the lessons' commands changed the working tree: $(printf '%s\n%s\n' "$before" "$after" | sort | uniq -u | head -5 | tr '\n' ' ')"
    fi
}
