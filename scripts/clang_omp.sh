#!/bin/sh
# clang_omp.sh - clang-N with its own OpenMP runtime (libomp, libomptarget
# with its host and CUDA plugins, the device runtimes) unpacked beside the
# kit, never installed: Debian's libomp-N-dev and libomp5-N take the place
# of clang 14's libomp-dev (make racecheck, CC=clang), so apt-get download
# fetches them and dpkg-deb unpacks them into DIR. Two wrapper scripts,
# DIR/clang-N and DIR/clang++-N, point clang at them. For the host offload
# device (make ... OFFLOAD=host) and the GPU bundle's second compiler.
#
# usage: scripts/clang_omp.sh CLANG DIR    (CLANG: clang-19)
#
# Installs CLANG and clang-tools-N (its offload linker) through deps.sh
# when missing. Prints the runtime's folder (for CMake's
# OpenMP_omp_LIBRARY) as its last line. Exit: 0 ready; 2 something could
# not be had, said in one line with the command that gets it.
set -u
clang=$1 dir=$2
major=${clang#clang-}
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
lib=$dir/root/usr/lib/llvm-$major/lib
say() { printf 'speedlab: %s\n' "$*" >&2; }

# The compiler and its offload linker: installing them is deps.sh's job
# (it asks clang-N and clang-tools-N of a clang-N), called only when missing.
if ! command -v "$clang" >/dev/null 2>&1 || [ ! -x "/usr/lib/llvm-$major/bin/clang-linker-wrapper" ]; then
    sh "$(dirname "$0")/deps.sh" "$clang" >&2 || exit 2
fi

if [ ! -f "$lib/libomptarget.so" ]; then
    say "unpacking libomp-$major-dev into $dir (not installed: it would replace libomp-dev)"
    rm -rf "$dir" && mkdir -p "$dir/debs" || exit 2
    fetch() { (cd "$dir/debs" && apt-get download "libomp-$major-dev" "libomp5-$major") >"$dir/download.log" 2>&1; }
    if ! fetch; then
        # Package lists never fetched (a fresh container) or stale: once
        # more after an update, where root or sudo can make one.
        if [ "$(id -u)" = 0 ]; then
            apt-get update -qq >/dev/null 2>&1
        else
            sudo -n apt-get update -qq >/dev/null 2>&1
        fi
        fetch || { say "could not download libomp-$major-dev (see $dir/download.log; is the network there?)"; exit 2; }
    fi
    for d in "$dir"/debs/*.deb; do dpkg-deb -x "$d" "$dir/root" || exit 2; done
    [ -f "$lib/libomptarget.so" ] || { say "libomp-$major-dev has no libomptarget.so"; exit 2; }
fi
for tool in "$clang" "clang++-$major"; do
    cat >"$dir/$tool" <<WRAPPER
#!/bin/sh
# $tool with the OpenMP runtime unpacked beside it (scripts/clang_omp.sh)
exec $tool -isystem '$lib/clang/$major/include' '-L$lib' '-Wl,-rpath,$lib' \\
    '--libomptarget-nvptx-bc-path=$lib' -Wno-unused-command-line-argument "\$@"
WRAPPER
    chmod +x "$dir/$tool"
done
echo "$lib"
