#!/bin/sh
# bench_commits.sh - make bench-commits: bench every commit of a range, as
# asv's `run` does, each checked out in turn in one worktree,
# BUILD/commits/tree, and built in BUILD/commits/build (so that a commit
# rebuilds only what it changed: a full build once per range), its run
# recorded in the history as that commit's (results/history.sqlite; then
# `make history` finds the steps). The working tree is never touched, and
# the worktree is removed at the end. A commit that does not build, even
# from scratch, is recorded as such and the range goes on.
#
# usage: scripts/bench_commits.sh BUILD RESULTS FROM TO [bench options...]
#   FROM, TO: revisions; every commit from FROM (included) to TO, oldest first
# Exit: 0 done (some commits may not have built: said), 2 bad input, 1 a
# commit's bench failed to run.
set -u
[ $# -ge 4 ] || { echo "usage: $0 BUILD RESULTS FROM TO [bench options...]" >&2; exit 2; }
build=$1; results=$2; from=$3; to=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
history=${SPEEDLAB_HISTORY:-$build/bench/speedlab-history}
[ -x "$history" ] || { echo "bench-commits: no $history: build the kit first (make build)" >&2; exit 2; }
for rev in "$from" "$to"; do
    git -C "$top" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
        { echo "bench-commits: '$rev' is not a commit here" >&2; exit 2; }
done
git -C "$top" merge-base --is-ancestor "$from" "$to" ||
    { echo "bench-commits: $from is not an ancestor of $to" >&2; exit 2; }
# FROM itself, then every commit after it up to TO.
commits="$(git -C "$top" rev-parse --short=12 "$from") $(git -C "$top" rev-list --reverse --abbrev-commit --abbrev=12 "$from..$to")"
n=$(echo $commits | wc -w)
mkdir -p "$results" "$build/commits" || exit 2
results=$(cd "$results" && pwd)
trees="$(cd "$build/commits" && pwd)"
# build_commit TREE BUILD LOG: configure (until a configure has generated
# the build: a failed one leaves only its cache) and build the bench.
build_commit() {
    { [ -f "$2/CMakeFiles/TargetDirectories.txt" ] ||
          cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DSPEEDLAB_CUDA=OFF \
              -DSPEEDLAB_OFFLOAD=OFF >"$3" 2>&1; } &&
        cmake --build "$2" --target speedlab-bench-solutions -j "$(nproc)" >>"$3" 2>&1
}
echo "bench-commits: $n commit(s) from $from to $to, each built in $trees/build"
wt="$trees/tree"; bld="$trees/build"
git -C "$top" worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
i=0; unbuilt=0
for c in $commits; do
    i=$((i + 1))
    echo "== $i/$n $c $(git -C "$top" log -1 --format=%s "$c")"
    if [ "$i" -eq 1 ]; then
        git -C "$top" worktree add -q --detach "$wt" "$c"
    else
        git -C "$wt" checkout -q -f --detach "$c"
    fi || { echo "bench-commits: cannot check out $c" >&2; exit 1; }
    log="$trees/$c.build.log"
    # A failed incremental build is tried once more from scratch, so that
    # a stale build folder never marks a good commit as broken.
    if ! build_commit "$wt" "$bld" "$log" && ! { rm -rf "$bld"; build_commit "$wt" "$bld" "$log"; }; then
        echo "  $c does not build (its log: $log); recorded, going on"
        "$history" --results "$results" --unbuilt "$c"
        unbuilt=$((unbuilt + 1))
        continue
    fi
    "$bld/bench/speedlab-bench-solutions" --results "$results" "$@" >"$trees/$c.bench.log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
        echo "bench-commits: $c's bench failed (exit $rc): $(tail -3 "$trees/$c.bench.log")" >&2
        git -C "$top" worktree remove --force "$wt"
        exit 1
    fi
    folder=$(readlink "$results/latest")
    # A commit from before the history: its run folder, as its commit's.
    "$history" --results "$results" --adopt "$folder" --commit "$c" || exit 1
    echo "  benched: $results/$folder$([ "$rc" -eq 3 ] && echo " (a variant was WRONG: exit 3)")"
done
git -C "$top" worktree remove --force "$wt"
git -C "$top" worktree prune
echo "bench-commits: done ($unbuilt of $n did not build); next: make history"
