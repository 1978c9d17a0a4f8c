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
#   bin/speedlab-bench-clang, clang-runtime.tar.xz
#             the second offload compiler: the bench built by clang
#             (SPEEDLAB_BUNDLE_CLANG, default clang-19; installed like the
#             others, its OpenMP package unpacked, not installed) and its
#             runtime (libomp, libomptarget and its CUDA plugins, and the
#             LLVM library they load: 188 MiB, 48 MiB compressed), which
#             run.sh unpacks into a temporary folder. Left out, and said
#             so, where clang cannot be installed or cannot offload. Its
#             device images' headers are rewritten for its runtime
#             (scripts/cubin_v1.c), and BUILD says so.
#   run.sh    validate and time the GPU track on the node (scripts/gpu_bundle_run.sh)
#   offload_profile.sh
#             run.sh's reading of clang's offload profile: its gpu
#             variant's copies and kernel per source line
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
also=""
# GCC 11 (Ubuntu 22.04's) offloads for sm_30 and sm_35 only, and takes no
# -foffload-options: GCC 12 builds the bundle there, installed beside it.
if [ "$major" -lt 12 ]; then
    say "GCC $major cannot build for sm_80 (its nvptx knows sm_30 and sm_35): the bundle is built with gcc-12"
    cc=gcc-12 major=12 also="gcc-12 g++-12"
fi
# GCC's offload compiler for NVIDIA, and patchelf (the bundle's RUNPATHs):
# installed as the kit's other packages are, or exit 2 with the ways.
sh scripts/deps.sh "$cc" --with "$also gcc-$major-offload-nvptx patchelf"
command -v "$cc" >/dev/null 2>&1 ||
    { echo "gpu_bundle: needs $cc (GCC 12 or newer) and its nvptx offload compiler; to get them: $(sh scripts/install_hint.sh "gcc-12 g++-12 gcc-12-offload-nvptx")" >&2; exit 2; }
command -v patchelf >/dev/null 2>&1 ||
    { echo "gpu_bundle: patchelf is needed; to get it: $(sh scripts/install_hint.sh patchelf patchelf)" >&2; exit 2; }

# --- Build --------------------------------------------------------------------
# sm_80 PTX from GCC 12 (its newest -misa); the driver compiles it for the
# node's GPU (sm_90 on a Hopper) when the program starts. CUDA: machine code
# for 80 and 90.
mkdir -p "$(dirname "$build")"
# fresh_for DIR COMPILER: remove DIR unless it was configured with COMPILER
# (a path). CMake configures a folder whose compiler changed (make exports
# CC=cc; a shell may say gcc) again from nothing, without the -D settings
# given: for this machine's own ISA and CUDA targets, a 74 MiB bundle.
fresh_for() {
    grep -q "^CMAKE_C_COMPILER:[A-Z]*=$2\$" "$1/CMakeCache.txt" 2>/dev/null || rm -rf "$1"
}
fresh_for "$build" "$(command -v "$cc")"
say "configuring $build (GCC $major offload to nvptx, kernels -march=$arch)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_CXX_COMPILER="$(echo "$cc" | sed 's/gcc/g++/;s/^cc$/c++/')" \
    -DSPEEDLAB_OFFLOAD=ON -DSPEEDLAB_ARCH="$arch" -DCMAKE_CUDA_ARCHITECTURES="80;90" \
    -DSPEEDLAB_ROOM=OFF >"$build.configure.log" 2>&1 || { tail -20 "$build.configure.log"; exit 1; }
grep -E '^-- +(offload|CUDA|SIMD ISA) ' "$build.configure.log" | sed 's/^-- */  /'
say "building the bench and the runner"
cmake --build "$build" -j "$(nproc)" --target speedlab-bench-solutions speedlab \
    >"$build.build.log" 2>&1 || { grep -E 'error' "$build.build.log" | head -20; exit 1; }

# --- The second offload compiler: clang ---------------------------------------
# The same solutions, built by clang with its own OpenMP runtime (libomp,
# libomptarget): a separate program, since two OpenMP runtimes cannot
# share a process. CUDA and MPI come from the GCC build. The runtime is
# unpacked beside the build, not installed (scripts/clang_omp.sh).
clang=${SPEEDLAB_BUNDLE_CLANG:-clang-19}
clang_major=${clang#clang-}
clang_label=""
cubin_note=0
omp=$build-clang-omp
if omp_lib=$(sh scripts/clang_omp.sh "$clang" "$omp"); then
    omp_lib=$(printf '%s\n' "$omp_lib" | tail -1)
    case $omp in /*) ;; *) omp=$(pwd)/$omp ;; esac
    fresh_for "$build-clang" "$omp/$clang"
    say "configuring $build-clang ($clang offload to nvptx, kernels -march=$arch)"
    if cmake -S . -B "$build-clang" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$omp/$clang" \
           -DCMAKE_CXX_COMPILER="$omp/$(echo "$clang" | sed 's/clang/clang++/')" \
           -DOpenMP_C_FLAGS=-fopenmp=libomp -DOpenMP_C_LIB_NAMES=omp \
           -DOpenMP_omp_LIBRARY="$omp_lib/libomp.so" \
           -DSPEEDLAB_OFFLOAD=ON -DSPEEDLAB_ARCH="$arch" -DSPEEDLAB_CUDA=OFF -DSPEEDLAB_MPI=OFF \
           -DSPEEDLAB_ROOM=OFF >"$build-clang.configure.log" 2>&1 &&
       cmake --build "$build-clang" -j "$(nproc)" --target speedlab-bench-solutions \
           >"$build-clang.build.log" 2>&1; then
        clang_label=$clang
    else
        say "$clang did not build the offload bench (see $build-clang.configure.log, .build.log); the bundle has GCC's offload only"
        grep -E 'error|FATAL' "$build-clang.configure.log" "$build-clang.build.log" 2>/dev/null | head -5
    fi
else
    say "no $clang with its OpenMP runtime (above); the bundle has GCC's offload only"
fi

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
# copy_needs DIR FILE...: what each file needs (ldd: the whole closure) into DIR.
copy_needs() {
    dir=$1
    shift
    for f; do
        [ -f "$f" ] || continue   # an empty glob
        ldd "$f" | while read -r name arrow path rest; do
            [ "$arrow" = "=>" ] || continue
            is_system "$name" || [ -f "$dir/$name" ] || cp -L "$path" "$dir/$name"
        done
    done
}
copy_needs "$stage/lib" "$stage"/bin/* "$stage/lib/libgomp-plugin-nvptx.so.1"
# One more round: the copied libraries' own needs.
copy_needs "$stage/lib" "$stage"/lib/*
for f in "$stage"/bin/*; do patchelf --set-rpath '$ORIGIN/../lib' "$f"; done
for f in "$stage"/lib/*; do chmod u+w "$f"; patchelf --set-rpath '$ORIGIN' "$f"; done
# clang's bench and its runtime: lib-clang/, packed after the check below.
# libomptarget loads its plugins by their unversioned names.
if [ -n "$clang_label" ]; then
    mkdir -p "$stage/lib-clang"
    cp "$build-clang/bench/speedlab-bench-solutions" "$stage/bin/speedlab-bench-clang"
    # CUDA 13's ptxas writes cubin headers that clang 19's runtime cannot
    # read (scripts/cubin_v1.c says why): rewrite them, or it sees no GPU.
    "$cc" -std=c11 -O2 -o "$build-clang/cubin_v1" scripts/cubin_v1.c &&
        "$build-clang/cubin_v1" "$stage/bin/speedlab-bench-clang" >"$build-clang/cubin_v1.log" ||
        { cat "$build-clang/cubin_v1.log" >&2; echo "gpu_bundle: could not rewrite clang's cubin headers" >&2; exit 1; }
    cubin_note=$(grep -c 'rewritten' "$build-clang/cubin_v1.log" || true)
    # clang 16 loads its CUDA plugins from files of their own; from LLVM 18
    # on they are built into libomptarget.so, and there is none to copy.
    for plugin in "$omp_lib"/libomptarget.rtl.cuda*.so; do
        [ -f "$plugin" ] && cp -L "$plugin" "$stage/lib-clang/"
    done
    copy_needs "$stage/lib-clang" "$stage/bin/speedlab-bench-clang" "$stage"/lib-clang/*
    copy_needs "$stage/lib-clang" "$stage"/lib-clang/*
    patchelf --set-rpath '$ORIGIN/../lib-clang' "$stage/bin/speedlab-bench-clang"
    for f in "$stage"/lib-clang/*; do chmod u+w "$f"; patchelf --set-rpath '$ORIGIN' "$f"; done
fi

# --- Check --------------------------------------------------------------------
# With nothing from this machine's library path, every need resolves to
# the bundle or the C library.
bad=0
stagedir=$(realpath "$stage")
for f in "$stage"/bin/* "$stage"/lib/* "$stage"/lib-clang/*; do
    [ -f "$f" ] || continue
    env -i /usr/bin/ldd "$f" | while read -r name arrow path rest; do
        [ "$arrow" = "=>" ] || continue
        case $(realpath "$path") in
        "$stagedir/lib/"* | "$stagedir/lib-clang/"*) ;;
        *) is_system "$name" || { echo "gpu_bundle: $(basename "$f") needs $name from $path, outside the bundle" >&2; exit 1; } ;;
        esac
    done || bad=1
    env -i /usr/bin/ldd "$f" | grep -q 'not found' &&
        { echo "gpu_bundle: $(basename "$f"): a library is not found" >&2; bad=1; }
done
[ "$bad" = 0 ] || exit 1
glibc_need=$(for f in "$stage"/bin/* "$stage"/lib/* "$stage"/lib-clang/*; do
    [ -f "$f" ] && objdump -T "$f"; done |
    grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
glibc_here=$(getconf GNU_LIBC_VERSION | sed 's/glibc //')
if [ "$(printf '%s\n%s\n' "$glibc_need" "$glibc_here" | sort -V | tail -1)" != "$glibc_here" ]; then
    echo "gpu_bundle: the bundle needs GLIBC $glibc_need, newer than this machine's $glibc_here" >&2
    exit 1
fi
say "GLIBC needed: $glibc_need or newer (this machine: $glibc_here)"

# The LLVM library alone is 118 MiB: the clang runtime travels packed
# (xz), made once per set of libraries and kept in the build folder.
if [ -n "$clang_label" ]; then
    key=$(cd "$stage/lib-clang" && md5sum ./* | md5sum | cut -c1-32)
    packed="$build-clang/clang-runtime.tar.xz"
    if [ "$(cat "$packed.key" 2>/dev/null)" != "$key" ]; then
        say "packing clang's runtime ($(du -sm "$stage/lib-clang" | cut -f1) MiB; about ten seconds, once)"
        # xz -2: 48.3 MiB in 12 s on 2 cores; -3 was 47.3 in 22 s (Zen 4).
        tar -C "$stage" -cf - lib-clang | xz -2 -T0 >"$packed.tmp" && mv "$packed.tmp" "$packed" &&
            echo "$key" >"$packed.key" || { echo "gpu_bundle: could not pack clang's runtime" >&2; exit 1; }
    fi
    cp "$packed" "$stage/clang-runtime.tar.xz"
    rm -rf "$stage/lib-clang"
fi

offload=$(sed -n 's/^-- *offload *//p' "$build.configure.log")
cuda=$(sed -n 's/^-- *CUDA *//p' "$build.configure.log")
{
    echo "speedlab GPU bundle, built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "compiler: $("$cc" --version | head -1)"
    echo "gcc_label: gcc-$major"
    echo "kernels: -march=$arch (any x86-64 CPU with AVX2 and FMA)"
    echo "OpenMP offload: $offload; sm_80 PTX, compiled for the node's GPU by its driver"
    echo "CUDA: $cuda"
    if [ -n "$clang_label" ]; then
        echo "OpenMP offload 2: $("$clang" --version | head -1); $(sed -n 's/^-- *offload *//p' "$build-clang.configure.log"); bin/speedlab-bench-clang, runtime in clang-runtime.tar.xz"
        [ "$cubin_note" -gt 0 ] &&
            echo "cubin headers: $cubin_note of clang's device images rewritten from CUDA ELF ABI version 2 to 1, which clang's runtime reads (scripts/cubin_v1.c)"
        echo "clang_label: $clang_label"
    else
        echo "OpenMP offload 2: not included ($clang could not be installed or could not offload here)"
    fi
    echo "glibc_needed: $glibc_need"
} >"$stage/BUILD"
cp scripts/gpu_bundle_run.sh "$stage/run.sh"
cp scripts/offload_profile.sh "$stage/offload_profile.sh"
# What the kernels declare for a GPU node (kernels/<k>/gpu-node.txt).
cat kernels/*/gpu-node.txt 2>/dev/null | grep -v '^#' >"$stage/node.txt"
chmod +x "$stage/run.sh"
cat >"$stage/README" <<'EOF'
speedlab GPU bundle: the GPU track, built on a login node, for a GPU node with only the NVIDIA driver.
Copy this folder to the node and run ./run.sh there (./run.sh --host-ok runs it on a machine without a GPU, labelled host fallback).
It prints what the node has, validates and times every gpu variant with GCC and clang and every cuda variant, and writes results/<run>/ (exit 4 if a gpu variant ran on the host).
Copy results/<run> back and run `sh plots/plot.sh results/<run>` in the kit (or `make report RUN=...`) to draw its figures.
BUILD says what was built and for which CPU, GPU and GLIBC; nothing outside lib/ is used but the C library and the driver.
EOF

size=$(du -sm "$stage" | cut -f1)
[ "$size" -lt 60 ] || { echo "gpu_bundle: $size MiB, over the 60 MiB budget" >&2; exit 1; }
# What an old bundle holds that this script did not write (a GPU node's
# results/ copied back inside it) is the instructor's, and is kept.
kept=$(sh scripts/swap_in.sh "$stage" "$out") || exit 1
trap - EXIT
[ -z "$kept" ] || say "$kept (from the old $out/, not written by this script)"
say "$out/ is ready ($size MiB): $(ls "$out/bin" | tr '\n' ' ')and $(ls "$out/lib" | wc -l) libraries"
sed 's/^/  /' "$out/BUILD"
