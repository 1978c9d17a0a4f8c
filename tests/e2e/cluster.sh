#!/bin/sh
# cluster.sh - end-to-end: the kit's SLURM scripts and lesson 6 on a real
# SLURM controller with two nodes in namespaces (tests/cluster/cluster.sh),
# where ranks on different nodes talk over TCP on a virtual link. Each case
# starts the cluster, and tears it down even when it fails, then checks that
# nothing of it is left.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

cluster=$top/tests/cluster/cluster.sh

# Start the cluster in $tmp/cluster (skipped, saying why, where it cannot
# run); "split" gives each node its own half of the CPUs.
cluster_up() {
    why=$(sh "$cluster" check) ||
        { echo "skipped: the test cluster cannot run here: $why"; exit 77; }
    cdir=$tmp/cluster
    trap 'sh "$cluster" down "$cdir"; rm -rf "$tmp"' EXIT
    sh "$cluster" up "$cdir" "${1:-}" >"$tmp/up" 2>&1 ||
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

# bench.sbatch, scaling.sbatch and hybrid.sbatch submitted with sbatch, run to the end,
# their run folders with the scheduler's facts; a job step whose CPUs
# disagree with --cpus-per-task gets the kit's warning.
case_slurm() {
    build=$1
    cluster_up
    cpus=$(nproc)
    job=$tmp/job; mkdir -p "$job"
    # Both scripts ask for SIGTERM 5 minutes before the time limit
    # (--signal=B:TERM@300): with --time=5 it would come within the first
    # minute, and stop the bench on a busy machine. 10 gives it 5 minutes.
    id=$(submit --cpus-per-task="$cpus" --time=10 \
        --export=ALL,SPEEDLAB_BUILD="$build",BENCH_ARGS="--quick --kernel $e2e_example --reps 2 --min-time 0.01 --no-weak --no-plots" \
        "$top/scripts/slurm/bench.sbatch")
    [ -n "$id" ] && ok "bench.sbatch submitted: job $id" || fail "sbatch bench.sbatch: no job id"
    # scaling.sbatch on the other node meanwhile (each takes a whole node).
    sid=$(submit --cpus-per-task="$cpus" --time=10 \
        --export=ALL,SPEEDLAB_BUILD="$build",KERNEL="$e2e_example",BENCH_ARGS="--quick --reps 2 --min-time 0.01 --no-plots" \
        "$top/scripts/slurm/scaling.sbatch")
    state=$(wait_job "$id" 240)
    [ "$state" = COMPLETED ] && ok "bench.sbatch: COMPLETED" ||
        { fail "bench.sbatch: $state"; tail -20 "$job/speedlab-bench-$id.out" >&2; }
    # (scaling.sbatch writes beside it: find the run by its job.)
    run=$(dirname "$(grep -l "job $id on node" "$job"/results/2*/summary.md 2>/dev/null | head -1)")
    [ -s "$run/results.csv" ] && ok "its run folder: $(basename "$run")" || fail "no run folder from bench.sbatch"
    grep -qE "job $id on node slnode[12], $cpus CPUs granted" "$run/summary.md" &&
        ok "the run names its job, node and CPUs" || fail "bench.sbatch's run: $(grep -h slurm "$run/summary.md")"
    expect_in "$job/speedlab-bench-$id.out" "speedlab-bench: exit 0" "the job's log ends with the exit"
    state=$(wait_job "$sid" 240)
    [ "$state" = COMPLETED ] && ok "scaling.sbatch: job $sid COMPLETED" ||
        { fail "scaling.sbatch: $state"; tail -20 "$job/speedlab-scaling-$sid.out" >&2; }
    expect_in "$job/speedlab-scaling-$sid.out" "speedlab-scaling: exit 0" "its log ends with exit 0"
    grep -l "job $sid on node slnode" "$job"/results/2*/summary.md >/dev/null 2>&1 &&
        ok "its run folder names its job" || fail "no run folder names job $sid"

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

# The link's bytes sent from node 2 (its end of the veth pair).
sent_from_node2() {
    on_node 2 ip -s link show dev "$(cut -d' ' -f2 "$cdir/link")" |
        awk '/TX:/ { getline; print $1; exit }'
}

# Lesson 6 across two nodes, each with its own half of the CPUs: exact as
# on one host, ranks on both hostnames, the image gathered over TCP (the
# link's byte count grows by at least rank 1's rows: shared memory would
# send nothing over it), and a node whose ranks die named with its rank.
# --bind none: each node's processes keep their node's CPUs (Open MPI
# would bind every rank to its node's "first" core, CPU 0 of the machine).
case_nodes() {
    mpi=$1
    cluster_up split
    job=$tmp/job; mkdir -p "$job"
    run2() { on_node 1 sh -c 'cd "$1" && shift && salloc -N2 -n2 "$@"' run2 "$job" "$mpi" --bind none "$@"; }
    "$mpi" --check --ranks 2 --threads 1 --timeout 60 >"$tmp/one" 2>&1
    run2 --check --ranks 2 --threads 1 --timeout 60 >"$tmp/two" 2>&1 &&
        ok "--check across two nodes: exit 0" || fail "--check across nodes: $(tail -3 "$tmp/two")"
    grep ': valid$' "$tmp/one" >"$tmp/one.valid"
    grep ': valid$' "$tmp/two" >"$tmp/two.valid"
    [ -s "$tmp/one.valid" ] && cmp -s "$tmp/one.valid" "$tmp/two.valid" &&
        ok "validated exactly as on one host ($(wc -l <"$tmp/two.valid") configurations)" ||
        fail "one host and two nodes differ: $(diff "$tmp/one.valid" "$tmp/two.valid" | head -4)"

    before=$(sent_from_node2)
    run2 --kernel "$e2e_image" --size 512 --ranks 2 --threads 1 --reps 2 --min-time 0.01 \
        --results "$job/r" --timeout 120 >"$tmp/timed" 2>&1 && ok "a timed grid across nodes: exit 0" ||
        fail "timed across nodes: $(tail -3 "$tmp/timed")"
    after=$(sent_from_node2)
    run="$job/r/$(readlink "$job/r/latest")"
    expect_in "$run/summary.md" "rank 0: slnode1: " "rank 0 ran on slnode1"
    expect_in "$run/summary.md" "rank 1: slnode2: " "rank 1 ran on slnode2"
    expect_in "$run/summary.md" "rank 1 on slnode2: computing " "rank 1's compute and communication, from its node"
    # Rank 1's half of a 512 x 512 image of 4-byte counts, gathered at least once.
    [ $((after - before)) -ge $((256 * 512 * 4)) ] &&
        ok "over TCP: node 2 sent $((after - before)) bytes on the link" ||
        fail "node 2 sent $((after - before)) bytes on the link (shared memory?)"

    # Node 2's ranks killed mid-run: exit 1, the node and rank named, no folder.
    ls "$job/r" >"$tmp/before"
    # The 1-rank launch (the baseline) comes first: node 2's rank appears
    # only with the 2-rank one, later on a busy machine; wait up to 2 minutes.
    in_background run2 --kernel "$e2e_image" --size 512 --ranks 2 --threads 1 --reps 100 --min-time 0.01 \
        --results "$job/r" --timeout 300
    victim=""
    for _ in $(seq 600); do
        kill -0 "$pid" 2>/dev/null || break
        victim=$(in_node2 "speedlab-mpi-.* --worker")
        [ -n "$victim" ] && break
        sleep 0.2
    done
    sleep 0.5
    [ -n "$victim" ] && kill -KILL $victim && ok "killed node 2's rank ($victim)" ||
        fail "no rank seen on node 2 before the run ended"
    wait "$pid"; rc=$?
    [ "$rc" -eq 1 ] && ok "a dead node: exit 1" || fail "a dead node: exit $rc"
    expect_in "$tmp/err" "rank 1 on node slnode2 was killed by signal 9" "the kit names the node and rank"
    ls "$job/r" >"$tmp/after"
    cmp -s "$tmp/before" "$tmp/after" && ok "nothing published, no .partial left" ||
        fail "the results folder changed: $(diff "$tmp/before" "$tmp/after")"
    cluster_gone
}

# Processes on node 2 whose command line matches $1.
in_node2() { sh "$cluster" pids "$cdir" 2 "$1"; }

# A CPU hog on node 2 during a timed grid: the rows say which node was
# disturbed, and node 2's line shows its other processes. (CTest runs this
# one alone: other tests' load would land on node 1's CPUs too; load from
# outside CTest that does makes it skip, saying so.)
case_busy_node() {
    mpi=$1
    cluster_up split
    job=$tmp/job; mkdir -p "$job"
    # At the highest priority, so that load from outside the test (which
    # lands on both nodes' CPUs alike) cannot make node 1 the busier.
    on_node 2 nice -n -20 sh -c 'while :; do :; done' &
    hog=$!
    sleep 0.5
    on_node 1 sh -c 'cd "$1" && shift && salloc -N2 -n2 "$@"' busy "$job" "$mpi" --bind none \
        --kernel "$e2e_image" --size 512 --ranks 2 --threads 1 --reps 3 --min-time 0.1 \
        --results "$job/r" --timeout 120 >"$tmp/out" 2>&1
    rc=$?
    kill $(in_node2 "while :; do :; done") $hog 2>/dev/null
    [ "$rc" -eq 0 ] && ok "a grid beside a busy node: exit 0" || fail "busy node: exit $rc: $(tail -3 "$tmp/out")"
    run="$job/r/$(readlink "$job/r/latest")"
    # Load from outside the test lands on node 1's CPU too (the scheduler
    # moves it off the hog's): then node 1 may truly be the busier, and
    # which node the kit names is not this test's to plant.
    quiet1=$(sed -n 's/.*rank 0 on slnode1: .*other processes on its node: \([0-9.]*\) of a core.*/\1/p' \
        "$run/summary.md" | tail -1)
    if [ -z "$quiet1" ] || awk -v q="$quiet1" 'BEGIN { exit !(q >= 0.25) }'; then
        cluster_gone
        echo "skipped: node 1 was busy too (other processes: '$quiet1' of a core), load from outside this test"
        exit 77
    fi
    expect_in "$run/summary.md" "other processes busy on slnode2 (rank 1's node)" "the disturbed node is named"
    expect_not_in "$run/summary.md" "busy on slnode1" "and not the quiet one"
    cluster_gone
}

# make submit (scripts/submit.sh): three participants send their gpu
# files at once from the login node to the "GPU" partition (node 2, one
# job at a time), served by the host offload device, where maps copy as
# on a GPU: one right, one with a map that never brings a result home
# (the planted unmapped file), one that hangs, one that does not compile.
# Each gets its own row or its named failure back, in the order sent, and
# the hang holds up no one after its time. The right one is told where
# its time went, and its rows reach the room.
case_submit() {
    brief_timing
    work=$tmp/work
    # The node has no network: its clang's runtime is unpacked beforehand.
    host_offload_ready "$work/build-omp" ||
        { fail "unpacking clang 19's runtime: $(tail -1 "$tmp/omp.err")"; return; }
    cluster_up
    unmapped=$(ls "$top"/kernels/*/planted/unmapped/*.c | head -1)
    folder=$(basename "$(dirname "$(dirname "$(dirname "$unmapped")")")")
    kernel=$(sh "$top/scripts/kernels.sh" | awk -v f="$folder" '$3 == f { print $1; exit }')
    for who in right unmapped hang broken; do
        mkdir -p "$tmp/$who" && cp "$top/solutions/$folder"/gpu*.c "$tmp/$who/"
    done
    cp "$unmapped" "$tmp/unmapped/$(basename "$unmapped")"
    sed -i 's/^\( *\)int on_host = 1;$/&\n\1for (volatile int spin = 1; spin;) {}/' "$tmp/hang/gpu.c"
    grep -q 'spin = 1; spin;' "$tmp/hang/gpu.c" || { fail "planting the hang"; return; }
    sed -i 's/^\( *\)int on_host = 1;$/\1int on_host = 1 +;/' "$tmp/broken/gpu.c"
    # A small image, timed briefly: the runner's hang limit follows the
    # slowest validation (the quick size's spent 67 CPU-s spinning, under
    # load), and the rows' speed is no subject here.
    export SPEEDLAB_SUBMIT_DIR="$tmp/jobs" SPEEDLAB_SUBMIT_WORK="$work" SPEEDLAB_SUBMIT_TIME=8 \
        SPEEDLAB_SUBMIT_MAKE_ARGS=OFFLOAD=host SPEEDLAB_SKIP_DEPS=1 SPEEDLAB_SUBMIT_RESULTS="$tmp/results" \
        SPEEDLAB_SUBMIT_ARGS="--size 128 --min-time 0.01"
    mkdir -p "$tmp/room"
    for who in right hang unmapped broken; do
        # Two are in the room (a shared folder), under their nicknames.
        room=""; case $who in right | unmapped) room=$tmp/room ;; esac
        on_node 1 env SPEEDLAB_ROOM="$room" SPEEDLAB_NICKNAME="$who" \
            sh "$top/scripts/submit.sh" send "$kernel" "$tmp/$who" >"$tmp/$who.out" 2>&1 &
        echo $! >"$tmp/$who.pid"
        sleep 1
    done
    for who in right hang unmapped broken; do
        wait "$(cat "$tmp/$who.pid")"
        echo $? >"$tmp/$who.rc"
    done
    [ "$(cat "$tmp/right.rc")" = 0 ] && ok "the right one: exit 0" || fail "the right one: exit $(cat "$tmp/right.rc")"
    expect_match "$tmp/right.out" "^exercises +gpu .* host offload device$" "its gpu row, on the host offload device"
    expect_not_in "$tmp/right.out" "WRONG" "and nothing WRONG"
    expect_match "$tmp/right.out" "^  exercises/$folder/gpu.c:[0-9]+ +kernel +[0-9]+ x " \
        "where its time went: its kernel, by its own line"
    expect_match "$tmp/right.out" "^  exercises/$folder/gpu.c:[0-9]+ +copies to the device " "and its copies"
    # A right row on a CPU standing in for a GPU tells the room no time;
    # a wrong one is wrong anywhere.
    expect_in "$tmp/right.out" "room: nothing to send" "the room: nothing of the right one's (no GPU time)"
    expect_not_in "$tmp/unmapped.out" "where the time of your gpu code went" "no breakdown for a wrong one"
    posted=$(ls "$tmp/room" | grep -c '^unmapped-.*\.json$')
    # One post per problem of the lesson.
    [ "$posted" -ge 1 ] && grep -q '"variant": *"gpu"' "$tmp/room"/unmapped-*.json &&
        grep -q '"state": *"wrong"' "$tmp/room"/unmapped-*.json &&
        ok "the wrong one's gpu row reached the room, under its nickname" ||
        fail "$posted post(s) of the wrong one in the room: $(ls "$tmp/room"; cat "$tmp/room"/* 2>/dev/null | head -c 600)"
    [ "$(cat "$tmp/unmapped.rc")" = 3 ] && ok "the unmapped one: exit 3" || fail "the unmapped one: exit $(cat "$tmp/unmapped.rc")"
    expect_match "$tmp/unmapped.out" "^exercises +gpu .*WRONG" "its gpu row WRONG"
    [ "$(cat "$tmp/hang.rc")" != 0 ] && ok "the hanging one: exit $(cat "$tmp/hang.rc")" || fail "the hanging one: exit 0"
    expect_match "$tmp/hang.out" "hung|no answer" "its hang named"
    [ "$(cat "$tmp/broken.rc")" = 1 ] && ok "the one that does not compile: exit 1" ||
        fail "the one that does not compile: exit $(cat "$tmp/broken.rc")"
    expect_match "$tmp/broken.out" "COMPILE ERROR" "named a compile error"
    expect_match "$tmp/broken.out" "^  exercises/$folder/gpu.c:[0-9]+:[0-9]+: error" "with its own file and line"
    # In the order sent: each saw the ones before it ahead of it.
    expect_match "$tmp/hang.out" "queued: [1-9] job" "the second waited in the queue"
    expect_match "$tmp/unmapped.out" "queued: [2-9] job" "the third saw two ahead"
    expect_match "$tmp/broken.out" "queued: [3-9] job" "the fourth saw three ahead"
    n=$(ls -d "$tmp"/jobs/*/ | wc -l)
    [ "$n" = 4 ] && ok "4 job folders, each with its manifest" || fail "$n job folders"
    for m in "$tmp"/jobs/*/manifest; do
        grep -qE "^sha256: [0-9a-f]{64} exercises/$folder/gpu.c$" "$m" || fail "manifest without the file's SHA-256: $m"
        grep -qxF "run: speedlab $kernel --size 128 --min-time 0.01 --variant gpu,cuda" "$m" ||
            fail "manifest without the runner's options: $m"
    done
    cluster_gone
}
