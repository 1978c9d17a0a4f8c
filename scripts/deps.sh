#!/bin/sh
# deps.sh - make sure the packages speedlab needs are installed.
#
# usage: scripts/deps.sh [C compiler]
#
# Checks for cmake, a C and C++ compiler, Google Benchmark and gnuplot (and
# libomp when the compiler is clang). On Debian/Ubuntu it installs what is
# missing, announcing each package: directly as root, with sudo otherwise.
# When it cannot install, it prints the exact command and exits 2.
# SPEEDLAB_SKIP_DEPS=1 skips the whole check (for machines managed elsewhere).
set -u

[ "${SPEEDLAB_SKIP_DEPS:-0}" = 1 ] && exit 0
cc=${1:-cc}

has_pkg() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=""
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
    command -v "$cc" >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || missing="$missing gcc"
    command -v g++ >/dev/null 2>&1 || command -v c++ >/dev/null 2>&1 || missing="$missing g++"
    has_pkg libbenchmark-dev || missing="$missing libbenchmark-dev"
    command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
    case "$(basename "$cc")" in
    clang*) has_pkg libomp-dev || missing="$missing libomp-dev" ;;
    esac
else
    # Not Debian/Ubuntu: check what we can and say what to install.
    for tool in cmake gnuplot; do
        command -v $tool >/dev/null 2>&1 || missing="$missing $tool"
    done
    if [ -n "$missing" ]; then
        echo "speedlab needs:$missing (plus Google Benchmark and OpenMP)." >&2
        echo "On macOS: brew install cmake google-benchmark gnuplot libomp" >&2
        exit 2
    fi
    exit 0
fi

[ -z "$missing" ] && exit 0

cmd="apt-get install -y$missing"
for pkg in $missing; do
    echo "speedlab: installing missing package: $pkg"
done
if [ "$(id -u)" = 0 ]; then
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing; then
        exit 0
    fi
elif command -v sudo >/dev/null 2>&1; then
    echo "speedlab: using sudo (you may be asked for your password)"
    if sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing; then
        exit 0
    fi
    cmd="sudo $cmd"
else
    cmd="sudo $cmd"
fi
echo "speedlab: could not install:$missing" >&2
echo "speedlab: run this, then try again:  apt-get update && $cmd" >&2
exit 2
