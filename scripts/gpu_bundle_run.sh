#!/bin/sh
# run.sh - the GPU bundle's one command, on a GPU node that has only the
# NVIDIA driver: say what the node has, then validate and time every gpu
# variant with both offload compilers (GCC, and clang when the bundle has
# it: its rows are measured first by its own bench and join GCC's run,
# labelled with the compiler) and every cuda variant, the GPU time
# breakdown and the crossover, at sizes that make a GPU worth it, into a
# normal run folder. (In the kit this file is
# scripts/gpu_bundle_run.sh; `make gpu-bundle` copies it into the bundle.)
#
# usage: ./run.sh [--host-ok] [--results DIR] [--quick] [--size KERNEL=N ...]
#   --host-ok   run on a machine without a GPU: the gpu variants run on the
#               host, labelled host fallback everywhere, at the quick sizes
#               (a host run at GPU sizes would take long and teach nothing)
#   --results   where the run folder goes (default: results/ beside run.sh)
#   --quick     the quick sizes on the GPU too (a smoke test: 2 short
#               repetitions, for checking, not for slides)
#   --size      KERNEL=N: that kernel's size instead of its GPU node size
#               (node.txt, from the kernels' gpu-node.txt); repeatable
# Exit: 0 ok; 2 this node cannot run the bundle (CPU, GLIBC, usage);
# 3 a variant failed validation; 4 no GPU (without --host-ok), or a gpu
# variant ran on the host; 1 anything else.
set -u
here=$(cd "$(dirname "$0")" && pwd)
results=$here/results
host_ok=0
quick=0
extra=""
while [ $# -gt 0 ]; do
    case $1 in
    --host-ok) host_ok=1 ;;
    --quick) quick=1 ;;
    --size) [ $# -ge 2 ] || { echo "run.sh: --size needs KERNEL=N" >&2; exit 2; }
            extra="$extra --size $2"; shift ;;
    --results) [ $# -ge 2 ] || { echo "run.sh: --results needs a folder" >&2; exit 2; }
               results=$2; shift ;;
    -h | --help) sed -n '/^# usage/,/^# variant/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (known: --host-ok, --results DIR, --quick, --size KERNEL=N)" >&2
       exit 2 ;;
    esac
    shift
done
# Only the bundle's libraries, whatever the node's paths say.
export LD_LIBRARY_PATH="$here/lib"
bench=$here/bin/speedlab-bench-solutions
section() { printf '\n== %s\n' "$*"; }

if [ "$host_ok" = 0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
    echo "run.sh: no NVIDIA GPU here (nvidia-smi -L finds none); ./run.sh --host-ok runs the bundle on the host, labelled host fallback" >&2
    exit 4
fi

# --- What the node has ----------------------------------------------------------
section "this node"
cores=$(nproc 2>/dev/null || echo 1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "cpu: ${cpu:-unknown}, $cores cores available"
if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null || ! grep -qw fma /proc/cpuinfo 2>/dev/null; then
    echo "run.sh: this CPU has no AVX2/FMA; the bundle's kernels are built for x86-64-v3 (see BUILD)" >&2
    exit 2
fi
need=$(sed -n 's/^glibc_needed: //p' "$here/BUILD")
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/glibc //')
echo "GLIBC: the bundle needs ${need:-?}, this node has ${have:-unknown}"
if [ -n "$need" ] && [ -n "$have" ] &&
   [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | tail -1)" != "$have" ]; then
    echo "run.sh: this node's GLIBC $have is older than the $need the bundle needs; build it on an older login node" >&2
    exit 2
fi
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -L 2>&1 | sed 's/^/gpu: /'
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
else
    echo "gpu: nvidia-smi not found (no NVIDIA driver)"
fi
grep -E '^(OpenMP offload|CUDA|kernels):' "$here/BUILD"

# --- Validate and time ------------------------------------------------------------
# One point per threaded variant (all the cores): the CPU to beat. The
# scalar baseline comes along; 3 repetitions, at the sizes the kernels
# declare for a GPU node (node.txt: "size KERNEL=N", why in each kernel's
# gpu-node.txt). 8 to 10 minutes on a 16-core H200 node, both compilers
# (clang's half alone: about 4), measured before clang's half stopped
# timing the scalar baseline.
# The gpu variants: the ladder's, the teaching stages, and the other
# shapes of their loops (rows, loop, teams: step 5.7), which only a named
# list plans.
shapes=gpu,gpu_v1,gpu_v2,gpu_v4,gpu_rows,gpu_loop,gpu_teams
variants=threads_simd,$shapes,cuda
sizes=$(awk '$1 == "size" { printf "--size %s ", $2 }' "$here/node.txt" 2>/dev/null)
device=--require-device
if [ "$host_ok" = 1 ]; then
    variants=threads_simd,$shapes
    device=""
    quick=1
fi
# A smoke test (--quick, --host-ok) checks that everything runs and
# validates; its times are for no slide, so it spends little on them and
# does not time disturbed ones again (they stay marked disturbed).
timing="--reps 3 --min-time 0.1"
[ "$quick" = 1 ] && sizes=--quick && timing="--reps 2 --min-time 0.01 --retry-busy 0"
# The second offload compiler first: its own bench (its own OpenMP
# runtime, unpacked into a temporary folder) writes rows labelled with the
# compiler, which GCC's run imports and judges again against its own
# references and its own scalar baseline: so clang's times none
# (--no-baseline), the longest rows at node sizes.
clang_label=$(sed -n 's/^clang_label: //p' "$here/BUILD")
gcc_label=$(sed -n 's/^gcc_label: //p' "$here/BUILD")
import=""
clang_rc=0
if [ -n "$clang_label" ]; then
    section "validate and time the gpu variants built by $clang_label"
    clang_tmp=$(mktemp -d "${TMPDIR:-/tmp}/speedlab-clang.XXXXXX")
    trap 'rm -rf "$clang_tmp"' EXIT
    if ! xz -dc "$here/clang-runtime.tar.xz" | tar -xf - -C "$clang_tmp"; then
        echo "run.sh: could not unpack clang-runtime.tar.xz (is xz installed?); GCC's rows only" >&2
        clang_rc=1
    else
        # libomptarget's CUDA plugin opens libcuda.so; a node may have only
        # the driver's libcuda.so.1.
        cuda1=$( (ldconfig -p || /sbin/ldconfig -p) 2>/dev/null | awk '$1 == "libcuda.so.1" { print $NF; exit }')
        for f in /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1; do
            [ -z "$cuda1" ] && [ -e "$f" ] && cuda1=$f
        done
        [ -n "$cuda1" ] && ln -sf "$cuda1" "$clang_tmp/lib-clang/libcuda.so"
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH="$clang_tmp/lib-clang" "$here/bin/speedlab-bench-clang" $device \
            --label "$clang_label" --variant "$shapes" --no-baseline $sizes $extra \
            --threads "$cores" --no-weak $timing --no-plots --results "$clang_tmp/results"
        clang_rc=$?
        [ -f "$clang_tmp/results/latest/results.csv" ] &&
            import="--import $clang_tmp/results/latest/results.csv"
    fi
fi

section "validate and time every gpu and cuda variant ($([ "$quick" = 1 ] && echo "quick sizes" || echo "GPU sizes"))"
before=$(readlink "$results/latest" 2>/dev/null)
# shellcheck disable=SC2086
"$bench" $device --variant "$variants" $sizes $extra --threads "$cores" --no-weak $timing \
    --no-plots ${gcc_label:+--label "$gcc_label"} $import --results "$results"
rc=$?
[ "$rc" -eq 4 ] && exit 4
# Only this run's folder is shown: after a refusal (exit 2) latest still
# names the run before, which must not pass for this one.
now=$(readlink "$results/latest" 2>/dev/null)
run="$results/$now"
if [ -z "$now" ] || [ "$now" = "$before" ] || [ ! -f "$run/results.csv" ]; then
    echo "run.sh: the bench wrote no run (exit $rc, see above); no earlier run is shown" >&2
    [ "$rc" -ne 0 ] && exit "$rc"
    exit 1
fi

# --- Profiles, when the node has the tools ------------------------------------------
# What each writes goes into the run folder beside the data.
profile() {
    name=$1
    shift
    "$@" >"$run/.$name.tmp" 2>&1 && mv "$run/.$name.tmp" "$run/$name" ||
        { echo "  $name failed; its output is in $run/$name"; mv "$run/.$name.tmp" "$run/$name"; }
}
# The subject a kernel declares (node.txt: "profile KERNEL SIZE REGEX").
subject=$(awk '$1 == "profile" { print $2, $3, $4; exit }' "$here/node.txt" 2>/dev/null)
pkernel=${subject%% *}; pregex=${subject##* }; psize=${subject#* }; psize=${psize%% *}
if [ "$host_ok" = 0 ] && [ "$quick" = 0 ] && [ -n "$subject" ]; then
    section "profiles"
    scratch=$(mktemp -d)
    one="--kernel $pkernel --variant cuda --size $psize --threads 1 --no-weak --reps 1 --min-time 0.01 --no-plots --results $scratch"
    if command -v ncu >/dev/null 2>&1; then
        echo "ncu: the CUDA $pkernel kernel at size $psize, one launch (profile-ncu.txt)"
        # The first launch is validation's 67 x 67 probe: skip it. The
        # clocks as the bench ran them, not locked to base (ncu's default).
        # shellcheck disable=SC2086
        profile profile-ncu.txt ncu --clock-control none --launch-skip 1 --launch-count 1 --kernel-name "regex:$pregex" --section SpeedOfLight \
            --section LaunchStats --section Occupancy "$bench" $one
    else
        echo "ncu: not on this node"
    fi
    if command -v nsys >/dev/null 2>&1; then
        echo "nsys: the $pkernel gpu variant's API and copy times (profile-nsys.txt)"
        # shellcheck disable=SC2086
        profile profile-nsys.txt nsys profile --stats=true --force-overwrite true \
            -o "$scratch/nsys" "$bench" $(echo "$one" | sed 's/--variant cuda/--variant gpu/')
    else
        echo "nsys: not on this node"
    fi
    rm -rf "$scratch"
fi

# --- Where clang's gpu variant spent its time ---------------------------------------
# LLVM's offload runtime times every copy and kernel itself
# (LIBOMPTARGET_PROFILE); offload_profile.sh sums them per source line of
# the solution's gpu code, so that copies and kernel can be read beside
# nsys's figures. One short run of the profiled kernel (the quick size on
# the host, where nothing offloads and it says so).
if [ -n "$clang_label" ] && [ "$clang_rc" != 1 ] && [ -n "$subject" ] && [ -d "${clang_tmp:-}/lib-clang" ]; then
    section "where $clang_label's $pkernel gpu variant spent its time (profile-clang.txt)"
    psizes="--size $psize"
    [ "$quick" = 1 ] && psizes=--quick
    LD_LIBRARY_PATH="$clang_tmp/lib-clang" LIBOMPTARGET_PROFILE="$clang_tmp/profile.json" \
        LIBOMPTARGET_PROFILE_GRANULARITY=0 "$here/bin/speedlab-bench-clang" --kernel "$pkernel" \
        --variant gpu $psizes --threads 1 --no-weak --reps 1 --min-time 0.01 --no-plots \
        --results "$clang_tmp/profile" >"$clang_tmp/profile.out" 2>&1
    sh "$here/offload_profile.sh" "$clang_tmp/profile.json" solutions/ >"$run/.profile-clang.tmp" 2>&1
    case $? in
    0) ;;
    1) echo "no breakdown: $clang_label's gpu variant reached no offload device (it ran on the host)" \
           >"$run/.profile-clang.tmp" ;;
    *) echo "no breakdown: offload_profile.sh failed: $(tail -1 "$run/.profile-clang.tmp")" >"$run/.profile-clang.tmp" ;;
    esac
    mv "$run/.profile-clang.tmp" "$run/profile-clang.txt"
    sed 's/^/  /' "$run/profile-clang.txt"
fi

# --- Where the gpu variants ran -------------------------------------------------------
section "where the gpu variants ran"
# Quoted fields ("static,1") hold commas: blank them before splitting.
sed 's/"[^"]*"/q/g' "$run/results.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["variant"] ~ /^(gpu|cuda)/ {
        printf "  %-11s %-9s %-9s %12.3f ms  %-14s %s\n", $col["kernel"], $col["tree"], $col["variant"],
               $col["median_s"] * 1e3, $col["ran_on"], $col["valid"] == "yes" ? "valid" : "INVALID" }'
sed -n '/^## GPU time breakdown/,/^- crossover/p' "$run/summary.md"
echo "run folder: $run"
echo "next: copy it to a machine with the kit and gnuplot, then: sh plots/plot.sh <run folder>"
[ "$rc" -ne 0 ] && exit "$rc"
case $clang_rc in
0 | 3) ;;     # a wrong clang row is in GCC's run: flagged, exit 3 there
4) echo "run.sh: $clang_label's gpu variants found no device (above)" >&2; exit 4 ;;
*) echo "run.sh: $clang_label's bench failed (exit $clang_rc, above); its rows are missing" >&2; exit 1 ;;
esac
if [ "$host_ok" = 0 ] && grep -q 'host fallback' "$run/results.csv"; then
    echo "run.sh: some gpu variants ran on the host (host fallback), not on the GPU" >&2
    exit 4
fi
exit 0
