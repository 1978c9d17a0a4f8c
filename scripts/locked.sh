#!/bin/sh
# locked.sh - run a command while holding a build folder's lock, so that
# two `make` runs in one checkout (two `make bench` at once, say) take
# turns instead of racing each other's configure, archive and link steps.
#
# usage: scripts/locked.sh BUILD_DIR COMMAND [ARG...]
# A second caller says once that another build is running, then waits.
# Without flock(1) (util-linux) the command runs unlocked.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR COMMAND [ARG...]" >&2
    exit 2
fi
dir=$1
shift
mkdir -p "$dir"
command -v flock >/dev/null 2>&1 || exec "$@"
exec 9>"$dir/.speedlab-build.lock"
if ! flock -n 9; then
    echo "speedlab: another build is running in $dir; waiting for it to finish" >&2
    flock 9
fi
"$@"
