#!/bin/sh
# vecreport.sh - what the compiler vectorised in each file of a tree, in its
# own words and in the machine code.
#
# usage: scripts/vecreport.sh BUILD_DIR [solutions|exercises]
#
# Rebuilds the tree's vecreport objects (every file of the tree, compiled
# with the kernels' flags plus the compiler's vectorisation remarks), then
# prints per file (one variant each): the remarks, and a count of the
# floating-point arithmetic instructions in its machine code, packed (pd/ps:
# several lanes per instruction) against scalar (sd/ss: one), with the
# widest register the packed ones use. A simd file full of scalar
# instructions did not vectorise, whatever its pragma says.
# On aarch64 (a build with cmake/aarch64-linux-gnu.cmake), packed means
# NEON's v<n>.2d/.4s (128-bit) or SVE's z<n>.d/.s ("SVE": as wide as the
# machine that runs it), scalar d<n>/s<n>; the build's own objdump reads it.
# Exit: 0, 1 when the build fails, 2 on bad usage.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -f "$1/CMakeCache.txt" ]; then
    echo "usage: $0 BUILD_DIR [solutions|exercises] (a configured build folder)" >&2
    exit 2
fi
build=$1
tree=${2:-solutions}
case $tree in
solutions) target=speedlab_vecreport ;;
exercises) target=speedlab_vecreport_exercises ;;
*) echo "vecreport: TREE '$tree' is not solutions or exercises" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
objdir="$build/CMakeFiles/$target.dir"
log=$(mktemp /tmp/speedlab-vecreport.XXXXXX)
trap 'rm -f "$log"' EXIT

find "$objdir" -name '*.o' -delete 2>/dev/null
echo "vecreport: $tree/"
if ! cmake --build "$build" --target "$target" >"$log" 2>&1; then
    cat "$log" >&2
    echo "vecreport: the build failed (see above)" >&2
    exit 1
fi

objdump=$(sed -n 's/^CMAKE_OBJDUMP:FILEPATH=//p' "$build/CMakeCache.txt")
command -v "${objdump:-objdump}" >/dev/null 2>&1 || objdump=objdump

# FP arithmetic mnemonics: add, sub, mul, div, sqrt, min, max, compares and
# the FMA family, with a packed (p) or scalar (s) double/single suffix; on
# aarch64 the same family (fadd ... fmla, frecpe, fcm*), packed or scalar by
# its registers.
count_fp() {
    "$objdump" -d --no-show-raw-insn "$1" 2>/dev/null | awk -F'\t' '
        NF >= 2 && $2 ~ /^f(add|sub|mul|div|sqrt|min|max|n?ml[as]|n?mad|n?msb|abd|recp[es]|rsqrt[es]|cm[a-z]+)/ {
            split($2, w, " "); ops = substr($2, length(w[1]) + 1) " " $3   # aarch64: a tab before them
            if (ops ~ /z[0-9]+\.[ds]/) { packed++; sve = 1 }
            else if (ops ~ /v[0-9]+\.(2d|4s)/) { packed++; wide = (wide < 128 ? 128 : wide) }
            else if (ops ~ /(^|[ ,])[ds][0-9]+/) scalar++
            next
        }
        NF >= 2 {
            split($2, w, " "); m = w[1]
            if (m ~ /^v?(add|sub|mul|div|sqrt|min|max|cmp[a-z]*|f(n)?m(add|sub)(sub|add)?[0-9]*)p[sd]$/) {
                packed++
                if ($2 ~ /%zmm/) wide = (wide < 512 ? 512 : wide)
                else if ($2 ~ /%ymm/) wide = (wide < 256 ? 256 : wide)
                else wide = (wide < 128 ? 128 : wide)
            } else if (m ~ /^v?(add|sub|mul|div|sqrt|min|max|cmp[a-z]*|f(n)?m(add|sub)(sub|add)?[0-9]*)s[sd]$/) {
                scalar++
            }
        }
        END { printf "%d %d %s\n", packed, scalar, sve ? "SVE" : wide ? wide "-bit" : "-" }'
}

command -v "$objdump" >/dev/null 2>&1 || echo "vecreport: objdump not found (binutils): no instruction counts"
printf '%-36s %7s %7s %8s  %s\n' "file (one variant)" "packed" "scalar" "widest" "compiler remarks"
for obj in $(find "$objdir" -name '*.o' | sort); do
    src=${obj%.o}                      # .../solutions/<kernel>/simd.c
    rel=$tree/${src##*/"$tree"/}
    case $rel in */table.c|*/kernels.c) continue ;; esac   # tables, no loops
    set -- $(count_fp "$obj")
    vec=$(grep -F "$rel:" "$log" | grep -cE 'optimized: loop vectorized|remark: vectorized loop')
    missed=$(grep -F "$rel:" "$log" | grep -cE 'missed: not vectorized|remark: loop not vectorized')
    printf '%-36s %7s %7s %8s  %s loop(s) vectorised, %s not\n' "$rel" "${1:-0}" "${2:-0}" \
        "${3:--}" "$vec" "$missed"
done
echo
echo "The compiler's remarks, per line of source:"
grep -E 'optimized: loop vectorized|missed: not vectorized|remark: .*vectoriz' "$log" |
    grep -E "$tree/" | sed -e "s|^$top/||" | sort -u
