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
# (scripts/regions.awk reads the regions.) Other files are copied unchanged. OUT_DIR is written
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

here=$(cd "$(dirname "$0")" && pwd)
tmp="$out.tmp.$$"
trap 'rm -rf "$tmp"' EXIT INT TERM
rm -rf "$tmp"
mkdir -p "$tmp"

(cd "$src" && find . -type f | LC_ALL=C sort) | while IFS= read -r rel; do
    rel=${rel#./}
    mkdir -p "$tmp/$(dirname "$rel")"
    case "$rel" in
    *.c|*.h|*.cu)
        awk -v file="$src/$rel" -v solve= -f "$here/regions.awk" "$src/$rel" > "$tmp/$rel"
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
