#!/bin/sh
# doctor.sh - end-to-end: make doctor (speedlab-doctor) names what the
# machine hides, each finding planted: an affinity mask (taskset), a
# cgroup CPU quota (v2, and v1 where this process has a cpu hierarchy),
# the host's noise, SMT siblings and hybrid cores (a planted sysfs under
# SPEEDLAB_SYSFS_ROOT; the runner counts the quota's cores), a missing gnuplot (a PATH without it). Emulation
# is planted in tests/e2e/arm.sh (the aarch64 build under qemu).
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

case_doctor() {
    doctor=$1 runner=$2
    expect_rc 0 "make doctor" "$doctor"
    expect_match "$tmp/out" "^CPU +.*doubles per vector" "the CPU and its vectors"
    expect_match "$tmp/out" "^cores +[0-9]+ CPUs" "the cores"
    expect_match "$tmp/out" "^host noise +up to [0-9]+% slower on one core, [0-9]+% on [0-9]+ at once" \
        "the host's noise, measured"
    expect_match "$tmp/out" "^[0-9]+ finding\\(s\\) change what a number means" "the closing line"
    expect_rc 2 "an option it does not take" "$doctor" --bogus
    one_line "an option it does not take"

    cpus=$(getconf _NPROCESSORS_ONLN)
    if [ "$cpus" -gt 1 ] && command -v taskset >/dev/null 2>&1; then
        expect_rc 0 "doctor on one CPU" taskset -c 0 "$doctor"
        expect_match "$tmp/out" "^cores +1 of the machine's $cpus CPUs for this process" \
            "an affinity mask: 1 of $cpus"
    fi

    # A planted sysfs: a quota of half a core on this process's cgroup,
    # two hardware threads per core, and Intel's P-core and E-core lists.
    sys="$tmp/sys"; cg=$(sed -n 's/^0:://p' /proc/self/cgroup)
    [ "$cg" = / ] && cg=""
    mkdir -p "$sys/fs/cgroup$cg" "$sys/devices/system/cpu/cpu0/topology" \
        "$sys/devices/cpu_core" "$sys/devices/cpu_atom"
    echo "50000 100000" >"$sys/fs/cgroup$cg/cpu.max"
    echo "0-1" >"$sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
    echo "0" >"$sys/devices/cpu_core/cpus"; echo "1" >"$sys/devices/cpu_atom/cpus"
    expect_rc 0 "doctor on a planted sysfs" env SPEEDLAB_SYSFS_ROOT="$sys" "$doctor"
    expect_match "$tmp/out" "^CPU quota +0.5 cores' time \\(cgroup quota\\)" "a CPU quota: 0.5 cores"
    expect_in "$tmp/out" "the runs count 1 cores" "what the quota means"
    expect_match "$tmp/out" "^SMT +2 hardware threads per core" "SMT: 2 threads per core"
    expect_match "$tmp/out" "^hybrid cores +1 fast CPUs \\(Intel's cpu_core" "hybrid cores"
    # cgroup v1 (this process in a hierarchy with the cpu controller):
    # cpu.cfs_quota_us over cpu.cfs_period_us, a quarter of a core.
    v1=$(sed -n 's/^[0-9]*:\([a-z,]*cpu[a-z,]*\):\(.*\)$/\1 \2/p' /proc/self/cgroup | \
        awk '{ n = split($1, c, ","); for (i = 1; i <= n; i++) if (c[i] == "cpu") print }' | head -n 1)
    if [ -n "$v1" ]; then
        ctl=${v1%% *}; path=${v1#* }; [ "$path" = / ] && path=""
        sys1="$tmp/sys1"; mkdir -p "$sys1/fs/cgroup/$ctl$path"
        echo 25000 >"$sys1/fs/cgroup/$ctl$path/cpu.cfs_quota_us"
        echo 100000 >"$sys1/fs/cgroup/$ctl$path/cpu.cfs_period_us"
        expect_rc 0 "doctor on a planted cgroup v1 quota" env SPEEDLAB_SYSFS_ROOT="$sys1" "$doctor"
        expect_match "$tmp/out" "^CPU quota +0.25 cores' time \\(cgroup quota\\)" \
            "a cgroup v1 quota: 0.25 cores"
    fi
    # ... and the runner counts the quota's cores: its threads default to 1.
    expect_rc 0 "a lesson under the quota" env SPEEDLAB_SYSFS_ROOT="$sys" "$runner" \
        "$e2e_example" --variant threads --size 1000003 --reps 2 --min-time 0.01 --no-plots \
        --results "$tmp/results"
    expect_match "$tmp/out" "^speedlab $e2e_example: .*, 1 cores" "the runner: 1 core under the quota"
    expect_match "$tmp/out" "^exercises +threads +1 " "the runner: threads 1"

    # No gnuplot on the path: missing, with the command that gets it.
    bin_without_gnuplot
    expect_rc 0 "doctor without gnuplot" env PATH="$tmp/bin" "$doctor"
    expect_match "$tmp/out" "^gnuplot +missing" "gnuplot: missing"
    expect_match "$tmp/out" "draw none; to get it: (sudo )?apt-get install gnuplot-nox" \
        "gnuplot: the command that gets it"
}
