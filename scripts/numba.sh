#!/bin/sh
# numba.sh - lesson 8: run the numba ladder (python/numba_bench.py) with a
# Python that has numba.
#
# usage: scripts/numba.sh BUILD_DIR RESULTS_DIR [numba_bench.py options]
#
# numba comes from the system packages (scripts/deps.sh --numba installs
# them, or prints the command and exits 4), so the interpreter is the
# system's: SPEEDLAB_PYTHON if set, else python3 on the PATH when it can
# import numba, else /usr/bin/python3 (a pyenv or venv python3 earlier on
# the PATH does not see Debian's packages). Exit codes are the driver's: 0,
# 2 bad input, 3 a variant failed validation, 4 numba missing.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR RESULTS_DIR [options]" >&2
    exit 2
fi
build=$1
results=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)

sh "$here/scripts/deps.sh" cc --numba || exit $?

has_numba() {
    "$1" -c 'import numba, numpy' >/dev/null 2>&1
}
if [ -n "${SPEEDLAB_PYTHON:-}" ]; then
    python=$SPEEDLAB_PYTHON
elif command -v python3 >/dev/null 2>&1 && has_numba python3; then
    python=python3
else
    python=/usr/bin/python3
fi
if ! has_numba "$python"; then
    sudo=sudo
    [ "$(id -u)" = 0 ] && sudo=""
    echo "numba: $python cannot import numba and numpy; install them with: ${sudo:+$sudo }apt-get install -y python3-numba python3-numpy" >&2
    exit 4
fi
exec "$python" "$here/python/numba_bench.py" --checker "$build/bench/speedlab-check" \
    --results "$results" "$@"
