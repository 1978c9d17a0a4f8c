#!/bin/sh
# mpi.sh - end-to-end: lesson 6's MPI + OpenMP variants under a real
# mpirun. Every case has a time limit of its own (--timeout) besides
# CTest's, so a rank that hangs fails the case instead of stalling it.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# Exact validation at 1, 2 and 3 ranks with 1 and 2 threads per rank: each
# hybrid variant's answer is the single-process reference's, by the
# single-process checks; and the exercises tree, untouched, is right too (slow, not wrong).
# registrations_gone WHAT FILES: none of FILES is left once the job has
# ended, however its ranks ended (a rank's own SIGTERM handler, or the
# driver after mpirun: common/omp_leftovers.h).
registrations_gone() {
    if [ -z "$2" ]; then
        echo "not checked ($1): no rank's runtime registration seen (GNU's OpenMP runtime makes none; a slow start is the other reason)"
        return
    fi
    left=$(for f in $2; do [ -e "$f" ] && echo "$f"; done)
    [ -z "$left" ] && ok "$1: the ranks' runtime registrations removed ($(echo $2 | wc -w) seen)" ||
        { fail "$1: runtime registrations left: $left"; rm -f $left; }
}

case_exact() {
    solutions=$1; exercises=$2
    expect_rc 0 "solutions: every hybrid variant valid at 1, 2, 3 ranks x 1, 2 threads" \
        "$solutions" --check --ranks 1,2,3 --threads 1,2 --timeout 60
    n=$(grep -c ': valid$' "$tmp/out")
    [ "$n" -eq 36 ] && ok "36 configurations validated (6 variants x 3 ranks x 2 threads)" ||
        fail "$n configurations said valid, expected 36"
    # Every hybrid variant the kernels declare, at every shape.
    one=$(grep -cE ' 1 rank\(s\) x 1 thread\(s\): valid$' "$tmp/out")
    for rt in "3 rank(s) x 2" "2 rank(s) x 1"; do
        m=$(grep -cF " $rt thread(s): valid" "$tmp/out")
        [ "$m" -eq "$one" ] && [ "$m" -gt 0 ] && ok "all $m hybrid variants at $rt: valid" ||
            fail "$m of $one hybrid variants valid at $rt"
    done
    expect_rc 0 "exercises as shipped: right at 1 and 3 ranks" \
        "$exercises" --check --ranks 1,3 --threads 2 --timeout 60
}

# mpirun late to acknowledge a rank's MPI_Finalize, as a loaded machine's
# can be (seen in CI, twice): gdb holds mpirun 3 s in Open MPI 4's handler
# of a rank's finalize, past the 2 s the rank waits for it. The rank did
# finalize, so the launch must still succeed (bench/mpi_main.c's driver).
case_late_finalize() {
    solutions=$1
    if ! command -v gdb >/dev/null 2>&1 ||
       ! gdb -q -batch -ex run -ex "quit \$_exitcode" --args true >/dev/null 2>&1; then
        echo "not checked: a late finalize (needs gdb, allowed to run a program)"; return
    fi
    cat >"$tmp/late.gdb" <<EOF
set pagination off
set breakpoint pending on
set disable-randomization off
handle SIGPIPE nostop noprint pass
break pmix_server_client_finalized_fn
commands
silent
shell echo held >>"$tmp/held"; sleep 3
continue
end
run
quit \$_exitcode
EOF
    printf '#!/bin/sh\nexec gdb -q -batch -x "%s" --args "%s" "$@"\n' "$tmp/late.gdb" \
        "$(command -v mpirun)" >"$tmp/late-mpirun"
    chmod +x "$tmp/late-mpirun"
    SPEEDLAB_MPIRUN="$tmp/late-mpirun" expect_rc 0 "mpirun 3 s late to answer a rank's finalize" \
        "$solutions" --check --kernel ${e2e_example} --size 100000 --ranks 1 --threads 1 --timeout 60
    [ -s "$tmp/held" ] && ok "gdb held mpirun at the rank's finalize" ||
        echo "not checked: gdb did not hold mpirun at Open MPI 4's finalize handler (another MPI?)"
}

# Bad input: every case ends, as stated, within its limit.
case_bad_input() {
    solutions=$1; broken=$2
    # Work that does not divide: the probe sizes are primes (1000003 steps
    # or samples; images: 67 rows) and 3 ranks; checked exactly above.
    # More ranks than rows: a 2 x 2 image on 3 ranks; the idle rank is said.
    expect_rc 0 "more ranks than rows: still exact" \
        "$solutions" --check --kernel ${e2e_image} --size 2 --ranks 3 --threads 1 --timeout 60
    expect_in "$tmp/out" "1 of 3 ranks had no rows (more ranks than rows)" "the idle rank is said"
    expect_rc 0 "--size smaller than the ranks: still exact" \
        "$solutions" --check --kernel ${e2e_example},${e2e_seeded} --size 2 --ranks 3 --threads 2 --timeout 60
    case_late_finalize "$solutions"
    # A rank whose share is wrong (the kernel whose planted mpi.c is):
    # rank 0 names it, exit 3, nothing hangs.
    start=$(date +%s)
    expect_rc 3 "a wrong rank exits 3" \
        "$broken" --check --kernel ${e2e_wrong_rank} --ranks 2,3 --threads 1 --timeout 30
    expect_in "$tmp/err" "rank 1 of 2: " "rank 0 names rank 1 of 2"
    expect_in "$tmp/err" "rank 1 of 3: " "rank 0 names rank 1 of 3"
    expect_not_in "$tmp/err" "rank [02] of" "and no other rank"
    [ $(( $(date +%s) - start )) -lt 30 ] && ok "no hang" || fail "took 30 s or more"
    # Timed, the wrong configuration is flagged in the run, never timed.
    expect_rc 3 "a wrong rank in a timed run: exit 3, results written" \
        "$broken" --kernel ${e2e_wrong_rank} --size 100000 --ranks 2 --threads 1 --reps 1 \
        --min-time 0.01 --results "$tmp/r" --timeout 60
    run="$tmp/r/$(readlink "$tmp/r/latest")"
    [ "$(csv_get "$run/results.csv" valid kernel=${e2e_wrong_rank} variant=hybrid ranks=2)" = no ] &&
        ok "results.csv flags it valid=no" || fail "results.csv does not flag the wrong rank"
    expect_in "$run/summary.md" "INVALID" "the summary says INVALID"
    # OMP_THREAD_LIMIT caps a rank's threads: a count above it is refused,
    # and the default list keeps only what fits (no row claims "x 2").
    expect_rc 2 "OMP_THREAD_LIMIT=1 and --threads 2" env OMP_THREAD_LIMIT=1 \
        "$solutions" --check --kernel ${e2e_example} --threads 1,2 --timeout 60
    expect_in "$tmp/err" "--threads 2 is more than OMP_THREAD_LIMIT=1" "says the limit"
    expect_rc 0 "OMP_THREAD_LIMIT=1, default threads" env OMP_THREAD_LIMIT=1 \
        "$solutions" --check --kernel ${e2e_example} --ranks 1 --timeout 60
    expect_not_in "$tmp/out" "x 2 thread" "no row at 2 threads under OMP_THREAD_LIMIT=1"
    # --bind core with more ranks than the job's cores: Open MPI would
    # refuse that launch after the first was measured; refused while
    # planning instead (exit 2, one line), nothing launched or written.
    # The core count is the job's (SLURM_JOB_CPUS_PER_NODE), planted low.
    for ranks in 2 1,3 4; do
        expect_rc 2 "--bind core, $ranks ranks on a 1-core job" env SLURM_JOB_CPUS_PER_NODE=1 \
            "$solutions" --kernel ${e2e_example} --ranks $ranks --bind core --quick --results "$tmp/bind"
        one_line "--bind core, $ranks ranks"
        expect_in "$tmp/err" "this job has 1 core(s), and Open MPI binds no two ranks to one core" \
            "--bind core, $ranks ranks: says why"
    done
    [ ! -e "$tmp/bind" ] && ok "--bind core refused: nothing written" || fail "--bind core refused: $tmp/bind written"
    # Any launch mpirun would refuse is tried (quietly, nothing measured)
    # while planning: here a hostfile that gives this node one slot (as a
    # SLURM job with one task does), so 2 ranks need slots it has not.
    echo "localhost slots=1" >"$tmp/hosts"
    # (Open MPI 4 reads the first variable, Open MPI 5's PRRTE the second.)
    expect_rc 2 "2 ranks where the node has one slot" env OMPI_MCA_orte_default_hostfile="$tmp/hosts" \
        PRTE_MCA_prte_default_hostfile="$tmp/hosts" \
        "$solutions" --kernel ${e2e_example} --ranks 1,2 --threads 1 --quick --results "$tmp/slots"
    one_line "one slot, 2 ranks"
    expect_in "$tmp/err" "2 rank(s) x 1 thread(s): mpirun cannot launch them here (" "names the launch"
    expect_match "$tmp/err" "slots" "and gives mpirun's reason"
    expect_not_in "$tmp/out" "^== " "nothing launched for measuring"
    [ ! -e "$tmp/slots" ] && ok "one slot: nothing written" || fail "one slot: $tmp/slots written"
    # Ctrl-C on the launcher: mpirun runs in a process group of its own,
    # so the launcher stops it and its ranks; exit 130, nothing kept, no
    # rank left running.
    in_background "$solutions" --kernel ${e2e_example} --size 2000000000 --ranks 2 --threads 1 --reps 5 \
        --min-time 0.5 --results "$tmp/mi"
    for _ in $(seq 1 300); do grep -q '^== 2 rank' "$tmp/out" && break; sleep 0.1; done
    sleep 1
    seen=$(registrations $(pgrep -f -- "--worker $tmp/mi/"))
    kill -INT "$pid"
    wait "$pid"; rc=$?
    [ "$rc" -eq 130 ] && ok "Ctrl-C on the launcher: exit 130" || fail "Ctrl-C on the launcher: exit $rc"
    sleep 0.5
    left=$(pgrep -f "$tmp/mi/" | wc -l)
    [ "$left" -eq 0 ] && ok "Ctrl-C on the launcher: no mpirun or rank left" ||
        { fail "Ctrl-C on the launcher: $left process(es) left"; pkill -f "$tmp/mi/"; }
    registrations_gone "Ctrl-C on the launcher" "$seen"
    [ -z "$(ls -A "$tmp/mi" 2>/dev/null)" ] && ok "Ctrl-C on the launcher: nothing kept" ||
        fail "Ctrl-C on the launcher: left $(ls -A "$tmp/mi")"
    expect_in "$tmp/err" "stopping: mpirun and its ranks, now" "Ctrl-C on the launcher: says so"
    # mpirun missing: exit 4 with the install command.
    SPEEDLAB_MPIRUN=/nonexistent/mpirun expect_rc 4 "mpirun missing: exit 4" \
        "$solutions" --check --kernel ${e2e_example}
    expect_in "$tmp/err" "apt-get install openmpi-bin libopenmpi-dev" "it prints the install command"
    one_line "mpirun missing"
    # Refused before anything runs: exit 2, one line.
    for args in "--ranks 0" "--ranks 1,x" "--kernel $typo" "--kernel ${e2e_image} --size 50000" \
                "--threads 1,1" "--bind socket" "--timeout -1"; do
        # shellcheck disable=SC2086
        expect_rc 2 "refused: $args" "$solutions" $args
        one_line "$args"
    done
    # A hung job: stopped at the limit, exit 1, and no run folder.
    before=$(ls "$tmp/r" | wc -l)
    start=$(date +%s)
    expect_rc 1 "a job past --timeout is stopped: exit 1" \
        "$solutions" --kernel ${e2e_image} --size 2048 --ranks 2 --threads 1 --reps 5 \
        --results "$tmp/r" --timeout 1
    expect_in "$tmp/err" "did not finish within 1 s: stopped" "it says why"
    [ $(( $(date +%s) - start )) -lt 15 ] && ok "stopped within seconds" || fail "not stopped in 15 s"
    [ "$(ls "$tmp/r" | wc -l)" -eq "$before" ] && ok "nothing published" || fail "a run folder appeared"
    # The stopped job's ranks leave no OpenMP runtime registration
    # (registrations above). (A small image timed long: the rank's
    # runtime starts at once.)
    "$solutions" --kernel ${e2e_image} --size 256 --ranks 1 --threads 1 --reps 100 \
        --min-time 1 --results "$tmp/r" --timeout 2 >/dev/null 2>"$tmp/err" &
    job=$!; seen=""
    while kill -0 "$job" 2>/dev/null; do
        for f in $(registrations $(pgrep -f -- "^$solutions --worker $tmp/r/")); do
            case " $seen " in *" $f "*) ;; *) seen="$seen $f" ;; esac
        done
        sleep 0.1
    done
    wait "$job"
    registrations_gone "a job past --timeout" "$seen"
    # A limit shorter than mpirun takes to start (a busy machine's, or here
    # one no mpirun meets): the tried launch is stopped and said as a
    # timeout, exit 1, never as a launch this machine cannot hold.
    expect_rc 1 "a limit mpirun cannot start in: exit 1" \
        "$solutions" --kernel ${e2e_image} --size 2048 --ranks 2 --threads 1 \
        --results "$tmp/r" --timeout 0.01
    expect_in "$tmp/err" "did not finish within 0.01 s: stopped" "a tried launch's timeout is said"
    one_line "a tried launch's timeout"
    [ "$(ls "$tmp/r" | wc -l)" -eq "$before" ] && ok "nothing published" || fail "a run folder appeared"
    # A killed rank: the job ends within seconds, with a clear error, and
    # the earlier run is intact.
    old=$(readlink "$tmp/r/latest")
    "$solutions" --kernel ${e2e_image} --size 2048 --ranks 2 --threads 1 --reps 20 \
        --results "$tmp/r" --timeout 120 >"$tmp/kout" 2>"$tmp/kerr" &
    pid=$!
    victim=""
    for _ in $(seq 1 200); do
        # This run's ranks only (their fragments are under $tmp/r): never
        # another test's or user's.
        victim=$(pgrep -f -- "--worker $tmp/r/.* ${e2e_image}=" | tail -1)
        [ -n "$victim" ] && break
        sleep 0.05
    done
    sleep 0.5
    # Under LLVM's runtime, killed once registered (its runtime started).
    if ldd "$solutions" 2>/dev/null | grep -q 'libomp\.so'; then
        for _ in $(seq 1 100); do [ -n "$(registrations "$victim")" ] && break; sleep 0.1; done
    fi
    seen=$(registrations $(pgrep -f -- "--worker $tmp/r/.* ${e2e_image}="))
    [ -n "$victim" ] && kill -9 "$victim"
    start=$(date +%s)
    wait "$pid"
    rc=$?
    [ "$rc" -eq 1 ] && ok "a killed rank: exit 1" || fail "a killed rank: exit $rc"
    registrations_gone "a killed rank" "$seen"
    [ $(( $(date +%s) - start )) -lt 20 ] && ok "ended within seconds" || fail "took 20 s or more"
    grep -q "mpirun exited with status\|killed by signal" "$tmp/kerr" && ok "it says a rank failed" ||
        fail "no clear error: $(tail -2 "$tmp/kerr")"
    [ "$(readlink "$tmp/r/latest")" = "$old" ] && [ -s "$tmp/r/$old/results.csv" ] &&
        ok "the earlier run is intact" || fail "the earlier run was touched"
    [ -z "$(ls -A "$tmp/r" | grep partial)" ] && ok "no partial folder left" || fail "a partial folder is left"
}

# A small timed grid: the run folder has the ranks column, the grid table,
# the compute / communication split and a figure per kernel.
case_bench() {
    solutions=$1; bench=$2
    expect_rc 0 "a timed grid" "$solutions" --kernel ${e2e_image},${e2e_example} --size 256 --ranks 1,2,4 \
        --threads 1 --reps 2 --min-time 0.01 --results "$tmp/r" --timeout 120
    run="$tmp/r/$(readlink "$tmp/r/latest")"
    head -1 "$run/results.csv" | grep -q '^tree,kernel,variant,threads_requested,.*,ranks,compute_s,' &&
        ok "results.csv: the bench's columns and a ranks column" || fail "not the bench's columns"
    [ "$(csv_get "$run/results.csv" valid kernel=${e2e_image} variant=scalar ranks=1)" = yes ] &&
        ok "the one-process scalar baseline is there" || fail "no baseline row"
    for f in hybrid-${e2e_image}.png hybrid-${e2e_example}.png summary.md index.html; do
        [ -s "$run/$f" ] && ok "$f written" || fail "$f missing"
    done
    expect_in "$run/summary.md" "| hybrid_cyclic | 2 x 1 |" "the grid has cyclic at 2 x 1"
    expect_in "$run/summary.md" "communication and waiting" "the split is there"
    expect_match "$run/summary.md" "Communication.\*\* The largest share is .* at [0-9]+ x [0-9]+: (under 1|[1-9][0-9]*)% of" \
        "the largest communication share, never '0%'"
    expect_in "$run/summary.md" "mpi_library: Open MPI" "the MPI library is recorded"
    expect_in "$run/summary.md" "rank 3:" "every rank's host and CPUs are recorded"
    expect_in "$run/index.html" "hybrid-${e2e_example}.png" "the page shows the figure"
    # The block distribution's imbalance at 4 ranks, from the work itself:
    # the middle bands hold the set's interior (about 53% at 256 x 256).
    wb=$(csv_get "$run/results.csv" work_balance variant=hybrid_block ranks=4)
    awk -v w="$wb" 'BEGIN { exit !(w > 0.3 && w < 0.75) }' &&
        ok "block at 4 ranks: work balance $wb" || fail "block at 4 ranks: work balance '$wb'"
    wc=$(csv_get "$run/results.csv" work_balance variant=hybrid_cyclic ranks=4)
    awk -v w="$wc" 'BEGIN { exit !(w > 0.95) }' &&
        ok "cyclic at 4 ranks: work balance $wc" || fail "cyclic at 4 ranks: work balance '$wc'"
    expect_in "$run/summary.md" "load imbalance" "the summary says so"
    # One report: the grid imported into a bench run (make bench MPI=1)
    # sits beside the ladder, in the same summary, page and results.csv.
    grid=$run/results.csv
    quick_bench 0 "the bench with the grid imported" "$bench" --threads 1 --no-plots --import "$grid"
    expect_in "$run/summary.md" "## Headline" "the ladder's headline"
    expect_in "$run/summary.md" "## Lesson 6: MPI + OpenMP" "and the grid's section, in one summary"
    expect_in "$run/summary.md" "load imbalance" "with its findings"
    expect_in "$run/index.html" 'id="mpi"' "on the same page"
    [ "$(csv_get "$run/results.csv" work_balance variant=hybrid_block ranks=4)" = "$wb" ] &&
        ok "results.csv carries the grid's rows as read" || fail "grid rows differ in results.csv"
    [ -s "$run/hybrid-${e2e_image}.dat" ] && ok "and its figure's data" || fail "no hybrid-${e2e_image}.dat"
    # A results folder at the kit's path limit: the fragments, the data, the
    # figure and the page all land under it.
    long=$(limit_path "$tmp/L")
    expect_rc 0 "a grid into a results folder of ${#long} characters" "$solutions" \
        --kernel ${e2e_example} --size 100000 --ranks 1,2 --threads 1 --reps 1 --min-time 0.01 \
        --results "$long" --timeout 60
    for f in results.csv summary.md index.html hybrid-${e2e_example}.dat hybrid-${e2e_example}.png; do
        [ -s "$long/latest/$f" ] || fail "$f missing under the long path"
    done
    [ -z "$(ls -A "$long" | grep -e partial -e fragment)" ] && ok "its files, and nothing half-done" ||
        fail "left under the long path: $(ls -A "$long" | tr '\n' ' ')"
    # The one reader is strict: a grid row with a broken number is refused.
    sed "s/^\\(solutions,$e2e_image,hybrid_block,1,1,0,\"\",256,[a-z]*,2,\\)[0-9.e-]*/\\1fast/" \
        "$grid" >"$tmp/bad.csv"
    expect_rc 2 "a grid row with a median that is not a number" "$bench" --quick --kernel ${e2e_example} \
        --results "$tmp/r2" --import "$tmp/bad.csv"
    expect_in "$tmp/err" "median_s 'fast' is not a finite number" "it names the column and value"
}

# The cluster template with a fake SLURM job of 1 node x 2 tasks on this
# machine: it must parse, pick the grid from SLURM's variables, and the run
# must record the job. (Open MPI reads the same variables: the node list is
# this host, so it starts the ranks here.)
case_slurm() {
    build=$1
    bash -n "$top/scripts/slurm/hybrid.sbatch" && ok "bash -n" || fail "bash -n"
    mkdir -p "$tmp/job"
    expect_rc 0 "hybrid.sbatch under a fake 1-node, 2-task job" env \
        SLURM_JOB_ID=4242 SLURM_JOBID=4242 SLURM_NNODES=1 SLURM_NTASKS=2 SLURM_NTASKS_PER_NODE=2 \
        SLURM_TASKS_PER_NODE=2 SLURM_CPUS_PER_TASK=1 SLURM_JOB_NODELIST="$(hostname)" \
        SLURM_NODELIST="$(hostname)" SLURM_SUBMIT_DIR="$tmp/job" SPEEDLAB_BUILD="$build" \
        OMP_NUM_THREADS=1 BENCH_ARGS="--kernel ${e2e_example} --size 100000 --reps 1 --min-time 0.01 --timeout 60" \
        bash "$top/scripts/slurm/hybrid.sbatch"
    run="$tmp/job/results/$(readlink "$tmp/job/results/latest")"
    expect_in "$run/summary.md" "slurm: job 4242, nodes $(hostname), tasks 2, cpus per task 1" \
        "the run records the job"
    expect_in "$run/summary.md" "launch 2 x 1: mpirun -np 2" "it ran 2 ranks (nodes x tasks per node)"
    [ "$(csv_get "$run/results.csv" valid kernel=${e2e_example} variant=hybrid ranks=2 threads_requested=1)" = yes ] &&
        ok "2 ranks x 1 thread measured" || fail "no 2 x 1 row"
}
