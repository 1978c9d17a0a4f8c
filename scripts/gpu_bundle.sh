#!/bin/sh
# gpu_bundle.sh - build the GPU track here (a login node with the kit's
# dependencies) into one folder that runs on a bare GPU node: `make gpu-bundle`.
#
# usage: scripts/gpu_bundle.sh [OUT]   (default OUT: gpu-bundle)
#
# Installs what the offload build needs (gcc-N-offload-nvptx, patchelf;
# announced, with sudo when not root, or the exact command printed), builds
# the solutions' bench and the runner with OpenMP offload for NVIDIA and the
# CUDA C variants, for a named ISA level (x86-64-v3: the node's CPU is not
# this one), and writes OUT/ with:
#   bin/      the programs, RUNPATH $ORIGIN/../lib
#   lib/      every shared library they need but the C library and the
#             NVIDIA driver (Google Benchmark, libgomp and its nvptx plugin,
#             libstdc++, libgcc_s, the CUDA runtime), RUNPATH $ORIGIN
#   run.sh    validate and time the GPU track on the node (scripts/gpu_bundle_run.sh)
#   README    five lines
#   BUILD     what was built, for what, and the GLIBC version it needs
# The folder is built beside OUT and renamed into place, so an old bundle is
# replaced only by a complete new one.
# Exit: 0 built; 1 a build or check failed; 2 a package is missing and
# cannot be installed here.
set -eu
cd "$(dirname "$0")/.."
out=${1:-gpu-bundle}
build=${BUILD:-build/gpu-bundle}
arch=${SPEEDLAB_BUNDLE_ARCH:-x86-64-v3}
cc=${CC:-gcc}
case $(basename "$cc") in
cc | gcc*) ;;
*) echo "gpu_bundle: the bundle is built with GCC (its nvptx offload); CC=$cc is not gcc" >&2
   exit 2 ;;
esac
command -v "$cc" >/dev/null 2>&1 || cc=gcc
say() { printf 'gpu-bundle: %s\n' "$*"; }

# --- Packages -----------------------------------------------------------------
sh scripts/deps.sh "$cc"
major=$("$cc" -dumpversion | cut -d. -f1)
need=""
has_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
if command -v dpkg-query >/dev/null 2>&1; then
    has_pkg "gcc-$major-offload-nvptx" || need="$need gcc-$major-offload-nvptx"
    command -v patchelf >/dev/null 2>&1 || need="$need patchelf"
fi
if [ -n "$need" ]; then
    for p in $need; do say "installing missing package: $p"; done
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        say "using sudo (you may be asked for your password)"
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        false
    fi || { echo "gpu_bundle: could not install:$need; run: sudo apt-get install -y$need" >&2; exit 2; }
fi
command -v patchelf >/dev/null 2>&1 ||
    { echo "gpu_bundle: patchelf is needed; run: sudo apt-get install -y patchelf" >&2; exit 2; }

# --- Build --------------------------------------------------------------------
# sm_80 PTX from GCC 12 (its newest -misa); the driver compiles it for the
# node's GPU (sm_90 on a Hopper) when the program starts. CUDA: machine code
# for 80 and 90.
mkdir -p "$(dirname "$build")"
say "configuring $build (GCC $major offload to nvptx, kernels -march=$arch)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_CXX_COMPILER="$(echo "$cc" | sed 's/gcc/g++/;s/^cc$/c++/')" \
    -DSPEEDLAB_OFFLOAD=ON -DSPEEDLAB_ARCH="$arch" -DCMAKE_CUDA_ARCHITECTURES="80;90" \
    >"$build.configure.log" 2>&1 || { tail -20 "$build.configure.log"; exit 1; }
grep -E '^-- +(offload|CUDA|SIMD ISA) ' "$build.configure.log" | sed 's/^-- */  /'
say "building the bench and the runner"
cmake --build "$build" -j "$(nproc)" --target speedlab-bench-solutions speedlab \
    >"$build.build.log" 2>&1 || { grep -E 'error' "$build.build.log" | head -20; exit 1; }

# --- Stage --------------------------------------------------------------------
stage="$out.partial"
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
trap 'rm -rf "$stage"' EXIT
cp "$build/bench/speedlab-bench-solutions" "$build/bench/speedlab" "$stage/bin/"
plugin=$("$cc" -print-file-name=libgomp-plugin-nvptx.so.1)
[ -f "$plugin" ] || { echo "gpu_bundle: no libgomp-plugin-nvptx.so.1 for $cc" >&2; exit 1; }
cp -L "$plugin" "$stage/lib/"

# The C library, the loader and the driver come from the node; everything
# else comes along.
is_system() {
    case $1 in
    linux-vdso.so* | ld-linux* | libc.so* | libm.so* | libdl.so* | libpthread.so* | \
    librt.so* | libutil.so* | libresolv.so* | libcuda.so*) return 0 ;;
    esac
    return 1
}
# copy_needs FILE...: what each file needs (ldd: the whole closure) into lib/.
copy_needs() {
    for f; do
        ldd "$f" | while read -r name arrow path rest; do
            [ "$arrow" = "=>" ] || continue
            is_system "$name" || [ -f "$stage/lib/$name" ] || cp -L "$path" "$stage/lib/$name"
        done
    done
}
copy_needs "$stage"/bin/* "$stage/lib/libgomp-plugin-nvptx.so.1"
# One more round: the copied libraries' own needs.
copy_needs "$stage"/lib/*
for f in "$stage"/bin/*; do patchelf --set-rpath '$ORIGIN/../lib' "$f"; done
for f in "$stage"/lib/*; do chmod u+w "$f"; patchelf --set-rpath '$ORIGIN' "$f"; done

# --- Check --------------------------------------------------------------------
# With nothing from this machine's library path, every need resolves to
# the bundle or the C library.
bad=0
libdir=$(realpath "$stage/lib")
for f in "$stage"/bin/* "$stage"/lib/*; do
    env -i /usr/bin/ldd "$f" | while read -r name arrow path rest; do
        [ "$arrow" = "=>" ] || continue
        case $(realpath "$path") in
        "$libdir/"*) ;;
        *) is_system "$name" || { echo "gpu_bundle: $(basename "$f") needs $name from $path, outside the bundle" >&2; exit 1; } ;;
        esac
    done || bad=1
    env -i /usr/bin/ldd "$f" | grep -q 'not found' &&
        { echo "gpu_bundle: $(basename "$f"): a library is not found" >&2; bad=1; }
done
[ "$bad" = 0 ] || exit 1
glibc_need=$(for f in "$stage"/bin/* "$stage"/lib/*; do objdump -T "$f"; done |
    grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
glibc_here=$(getconf GNU_LIBC_VERSION | sed 's/glibc //')
if [ "$(printf '%s\n%s\n' "$glibc_need" "$glibc_here" | sort -V | tail -1)" != "$glibc_here" ]; then
    echo "gpu_bundle: the bundle needs GLIBC $glibc_need, newer than this machine's $glibc_here" >&2
    exit 1
fi
say "GLIBC needed: $glibc_need or newer (this machine: $glibc_here)"

offload=$(sed -n 's/^-- *offload *//p' "$build.configure.log")
cuda=$(sed -n 's/^-- *CUDA *//p' "$build.configure.log")
{
    echo "speedlab GPU bundle, built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "compiler: $("$cc" --version | head -1)"
    echo "kernels: -march=$arch (any x86-64 CPU with AVX2 and FMA)"
    echo "OpenMP offload: $offload; sm_80 PTX, compiled for the node's GPU by its driver"
    echo "CUDA: $cuda"
    echo "glibc_needed: $glibc_need"
} >"$stage/BUILD"
cp scripts/gpu_bundle_run.sh "$stage/run.sh"
# What the kernels declare for a GPU node (kernels/<k>/gpu-node.txt).
cat kernels/*/gpu-node.txt 2>/dev/null | grep -v '^#' >"$stage/node.txt"
chmod +x "$stage/run.sh"
cat >"$stage/README" <<'EOF'
speedlab GPU bundle: the GPU track, built on a login node, for a GPU node with only the NVIDIA driver.
Copy this folder to the node and run ./run.sh there (./run.sh --host-ok runs it on a machine without a GPU, labelled host fallback).
It prints what the node has, validates and times every gpu and cuda variant, and writes results/<run>/ (exit 4 if a gpu variant ran on the host).
Copy results/<run> back and run `sh plots/plot.sh results/<run>` in the kit (or `make report RUN=...`) to draw its figures.
BUILD says what was built and for which CPU, GPU and GLIBC; nothing outside lib/ is used but the C library and the driver.
EOF

size=$(du -sm "$stage" | cut -f1)
[ "$size" -lt 60 ] || { echo "gpu_bundle: $size MiB, over the 60 MiB budget" >&2; exit 1; }
rm -rf "$out.old"
[ -d "$out" ] && mv "$out" "$out.old"
mv "$stage" "$out"
rm -rf "$out.old"
trap - EXIT
say "$out/ is ready ($size MiB): $(ls "$out/bin" | tr '\n' ' ')and $(ls "$out/lib" | wc -l) libraries"
sed 's/^/  /' "$out/BUILD"
