#!/bin/sh
# check.sh - `make check`: the participant's first check. Builds only the
# programs that test every variant of both trees (tests/test_tree.c) and,
# where MPI was found, lesson 6's, runs them at their small awkward sizes,
# and says one line per lesson, then "N passed, N failed". Nothing is timed:
# the answer is the same on a quiet machine and a busy one.
#
# usage: scripts/check.sh BUILD_DIR [TREE...]   (default: solutions exercises;
#        its own test, e2e.check, also names the broken tree)
# Exit: 0 every lesson right, 1 a lesson has a wrong variant or the build
# failed, 2 bad usage.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD_DIR [TREE...] (a configured build folder)" >&2
    exit 2
fi
build=$1
shift
trees=${*:-solutions exercises}
here=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
# A participant's loop that never ends must not hang the check: the whole
# of one tree's tests takes seconds.
limit=120
log="$build/check.log"
# Nothing here is timed: OpenMP's threads sleep when they wait (passive)
# instead of spinning, which was two thirds of test-solutions' CPU time
# between its thousands of small parallel regions, and slowed it most on
# a busy machine. A policy set by the caller is kept.
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY

# Lesson 6's programs exist where CMake found MPI: the build's own list
# of targets says which.
known=$(cmake --build "$build" --target help 2>/dev/null)
targets="" mpi=""
for tree in $trees; do
    targets="$targets test-$tree"
    if printf '%s\n' "$known" | grep -q "speedlab-mpi-$tree\$"; then
        targets="$targets speedlab-mpi-$tree"
        mpi=yes
    fi
done
echo "building the test programs ($targets)"
start=$(date +%s)
# shellcheck disable=SC2086
if ! sh "$here/locked.sh" "$build" cmake --build "$build" --target $targets -j "$jobs" >"$log" 2>&1; then
    grep -E 'error|Error' "$log" | head -20
    echo "the build failed (all of it: $log)"
    echo "0 passed, 1 failed"
    exit 1
fi

# One tree's variants: "tree kernel variant N cases, M wrong  (lesson L)"
# lines into $out; a hang or a crash becomes a line of its own.
rows=$(mktemp /tmp/speedlab-check.XXXXXX)
trap 'rm -f "$rows" "$rows.err"' EXIT
for tree in $trees; do
    timeout "$limit" "$build/tests/test-$tree" >>"$rows" 2>>"$rows.err"
    rc=$?
    case $rc in
    0|1) ;;
    124) echo "$tree ? ? 0 cases, 1 wrong  (lesson 0) no answer after $limit s (an infinite loop?)" >>"$rows" ;;
    *) echo "$tree ? ? 0 cases, 1 wrong  (lesson 0) test-$tree ended with status $rc (a crash?)" >>"$rows" ;;
    esac
done

# Lesson 6: each tree's MPI variants, exact at 1 and 2 ranks x 1 and 2
# threads (test "exact" in tests/e2e/mpi.sh goes to 3 ranks).
if [ -n "$mpi" ] && command -v mpirun >/dev/null 2>&1; then
    for tree in $trees; do
        prog="$build/bench/speedlab-mpi-$tree"
        [ -x "$prog" ] || prog="$build/tests/speedlab-mpi-$tree"   # the broken tree's
        [ -x "$prog" ] || continue
        # Open MPI keeps its own allocations to the end: in a sanitizer
        # build (make test SANITIZE=1) LeakSanitizer would fail the ranks
        # for them (tests/CMakeLists.txt does the same for the MPI tests).
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$prog" --check --ranks 1,2 --threads 1,2 --timeout 60 \
            >"$rows.mpi" 2>&1
        rc=$?
        # "  <kernel>  hybrid  2 rank(s) x 1 thread(s): valid": one row per variant.
        awk -v tree="$tree" '/^  [a-z].* rank\(s\) x / { k = $1 " " $2; if (!(k in n)) order[++m] = k
                                                n[k]++; if ($0 !~ /: valid$/) bad[k]++ }
            END { for (i = 1; i <= m; i++) printf "%s %s %d cases, %d wrong  (lesson 6)\n",
                      tree, order[i], n[order[i]], bad[order[i]] }' "$rows.mpi" >>"$rows"
        if [ "$rc" -ne 0 ]; then
            grep -q "^$tree .* [1-9][0-9]* wrong" "$rows" ||
                echo "$tree mpi ? 0 cases, 1 wrong  (lesson 6) speedlab-mpi-$tree --check: exit $rc" >>"$rows"
            grep '^speedlab-mpi' "$rows.mpi" | head -2 >>"$rows.err"
        fi
    done
    rm -f "$rows.mpi"
fi

if grep -q 'CHECK(' "$rows.err" 2>/dev/null; then
    # The first failing case of each variant: its size, threads and answer.
    echo "what went wrong (the first case of each wrong variant):"
    grep -E '^  [a-z]' "$rows.err" | awk '{ if (!seen[$1]++) print "  " $0 }' | head -12
fi
# Anything else on stderr (a crash's message, the OpenMP runtime's
# warnings), each line once.
if grep -vqE '^  |CHECK\(' "$rows.err" 2>/dev/null; then
    echo "said on stderr while checking:"
    grep -vE '^  |CHECK\(' "$rows.err" | awk '!seen[$0]++' | sed 's/^/    /' | head -8
fi
echo "checked in $(( $(date +%s) - start )) s, build included; nothing timed (make test runs the full suite):"
# One line per lesson: its kernels, how many variants were checked (both
# trees together), and the first wrong one.
awk '
    /\(lesson [0-9]+\)/ {
      match($0, /\(lesson [0-9]+\)/)
      k = substr($0, RSTART + 8, RLENGTH - 9) + 0
      if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      if ($2 != "?" && !((k, $2) in named)) {
          named[k, $2] = 1
          kernels[k] = kernels[k] (kernels[k] == "" ? "" : ", ") $2
      }
      variants[k]++
      total[k] += $4
      if (/host fallback$/) fallback[k] = 1
      if (/host offload device$/) offload[k] = 1
      if ($6 > 0 && !(k in first))
          first[k] = $3 == "?" ? substr($0, index($0, ")") + 2) : $1 "/" $2 "/" $3
    }
    END {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
          if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
      # The kernels column as wide as its longest (lesson 5 has five).
      for (i = 1; i <= n; i++) w = length(kernels[order[i]]) > w ? length(kernels[order[i]]) : w
      for (i = 1; i <= n; i++) {
          k = order[i]
          line = sprintf("lesson %d  %-" w "s %2d variants, %5d cases", k, kernels[k],
                         variants[k], total[k])
          if (k in first) { failed++; print line "  WRONG: " first[k] }
          else {
              passed++
              print line "  right" (k in offload ? " (gpu ones on the host offload device: copies like a GPU)" : \
                                    k in fallback ? " (gpu ones on the host fallback: no GPU here)" : "")
          }
      }
      printf "%d passed, %d failed\n", passed, failed + 0
      exit failed > 0
    }' "$rows"
