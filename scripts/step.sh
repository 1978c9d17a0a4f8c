#!/bin/sh
# step.sh - one step of the course at a time, from the solutions' regions
# (scripts/regions.awk), never from a second copy of the answers:
#   make hint STEP=1.2       where the step's TODO is, and the question its
#                            file asks: what to think about, not the answer
#   make solution STEP=1.2   that step's code only, as a diff against the
#                            untouched exercise
#   make reset FILE=exercises/<folder>/<file>.c   one file back as generated; yours
#                            is kept in exercises-backup/<UTC time>/ first
#   make reset-exercises     every file back as generated; yours kept the same way
#
# A backup folder is always a new one (a second reset in the same second
# gets <UTC time>-2/): no backup replaces an earlier one.
#
# usage: scripts/step.sh hint|solution STEP
#        scripts/step.sh reset FILE
#        scripts/step.sh reset-exercises
# Exit 0, or 2 (one line on stderr) for a step or file there is none of.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
regions="$top/scripts/regions.awk"

die() { echo "make $what: $*" >&2; exit 2; }

# new_backup: a new folder exercises-backup/<UTC time>[-N], made here.
new_backup() {
    mkdir -p "$top/exercises-backup" || return 1
    stamp=$(date -u +%Y%m%dT%H%M%SZ) b="exercises-backup/$stamp" n=1
    until mkdir "$top/$b" 2>/dev/null; do
        n=$((n + 1))
        [ "$n" -le 100 ] || return 1
        b="exercises-backup/$stamp-$n"
    done
    echo "$b"
}

# steps: every step with code to write, in course order.
steps() {
    grep -rhoE 'TODO\([0-9]+\.[0-9]+\)' "$top/solutions" | sed 's/TODO(\(.*\))/\1/' |
        sort -u -t. -k1,1n -k2,2n | tr '\n' ' '
}

# step_files STEP: the solution files (relative to solutions/) that name it.
step_files() {
    (cd "$top/solutions" && grep -rlF "TODO($1)" . | sed 's|^\./||' | LC_ALL=C sort)
}

# exercise REL [STEP]: solutions/REL as its exercise, STEP solved if given.
exercise() {
    has=0
    [ -n "${2:-}" ] && grep -qF "TODO($2)" "$top/solutions/$1" && has=1
    awk -v file="solutions/$1" -v solve="${2:-}" -v has_step="$has" -f "$regions" \
        "$top/solutions/$1"
}

# lesson_heading STEP: "course/NN-<lesson>.md: Step 1.2: ...", or nothing.
lesson_heading() {
    for f in "$top"/course/[0-9][0-9]-*.md; do
        h=$(grep -m1 -E "^## Step $(echo "$1" | sed 's/\./\\./')[: (]" "$f") &&
            { echo "course/$(basename "$f"): ${h#\#\# }"; return; }
    done
}

# title STEP HEADING: the lesson's heading for the step, or "step 1.2".
title() {
    if [ -n "$2" ]; then echo "${2#*: }"; else echo "step $1"; fi
}

# check_step STEP: a step with code to write, or exit 2 naming those there are.
check_step() {
    case $1 in
    "") die "say which step, e.g. make $what STEP=1.2 (steps with code: $(steps))" ;;
    *[!0-9.]* | .* | *. | *.*.*) die "STEP=$1 is not a step number like 1.2" ;;
    *.*) ;;
    *) die "STEP=$1 is not a step number like 1.2" ;;
    esac
    [ -n "$(step_files "$1")" ] ||
        die "step $1 has no code to write (steps with code: $(steps))"
}

hint() {
    check_step "$1"
    heading=$(lesson_heading "$1")
    title "$1" "$heading"
    [ -n "$heading" ] && echo "  read: ${heading%%: *}"
    for rel in $(step_files "$1"); do
        line=$(exercise "$rel" | grep -nF "TODO($1)" | head -1 | cut -d: -f1)
        echo "  edit: exercises/$rel, line $line (TODO($1))"
        # The file's question: its exercise header, which never states
        # the answer (gen_exercises.sh).
        awk '/^ \* EXERCISE HEADER$/ { on = 1; next } /^ \* END SOLUTION HEADER$/ { on = 0 }
             on { sub(/^ \* ?/, ""); print "    " $0 }' "$top/solutions/$rel"
    done
    echo "Still stuck? make solution STEP=$1 shows this step's code, and no other step's."
}

# shared STEP: other steps whose TODO shares a region with STEP's (one
# piece of solution code does both).
shared() {
    for rel in $(step_files "$1"); do
        awk -v step="$1" '/\/\* EXERCISE[ \t]*$/ { text = ""; on = 1; next }
            /END SOLUTION \*\/[ \t]*$/ { if (index(text, "TODO(" step ")")) print text; on = 0 }
            on { text = text $0 "\n" }' "$top/solutions/$rel"
    done | grep -oE 'TODO\([0-9]+\.[0-9]+\)' | tr -d 'TODO()' | grep -vxF "$1" | sort -u | tr '\n' ' '
}

solution() {
    check_step "$1"
    heading=$(lesson_heading "$1")
    echo "$(title "$1" "$heading"): the solution's code for this step only"
    echo "(- the untouched exercise, + the solution; your file may differ on the - side)"
    also=$(shared "$1")
    [ -n "$also" ] && echo "(this code also does step(s) ${also% }: one piece of code solves them)"
    a=$(mktemp) || exit 1
    b=$(mktemp) || { rm -f "$a"; exit 1; }
    trap 'rm -f "$a" "$b"' EXIT INT TERM
    for rel in $(step_files "$1"); do
        exercise "$rel" >"$a" && exercise "$rel" "$1" >"$b" || exit 1
        diff -u --label "exercises/$rel" --label "exercises/$rel (step $1 solved)" "$a" "$b"
    done
    return 0
}

reset() {
    case ${1:-} in
    "") die "say which file, e.g. make reset FILE=exercises/<folder>/<file>.c (make reset-exercises resets them all)" ;;
    /*) rel=${1#"$top"/} ;;
    *) rel=${1#./} ;;
    esac
    rel=${rel#exercises/}
    case $rel in
    "$1" | ../* | */../* | "") die "FILE=$1 is not a file under exercises/" ;;
    esac
    [ -f "$top/solutions/$rel" ] ||
        die "exercises/$rel has no solution to reset it from (no solutions/$rel)"
    cd "$top" || exit 1
    out="exercises/$rel" backup=""
    if [ -f "$out" ]; then
        b=$(new_backup) && backup="$b/$rel" &&
            mkdir -p "$(dirname "$backup")" && cp "$out" "$backup" ||
            die "could not save exercises/$rel in exercises-backup/: nothing changed"
    fi
    mkdir -p "$(dirname "$out")"
    case $rel in
    *.c | *.h | *.cu) exercise "$rel" >"$out.tmp.$$" ;;
    *) cp "solutions/$rel" "$out.tmp.$$" ;;
    esac || { rm -f "$out.tmp.$$"; die "could not write $out: nothing changed"; }
    mv "$out.tmp.$$" "$out"
    echo "$out reset from solutions/$rel${backup:+; yours is saved in $backup}"
}

what=${1:-}
reset_exercises() {
    cd "$top" || exit 1
    if [ -d exercises ]; then
        b=$(new_backup) && cp -R exercises/. "$b"/ ||
            die "could not save exercises/ in exercises-backup/: nothing changed"
        echo "your exercises are saved in $b"
    fi
    sh scripts/gen_exercises.sh solutions exercises && echo "exercises/ reset from solutions/"
}

case $what in
hint | solution | reset) shift; "$what" "${1:-}" ;;
reset-exercises) reset_exercises ;;
*) echo "usage: $0 hint|solution STEP, or $0 reset FILE, or $0 reset-exercises" >&2; exit 2 ;;
esac
