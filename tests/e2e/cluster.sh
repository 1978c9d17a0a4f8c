#!/bin/sh
# cluster.sh - end-to-end: the kit's SLURM scripts and lesson 6 on a real
# SLURM controller with two nodes in namespaces (tests/cluster/cluster.sh),
# where ranks on different nodes talk over TCP on a virtual link. Each case
# starts the cluster, and tears it down even when it fails, then checks that
# nothing of it is left.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

cluster=$top/tests/cluster/cluster.sh

# Start the cluster in $tmp/cluster (skipped, saying why, where it cannot run).
cluster_up() {
    why=$(sh "$cluster" check) ||
        { echo "skipped: the test cluster cannot run here: $why"; exit 77; }
    cdir=$tmp/cluster
    trap 'sh "$cluster" down "$cdir"; rm -rf "$tmp"' EXIT
    sh "$cluster" up "$cdir" >"$tmp/up" 2>&1 ||
        { cat "$tmp/up"; fail "the cluster did not come up"; exit 1; }
    ok "$(tail -1 "$tmp/up")"
}

# After down: no daemon of this cluster and no node namespace remain.
cluster_gone() {
    sh "$cluster" down "$cdir"
    trap 'rm -rf "$tmp"' EXIT
    left=""
    for f in "$cdir"/*.pid; do
        [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && left="$left $(basename "$f")"
    done
    pgrep -f "$cdir/slurm.conf" >/dev/null && left="$left (a process naming its slurm.conf)"
    [ -z "$left" ] && ok "torn down: no daemon or node left" || fail "left running:$left"
}

on_node() { n=$1; shift; sh "$cluster" on "$cdir" "$n" "$@"; }

# Submit from node 1 (the login node) in folder $job; prints the job id.
submit() {
    on_node 1 sh -c 'cd "$1" && shift && sbatch --parsable "$@"' submit "$job" "$@"
}

# Wait up to $2 seconds for job $1 to end; its final state on stdout.
wait_job() {
    for _ in $(seq $(($2 * 2))); do
        state=$(on_node 1 scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
        case $state in PENDING | RUNNING | CONFIGURING | COMPLETING | "") sleep 0.5 ;; *) break ;; esac
    done
    echo "$state"
}

# bench.sbatch and hybrid.sbatch submitted with sbatch, run to the end,
# their run folders with the scheduler's facts; a job step whose CPUs
# disagree with --cpus-per-task gets the kit's warning.
case_slurm() {
    build=$1
    cluster_up
    cpus=$(nproc)
    job=$tmp/job; mkdir -p "$job"
    id=$(submit --cpus-per-task="$cpus" --time=5 \
        --export=ALL,SPEEDLAB_BUILD="$build",BENCH_ARGS="--quick --kernel $e2e_example --reps 2 --min-time 0.01 --no-weak" \
        "$top/scripts/slurm/bench.sbatch")
    [ -n "$id" ] && ok "bench.sbatch submitted: job $id" || fail "sbatch bench.sbatch: no job id"
    state=$(wait_job "$id" 240)
    [ "$state" = COMPLETED ] && ok "bench.sbatch: COMPLETED" ||
        { fail "bench.sbatch: $state"; tail -20 "$job/speedlab-bench-$id.out" >&2; }
    run="$job/results/$(readlink "$job/results/latest")"
    [ -s "$run/results.csv" ] && ok "its run folder: $(basename "$run")" || fail "no run folder from bench.sbatch"
    expect_in "$run/summary.md" "job $id on node slnode1, $cpus CPUs granted" "the run names its job, node and CPUs"
    expect_in "$job/speedlab-bench-$id.out" "speedlab-bench: exit 0" "the job's log ends with the exit"

    # hybrid.sbatch on both nodes: one rank each.
    id=$(submit --nodes=2 --ntasks-per-node=1 --cpus-per-task=1 --time=5 \
        --export=ALL,SPEEDLAB_BUILD="$build",RANKS=2,THREADS=1,BENCH_ARGS="--quick --kernel $e2e_image --reps 2 --min-time 0.01" \
        "$top/scripts/slurm/hybrid.sbatch")
    state=$(wait_job "$id" 240)
    [ "$state" = COMPLETED ] && ok "hybrid.sbatch: job $id COMPLETED" ||
        { fail "hybrid.sbatch: $state"; tail -30 "$job/speedlab-hybrid-$id.out" >&2; }
    run="$job/results/$(readlink "$job/results/latest")"
    expect_in "$run/summary.md" "slurm: job $id, nodes slnode[1-2], tasks 2, cpus per task 1" \
        "the grid's run names its job and nodes"
    for n in 1 2; do
        grep -q "rank .*: slnode$n:" "$run/results.csv" "$run/summary.md" 2>/dev/null &&
            ok "a rank ran on slnode$n" || fail "no rank on slnode$n: $(grep -h 'rank [0-9]' "$run/results.csv" "$run/summary.md" | head -3)"
    done

    # A step bound to 1 CPU (--cpu-bind) in a job of --cpus-per-task=2: the
    # affinity and SLURM_CPUS_PER_TASK disagree, as after an srun that did
    # not pass --cpus-per-task on.
    if [ "$cpus" -ge 2 ]; then
        id=$(submit --cpus-per-task=2 --time=5 --output=warn-%j.out --wrap \
            "srun --cpu-bind=map_cpu:0 $build/bench/speedlab-bench-solutions --quick --kernel $e2e_example --threads 1 --reps 1 --min-time 0.01 --no-plots --no-weak --results $job/warn")
        state=$(wait_job "$id" 120)
        [ "$state" = COMPLETED ] && ok "a job step bound to 1 CPU: COMPLETED" || fail "warn job: $state"
        expect_in "$job/warn-$id.out" "SLURM_CPUS_PER_TASK=2, but this process may use 1 CPU(s)" \
            "the kit warns that the step's CPUs disagree"
    fi
    cluster_gone
}
