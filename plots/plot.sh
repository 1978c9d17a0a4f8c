#!/bin/sh
# plot.sh - turn a run folder's plot data into PNG and SVG figures.
#
# usage: plots/plot.sh RUN_DIR
#
# For each speedup-<kernel>.dat and scaling-<kernel>.dat in RUN_DIR it runs
# the matching gnuplot script twice (pngcairo, svg). Each image is written to
# a temporary name and renamed only when gnuplot succeeded and the file is
# not empty, so a failure never leaves a 0-byte or half-written image.
# Exit: 0 all plotted, 1 some plot failed, 2 bad usage, 3 gnuplot missing.
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 RUN_DIR (a folder written by make bench)" >&2
    exit 2
fi
run=$1
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plot.sh: gnuplot is not installed; install it with: sudo apt-get install gnuplot-nox" >&2
    exit 3
fi

failed=0
for data in "$run"/speedup-*.dat "$run"/scaling-*.dat; do
    [ -f "$data" ] || continue
    base=$(basename "$data" .dat)           # speedup-pi
    kind=${base%%-*}                        # speedup
    kernel=${base#*-}                       # pi
    # No data rows (every configuration invalid): nothing honest to draw.
    if ! grep -qv '^#' "$data" || [ -z "$(grep -v '^#' "$data" | tr -d '[:space:]')" ]; then
        echo "plot.sh: $base: no valid measurements, no plot"
        continue
    fi
    for ext in png svg; do
        case $ext in
        png) term="pngcairo size 1000,600 font 'sans,11'" ;;
        svg) term="svg size 1000,600 dynamic font 'sans,11'" ;;
        esac
        out="$run/$base.$ext"
        tmp="$run/.$base.$ext.tmp"
        if gnuplot -e "datafile='$data'; outfile='$tmp'; kernel='$kernel'" \
                   -e "load '$run/run.gp'; set terminal $term" \
                   "$here/$kind.gp" && [ -s "$tmp" ]; then
            mv "$tmp" "$out"
        else
            rm -f "$tmp"
            echo "plot.sh: could not plot $out" >&2
            failed=1
        fi
    done
done
exit $failed
