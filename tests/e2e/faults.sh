#!/bin/sh
# faults.sh - end-to-end: full disks, unwritable folders, failing gnuplot: earlier runs survive.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# Faults before measuring: a full disk (a 64 KiB tmpfs, when mounting is
# allowed), an unwritable results folder (as a user who is not root),
# /dev/full as the results folder; and gnuplot failing mid-run. Each fails
# with one clear line before anything is timed, and leaves what was on
# disk as it was.
case_faults() {
    bench=$1; runner=${2:-}; shim=${3:-}
    ran=0
    mnt="$tmp/tiny"
    mkdir -p "$mnt"
    if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
        ran=$((ran + 1))
        echo kept >"$mnt/earlier.txt"
        expect_rc 2 "full disk" "$bench" --quick --kernel ${e2e_example} --results "$mnt/results"
        one_line "full disk"
        expect_in "$tmp/err" "only 60 KiB free, a run needs about 16 MiB" "full disk: says how much is free"
        grep -q '^timing' "$tmp/out" && fail "full disk: measured anyway" || ok "full disk: nothing measured"
        [ "$(cat "$mnt/earlier.txt")" = kept ] && ok "full disk: the file already there is intact" ||
            fail "full disk: earlier file damaged"
        [ -z "$(ls -A "$mnt/results")" ] && ok "full disk: no partial folder left" ||
            fail "full disk: left $(ls -A "$mnt/results")"
        umount "$mnt"
    else
        echo "faults: cannot mount a tmpfs here; the full-disk case is not run"
    fi
    ro="$tmp/readonly"
    mkdir -p "$ro"
    chmod 555 "$ro"
    as_user=""
    if [ "$(id -u)" = 0 ]; then
        command -v setpriv >/dev/null 2>&1 && as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
        chmod 755 "$tmp"
    else
        as_user=env
    fi
    if [ -n "$as_user" ]; then
        ran=$((ran + 1))
        # shellcheck disable=SC2086
        expect_rc 2 "unwritable results folder" $as_user "$bench" --quick --kernel ${e2e_example} --results "$ro"
        one_line "unwritable results folder"
        expect_in "$tmp/err" "is not writable: Permission denied" "unwritable: says why"
        [ -z "$(ls -A "$ro")" ] && ok "unwritable: nothing written" || fail "unwritable: files written"
        # The runner's picture folder too: refused before measuring.
        # shellcheck disable=SC2086
        expect_rc 2 "runner: unwritable results folder" $as_user "$runner" ${e2e_image} --size 96 \
            --min-time 0.01 --results "$ro/r"
        one_line "runner: unwritable results folder"
        expect_not_in "$tmp/out" "^(solutions|exercises) " "runner: nothing measured first"
    fi
    expect_rc 2 "/dev/full as the results folder" "$bench" --quick --kernel ${e2e_example} --results /dev/full
    one_line "/dev/full as the results folder"
    expect_in "$tmp/err" "is not a folder" "/dev/full: says it is not a folder"

    # gnuplot that fails after leaving an empty file: the run still ends
    # well (the data is complete), with no empty or temporary image.
    bin_without_gnuplot
    failing_gnuplot
    expect_rc 0 "bench with a failing gnuplot" env PATH="$tmp/bin" "$bench" --quick --kernel ${e2e_example} \
        --size 200003 --reps 2 --min-time 0.01 --threads 1 --no-weak --results "$tmp/g"
    expect_in "$tmp/out" "gnuplot failed (see above); the data files are complete" "says gnuplot failed"
    run="$tmp/g/$(readlink "$tmp/g/latest")"
    n=$(find "$run" \( -name '*.png' -o -name '*.svg' -o -name '.*tmp' \) | wc -l)
    [ "$n" -eq 0 ] && ok "failing gnuplot: no empty or temporary image" || fail "failing gnuplot: $n image files"
    [ -s "$run/results.csv" ] && [ -s "$run/summary.md" ] && [ -s "$run/index.html" ] &&
        ok "failing gnuplot: data, summary and page written" || fail "failing gnuplot: files missing"
    # The runner names no picture that was not drawn: exit 1, and why.
    expect_rc 1 "runner with a failing gnuplot" env PATH="$tmp/bin" "$runner" ${e2e_image} \
        --size 96 --min-time 0.01 --results "$tmp/gr"
    expect_in "$tmp/err" "the pictures could not be drawn" "runner: says the pictures failed"
    expect_not_in "$tmp/out" "image-${e2e_image}.png" "runner: names no picture that is not there"
    # Exit 1: the results folder stops taking writes mid-run (as a user
    # who is not root, so that permissions bind): the run says which file
    # it could not write, and the earlier run in the folder is untouched.
    if [ "$(id -u)" = 0 ] && [ -n "$as_user" ] && [ "$as_user" != env ]; then
        ran=$((ran + 1))
        w="$tmp/w"; mkdir -p "$w"; chown 65534:65534 "$w"
        $as_user "$bench" --quick --kernel ${e2e_example} --size 20003 --variant scalar --reps 1 \
            --min-time 0.01 --no-plots --no-weak --results "$w" >/dev/null 2>&1
        earlier="$w/$(readlink "$w/latest")"; sum=$(cat "$earlier"/* | cksum)
        in_background $as_user "$bench" --kernel ${e2e_example} --size 100000000 --threads 1,2 \
            --variant scalar,simd,threads --reps 3 --min-time 0.1 --no-plots --no-weak --results "$w"
        wait_for_first_timing
        chmod 555 "$w"/.*.partial
        wait "$pid"; rc=$?
        [ "$rc" -eq 1 ] && ok "unwritable mid-run: exit 1" || fail "unwritable mid-run: exit $rc, expected 1"
        expect_in "$tmp/err" "cannot write" "unwritable mid-run: says which file"
        [ "$(cat "$earlier"/* | cksum)" = "$sum" ] && ok "unwritable mid-run: earlier run untouched" ||
            fail "unwritable mid-run: earlier run changed"
        chmod -R u+w "$w"
    fi
    kill_while_plotting "$bench"
    disk_fills_mid_run "$bench" && ran=$((ran + 1))
    closed_pipe "$bench" "$runner"
    file_size_limit "$bench" "$runner"
    memory_limit "$bench" "$runner"
    oom_while_checking "$bench" "$shim"
    ran=$((ran + 1))
    [ "$ran" -gt 0 ] || exit 77
}

# The disk fills while the bench times (a 24 MiB tmpfs, past the room
# check's 16 MiB, filled by another program): exit 1, the reason is the
# full disk rather than "Input/output error", and no .partial is left.
# Root only (mount); returns 1 where it cannot run.
disk_fills_mid_run() {
    bench=$1; mnt="$tmp/fills"
    mkdir -p "$mnt"
    [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=24m tmpfs "$mnt" 2>/dev/null || return 1
    in_background "$bench" --kernel ${e2e_example} --size 100000000 --threads 1,2 --reps 3 --min-time 0.1 \
        --variant scalar,simd,threads --no-plots --no-weak --results "$mnt/r"
    wait_for_first_timing
    dd if=/dev/zero of="$mnt/fill" bs=1M 2>/dev/null
    wait "$pid"; rc=$?
    [ "$rc" -eq 1 ] && ok "disk full mid-run: exit 1" || fail "disk full mid-run: exit $rc"
    expect_in "$tmp/err" "No space left on device" "disk full mid-run: says the disk is full"
    one_line "disk full mid-run"
    ls -A "$mnt/r" | grep -q partial && fail "disk full mid-run: a .partial left" ||
        ok "disk full mid-run: no .partial left"
    umount "$mnt"
}

# The console piped into head, which closes early: the bench after its
# first two lines, the runner after its first three. Each goes on to its
# end: exit 0, the run folder with its figures (the runner's picture), no
# .partial left, and one line on stderr saying so. Then the console on
# /dev/full: the cause named, exit 1, the run complete.
closed_pipe() {
    bench=$1; runner=$2
    { "$bench" --quick --kernel ${e2e_example} --size 200003 --reps 2 --min-time 0.01 \
          --threads 1 --no-weak --results "$tmp/pipe" 2>"$tmp/err"; echo $? >"$tmp/rc"; } | head -2 >/dev/null
    [ "$(cat "$tmp/rc")" = 0 ] && ok "bench | head -2: exit 0" || fail "bench | head -2: exit $(cat "$tmp/rc")"
    expect_in "$tmp/err" "the console's reader went away (a pipe into head that closed?); the run went on to its end: $tmp/pipe/" \
        "bench | head -2: says the run went on, and where"
    run="$tmp/pipe/$(readlink "$tmp/pipe/latest")"
    [ -s "$run/results.csv" ] && [ -s "$run/index.html" ] && ok "bench | head -2: the run is published" ||
        fail "bench | head -2: no run: $(ls -A "$tmp/pipe")"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$run/speedup-${e2e_example}.png" ] && [ -s "$run/speedup-${e2e_example}.svg" ] &&
            ok "bench | head -2: the figures are drawn" || fail "bench | head -2: no speedup figure"
    fi
    ls -A "$tmp/pipe" | grep -q partial && fail "bench | head -2: a .partial left" ||
        ok "bench | head -2: no .partial left"
    { "$runner" ${e2e_image} --size 96 --min-time 0.01 --results "$tmp/pipe-r" 2>"$tmp/err"
      echo $? >"$tmp/rc"; } | head -3 >/dev/null
    [ "$(cat "$tmp/rc")" = 0 ] && ok "runner | head -3: exit 0" || fail "runner | head -3: exit $(cat "$tmp/rc")"
    [ -n "$(find "$tmp/pipe-r" -name "image-${e2e_image}.png" -size +0)" ] &&
        ok "runner | head -3: the picture is written" || fail "runner | head -3: no picture"
    expect_in "$tmp/err" "the console's reader went away" "runner | head -3: says the run went on"

    # The console on a full device (/dev/full: every write fails with
    # ENOSPC): the cause named, not a pipe; exit 1; the run complete.
    expect_rc 1 "bench > /dev/full" sh -c '"$0" "$@" >/dev/full' "$bench" --quick --kernel ${e2e_example} \
        --size 200003 --reps 2 --min-time 0.01 --threads 1 --no-weak --results "$tmp/full"
    expect_in "$tmp/err" "the console could not be written: No space left on device; the run went on to its end: $tmp/full/" \
        "bench > /dev/full: names the full device, and the run"
    one_line "bench > /dev/full"
    run="$tmp/full/$(readlink "$tmp/full/latest")"
    [ -s "$run/results.csv" ] && [ -s "$run/index.html" ] && ok "bench > /dev/full: the run is published" ||
        fail "bench > /dev/full: no run: $(ls -A "$tmp/full")"
    expect_rc 1 "runner > /dev/full" sh -c '"$0" "$@" >/dev/full' "$runner" ${e2e_image} --size 96 \
        --min-time 0.01 --results "$tmp/full-r"
    expect_in "$tmp/err" "the console could not be written: No space left on device" \
        "runner > /dev/full: names the full device"
}

# A file-size limit (ulimit -f: 512-byte blocks in dash, KiB in bash; 12
# is past the 4 KiB room check and short of the run's JSON or page in
# either): the write fails with its reason
# instead of SIGXFSZ killing the program without a word. Too small for
# the room check: exit 2 before measuring. Enough for the check but not
# for the summary: exit 1, the file named, no partial folder, the earlier
# run intact. The runner prints its table before it fails on its pictures.
file_size_limit() {
    bench=$1; runner=$2
    f="$tmp/fsize"; mkdir -p "$f"
    small="--quick --kernel ${e2e_example} --size 100003 --reps 1 --min-time 0.01 --no-plots --results $f"
    # shellcheck disable=SC2086
    "$bench" $small >/dev/null 2>&1
    earlier="$f/$(readlink "$f/latest")"; sum=$(cat "$earlier"/* | cksum)
    # LLVM's libomp registers itself in a small shared-memory file at start
    # and dies of SIGBUS under a 1-block limit, before our code runs.
    if ldd "$bench" 2>/dev/null | grep -q libomp; then
        echo "faults: libomp cannot start under ulimit -f 1; the room-check case is not run"
    else
        # shellcheck disable=SC2086
        with_file_size 1 2 "ulimit -f 1: the room check" "$bench" $small
        expect_in "$tmp/err" "does not take writes: File too large" "ulimit -f 1: says why"
    fi
    # shellcheck disable=SC2086
    with_file_size 12 1 "ulimit -f 12: a write mid-run" "$bench" $small
    one_line "ulimit -f 12"
    grep -qE "cannot write '[^']*/\.[^']*\.partial/[^']+': File too large" "$tmp/err" &&
        ok "ulimit -f 12: names the file and why" || fail "ulimit -f 12: $(cat "$tmp/err")"
    [ -z "$(ls -A "$f" | grep partial)" ] && ok "ulimit -f 12: no partial folder left" ||
        fail "ulimit -f 12: left $(ls -A "$f" | grep partial)"
    [ "$(cat "$earlier"/* | cksum)" = "$sum" ] && ok "ulimit -f 12: the earlier run is intact" ||
        fail "ulimit -f 12: the earlier run changed"
    if [ -n "$runner" ]; then
        with_file_size 12 1 "the runner under ulimit -f 12" \
            "$runner" ${e2e_image} --min-time 0.01 --size 64 --reps 1 --results "$tmp/fsize-runner"
        n=$(grep -cE '^(exercises|solutions) ' "$tmp/out")
        [ "$n" -ge 10 ] && ok "the runner printed its table ($n rows) before failing" ||
            fail "the runner printed $n rows"
        expect_in "$tmp/err" "File too large" "the runner says why"
    fi
}

# with_file_size KIB WANT LABEL CMD...: CMD under ulimit -f KIB, expecting
# exit WANT. Its stdout goes through a pipe, which the limit does not
# bind, so a long table still reaches $tmp/out.
with_file_size() {
    lim=$1; want=$2; label=$3; shift 3
    ( ulimit -f "$lim"; "$@" 2>"$tmp/err"; echo $? >"$tmp/rc" ) | cat >"$tmp/out"
    rc=$(cat "$tmp/rc")
    [ "$rc" = "$want" ] && ok "$label (exit $rc)" ||
        { fail "$label: exit $rc, expected $want"; tail -5 "$tmp/err" >&2; }
}

# Memory that runs out while checking, past the pre-check (an image or a
# reference that cannot be allocated: the shim fails every malloc of 4 MB
# or more): exit 1 with "out of memory", never a verdict, nothing published.
oom_while_checking() {
    bench=$1; shim=$2
    [ -n "$shim" ] && [ -f "$shim" ] || { echo "faults: no malloc shim; the checking case is not run"; return; }
    if grep -qa '__asan_init' "$bench"; then
        echo "faults: a sanitizer build has its own malloc; the checking case is not run"
        return
    fi
    expect_rc 1 "out of memory while checking: exit 1" env LD_PRELOAD="$shim" SL_FAIL_MALLOC_BYTES=4000000 \
        "$bench" --kernel ${e2e_image} --size 1024 --variant scalar --threads 1 --reps 1 \
        --results "$tmp/oomc" --no-plots --no-weak
    one_line "out of memory while checking"
    expect_in "$tmp/err" "out of memory checking" "it says out of memory, and where"
    expect_not_in "$tmp/out" "INVALID|WRONG" "no verdict"
    [ ! -e "$tmp/oomc" ] || [ -z "$(ls -A "$tmp/oomc" | grep -v '^latest$')" ] &&
        ok "nothing published" || fail "published $(ls -A "$tmp/oomc")"
}

# A memory limit (prlimit --as): a size whose images do not fit is refused
# before anything is measured (exit 2, the MiB needed and left), never a
# wrong answer; bench and runner alike.
memory_limit() {
    bench=$1; runner=$2
    command -v prlimit >/dev/null 2>&1 || { echo "faults: no prlimit; the memory case is not run"; return; }
    # AddressSanitizer reserves terabytes of address space for its shadow
    # memory, so no sanitized program starts under an address-space limit.
    if grep -qa '__asan_init' "$bench"; then
        echo "faults: a sanitizer build cannot run under prlimit --as; the memory case is not run"
        return
    fi
    big="--kernel ${e2e_image} --size 12000 --max-iter 2 --threads 1 --reps 1 --results $tmp/oom"
    # shellcheck disable=SC2086
    expect_rc 2 "prlimit --as 900 MiB: the bench" prlimit --as=943718400 "$bench" $big \
        --variant scalar --no-plots --no-weak
    one_line "prlimit --as: the bench"
    grep -qE "out of memory: ${e2e_image} at 12000 x 12000 pixels needs about [0-9]+ MiB .* leaves [0-9]+ MiB" \
        "$tmp/err" && ok "prlimit --as: says what is needed and what is left" || fail "prlimit --as: $(cat "$tmp/err")"
    expect_not_in "$tmp/out" "INVALID|WRONG" "prlimit --as: no verdict"
    [ ! -e "$tmp/oom" ] || [ -z "$(ls -A "$tmp/oom")" ] && ok "prlimit --as: nothing written" ||
        fail "prlimit --as: wrote $(ls -A "$tmp/oom")"
    if [ -n "$runner" ]; then
        # shellcheck disable=SC2086
        expect_rc 2 "prlimit --as 900 MiB: the runner" prlimit --as=943718400 "$runner" \
            ${e2e_image} --size 12000 --max-iter 2 --threads 1 --reps 1 --results "$tmp/oom"
        expect_in "$tmp/err" "out of memory: ${e2e_image} at 12000 x 12000 pixels" "the runner says out of memory"
        expect_not_in "$tmp/out" "WRONG" "the runner gives no verdict"
    fi
}

# Killed while plotting (SIGKILL: nothing runs in the bench): plot.sh is
# told by the kernel (the parent-death signal) and takes its gnuplot along
# within a second, rather than leaving it orphaned. The gnuplot here is a
# stand-in that would sleep for 30 s.
kill_while_plotting() {
    bench=$1
    mkdir -p "$tmp/slow"
    printf '#!/bin/sh\necho $$ >>"%s/slow/pids"\nexec sleep 30\n' "$tmp" >"$tmp/slow/gnuplot"
    chmod +x "$tmp/slow/gnuplot"
    env PATH="$tmp/slow:$PATH" "$bench" --quick --kernel ${e2e_example} --size 100003 --reps 1 --min-time 0.01 \
        --results "$tmp/kp" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do [ -s "$tmp/slow/pids" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    [ -s "$tmp/slow/pids" ] || { fail "kill while plotting: plotting never started"; kill "$pid"; return; }
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    sleep 1
    left=""
    # A zombie waiting for init to reap it is gone too.
    for p in $(cat "$tmp/slow/pids"); do
        state=$(sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' "/proc/$p/stat" 2>/dev/null)
        [ -n "$state" ] && [ "$state" != Z ] && left="$left $p"
    done
    [ -z "$left" ] && ok "killed while plotting: no gnuplot left behind" ||
        { fail "killed while plotting: gnuplot still running:$left"
          ps -o pid,ppid,pgid,stat,args -e | grep -E "plot.sh|sleep 30" >&2; kill $left 2>/dev/null; }
    ls "$tmp/kp"/.*.partial/.*.tmp >/dev/null 2>&1 && fail "killed while plotting: a temporary image left" ||
        ok "killed while plotting: no temporary image left"
}
