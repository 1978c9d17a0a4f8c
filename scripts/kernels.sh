#!/bin/sh
# kernels.sh - the kit's kernels as their folders declare them: one
# "name lesson folder" line per problem definition in kernels/<k>/*.c (its
# `.name = "..."` and `.lesson = N`, and <k>), in lesson order. For the make help,
# racecheck and the tests, so that none keeps a list of its own.
#
# usage: scripts/kernels.sh [--names | --has NAME]
#   --names: the names alone, one line; --has NAME: exit 0 when NAME is a
#   kernel, 1 when it is not (nothing printed)
top=$(cd "$(dirname "$0")/.." && pwd)
list=$(awk '
    /^const sl_problem_def [a-z0-9_]+ = \{/ { inside = 1; name = ""; lesson = 0; next }
    inside && /^ *\.name = "/ { name = $0; sub(/^ *\.name = "/, "", name); sub(/".*/, "", name) }
    inside && /^ *\.lesson = [0-9]+/ { lesson = $0; sub(/^ *\.lesson = /, "", lesson); lesson += 0 }
    inside && /^\};/ { if (name != "") { n = split(FILENAME, p, "/"); print lesson, NR, name, p[n - 1] }
                      inside = 0 }
' "$top"/kernels/*/*.c | sort -n -k1,1 -k2,2 | awk '{ print $3, $1, $4 }')
if [ "${1:-}" = --has ]; then
    printf '%s\n' "$list" | awk -v want="${2:-}" '$1 == want { found = 1 } END { exit !found }'
elif [ "${1:-}" = --names ]; then
    printf '%s\n' "$list" | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 } END { print "" }'
else
    printf '%s\n' "$list"
fi
