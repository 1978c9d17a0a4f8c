#!/bin/sh
# gen_exercises.sh - make the exercises tree from the solutions tree.
#
# usage: scripts/gen_exercises.sh SOLUTIONS_DIR OUT_DIR
#
# Solutions are the single source. In .c, .h and .cu files a region
#     /* BEGIN SOLUTION */
#     ...solution lines...
#     /* EXERCISE
#     ...exercise lines...
#     END SOLUTION */
# becomes its exercise lines (a TODO(step) of a lesson in course/, and any code the
# exercise needs to stay correct); "/* END SOLUTION */" closes a region that
# has no exercise text. Inside the file's header comment,
#      * BEGIN SOLUTION HEADER
#      ...what the solution does (the answer)...
#      * EXERCISE HEADER
#      ...the task, without the answer...
#      * END SOLUTION HEADER
# does the same for the header, so an exercise never states its answer.
# Other files are copied unchanged. OUT_DIR is written
# into a temporary folder first and swapped in whole, so a failure never
# leaves a half-generated tree. Exit 1 on a malformed region (file:line).
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 SOLUTIONS_DIR OUT_DIR" >&2
    exit 2
fi
src=$1
out=$2
if [ ! -d "$src" ]; then
    echo "gen_exercises: '$src' is not a folder" >&2
    exit 2
fi

tmp="$out.tmp.$$"
trap 'rm -rf "$tmp"' EXIT INT TERM
rm -rf "$tmp"
mkdir -p "$tmp"

(cd "$src" && find . -type f | LC_ALL=C sort) | while IFS= read -r rel; do
    rel=${rel#./}
    mkdir -p "$tmp/$(dirname "$rel")"
    case "$rel" in
    *.c|*.h|*.cu)
        awk -v file="$src/$rel" '
        function fail(msg) { printf "%s:%d: %s\n", file, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
        /^[ \t]*\/\* BEGIN SOLUTION \*\/[ \t]*$/ {
            if (state != 0) fail("BEGIN SOLUTION inside a region")
            state = 1; start = FNR; next
        }
        /^[ \t]*\/\* EXERCISE[ \t]*$/ {
            if (state != 1) fail("EXERCISE outside a solution region")
            state = 2; next
        }
        /^[ \t]*END SOLUTION \*\/[ \t]*$/ {
            if (state != 2) fail("END SOLUTION */ without /* EXERCISE")
            state = 0; next
        }
        /^[ \t]*\/\* END SOLUTION \*\/[ \t]*$/ {
            if (state != 1) fail("/* END SOLUTION */ outside a solution region")
            state = 0; next
        }
        /^ \* BEGIN SOLUTION HEADER$/ {
            if (state != 0) fail("BEGIN SOLUTION HEADER inside a region")
            state = 3; start = FNR; next
        }
        /^ \* EXERCISE HEADER$/ {
            if (state != 3) fail("EXERCISE HEADER outside a solution header")
            state = 4; next
        }
        /^ \* END SOLUTION HEADER$/ {
            if (state != 4) fail("END SOLUTION HEADER without EXERCISE HEADER")
            state = 0; next
        }
        /SOLUTION/ && state == 0 { fail("a SOLUTION marker must be alone on its line") }
        state == 2 || state == 4 { print; next }
        state == 1 || state == 3 { next }
        { print }
        END {
            if (!bad && state != 0) { FNR = start; fail("region opened here is never closed") }
        }' "$src/$rel" > "$tmp/$rel"
        ;;
    *)
        cp "$src/$rel" "$tmp/$rel"
        ;;
    esac
done

# Swap the new tree in: the old one is removed only once the new one exists.
if [ -e "$out" ]; then
    old="$out.old.$$"
    mv "$out" "$old"
    mv "$tmp" "$out"
    rm -rf "$old"
else
    mv "$tmp" "$out"
fi
trap - EXIT INT TERM
