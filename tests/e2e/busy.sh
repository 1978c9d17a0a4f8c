#!/bin/sh
# busy.sh - end-to-end: a planted CPU-bound process, and what the bench and
# the runner say about it. The one area whose subject is how busy the
# machine is: it may read the runner's speed verdicts, and every check
# holds however much *more* load runs beside it (stress-ng, a second test).
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# cpus_allowed: the CPUs this test may run on, one per line (none where
# /proc does not say).
cpus_allowed() {
    awk '/^Cpus_allowed_list:/ { n = split($2, r, ",")
        for (i = 1; i <= n; i++) { m = split(r[i], b, "-"); for (c = b[1]; c <= b[m]; c++) print c } }' \
        /proc/self/status 2>/dev/null
}

# busy_loops SECONDS [N]: CPU-bound processes (other users' jobs), one on
# each CPU this test may use, or on the first N, for at most SECONDS and not past this
# test; their pids in $busy. A load meant to outlast a command is killed
# after it, not timed to: under CI's load the quick bench below has taken
# over 60 s, and its last probes then ran quiet, faster, and were kept
# unmarked. Each loop is pinned to its own CPU (where taskset is), so the
# measured program shares its core whichever it runs on: beside two free
# loops, twice in CI on a 2-core VM, a probe ran at its quiet rate and
# unmarked, so no loop was on its core and the other core's time did not
# show in its window (that core taken away by the VM's host, likely).
busy_loops() {
    cpus=$(cpus_allowed)
    command -v taskset >/dev/null || cpus=
    count=$(echo "$cpus" | grep -c .)
    [ "$count" -ge 1 ] || count=$(getconf _NPROCESSORS_ONLN)
    busy=
    for i in $(seq "${2:-$count}"); do
        cpu=$(echo "$cpus" | sed -n "${i}p")
        ${cpu:+taskset -c "$cpu"} timeout "$1" sh -c "while kill -0 $$ 2>/dev/null; do :; done" &
        busy="$busy $!"
    done
    # Spinning before anything is measured: the first ceiling probe takes
    # milliseconds, less than a cold start of timeout and sh may.
    for b in $busy; do
        for _ in $(seq 100); do
            spin=$(pgrep -P "$b" | head -1)
            [ -n "$spin" ] && [ "$(awk '{ print $14 }' "/proc/$spin/stat" 2>/dev/null || echo 0)" -ge 10 ] && break
            sleep 0.02
        done
    done
}

# Interference: a planted CPU-bound process must never leave a silently
# corrupted number. The bench, loaded throughout and no re-measuring: every
# configuration is flagged disturbed everywhere. Loaded at the start only:
# the disturbed configurations are measured again, clean, and the summary
# says so; no kept repetition ran under the load unflagged.
case_busy() {
    bench=$1
    busy_loops 600
    expect_rc 0 "bench under load, --retry-busy 0" "$bench" --quick --kernel ${e2e_example} \
        --size 20000003 --threads 1,2 --no-weak --reps 3 --min-time 0.1 --retry-busy 0 \
        --no-plots --results "$tmp/r0"
    kill $busy 2>/dev/null; wait $busy 2>/dev/null
    run="$tmp/r0/$(readlink "$tmp/r0/latest")"
    # Columns: others_cpu 32, disturbed_reps 33, contaminated 34, remeasured 35.
    awk -F, 'NR > 1 && $22 == "yes" { n++; if ($34 != 1 || $32 < 0.3) bad++ }
             END { exit n < 8 || bad > 0 }' "$run/results.csv" &&
        ok "under load throughout: every configuration disturbed, others' CPU >= 0.3" ||
        fail "under load: $(cut -d, -f3,4,32-35 "$run/results.csv" | tr '\n' ' ')"
    expect_in "$run/summary.md" "**disturbed**" "summary warns of disturbed configurations"
    # The probes ran under the load too: every roof marked, with the other
    # processes' share of a core that marked it (column 10), on every
    # figure that uses them (the roofline's description) and in words.
    awk -F, 'NR > 1 && ($9 != "yes" || $10 < 0.25) { bad++ } END { exit NR < 4 || bad > 0 }' "$run/ceiling.csv" &&
        ok "every probe in ceiling.csv marked disturbed, others' CPU >= 0.25" ||
        fail "ceiling.csv under load: $(cat "$run/ceiling.csv")"
    expect_in "$run/roofline.gp" "fma_disturbed = 1" "the roofline marks its roofs"
    expect_in "$run/summary.md" "**Disturbed probes**" "the summary says the roofs may be low"
    expect_in "$run/summary.md" "and were not measured again (--retry-busy 0)" \
        "no claim of a re-measurement that --retry-busy 0 did not make"
    expect_in "$run/summary.md" "(disturbed)" "the headline marks them"
    expect_in "$tmp/out" "disturbed" "the console says so"
    # A run far slower than its estimate says why (when it was: the load
    # does not always slow a short run 1.5x).
    if grep -q "timing took" "$tmp/out"; then
        expect_match "$tmp/out" "timing took .*other processes used [0-9.]+ cores on average" \
            "the slow run names the other processes as the cause"
    fi
    awk -F'\t' '!/^#/ && $7 != 2 && $7 != 3 { bad++ } END { exit bad > 0 }' "$run/speedup-${e2e_example}.dat" &&
        ok "every speedup bar marked disturbed" || fail "an unmarked bar: $(cat "$run/speedup-${e2e_example}.dat")"
    # A disturbed host-fallback bar keeps its host-fallback mark: 3.
    awk -F'\t' '!/^#/ && $4 == "\"host fallback\"" && $7 != 3 { bad++ } END { exit bad > 0 }' \
        "$run/speedup-${e2e_example}.dat" && ok "a disturbed host-fallback bar is still marked host fallback" ||
        fail "a host-fallback bar lost its mark: $(grep fallback "$run/speedup-${e2e_example}.dat")"

    # Load for the first seconds of timing only: re-measured at the end.
    in_background "$bench" --quick --kernel ${e2e_example} --size 20000003 --threads 1,2 --no-weak --reps 3 \
        --min-time 0.1 --retry-busy 3 --no-plots --results "$tmp/r1"
    wait_for_first_timing
    busy_loops 2 1
    wait "$pid"; rc=$?
    wait $busy 2>/dev/null
    [ "$rc" -eq 0 ] && ok "bench with a burst of load (exit 0)" || fail "burst: exit $rc"
    run="$tmp/r1/$(readlink "$tmp/r1/latest")"
    n=$(awk -F, 'NR > 1 && $35 > 0' "$run/results.csv" | wc -l)
    [ "$n" -ge 1 ] && ok "$n configuration(s) measured again after the burst" ||
        fail "nothing re-measured after a burst of load"
    expect_in "$tmp/out" "measuring" "the console says what is measured again"
    # Every configuration is clean now, or flagged: none keeps a repetition
    # that ran under a whole core of load without saying so (a left-out
    # one, samples.csv's left_out, is not in its median). A repetition in
    # which others used under 0.03 CPU-seconds cannot be judged (quiet.h's
    # floor: the kernel counts in 10 ms ticks).
    # results.csv column 5 and samples.csv column 4 are threads_used;
    # samples.csv 11 others_cpu, 13 left_out, 14 window_s.
    awk -F, 'NR == FNR { if (FNR > 1) flag[$3 "/" $5] = $34; next }
             FNR > 1 && $11 != "" && $11 >= 0.9 && $11 * $14 >= 0.03 && $13 == "" &&
             flag[$3 "/" $4] != 1 { bad++ }
             END { exit bad > 0 }' "$run/results.csv" "$run/samples.csv" &&
        ok "no unflagged repetition ran under the load" ||
        fail "an unflagged repetition under load: $(cat "$run/samples.csv" | tr '\n' ' ')"
    grep -q "re-measured\|disturbed" "$run/summary.md" &&
        ok "the summary says what was measured again" || fail "the summary is silent"
}

# stop_until PID ERE: stop PID for 0.5 s in every 0.55 s until ERE shows in
# $tmp/out or PID ends. The stops begin at once, not when the console says
# "timing": on a busy machine the first pass can be over before a poll sees
# that line. A call of about 0.3 s (the example kernel's scalar variant at
# 3e8) spans a stop even when a loaded machine stretches the 50 ms between
# stops.
stop_until() {
    # Stopped ten times as long as it runs: even when a loaded machine
    # runs this loop late and the running stretches grow several times,
    # the bench gets well under half of each repetition's wall time.
    while kill -0 "$1" 2>/dev/null && ! grep -qE "$2" "$tmp/out"; do
        kill -STOP "$1"; sleep 0.5; kill -CONT "$1"; sleep 0.05
    done
}

# The bench itself stopped again and again during its first timing pass
# (SIGSTOP/SIGCONT, as a job suspended and resumed): other processes' CPU
# cannot see it, the bench's own CPU time can. With a re-measurement every
# repetition is measured again; without one, the configuration is marked
# disturbed and the summary says the bench was stopped.
case_stalled() {
    bench=$1
    for retry in 1 0; do
        in_background "$bench" --kernel ${e2e_example} --variant scalar --size 300000000 \
            --threads 1 --reps 3 --min-time 0.01 --no-weak --no-plots --retry-busy "$retry" \
            --results "$tmp/st$retry"
        stop_until "$pid" "measuring .* again|^probing"
        wait "$pid"; rc=$?
        [ "$rc" -eq 0 ] && ok "stopped again and again, --retry-busy $retry: exit 0" ||
            fail "stopped, --retry-busy $retry: exit $rc"
        csv="$tmp/st$retry/latest/results.csv"
        if [ "$retry" = 1 ]; then
            [ "$(csv_get "$csv" remeasured variant=scalar)" = 1 ] &&
                ok "the stalled configuration was measured again" ||
                fail "stall with a retry: remeasured '$(csv_get "$csv" remeasured variant=scalar)'"
            expect_in "$tmp/out" "measuring 1 disturbed configuration(s) again" "the console says so"
        else
            [ "$(csv_get "$csv" contaminated variant=scalar)" = 1 ] &&
                ok "without a retry: marked disturbed" || fail "stall without a retry: not marked"
            expect_in "$tmp/st0/latest/summary.md" \
                "**stalled**: 1 of 1 configurations had repetitions in which the bench itself hardly ran" \
                "the summary says the bench was stopped"
        fi
    done
}

# The runner judges busy rows from paired repetitions. Its verdicts are
# about speed, so this runs in CI's gcc stage only (a sanitizer's build is
# too slow and uneven to say how fast a rung is: there one row's pairs
# were too wide to judge).
case_busy_runner() {
    runner=$1
    # The participant's runner beside a busy loop on each core (other
    # users' jobs), both trees: the solutions' rows are right, and
    # the untouched exercises are the slow ones (scalar loops where a
    # faster rung is asked). Each gets a speed verdict from its pairs, with
    # an interval; "no speed verdict" is for pairs too noisy to judge,
    # which test_verdict plants, and which the CPU time of the busiest
    # thread does not give under plain load. Not at any size: a thread
    # that finishes first spins, and counts, up to about 2 ms a call while
    # its partner waits for a core, so a 4 ms threaded call's pairs spread
    # past SL_PAIRED_TOO_WIDE (6x to 14x, Zen 4). At 80M points the fastest
    # call takes about 15 ms, as a participant's default size takes more:
    # in the same 18 s, every interval within 1.3x.
    busy_loops 600
    expect_rc 0 "make ${e2e_example} beside busy loops" "$runner" ${e2e_example} --size 80000003
    kill $busy 2>/dev/null; wait $busy 2>/dev/null
    cp "$tmp/out" "$tmp/busy-runner"
    paired='busy: [0-9.]+x \[[0-9.]+, [0-9.]+\]'
    rows=$(grep -cE '^solutions ' "$tmp/out")
    # (Threads are judged in wall time: beside busy loops their pairs may
    # be too wide, and the row says why.)
    judged=$(grep -cE "^solutions .*(ok; busy, the baseline|$paired|right; host, not a GPU|threads need free cores)" "$tmp/out")
    [ "$rows" -ge 5 ] && [ "$judged" -eq "$rows" ] &&
        ok "all $rows solution rows judged from their pairs, with an interval" ||
        fail "beside busy loops, $judged of $rows solution rows judged: $(grep -E '^solutions ' "$tmp/out" | head -4)"
    grep -qE "^exercises .*not faster yet; $paired, solution [0-9.]+x" "$tmp/out" &&
        ok "a slow exercise: not faster yet, with its interval and the solution's figure" ||
        fail "no busy verdict for a slow exercise: $(grep -E '^exercises ' "$tmp/out" | head -4)"
    expect_not_in "$tmp/out" "machine busy, no speed verdict" "no one-thread row held back under plain load"
    expect_in "$tmp/out" "judged instead from repetitions taken side by side" \
        "the note says how a busy row is judged"
}

# cpu_cgroup: a cgroup of its own with the cpu controller (v2's cpu.max or
# v1's cpu.cfs_quota_us), for a quota the test switches; its folder in
# $cg, or the reason there is none in $cg_why. Removed by cg_remove.
cpu_cgroup() {
    cg= cg_why=
    if [ -f /sys/fs/cgroup/cgroup.controllers ] &&
       grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
        cg=/sys/fs/cgroup/speedlab-e2e-$$
    elif [ -d /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_period_us ]; then
        cg=/sys/fs/cgroup/cpu/speedlab-e2e-$$
    elif [ -d /sys/fs/cgroup/cpu,cpuacct ]; then
        cg=/sys/fs/cgroup/cpu,cpuacct/speedlab-e2e-$$
    fi
    if [ -z "$cg" ]; then
        cg_why="no cgroup hierarchy with the cpu controller"
    elif ! mkdir "$cg" 2>/dev/null; then
        cg_why="cannot make a cgroup in $(dirname "$cg") (root, or a delegated cgroup, may)"
        cg=
    fi
    [ -n "$cg" ]
}

# cg_quota CORES: the cgroup's CPU quota, in cores of time per 100 ms
# ("max": none).
cg_quota() {
    if [ -f "$cg/cpu.max" ]; then
        [ "$1" = max ] && echo "max 100000" >"$cg/cpu.max" ||
            echo "$(awk -v c="$1" 'BEGIN { printf "%d", c * 100000 }') 100000" >"$cg/cpu.max"
    else
        echo 100000 >"$cg/cpu.cfs_period_us"
        [ "$1" = max ] && echo -1 >"$cg/cpu.cfs_quota_us" ||
            awk -v c="$1" 'BEGIN { printf "%d\n", c * 100000 }' >"$cg/cpu.cfs_quota_us"
    fi
}

cg_remove() { cg_quota max; rmdir "$cg" 2>/dev/null; }

# in_cgroup COMMAND...: COMMAND run inside $cg.
in_cgroup() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }

# threads_within FILE CORES LABEL: no verdict on a threads-only row of the
# runner's table (threads, spmd: their speed can come from cores alone)
# claims more than CORES: its busy figure, or its speedup column where
# the verdict calls it faster ("ok" alone). The rule, not a speed: 15%
# over for a baseline timed slow.
threads_within() {
    over=$(awk -v cores="$2" '$1 ~ /^(solutions|exercises)$/ && $2 ~ /^(threads|spmd)$/ {
            claim = 0
            if (match($0, /busy: [0-9.]+x/)) claim = substr($0, RSTART + 6, RLENGTH - 7) + 0
            else if ($0 ~ / ok +host/) { x = $6; sub(/x$/, "", x); claim = x + 0 }
            if (claim > cores * 1.15) print $1 " " $2 " " claim "x" }' "$1")
    rows=$(grep -cE '^(solutions|exercises) +(threads|spmd) ' "$1")
    [ "$rows" -ge 1 ] && [ -z "$over" ] && ok "$3: $rows threads rows, none above $2 core(s)" ||
        fail "$3: ${over:-no threads row}"
}

# The cores a verdict may claim are the cores granted: beside busy loops,
# pinned to one CPU (where 2 threads get no speed verdict, and no figure
# in the speedup column either), inside a real half-core quota. Threads are judged
# in wall time, which cannot run faster than the cores it had; a CPU-time
# figure (the busiest thread's) could, and once claimed 2.1x on 2 cores
# and 1.9x inside a 0.5-CPU quota. The exhibit whose point needs threads
# on cores of their own at once says so rather than judging it.
case_granted() {
    runner=$1
    cores=$(getconf _NPROCESSORS_ONLN)
    busy_loops 600
    expect_rc 0 "3 threads beside busy loops" "$runner" ${e2e_example} --tree solutions \
        --variant threads --threads 3 --size 40000003
    threads_within "$tmp/out" "$cores" "3 threads on $cores cores, beside busy loops"
    expect_rc 0 "false-sharing beside busy loops" "$runner" false-sharing --size 20000003 \
        --threads 2 --retry-busy 0
    expect_match "$tmp/out" "^padded against adjacent, the point of false-sharing: (cannot judge here|[0-9.]+x as fast \[)" \
        "false sharing beside busy loops: judged from pairs or said to be out of reach"
    kill $busy 2>/dev/null; wait $busy 2>/dev/null
    if command -v taskset >/dev/null; then
        first=$(cpus_allowed | head -1)
        busy_loops 600 1
        expect_rc 0 "under taskset -c $first, a busy loop on it" taskset -c "$first" \
            "$runner" ${e2e_example} --tree solutions --variant threads --threads 2 --size 40000003
        expect_match "$tmp/out" "^speedlab ${e2e_example}: .*, 1 cores" "taskset: the run counts 1 core"
        threads_within "$tmp/out" 1 "2 threads under taskset -c $first"
        # One speed per row: where the verdict gives none, neither does
        # the speedup column (nor the history, make progress or the room).
        awk '$1 == "solutions" && $2 == "threads" && /no speed verdict/ { n++; if ($6 != "-") bad = 1 }
             END { exit bad || n < 1 }' "$tmp/out" &&
            ok "taskset: no speed verdict, no figure in the speedup column" ||
            fail "taskset: a figure beside no speed verdict: $(grep -E '^solutions +threads' "$tmp/out")"
        kill $busy 2>/dev/null; wait $busy 2>/dev/null
    fi
    if cpu_cgroup; then
        cg_quota 0.5
        expect_rc 0 "inside a 0.5-CPU quota" in_cgroup "$runner" ${e2e_example} --tree solutions \
            --variant threads --threads 2 --size 20000003
        cg_remove
        expect_match "$tmp/out" "^speedlab ${e2e_example}: .*, 1 cores" "the quota: the run counts 1 core"
        threads_within "$tmp/out" 1 "2 threads inside a 0.5-CPU quota"
    else
        echo "note: no real quota tried: $cg_why (e2e.doctor plants v1 and v2 trees)"
    fi
}

# A planted burst: the bench's own cgroup given a fifth of a core for
# 1.5 s, then all it wants for 1.5 s, over and over; what a VM's busy
# host does, and no other process shows. A speedup from pairs (each
# repetition against the baseline's timed nearest) stays within reach of
# the quiet one; the two medians' own intervals, unpaired, would not hold
# a claim. Asserts the method, never a speed.
case_burst() {
    bench=$1
    cpu_cgroup || { echo "skipped: $cg_why"; exit 77; }
    set -- --quick --kernel ${e2e_example} --variant simd --threads 1 --no-weak --reps 12 \
        --min-time 0.1 --no-plots --retry-busy 0
    expect_rc 0 "quiet: simd against scalar" in_cgroup "$bench" "$@" --results "$tmp/quiet"
    ( while :; do cg_quota 0.2; sleep 1.5; cg_quota max; sleep 1.5; done ) &
    switch=$!
    expect_rc 0 "under bursts of a fifth of a core" in_cgroup "$bench" "$@" --results "$tmp/burst"
    kill "$switch"; wait "$switch" 2>/dev/null
    cg_remove
    cat "$tmp/err" >>"$tmp/out"
    expect_in "$tmp/out" "stalled:" "the console says the bench was held back"
    csv=$tmp/burst/latest/results.csv
    span=$(awk -v hi="$(csv_get "$csv" max_s variant=scalar)" -v lo="$(csv_get "$csv" min_s variant=scalar)" \
        'BEGIN { print hi / lo }')
    awk -v s="$span" 'BEGIN { exit !(s > 2) }' &&
        ok "the bursts reached the repetitions (scalar's slowest $span x its fastest)" ||
        fail "the bursts did not slow scalar's repetitions (slowest/fastest $span)"
    q=$(awk -F'\t' '$1 == "\"simd\"" { print $2, $5, $6 }' "$tmp/quiet/latest/speedup-${e2e_example}.dat")
    b=$(awk -F'\t' '$1 == "\"simd\"" { print $2, $5, $6 }' "$tmp/burst/latest/speedup-${e2e_example}.dat")
    # The unpaired interval: scalar's median interval over simd's.
    u=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["variant"] == "scalar" { sl = $c["ci_low_s"]; sh = $c["ci_high_s"] }
        $c["variant"] == "simd" { fl = $c["ci_low_s"]; fh = $c["ci_high_s"] }
        END { print sl / fh, sh / fl }' "$tmp/burst/latest/results.csv")
    echo "quiet $q; under bursts: paired $b, unpaired [$u]"
    echo "$q $b $u" | awk '{ exit !($5 <= $3 * 1.03 && $6 >= $2 / 1.03) }' &&
        ok "the paired speedup under bursts within reach of the quiet one" ||
        fail "paired under bursts [$b] apart from quiet [$q]"
    echo "$b $u" | awk '{ exit !(log($5 / $4) > 2 * log($3 / $2)) }' &&
        ok "unpaired, the medians' intervals are more than twice as wide" ||
        fail "unpaired [$u] no wider than paired [$b]"
}
