#!/bin/sh
# gpu_check.sh - on a machine with an NVIDIA GPU: build, validate and time
# every GPU variant (OpenMP offload and CUDA C) in one go, and say plainly
# where each one ran.
#
# usage: scripts/gpu_check.sh [--quick] [--host-ok]
#   --host-ok  go on without an NVIDIA GPU (everything runs on the host,
#              labelled host fallback); without it, no GPU is exit 4 at once
#   BUILD=dir  build folder (default build/gpu)   CC=...  the C compiler
#   RESULTS=dir  where the run folder goes (default results)
#
# Steps: what GPU the driver reports; configure (its summary says whether
# offload code was generated, and for which architecture, and whether the
# CUDA variants were built); build; the variant tests (every gpu and cuda
# variant against the reference: CUDA's say "skipped" without a device);
# then the bench over every kernel, whose summary.md has the GPU breakdown,
# the crossover and each gpu variant's place ("device" or "host fallback").
# Exit: 0 when everything validated and every gpu variant ran on a device
# (or anywhere, with --host-ok); 4 when there is no GPU, or something ran
# on the host instead; 3 when a variant was wrong;
# 1 when a build step failed.
set -u
cd "$(dirname "$0")/.."
build=${BUILD:-build/gpu}
results=${RESULTS:-results}
quick=""
host_ok=0
for arg; do
    case $arg in
    --quick) quick=--quick ;;
    --host-ok) host_ok=1 ;;
    *) echo "gpu_check: unknown argument '$arg' (known: --quick, --host-ok)" >&2; exit 2 ;;
    esac
done
# Seconds, not a build and a bench, to learn there is no GPU.
if [ "$host_ok" = 0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
    echo "gpu_check: no NVIDIA GPU here (nvidia-smi -L finds none); --host-ok runs everything on the host, labelled host fallback" >&2
    exit 4
fi

step() { printf '\n== %s\n' "$*"; }

step "GPU seen by the driver"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -L || true
else
    echo "nvidia-smi not found: no NVIDIA driver on this machine"
fi

step "configure ($build)"
cmake -S . -B "$build" ${CC:+-DCMAKE_C_COMPILER="$CC"} >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; exit 1; }
grep -E 'offload |CUDA |C compiler ' "$build.configure.log"

step "build"
cmake --build "$build" -j "$(nproc)" >"$build.build.log" 2>&1 ||
    { tail -30 "$build.build.log"; exit 1; }
echo "ok"

step "validate every variant (OpenMP gpu variants and CUDA variants)"
ctest --test-dir "$build" -R '^(variants|cuda)\.solutions$' --output-on-failure || exit 3

step "bench (every kernel; the summary has the GPU breakdown)"
"$build/bench/speedlab-bench-solutions" $quick --results "$results"
rc=$?
run="$results/$(readlink "$results/latest" 2>/dev/null)"
if [ -f "$run/summary.md" ]; then
    step "where the gpu variants ran"
    grep -E '^\| [a-z]+ \| (gpu|gpu_v[0-9]|cuda) ' "$run/summary.md" || true
    sed -n '/^## GPU time breakdown/,$p' "$run/summary.md"
fi
[ "$rc" -ne 0 ] && exit "$rc"
if [ "$host_ok" = 0 ] && grep -q 'host fallback' "$run/results.csv"; then
    echo "gpu_check: some gpu variants ran on the host (host fallback), not on a GPU" >&2
    exit 4
fi
echo "gpu_check: every gpu variant ran on the device; results in $run"
