#!/bin/sh
# mpi.sh - lesson 6's two make targets over speedlab-mpi-<tree>.
#
# usage: scripts/mpi.sh participant BUILD RESULTS "RANKS" "THREADS" [options]
#        scripts/mpi.sh bench BUILD RESULTS "RANKS" "THREADS" --tree TREE [options]
#
# participant (make mpi): your exercises tree checked exactly at 1, 2 and 3
# ranks x 1 and 2 threads, then a quick timed grid of yours and of the
# solutions, one after the other. bench (make bench-mpi): one tree's full
# grid into a run folder. Where MPI was not built (no Open MPI when CMake
# ran), prints the install command and exits 4.
set -u
mode=$1; build=$2; results=$3; ranks=$(echo "$4" | tr ' ' ','); threads=$(echo "$5" | tr ' ' ',')
shift 5
tree=exercises
if [ "${1:-}" = --tree ]; then tree=$2; shift 2; fi
prog="$build/bench/speedlab-mpi-$tree"
if [ ! -x "$prog" ]; then
    echo "speedlab: lesson 6 needs MPI, which this build has not found; to get it:" >&2
    echo "  $(sh "$(dirname "$0")/install_hint.sh" "openmpi-bin libopenmpi-dev" openmpi)" >&2
    echo "  then: rm -f $build/CMakeCache.txt && make $( [ "$mode" = bench ] && echo bench-mpi || echo mpi)" >&2
    exit 4
fi
case $mode in
participant)
    echo "== your MPI variants, checked at 1, 2 and 3 ranks x 1 and 2 threads (exercises/<kernel>/mpi.c)"
    "$prog" --check --ranks 1,2,3 --threads 1,2 "$@" || exit $?
    echo
    echo "== yours, timed (quick sizes): ranks $ranks x threads $threads"
    "$prog" --quick --reps 3 --ranks "$ranks" --threads "$threads" --results "$results/lesson6-exercises" "$@"
    mine=$?
    echo
    echo "== the solutions, the same grid"
    "$build/bench/speedlab-mpi-solutions" --quick --reps 3 --ranks "$ranks" --threads "$threads" \
        --results "$results/lesson6-solutions" "$@"
    theirs=$?
    [ "$mine" -ne 0 ] && exit "$mine"
    exit "$theirs" ;;
bench)
    exec "$prog" --ranks "$ranks" --threads "$threads" --results "$results" "$@" ;;
*)
    echo "usage: $0 participant|bench BUILD RESULTS RANKS THREADS [options]" >&2
    exit 2 ;;
esac
