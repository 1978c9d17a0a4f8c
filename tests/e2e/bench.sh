#!/bin/sh
# bench.sh - end-to-end: the bench program: a quick run's files and JSON, no gnuplot, an invalid tree, signals.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

case_bench_quick() {
    bench=$1
    res="$tmp/results"
    quick_bench 0 "quick bench" "$bench" --threads 1,2
    [ -d "$run" ] || { fail "results/latest does not point at a run folder"; return; }
    for f in bench.json results.csv samples.csv summary.md index.html run.gp \
             speedup-${e2e_example}.dat scaling-${e2e_example}.dat weak-${e2e_example}.dat evidence.csv ceiling.csv; do
        [ -s "$run/$f" ] && ok "$f written" || fail "$f missing or empty"
    done
    if command -v gnuplot >/dev/null 2>&1; then
        for f in speedup-${e2e_example}.png speedup-${e2e_example}.svg scaling-${e2e_example}.png scaling-${e2e_example}.svg weak-${e2e_example}.png; do
            [ -s "$run/$f" ] && ok "$f plotted" || fail "$f missing or empty"
        done
    fi
    expect_not_in "$run/bench.json" 'NaN|Infinity|-?inf[,}]' "JSON has no NaN/Inf"
    for key in '"compiler"' '"kernel_flags"' '"openmp_version"' '"cpu_model"' \
               '"simd_isa"' '"threads_requested": "1,2"' '"threads_used"' \
               '"thread_binding"' '"thread_wait_policy"' '"gpu_variant_ran_on"' '"cores_available"'; do
        expect_in "$run/bench.json" "$key" "JSON context has $key"
    done
    expect_in "$run/bench.json" '"real_time"' "JSON has timings"
    rows=$(tail -n +2 "$run/results.csv" | wc -l)
    # scalar, simd, threads x2, threads_simd x2, lesson 1's spmd stage x2,
    # expert x2, lesson 5's four gpu stages, and the weak-scaling study's
    # threads_simd x2 (neither the stages nor the expert are in it).
    [ "$rows" -eq 16 ] && ok "CSV has 16 configurations" || fail "CSV has $rows rows, expected 16"
    valid=$(grep -c ',yes,' "$run/results.csv")
    [ "$valid" -eq 16 ] && ok "all 16 valid" || fail "$valid of 16 valid"
    # Weak scaling: 2000003 / 2 steps per thread, so 1000001 and 2000002.
    weak=$(awk -F, '$26 == "weak" { printf "%s:%s ", $4, $8 }' "$run/results.csv")
    [ "$weak" = "1:1000001 2:2000002 " ] && ok "weak study grows N with threads" ||
        fail "weak rows: '$weak'"
    # Every repetition is in samples.csv: 14 configurations x 2 clean ones
    # (and any left out by a busy machine, marked).
    got=$(samples_match "$run") && ok "samples.csv has every repetition" ||
        fail "samples.csv disagrees with results.csv: $got"
    for v in gpu_v1 gpu_v2 gpu gpu_v4; do
        grep ",$v," "$run/results.csv" | grep -qE ',(host fallback|device),' &&
            ok "$v row says where it ran" || fail "$v row missing, or does not say where it ran"
    done
    expect_in "$run/summary.md" "| ${e2e_example} | threads_simd | 2 |" "summary has the speedup table"
    # 2 repetitions cover the median only half the time: no table, context
    # or plot may call that a 95% interval. A busy machine can leave one
    # out (stalled, disturbed) or add a replacement: the label follows the
    # fewest repetitions a row kept.
    fewest=$(csv_get "$run/results.csv" repetitions valid=yes | sort -n | head -1)
    case $fewest in
        1) label="no interval: 1 repetition" ;;
        2) label="50% CI" ;;
        3) label="75% CI" ;;
        *) label="unexpected: $fewest repetitions" ;;
    esac
    expect_in "$run/summary.md" "median [$label]" "the tables name the interval of $fewest repetitions"
    expect_not_in "$run/summary.md" "95% CI" "no 95% label on $fewest repetitions"
    expect_in "$run/run.gp" "interval = \"$label\"" "the plots are told the interval's coverage"
    ls -a "$res" | grep -q partial && fail "a .partial folder was left" || ok "no partial folder"

    # OMP_THREAD_LIMIT=1: the 2-thread rows ran on 1; they say so, the
    # summary warns with the cause, and the scaling study leaves them out.
    OMP_THREAD_LIMIT=1 "$bench" --quick --kernel ${e2e_example} --size 100003 --reps 2 --min-time 0.01 \
        --no-plots --results "$tmp/limit" >"$tmp/out" 2>"$tmp/err"
    lrun="$tmp/limit/$(readlink "$tmp/limit/latest")"
    expect_in "$lrun/summary.md" "| ${e2e_example} | threads_simd | 1 (2 asked) |" "a short row says how many it asked for"
    expect_in "$lrun/summary.md" "got fewer threads than they asked for (OMP_THREAD_LIMIT=1)" \
        "the summary warns with the cause"
    n=$(awk '/^"/ { b = /^"threads_simd"/; next } b && NF == 7 { c++ } END { print c + 0 }' "$lrun/scaling-${e2e_example}.dat")
    [ "$n" -eq 1 ] && ok "the scaling study keeps only the 1-thread point" || fail "scaling has $n points"

    # A SLURM job whose step got fewer CPUs than it asked for (faked: the
    # variable, and taskset to one CPU): the console and the summary warn
    # with the fix.
    if command -v taskset >/dev/null 2>&1; then
        SLURM_JOB_ID=1 SLURM_CPUS_PER_TASK=8 taskset -c 0 "$bench" --quick --kernel ${e2e_example} --size 100003 \
            --reps 2 --min-time 0.01 --no-plots --results "$tmp/slurm" >"$tmp/out" 2>"$tmp/err"
        srun="$tmp/slurm/$(readlink "$tmp/slurm/latest")"
        expect_in "$tmp/out" "warning: SLURM_CPUS_PER_TASK=8, but this process may use 1 CPU(s)" \
            "SLURM under taskset: the console warns"
        expect_in "$tmp/out" "srun --cpus-per-task=8, or export SRUN_CPUS_PER_TASK=8" "SLURM: says the fix"
        expect_in "$srun/summary.md" "**SLURM gave fewer CPUs than asked**" "SLURM: the summary warns"
    fi

    # A second run leaves the first untouched and moves latest.
    sum1=$(cat "$run"/* | cksum)
    sleep 1
    first=$run
    quick_bench 0 "second quick bench" "$bench" --threads 1 --no-plots
    [ "$(cat "$first"/* | cksum)" = "$sum1" ] && ok "first run untouched" || fail "first run changed"
    [ "$run" != "$first" ] && ok "latest moved" || fail "latest not moved"
}

case_bench_no_gnuplot() {
    bench=$1
    res="$tmp/results"
    bin_without_gnuplot
    expect_rc 0 "bench without gnuplot" env PATH="$tmp/bin" "$bench" --quick --kernel ${e2e_example} --size 200003 \
        --reps 2 --min-time 0.01 --threads 1 --results "$res"
    run="$res/$(readlink "$res/latest")"
    [ -s "$run/results.csv" ] && [ -s "$run/bench.json" ] && [ -s "$run/speedup-${e2e_example}.dat" ] &&
        ok "data written without gnuplot" || fail "data missing without gnuplot"
    n=$(find "$run" -name '*.png' -o -name '*.svg' | wc -l)
    [ "$n" -eq 0 ] && ok "no images without gnuplot" || fail "$n images without gnuplot"
    # sudo only for a user who is not root (issue 16).
    if [ "$(id -u)" = 0 ]; then want="to get it: apt-get install gnuplot-nox"
    else want="to get it: sudo apt-get install gnuplot-nox"; fi
    expect_in "$tmp/out" "$want" "says how to install gnuplot"
}

case_bench_invalid() {
    bench=$1
    quick_bench 3 "broken tree exits 3" "$bench" --threads 1,2
    n=$(grep -c ",$e2e_example,threads,.*,no,host," "$run/results.csv")
    [ "$n" -eq 2 ] && ok "both threads rows flagged invalid" || fail "$n threads rows flagged"
    grep ',threads,' "$run/results.csv" | awk -F, '$17 != ""' | grep -q . &&
        fail "an invalid row has a speedup" || ok "invalid rows have no speedup"
    expect_not_in "$run/speedup-${e2e_example}.dat" '^"threads"	' "invalid variant left out of the speedup plot"
    expect_in "$run/speedup-${e2e_example}.dat" '"threads_simd"	' "valid variants still plotted"
    expect_not_in "$run/scaling-${e2e_example}.dat" '^"threads"$' "invalid variant left out of the scaling plot"
    expect_in "$run/summary.md" "INVALID" "summary flags the invalid variant"
    expect_in "$tmp/out" "exit code 3" "console says why the exit code is 3"
}

# A signal mid-run (Ctrl-C, SLURM's time-limit signal): exit 128 + signal,
# what was measured written and marked interrupted, no Google Benchmark
# JSON with skipped entries, the earlier run untouched.
# Ctrl-C while plotting, sent to the whole process group as a terminal
# does: the run is published with its data and report, says its figures
# are incomplete and how to draw them, and exits 130. The gnuplot here is
# a stand-in that would sleep for 30 s.
interrupt_while_plotting() {
    bench=$1
    mkdir -p "$tmp/slow"
    printf '#!/bin/sh\necho $$ >>"%s/slow/pids"\nexec sleep 30\n' "$tmp" >"$tmp/slow/gnuplot"
    chmod +x "$tmp/slow/gnuplot"
    # setsid: its own process group, so that the signal reaches it alone.
    in_background setsid env PATH="$tmp/slow:$PATH" "$bench" --quick --kernel ${e2e_example} --size 100003 \
        --threads 1 --reps 1 --min-time 0.01 --no-weak --results "$tmp/ip"
    for _ in $(seq 1 300); do [ -s "$tmp/slow/pids" ] && break; still_running || break; sleep 0.1; done
    pgid=$(ps -o pgid= -p "$pid" | tr -d ' ')
    [ -s "$tmp/slow/pids" ] && [ "$pgid" = "$pid" ] ||
        { fail "Ctrl-C while plotting: plotting never started (group '$pgid')"; kill "$pid"; return; }
    kill -INT "-$pgid"
    wait "$pid"; rc=$?
    [ "$rc" -eq 130 ] && ok "Ctrl-C while plotting: exit 130" || fail "Ctrl-C while plotting: exit $rc"
    expect_in "$tmp/out" "interrupted by signal 2 while plotting: the data and the report are complete" \
        "Ctrl-C while plotting: says what is complete"
    run="$tmp/ip/$(readlink "$tmp/ip/latest")"
    [ -s "$run/results.csv" ] && ok "Ctrl-C while plotting: the run is published" ||
        fail "Ctrl-C while plotting: no run: $(ls -A "$tmp/ip")"
    expect_in "$run/summary.md" "a signal stopped the plotting" "Ctrl-C while plotting: the report says so"
}

case_interrupt() {
    bench=$1
    quick_bench 0 "an earlier run" "$bench" --threads 1 --no-plots
    earlier=$run; sum=$(cat "$earlier"/* | cksum)
    for sig in TERM INT; do
        in_background "$bench" --kernel ${e2e_example} --size 100000000 --threads 1,2 --reps 6 \
            --min-time 0.2 --no-plots --verbose --benchmark_enable_random_interleaving=false \
            --results "$tmp/results"
        wait_for_first_config
        kill -"$sig" "$pid"
        # SIGTERM twice, a moment apart, as timeout(1) sends it (to the
        # process, then its group): one request, not "stop at once".
        [ "$sig" = TERM ] && sleep 0.2 && kill -TERM "$pid"
        wait "$pid"
        rc=$?
        want=$([ "$sig" = TERM ] && echo 143 || echo 130)
        [ "$rc" -eq "$want" ] && ok "SIG$sig: exit $rc" || fail "SIG$sig: exit $rc, expected $want"
        run="$tmp/results/$(readlink "$tmp/results/latest")"
        expect_in "$run/summary.md" "**INTERRUPTED**" "SIG$sig: summary marked interrupted"
        # No ceiling was probed after the signal: no reason held against one.
        expect_in "$run/summary.md" "not known: the run stopped before the machine's ceilings" \
            "SIG$sig: 'what limits it' claims nothing unmeasured"
        expect_not_in "$run/summary.md" "one lane per instruction" "SIG$sig: no model's reason"
        grep -q ',interrupted,' "$run/results.csv" && ok "SIG$sig: CSV marks the rest" ||
            fail "SIG$sig: no interrupted rows in the CSV"
        n=$(grep -c ',yes,' "$run/results.csv")
        [ "$n" -ge 1 ] && ok "SIG$sig: $n configuration(s) measured in full kept" ||
            fail "SIG$sig: nothing kept"
        [ ! -e "$run/bench.json" ] && ok "SIG$sig: no JSON with skipped entries" ||
            fail "SIG$sig: bench.json written"
        ls -a "$tmp/results" | grep -q partial && fail "SIG$sig: a .partial folder left" ||
            ok "SIG$sig: no partial folder"
        expect_in "$tmp/err" "stopping: finishing the repetition in progress" "SIG$sig: says what it does"
    done
    [ "$(cat "$earlier"/* | cksum)" = "$sum" ] && ok "earlier run untouched" || fail "earlier run changed"
    # A second Ctrl-C, a person's, a second or more later: at once, nothing
    # published. (The first lets the repetition in progress finish: 6 s,
    # long enough beside other tests; two configurations, so calibrating
    # them before the timing line takes about a second.)
    latest=$(readlink "$tmp/results/latest")
    in_background "$bench" --kernel ${e2e_example} --variant simd --threads 1 --no-weak \
        --size 100000000 --reps 6 --min-time 6 --no-plots --results "$tmp/results"
    wait_for_first_timing
    kill -INT "$pid"; sleep 1.2; kill -INT "$pid"
    wait "$pid"; rc=$?
    [ "$rc" -eq 130 ] && [ "$(readlink "$tmp/results/latest")" = "$latest" ] &&
        ok "a second SIGINT 1.2 s later: stopped at once, nothing published" ||
        fail "a second SIGINT 1.2 s later: exit $rc, latest $(readlink "$tmp/results/latest")"
    rm -rf "$tmp/results"/.*.partial
    interrupt_while_plotting "$bench"
    # SIGKILL leaves its partial folder; the next run removes it and says
    # so, and leaves alone the partial folder of a run still going.
    in_background "$bench" --kernel ${e2e_example} --size 100000000 --threads 1 --reps 6 \
        --min-time 0.2 --no-plots --results "$tmp/results"
    wait_for_first_timing
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    ls -a "$tmp/results" | grep -q partial && ok "SIGKILL: its partial folder stays" ||
        fail "SIGKILL: no partial folder (was the run killed?)"
    mkdir "$tmp/results/.alive.partial"
    # This shell holds the live run's lock, as a running bench does.
    exec 8>"$tmp/results/.alive.partial/.owner.lock"
    flock 8 2>/dev/null || echo "interrupt: no flock(1): the live folder is only recent"
    quick_bench 0 "the run after a SIGKILL" "$bench" --threads 1 --no-plots
    expect_in "$tmp/out" "removed 1 unfinished run folder(s) left in $tmp/results by runs that were killed" \
        "the next run removes the killed run's folder and says so"
    [ "$(ls -a "$tmp/results" | grep -c partial)" -eq 1 ] && [ -d "$tmp/results/.alive.partial" ] &&
        ok "a live run's partial folder is left alone" || fail "partial folders: $(ls -a "$tmp/results" | grep partial)"
    exec 8>&-
    [ ! -e "$run/.owner.lock" ] && ok "a published run holds no lock file" || fail "lock file published"
}

# The POSIX fallback (bench/run/platform.c, what a Mac compiles), forced
# on Linux: every check of the quick bench holds, the bench says it did not
# measure the machine's quietness, and the runner finds its own file
# through PATH to isolate each variant.
case_posix() {
    bench=$1
    runner=$2
    case_bench_quick "$bench"
    [ -d "$run" ] || { fail "no run folder"; return; }
    expect_match "$run/bench.json" '"platform": "POSIX fallback"' "the context names the platform"
    expect_match "$run/bench.json" '"quietness": "not measured \(the POSIX fallback' \
        "the context says quietness was not measured, and why"
    expect_match "$run/summary.md" "quietness was \*\*not measured\*\*" "the summary says so"
    expect_not_in "$run/results.csv" ",disturbed," "no repetition is called disturbed"
    # By its bare name, as a participant's shell finds it: the variants are
    # validated in children started from the file PATH led to.
    dir=$(cd "$(dirname "$runner")" && pwd)
    expect_rc 0 "the runner by name through PATH" env PATH="$dir:$PATH" "$(basename "$runner")" \
        ${e2e_example} --min-time 0.01 --size 100003 --reps 1 --results "$tmp/runner"
    row_right "$tmp/out" "exercises +scalar " "the exercises' scalar row, validated in a child"
    expect_in "$tmp/out" "quietness was not measured" "the runner says quietness was not measured"
}

# Hybrid cores from a planted sysfs (SPEEDLAB_SYSFS_ROOT): per-CPU
# cpu_capacity, and Intel's cpu_core/cpu_atom lists. The context names the
# fast CPUs, run.gp counts them, the scaling figure marks them.
case_hybrid() {
    bench=$1
    runner=$2
    sys="$tmp/sys"
    for i in 0 1; do mkdir -p "$sys/devices/system/cpu/cpu$i"; done
    echo 1024 >"$sys/devices/system/cpu/cpu0/cpu_capacity"
    echo 512 >"$sys/devices/system/cpu/cpu1/cpu_capacity"
    SPEEDLAB_SYSFS_ROOT="$sys" quick_bench 0 "a bench on planted big.LITTLE cores" "$bench" --threads 1,2
    expect_match "$run/bench.json" '"hybrid_cores": "1 fast CPU\(s\) \(0\) of 2, told apart by cpu_capacity 1024 against 512"' \
        "the context names the fast CPU and how it was told apart"
    expect_match "$run/run.gp" '^fast_cores = 1$' "run.gp counts the fast cores"
    if command -v gnuplot >/dev/null 2>&1; then
        expect_in "$run/scaling-${e2e_example}.svg" "1 fast core" "the scaling figure marks the fast cores"
    fi
    # The runner's first line says which cores are fast, and what it uses.
    expect_rc 0 "the runner on planted big.LITTLE cores" env SPEEDLAB_SYSFS_ROOT="$sys" "$runner" \
        ${e2e_example} --min-time 0.01 --size 100003 --reps 1 --no-plots --results "$tmp/runner"
    expect_match "$tmp/out" "^speedlab ${e2e_example}: .*, 2 cores \(1 fast, 1 slow; threads: 2\)," \
        "the runner's header names the fast cores and the threads it uses"
    # Intel's form: P-cores listed apart from E-cores.
    rm -r "$sys" && mkdir -p "$sys/devices/cpu_core" "$sys/devices/cpu_atom"
    echo 1 >"$sys/devices/cpu_core/cpus"
    echo 0 >"$sys/devices/cpu_atom/cpus"
    SPEEDLAB_SYSFS_ROOT="$sys" quick_bench 0 "a bench on planted P- and E-cores" "$bench" --threads 1 --no-plots
    expect_match "$run/bench.json" '"hybrid_cores": "1 fast CPU\(s\) \(1\) of 2, told apart by Intel' \
        "Intel's P-core list names CPU 1"
    # Every CPU alike (an empty tree): nothing claimed, no mark.
    rm -r "$sys" && mkdir -p "$sys"
    SPEEDLAB_SYSFS_ROOT="$sys" quick_bench 0 "a bench where the system does not say" "$bench" --threads 1 --no-plots
    expect_match "$run/bench.json" '"fast_cores": "0"' "no fast cores claimed"
    expect_match "$run/run.gp" '^fast_cores = 0$' "run.gp: 0"
}

# A file or a folder of the user's named latest in the results folder: the
# bench refuses before measuring (exit 2, one line naming it) and leaves it
# and the folder as they were.
case_bench_latest_theirs() {
    bench=$1
    for kind in file folder; do
        res="$tmp/latest-$kind"
        mkdir -p "$res"
        if [ "$kind" = file ]; then echo "my notes" >"$res/latest"
        else mkdir "$res/latest" && echo "my notes" >"$res/latest/notes"; fi
        expect_rc 2 "bench with a $kind named latest" "$bench" --quick --kernel ${e2e_example} \
            --size 200003 --reps 2 --min-time 0.01 --threads 1 --results "$res"
        one_line "the refusal ($kind)"
        expect_in "$tmp/err" "is not the kit's link (a file or folder of yours?): left as it is" \
            "the refusal says the $kind is left as it is"
        if [ "$kind" = file ]; then got=$(cat "$res/latest"); else got=$(cat "$res/latest/notes"); fi
        [ "$got" = "my notes" ] && ok "the $kind is unchanged" || fail "the $kind now holds '$got'"
        [ "$(ls -A "$res")" = latest ] && ok "nothing else written ($kind)" ||
            fail "written beside the $kind: $(ls -A "$res" | tr '\n' ' ')"
    done
}

# Rows another program wrote (here the bench itself, labelled as another
# tree) are judged again on import against this run's own reference: what
# crossed the file must read back as it was. Several sizes of the seeded
# kernel, whose tolerances have many digits (at 2000003 a tolerance
# written to 3 digits read back larger than this run's: exit 3).
case_bench_import_exact() {
    bench=$1
    for n in 1000003 2000003 3000017 5000011; do
        "$bench" --quick --kernel ${e2e_seeded} --variant scalar,threads_simd --size ${e2e_seeded}=$n \
            --no-weak --min-time 0.01 --reps 2 --no-plots --label other --results "$tmp/a$n" \
            >/dev/null 2>&1 || { fail "the labelled run at $n"; continue; }
        expect_rc 0 "rows of size $n imported and judged again" "$bench" --quick --kernel ${e2e_seeded} \
            --variant scalar --size ${e2e_seeded}=$n --no-weak --min-time 0.01 --reps 2 --no-plots \
            --results "$tmp/b$n" --import "$tmp/a$n/latest/results.csv"
        n_valid=$(csv_get "$tmp/b$n/latest/results.csv" variant tree=other valid=yes | wc -l)
        n_bad=$(csv_get "$tmp/b$n/latest/results.csv" variant tree=other valid=no | wc -l)
        [ "$n_valid" -ge 2 ] && [ "$n_bad" = 0 ] && ok "all $n_valid imported rows valid at $n" ||
            fail "imported rows at $n: $n_valid valid, $n_bad not"
    done
    # --no-baseline (the GPU bundle's clang half): rows with no scalar of
    # their own tree, whose speedups come from the importing run's scalar
    # (such an import once crashed the bench writing its plot data).
    "$bench" --quick --kernel ${e2e_seeded} --variant threads_simd --no-baseline --no-weak \
        --min-time 0.01 --reps 2 --no-plots --label nobase --results "$tmp/c" >/dev/null 2>&1 ||
        fail "the --no-baseline run"
    [ -z "$(csv_get "$tmp/c/latest/results.csv" variant variant=scalar)" ] &&
        ok "--no-baseline: no scalar row" || fail "--no-baseline: a scalar row was timed"
    expect_rc 0 "rows without a scalar imported" "$bench" --quick --kernel ${e2e_seeded} \
        --variant scalar --no-weak --min-time 0.01 --reps 2 --label mine --results "$tmp/d" \
        --import "$tmp/c/latest/results.csv"
    sp=$(csv_get "$tmp/d/latest/results.csv" speedup_vs_scalar tree=nobase variant=threads_simd | head -1)
    awk -v s="${sp:-0}" 'BEGIN { exit !(s > 0) }' &&
        ok "their speedup, over this run's scalar: $sp" || fail "their speedup: '$sp'"
}
