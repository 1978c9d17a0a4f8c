#!/bin/sh
# bench_compilers.sh - `make bench COMPILERS="gcc clang"`: the bench once per
# compiler, then one table and plot of them side by side.
#
# usage: scripts/bench_compilers.sh MAKE RESULTS COMPILER...
#
# Each compiler that is installed gets its own build folder (build/<cc>)
# and results (RESULTS/<cc>/); one that is not is skipped with a line. Then
# speedlab-compare holds every later compiler against the first one and
# writes RESULTS/compare/<time>-<host>/ (table, plot, index.html).
# QUICK, TREE and BENCH_ARGS pass through make's environment.
# Exit: 0, 3 when a variant failed validation with some compiler, 2 when
# fewer than one compiler is installed, 1 when a build or bench failed.
set -u
make=$1; results=$2; shift 2
ran="" status=0
for cc in "$@"; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "speedlab: $cc is not installed; skipping it"
        continue
    fi
    echo "== make bench CC=$cc (results in $results/$cc) =="
    $make bench CC="$cc" COMPILERS= RESULTS="$results/$cc"
    rc=$?
    case $rc in
    0) ;;
    3) status=3 ;;     # a wrong variant: flagged in that run, still compared
    *) echo "speedlab: make bench with $cc failed (exit $rc)" >&2; exit 1 ;;
    esac
    [ -e "$results/$cc/latest" ] && ran="$ran $cc"
done
set -- $ran
if [ $# -eq 0 ]; then
    echo "speedlab: none of the compilers given is installed" >&2
    exit 2
fi
if [ $# -eq 1 ]; then
    echo "speedlab: only $1 ran, so there is nothing to compare"
    exit $status
fi
first=$1; shift
for cc in "$@"; do
    echo "== $cc against $first =="
    "build/$first/bench/speedlab-compare" "$results/$first/latest" "$results/$cc/latest" \
        --label-a "$first" --label-b "$cc" --results "$results" || exit 1
done
exit $status
