#!/bin/sh
# lib.sh - what every end-to-end area shares: a temporary folder removed on
# exit, ok/fail counting, and helpers that run a program and check its exit
# code, its output, its files. Sourced by tests/e2e/run.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
tmp=$(mktemp -d /tmp/speedlab-e2e.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0

# The kernels' own cases and test data (kernels/<k>/e2e.sh): the example
# kernels the harness's cases run (e2e_*), and hooks they call for each
# kernel that has one (kernel_hooks). No case here names a kernel.
# e2e_smoke: --size options, for a smoke run that checks the rows and not
# their speed, of the kernels whose quick size would be slow there.
# e2e_simd_needs_avx512: " <folder> ..." whose simd loop x86 vectorises only
# with AVX-512 (no 64-bit lane multiply before it): scalar on AVX2 is right.
e2e_example=; e2e_image=; e2e_seeded=; e2e_wrong_rank=; e2e_smoke=; e2e_simd_needs_avx512=" "
for script in "$top"/kernels/*/e2e.sh; do
    [ -f "$script" ] && . "$script"
done
# folder_of NAME: the folder under kernels/ (and solutions/) of a kernel.
folder_of() { sh "$top/scripts/kernels.sh" | awk -v k="$1" '$1 == k { print $3 }'; }
# A misspelt kernel name, for the "did you mean" cases.
typo=${e2e_example}e
# kernel_hooks PREFIX: the functions named PREFIX<kernel> the kernels define.
kernel_hooks() {
    cat "$top"/kernels/*/e2e.sh 2>/dev/null | sed -n "s/^\($1[a-z0-9_]*\)() *{.*/\1/p"
}

# brief_timing: the runner and the bench time each repetition for 0.01 s
# at least, not their default, in the commands a case runs as a
# participant types them (make <lesson>, make bench QUICK=1): the case checks
# what they print and exit with, not their speed. They say so in their
# progress line (SPEEDLAB_MIN_TIME, bench/run/cli.c).
brief_timing() { SPEEDLAB_MIN_TIME=0.01; export SPEEDLAB_MIN_TIME; }

# registrations PID...: the OpenMP runtime registrations these processes
# have in /dev/shm now (LLVM's libomp names one per process and removes it
# as the library shuts down, which SIGKILL skips; GNU's makes none:
# common/omp_leftovers.h).
registrations() {
    for p in "$@"; do
        f=/dev/shm/__KMP_REGISTERED_LIB_${p}_$(id -u)
        [ -e "$f" ] && echo "$f"
    done
}

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

ok() { echo "ok: $*"; }

# expect_rc WANT LABEL CMD...: run CMD, check its exit status.
expect_rc() {
    want=$1; label=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$label: exit $rc, expected $want"
        # A failure's reason is on stderr, which stdout's progress lines
        # would otherwise push out of view: its first lines too (where a
        # rank's own words stand before mpirun's 20-line notice), then its
        # end; stdout's end.
        { echo "    stderr:"
          if [ "$(wc -l <"$tmp/err")" -gt 24 ]; then
              head -12 "$tmp/err"; echo "..."; tail -8 "$tmp/err"
          else
              cat "$tmp/err"
          fi | sed 's/^/      /'
          echo "    stdout:"; tail -4 "$tmp/out" | sed 's/^/      /'; } >&2
    else
        ok "$label (exit $rc)"
    fi
}

# expect_in FILE TEXT LABEL
expect_in() {
    if grep -qF -- "$2" "$1"; then ok "$3"; else fail "$3: '$2' not in $1"; fi
}

# expect_match FILE ERE LABEL: a line of FILE matches the extended regex.
expect_match() {
    if grep -qE -- "$2" "$1"; then ok "$3"; else fail "$3: /$2/ not in $1"; fi
}

expect_not_in() {
    if grep -qE -- "$2" "$1"; then fail "$3: '$2' found in $1"; else ok "$3"; fi
}

# row_right FILE ROW LABEL: the runner's row whose start matches the ERE
# ROW is there, right and timed. The rest of a right row's verdict ("ok",
# "not faster yet", "machine busy", "solution is Nx") depends on how busy
# the machine is, so tests outside busy.sh read only this (e2e.hygiene
# checks that they do).
row_right() {
    line=$(grep -E "^$2" "$1" | head -1)
    case $line in
    "") fail "$3: no row '$2'" ;;
    *WRONG* | *"not timed"*) fail "$3: $line" ;;
    *" ms "* | *" µs "*) ok "$3" ;;
    *) fail "$3: not timed: $line" ;;
    esac
}

# bin_without_gnuplot: $tmp/bin holds the tools the scripts use, not gnuplot.
bin_without_gnuplot() {
    mkdir -p "$tmp/bin"
    for tool in sh grep tr basename dirname cat rm mv id; do
        ln -sf "$(command -v $tool)" "$tmp/bin/$tool"
    done
    # apt-get (and sudo) stay: the install hint is the system's own.
    for tool in apt-get sudo; do
        ! command -v $tool >/dev/null 2>&1 || ln -sf "$(command -v $tool)" "$tmp/bin/$tool"
    done
}

# failing_gnuplot: $tmp/bin/gnuplot leaves an empty output file and fails
# (call bin_without_gnuplot first).
failing_gnuplot() {
    printf '#!/bin/sh\nfor a; do case "$a" in *outfile=*) f=${a#*outfile=\x27}; f=${f%%%%\x27*}; : > "$f";; esac; done\nexit 1\n' >"$tmp/bin/gnuplot"
    chmod +x "$tmp/bin/gnuplot"
}

# in_background COMMAND...: COMMAND started in the background, its output
# in $tmp/out and $tmp/err; sets pid. Both are emptied here, before the
# start: a redirection written after `&` is done in the child, and a poll
# that comes first would read the last run's lines (this made e2e.stalled
# stop nothing, once in CI).
in_background() {
    : >"$tmp/out"; : >"$tmp/err"
    "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
}

# still_running: 0 while in_background's command runs; else 1, after
# saying so with the end of its stderr (a missing or crashed program made
# each wait below last its whole limit: e2e.interrupt took 6 minutes).
still_running() {
    kill -0 "$pid" 2>/dev/null && return 0
    echo "    (it ended first: $(tail -1 "$tmp/err"))" >&2
    return 1
}

# wait_for_first_timing: until a bench writing to $tmp/out (in_background)
# has timed its first configuration (at most a minute), or has ended.
wait_for_first_timing() {
    for _ in $(seq 1 600); do
        grep -q '^timing ' "$tmp/out" && break
        still_running || return 1
        sleep 0.1
    done
    # The line comes just before the first repetition: let it start.
    sleep 0.5
}

# wait_for_first_config: until a bench run with --verbose and without
# interleaving, writing to $tmp/out, has timed its first configuration in
# full (at most two minutes), or has ended. Unlike a sleep, this holds
# however busy the machine is: one configuration is done, and the later
# ones are not.
wait_for_first_config() {
    for _ in $(seq 1 1200); do
        grep -q '^  \[1/' "$tmp/out" && return
        still_running || return 1
        sleep 0.1
    done
}

# csv_get FILE COLUMN [NAME=VALUE...]: COLUMN of the rows of FILE (a
# results.csv, columns by the header's names) whose named columns hold
# those values. Reads up to the last column, which may quote commas.
csv_get() {
    file=$1; want=$2; shift 2
    awk -F, -v want="$want" -v conds="$*" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(conds, c, " "); next }
        { keep = 1
          for (k = 1; k <= n; k++) { split(c[k], kv, "="); if ($col[kv[1]] != kv[2]) keep = 0 }
          if (keep) print $col[want] }' "$file"
}

# limit_path BASE: BASE/ddd.../ddd... of exactly 2000 characters, the kit's
# SL_PATH_LIMIT (components of at most 200).
limit_path() {
    path=$1
    room=$((2000 - ${#path} - 1))
    while [ "$room" -gt 0 ]; do
        n=$((room > 200 ? 200 : room))
        [ $((room - n)) -eq 1 ] && n=$((n - 1))     # no 0-character component
        path="$path/$(printf "%${n}s" | tr ' ' d)"
        room=$((room - n - 1))
    done
    echo "$path"
}

# quick_bench WANT LABEL BENCH [more args]: a short bench run into
# $tmp/results; sets $run to the folder results/latest points at.
quick_bench() {
    want=$1; label=$2; bench=$3; shift 3
    expect_rc "$want" "$label" "$bench" --quick --kernel ${e2e_example} --size 2000003 --reps 2 \
        --min-time 0.01 --results "$tmp/results" "$@"
    run="$tmp/results/$(readlink "$tmp/results/latest")"
}

# samples_match RUN: samples.csv holds every repetition, and those in the
# median (empty left_out) are as many as results.csv's repetitions.
# Replacements for left-out repetitions (a busy machine) add rows, so the
# total is not fixed.
samples_match() {
    awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
             { k = $c[FILENAME, "kernel"] "/" $c[FILENAME, "variant"] "/" \
                   $c[FILENAME, "threads_used"] "/" $c[FILENAME, "schedule"] "/" \
                   $c[FILENAME, "study"] }
             FILENAME ~ /results.csv$/ { reps[k] = $c[FILENAME, "repetitions"]; next }
             $c[FILENAME, "left_out"] == "" { kept[k]++ }
             END { for (k in reps) if (kept[k] != reps[k]) { print k ": " kept[k] " of " reps[k]; bad = 1 }
                   exit bad }' "$1/results.csv" "$1/samples.csv"
}

# one_line: a usage error is one line on stderr.
one_line() {
    n=$(wc -l <"$tmp/err")
    if [ "$n" -eq 1 ]; then ok "$1: one line"; else fail "$1: $n lines on stderr"; fi
}

# chromium_path: a chromium that runs, or "" (Ubuntu's chromium-browser
# is a shim that only says to install the snap).
chromium_path() {
    for c in chromium chromium-browser; do
        command -v "$c" >/dev/null 2>&1 && "$c" --version 2>/dev/null | grep -q Chromium &&
            { command -v "$c"; return; }
    done
}

# browser_check PAGE: after a headless chromium has loaded a copy of PAGE
# with page_check.html's script in it (the page itself shows no test), the
# line that script wrote: "images: N of N loaded; headline: above the fold".
browser_check() {
    copy="$tmp/page-check.html"
    awk -v base="$(dirname "$1")" -v check="$here/page_check.html" '
        /<head>/ { sub(/<head>/, "<head><base href=\"file://" base "/\">") }
        /<\/body>/ { while ((getline line < check) > 0) print line }
        { print }' "$1" >"$copy"
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
        --window-size=1280,800 \
        --virtual-time-budget=10000 --dump-dom "file://$copy" 2>/dev/null |
        grep -o 'id="image-check"[^<]*' | sed 's/.*>//'
}

# require_device PROGRAM ARGS...: with --require-device a machine without an
# offload device exits 4 with one line; one with a device runs (exit 0).
require_device() {
    prog=$1; shift
    "$prog" --require-device "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 4 ]; then
        expect_in "$tmp/err" "no offload device" "--require-device, no device: exit 4"
        one_line "--require-device"
    elif [ "$rc" -eq 0 ]; then
        grep -qE '\(device\)| device$' "$tmp/out" &&
            ok "--require-device with a device: exit 0, and gpu ran on it" ||
            fail "--require-device: exit 0 but gpu did not run on a device"
    else
        fail "--require-device: exit $rc, expected 4 (no device) or 0"
    fi
}

# bad LABEL CMD...: exit 2, one line on stderr that contains $says (when
# set). GCC's libgomp warns about a bad OMP_* variable itself before main
# runs ("libgomp: Invalid value ..."); those lines are not ours and are
# left out of the count (LLVM's libomp says nothing).
bad() {
    label=$1; shift
    expect_rc 2 "$label" "$@"
    grep -v '^libgomp: \|^$' "$tmp/err" >"$tmp/err.ours"
    n=$(wc -l <"$tmp/err.ours")
    [ "$n" -eq 1 ] && ok "$label: one line" || fail "$label: $n lines on stderr"
    [ -z "$says" ] || expect_in "$tmp/err" "$says" "$label: says '$says'"
}

# apt_way PKG...: how this system gets PKGs, for a skip line: "apt-get
# install PKG..." where apt offers each (or cannot say: no apt), else which
# one its archive lacks (Ubuntu 22.04 has no clang-19 or llvm-19).
apt_way() {
    if command -v apt-cache >/dev/null 2>&1; then
        for pkg; do
            case $(LC_ALL=C apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ { print $2 }') in
            "" | "(none)") echo "$pkg is not in this system's package archive"; return ;;
            esac
        done
    fi
    echo "apt-get install $*"
}

# host_offload_ready DIR: clang 19 and its offload linker are here (else
# the case skips, saying why), and its OpenMP runtime is unpacked into DIR
# (scripts/clang_omp.sh, whose last line of stderr is in $tmp/omp.err); the
# status is clang_omp.sh's.
host_offload_ready() {
    if ! command -v clang-19 >/dev/null 2>&1 || [ ! -x /usr/lib/llvm-19/bin/clang-linker-wrapper ]; then
        echo "skipped: no clang 19 with its offload linker for the host offload device ($(apt_way clang-19 clang-tools-19))"
        exit 77
    fi
    sh "$top/scripts/clang_omp.sh" clang-19 "$1" >/dev/null 2>"$tmp/omp.err"
}

# copy_launcher: $launcher, the CMake options that put ccache before the
# compilers of a copy's build, where ccache is (deps.sh --for-tests
# installs it), and its settings exported for the builds: every copy is
# configured alike, so the second one's compiles are the first's. Its
# cache is the checkout's build/test-ccache, nothing outside the kit;
# paths under the scratch folders' parent are hashed relative to the
# build, so copies at the same depth share (the compiler's own headers
# stay absolute).
copy_launcher() {
    launcher=
    command -v ccache >/dev/null 2>&1 || return 0
    CCACHE_DIR=$top/build/test-ccache CCACHE_BASEDIR=$(dirname "$tmp") CCACHE_NOHASHDIR=1 \
        CCACHE_MAXSIZE=2G
    export CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR CCACHE_MAXSIZE
    launcher="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
}

# copy_checkout DEST [TARGETS...]: the checkout copied to DEST (no build,
# results or .git), its exercises as generated, configured without CUDA or
# offload, and TARGETS built (none: nothing yet); 0, or 1 after saying what
# failed. For cases that edit the exercises and build (build_copy DEST
# TARGETS... then, and again).
copy_checkout() {
    dest=$1; shift
    mkdir -p "$dest"
    (cd "$top" && tar -cf - --exclude=./build --exclude=./results --exclude='./gpu-bundle*' \
        --exclude=./.git .) | (cd "$dest" && tar -xf -) || { fail "copy"; return 1; }
    sh "$dest/scripts/gen_exercises.sh" "$dest/solutions" "$dest/exercises" ||
        { fail "generating the copy's exercises"; return 1; }
    copy_launcher
    # shellcheck disable=SC2086
    cmake -S "$dest" -B "$dest/build" -DCMAKE_BUILD_TYPE=Release -DSPEEDLAB_CUDA=OFF \
        -DSPEEDLAB_OFFLOAD=OFF $launcher >"$tmp/configure.log" 2>&1 ||
        { fail "configuring the copy"; tail -20 "$tmp/configure.log" >&2; return 1; }
    [ $# -eq 0 ] || build_copy "$dest" "$@"
}

build_copy() {
    dest=$1; shift
    cmake --build "$dest/build" --target "$@" -j 2 >"$tmp/build.log" 2>&1 ||
        { fail "building the copy"; tail -20 "$tmp/build.log" >&2; return 1; }
}

# A solutions file as a participant who finished its steps has it: the
# solution's code, none of the exercise text, no markers.
completed() {
    awk '/^ \* BEGIN SOLUTION HEADER$/ { h = 1; next }
         /^ \* EXERCISE HEADER$/ { h = 2; next }
         /^ \* END SOLUTION HEADER$/ { h = 0; next }
         h == 2 { next }
         /^[ \t]*\/\* BEGIN SOLUTION \*\/[ \t]*$/ { next }
         /^[ \t]*\/\* END SOLUTION \*\/[ \t]*$/ { next }
         /^[ \t]*\/\* EXERCISE[ \t]*$/ { e = 1; next }
         /^[ \t]*END SOLUTION \*\/[ \t]*$/ { e = 0; next }
         e { next }
         { print }' "$1"
}
