#!/bin/sh
# racecheck.sh - `make racecheck`: find data races in a tree's threaded
# variants with ThreadSanitizer and Archer, and say what each one is.
#
# usage: scripts/racecheck.sh [TREE] [KERNEL]
#        scripts/racecheck.sh --archer-check   (exit 0 when Archer works here)
#   TREE: exercises (default), solutions, or racy (the test's planted races)
#   KERNEL: one of the kernels (scripts/kernels.sh lists them; default: all)
#
# Builds build/racecheck/ with clang and -fsanitize=thread (RACECHECK_BUILD
# overrides the folder), then runs every variant that takes threads at the
# test sizes on 2 and 3 threads, with LLVM's Archer loaded as the OpenMP
# tool so that ThreadSanitizer understands OpenMP's barriers and
# reductions. Each race is reported once: the file and line, the variable,
# and the likely fix. The gpu variants run too (their host fallback), one
# process each; Archer (LLVM 14) crashes in a host teams region, so those
# are listed as not checked.
# Exit: 0 no race and every answer right; 3 a race or a wrong answer;
# 2 clang, libomp or Archer missing; 4 an Archer that sees no
# ThreadSanitizer (Ubuntu 22.04's); 1 the build failed.
set -u
tree=${1:-exercises}
kernel=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${RACECHECK_BUILD:-$top/build/racecheck}
case $tree in
exercises|solutions|racy|--archer-check) ;;
*) echo "racecheck: unknown tree '$tree' (exercises, solutions or racy)" >&2; exit 2 ;;
esac
if [ -n "$kernel" ] && ! sh "$top/scripts/kernels.sh" --has "$kernel"; then
    echo "racecheck: unknown kernel '$kernel' (one of: $(sh "$top/scripts/kernels.sh" --names))" >&2
    exit 2
fi

sh "$top/scripts/deps.sh" clang || exit 2
if ! command -v clang >/dev/null 2>&1; then
    echo "racecheck: needs clang; to get it: $(sh "$top/scripts/install_hint.sh" "clang libomp-dev" llvm)" >&2
    exit 2
fi
major=$(clang -dumpversion | cut -d. -f1)
archer=""
for f in "/usr/lib/llvm-$major/lib/libarcher.so" /usr/lib/llvm-*/lib/libarcher.so \
         /usr/local/lib/libarcher.so; do
    [ -f "$f" ] && { archer=$f; break; }
done
if [ -z "$archer" ]; then
    echo "racecheck: Archer (libarcher.so) not found; to get it: $(sh "$top/scripts/install_hint.sh" "libomp-$major-dev" llvm)" >&2
    exit 2
fi

log=$(mktemp /tmp/speedlab-racecheck.XXXXXX)
trap 'rm -f "$log" "$log.races" "$log.out" "$log.gpu" "$log.unchecked" "$log.c" "$log.bin"' EXIT

# An Archer that sees no ThreadSanitizer stops at once (it says so, asked
# to be verbose), and every OpenMP barrier and reduction then reads as a
# race: Ubuntu 22.04's (LLVM 14 and 15) does, for any program (its
# libarcher.so calls its own weak RunningOnValgrind, bound at link time,
# not through the PLT that lets ThreadSanitizer's answer; Debian's goes
# through it). Asked of a one-loop program first; refused, rather than
# races that are not there.
printf '#include <stdio.h>\nint main(void) { int s = 0;\n#pragma omp parallel for reduction(+:s)\nfor (int i = 0; i < 8; i++) s += i;\nprintf("%%d\\n", s); return 0; }\n' >"$log.c"
if ! clang -fopenmp -fsanitize=thread -x c "$log.c" -o "$log.bin" >"$log" 2>&1; then
    cat "$log" >&2; echo "racecheck: clang cannot build an OpenMP program with ThreadSanitizer here" >&2; exit 2
fi
if OMP_NUM_THREADS=2 OMP_TOOL_LIBRARIES="$archer" ARCHER_OPTIONS=verbose=1 "$log.bin" 2>&1 | grep -q 'without TSan'; then
    echo "racecheck: this Archer ($archer) says it sees no ThreadSanitizer, so OpenMP's barriers and reductions would all read as races: nothing checked (Debian 12's Archer, LLVM 14, and Ubuntu 24.04's, LLVM 18, see it; other versions: https://apt.llvm.org)" >&2
    exit 4
fi
[ "$tree" = --archer-check ] && exit 0
echo "racecheck: building the $tree tree with ThreadSanitizer in $build"
# (Generated, not only the cache a failed configure leaves.)
if [ ! -f "$build/CMakeFiles/TargetDirectories.txt" ]; then
    CC=clang CXX=clang++ cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release \
        -DSPEEDLAB_RACECHECK=ON -DSPEEDLAB_CUDA=OFF -DSPEEDLAB_OFFLOAD=OFF >"$log" 2>&1 ||
        { cat "$log" >&2; echo "racecheck: configuring failed" >&2; exit 1; }
fi
# One target at a time: the first brings a folder configured before the
# probe existed up to date (make would refuse a target it does not know).
for target in "test-$tree" racecheck-teams-probe; do
    cmake --build "$build" --target "$target" -j "$(nproc 2>/dev/null || echo 2)" >"$log" 2>&1 ||
        { tail -30 "$log" >&2; echo "racecheck: the build failed (see above)" >&2; exit 1; }
done

echo "racecheck: running the threaded variants${kernel:+ of $kernel} on 2 and 3 threads"
export OMP_TOOL_LIBRARIES="$archer"
# Threads that spin: whether Archer 18 follows a host teams region (the
# probe, below) depends on how its threads wait. Spinning, its report
# there is certain (10 runs of 10); sleeping (OMP_WAIT_POLICY=passive,
# the e2e tests' and some clusters' setting) it is absent alone and comes
# now and then under load: the probe then passes and a gpu variant's
# report counts as a race. No run here is timed.
export OMP_WAIT_POLICY=active
export TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=0 ${TSAN_OPTIONS:-}"
# run_leaving_nothing OUT ERR CMD...: CMD, its output in OUT and ERR; its
# exit status. A run that crashes (Archer, below) or that ThreadSanitizer
# ends skips libomp's shutdown, which removes its registration in
# /dev/shm; removed here by the run's pid (common/omp_leftovers.h).
run_leaving_nothing() {
    out=$1; err=$2; shift 2
    sh -c 'echo $$ >"$0"; exec "$@"' "$log.pid" "$@" >"$out" 2>"$err"
    rc=$?
    rm -f "/dev/shm/__KMP_REGISTERED_LIB_$(cat "$log.pid" 2>/dev/null)_$(id -u)" "$log.pid"
    return $rc
}
# shellcheck disable=SC2086
run_leaving_nothing "$log.out" "$log" "$build/tests/test-$tree" --threaded $kernel
status=$?
cat "$log.out"

# The gpu variants' host fallback, one process each: Archer does not
# follow the fork of a host teams region (LLVM 14's crashes in it, LLVM
# 18's reports races that are not there: tests/racecheck_teams_probe.c),
# so a variant it crashes in, or (where it fails on the race-free probe)
# one it reports races in, is listed as not checked rather than racy; one
# it runs through without a report is checked.
unchecked=""
teams_ok=1
run_leaving_nothing "$log.out" "$log.gpu" "$build/tests/racecheck-teams-probe" ||
    teams_ok=0
"$build/tests/test-$tree" --list-gpu | while read -r k v; do
    [ -z "$kernel" ] || [ "$k" = "$kernel" ] || continue
    run_leaving_nothing "$log.out" "$log.gpu" "$build/tests/test-$tree" --threaded "$k" "$v"
    if grep -q 'SEGV.*libarcher\|libarcher.*SEGV' "$log.gpu" ||
       { [ "$teams_ok" = 0 ] && grep -q '^SUMMARY: ThreadSanitizer' "$log.gpu"; }; then
        echo "$k/$v" >>"$log.unchecked"
    else
        cat "$log.out"
        cat "$log.gpu" >>"$log"
    fi
done
[ -f "$log.unchecked" ] && unchecked=$(tr '\n' ' ' <"$log.unchecked")
rm -f "$log.out" "$log.gpu" "$log.unchecked"

# One report per source line: ThreadSanitizer's SUMMARY names it, with a
# column or without one.
grep '^SUMMARY: ThreadSanitizer: data race' "$log" |
    sed -n 's/^SUMMARY: ThreadSanitizer: data race \([^ :]*\):\([0-9]*\)\(:\([0-9]*\)\)\{0,1\} .*/\1 \2 \4/p' |
    sort -u >"$log.races"
races=$(wc -l <"$log.races")
while read -r file line col; do
    [ -f "$file" ] || continue
    # No column: the line's first name is the likeliest variable.
    [ -n "$col" ] || col=$(sed -n "${line}p" "$file" | awk '{ match($0, /[A-Za-z_]/); print RSTART }')
    rel=${file#"$top"/}
    text=$(sed -n "${line}p" "$file")
    # The variable: the name at the reported column, or (when the column
    # is the operator, as for 'sum +=') the name just before it.
    at=$(printf '%s\n' "$text" | cut -c"$col"-)
    before=$(printf '%s\n' "$text" | cut -c1-"$((col - 1))" | sed 's/[[:space:]]*$//')
    case $at in
    [A-Za-z_]*)
        var=$(printf '%s\n' "$at" | sed 's/^\([A-Za-z_][A-Za-z0-9_]*\).*/\1/')
        rest=$(printf '%s\n' "$at" | sed 's/^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*//') ;;
    *)
        var=$(printf '%s\n' "$before" | sed 's/.*[^A-Za-z0-9_]//')
        rest=$at
        # An element, as in 'sums[c] +=': the array is the statement's
        # first name.
        case $before in *']')
            var=$(printf '%s\n' "$before" | sed 's/^[^A-Za-z_]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/')
            rest="[]$at" ;;
        esac ;;
    esac
    case $rest in
    '+='*|'-='*|'*='*|'++'*|'--'*)
        fix="a missing reduction: every thread updates the one '$var'. Add reduction(+:$var) (or the operator you use) to the parallel for" ;;
    '['*'+='*|'['*'-='*|'['*'++'*|'['*'--'*)
        fix="a missing array reduction: every thread adds into the elements of the one '$var'. Add reduction(+: $var[:n]) (an array reduction: each thread a private copy, added at the end) to the parallel for" ;;
    '='*)
        fix="a shared temporary: every thread writes the one '$var'. Declare it inside the loop body, or add private($var)" ;;
    *)
        fix="'$var' is shared and written by more than one thread; give each thread its own (private, or a reduction)" ;;
    esac
    echo
    echo "DATA RACE in $rel, line $line, on '$var':"
    echo "    $(printf '%s' "$text" | sed 's/^[[:space:]]*//')"
    echo "  likely cause: $fix."
done <"$log.races"

if [ "$races" -gt 0 ]; then
    echo
    echo "racecheck: $races data race(s) found in the $tree tree; the full ThreadSanitizer reports: rerun with TSAN_OPTIONS=log_path=tsan"
    exit 3
fi
# Anything else ThreadSanitizer said, which the words above do not cover:
# its own key lines, and never "no data race".
if grep -q 'ThreadSanitizer' "$log"; then
    echo
    grep -E '^(WARNING|SUMMARY): ThreadSanitizer|^ +#[0-9]+ .*(solutions|exercises|exhibits|common)/' "$log" |
        sed 's/^/    /' | head -30
    echo "racecheck: ThreadSanitizer reported the above, which racecheck cannot put in plain words; the full reports: rerun with TSAN_OPTIONS=log_path=tsan" >&2
    exit 3
fi
if [ "$status" -ne 0 ]; then
    grep -v '^ok' "$log" | tail -20 >&2
    echo "racecheck: ThreadSanitizer saw no data race, but a variant gave a wrong answer (see above)" >&2
    exit 3
fi
echo "racecheck: no data races in the $tree tree's threaded variants"
[ -z "$unchecked" ] ||
    echo "racecheck: not checked (Archer cannot follow a host teams region): $unchecked"
