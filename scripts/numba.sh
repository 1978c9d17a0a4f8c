#!/bin/sh
# numba.sh - lesson 8: run the numba ladder (python/numba_bench.py) with a
# Python that has numba, then the one report over its rows.
#
# usage: scripts/numba.sh BUILD_DIR RESULTS_DIR [--rows-only] [numba_bench.py options]
#
# The Python driver writes rows (results.csv, compile.csv) to
# RESULTS_DIR/rows/<run>; the C bench then measures its own scalar at the
# same sizes and imports them, so RESULTS_DIR/<run> is a run folder like
# every other, index.html and summary.md included, with numba's rows, their
# speedups over C's scalar and where each first call's time goes.
# --rows-only (make bench NUMBA=1) stops after the rows.
#
# The interpreter: SPEEDLAB_PYTHON if set, else python3 on the PATH when it
# can import numba, else /usr/bin/python3 (a pyenv or venv python3 earlier
# on the PATH does not see Debian's packages). When it cannot import numba,
# scripts/deps.sh --numba installs the system's package (or, where there is
# none, as on Ubuntu 24.04, says how to get it with pip), or prints the
# command and exits 4. Exit codes are the driver's and
# the bench's: 0, 2 bad input, 3 a variant failed validation, 4 numba missing.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR RESULTS_DIR [options]" >&2
    exit 2
fi
build=$1
results=$2
shift 2
rows_only=""
if [ "${1:-}" = --rows-only ]; then rows_only=1; shift; fi
here=$(cd "$(dirname "$0")/.." && pwd)

has_numba() {
    "$1" -c 'import numba, numpy' >/dev/null 2>&1
}
pick_python() {
    if [ -n "${SPEEDLAB_PYTHON:-}" ]; then
        python=$SPEEDLAB_PYTHON
    elif command -v python3 >/dev/null 2>&1 && has_numba python3; then
        python=python3
    else
        python=/usr/bin/python3
    fi
}
# A Python that has numba already (pip's, where it is not packaged) needs
# no install.
pick_python
if ! has_numba "$python"; then
    sh "$here/scripts/deps.sh" cc --numba || exit $?
    pick_python
fi
if ! has_numba "$python"; then
    # Here deps.sh installed the system's numba, or there is no apt: the
    # way left is pip's, into SPEEDLAB_PYTHON's environment or a new one.
    get="$python -m pip install numba numpy"
    [ -n "${SPEEDLAB_PYTHON:-}" ] || get="python3 -m venv ~/numba-env && ~/numba-env/bin/pip install numba numpy, then SPEEDLAB_PYTHON=~/numba-env/bin/python3"
    echo "numba: $python cannot import numba and numpy; to get them: $get" >&2
    exit 4
fi
"$python" "$here/python/numba_bench.py" --checker "$build/bench/speedlab-check" \
    --results "$results/rows" "$@"
rc=$?
{ [ $rc = 0 ] || [ $rc = 3 ]; } || exit $rc
[ -n "$rows_only" ] && exit $rc
# The C report: its scalar at the same sizes (the same --quick), the rows
# imported. Timing options go to both.
same=""
while [ $# -gt 0 ]; do
    case $1 in
    --quick|--no-plots) same="$same $1" ;;
    --reps|--min-time) same="$same $1 $2"; shift ;;
    esac
    shift
done
csv="$results/rows/latest/results.csv"
kernels=$(awk -F, 'NR > 1 { print $2 }' "$csv" | sort -u | paste -sd, -)
echo
echo "== the C scalar at the same sizes, and the report with numba's rows"
# shellcheck disable=SC2086
exec "$build/bench/speedlab-bench-solutions" --kernel "$kernels" --variant scalar --no-weak \
    --results "$results" $same --import "$csv"
