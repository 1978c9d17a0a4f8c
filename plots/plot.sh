#!/bin/sh
# plot.sh - turn a run folder's plot data into PNG and SVG figures.
#
# usage: plots/plot.sh RUN_DIR
#
# Each data file in RUN_DIR names its figure: <kind>-<rest>.dat (speedup,
# weak, compare,
# scaling, schedule, threadwork, lanes, convergence, breakdown, crossover;
# labels in <kind>-<rest>.gp when there is one) or <kind>-<rest>.bin (image,
# diff: fractal pictures, described by <kind>-<rest>.gp). The script
# plots/<kind>.gp draws it, once per terminal (pngcairo, svg; pictures are
# PNG only). Each image is written to a temporary name and renamed only when
# gnuplot succeeded and the file is not empty, so a failure never leaves a
# 0-byte or half-written image.
# Exit: 0 all plotted, 1 some plot failed, 2 bad usage, 3 gnuplot missing.
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 RUN_DIR (a folder written by make bench)" >&2
    exit 2
fi
run=$1
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v gnuplot >/dev/null 2>&1; then
    get=$(sh "$here/../scripts/install_hint.sh" gnuplot-nox gnuplot)
    echo "plot.sh: gnuplot is not installed; to get it: $get" >&2
    exit 3
fi

# Stopped (the run that started us was killed: the bench sends TERM then,
# or Ctrl-C): take the gnuplot in progress along, and leave no temporary
# image. gnuplot runs in the background so that the signal is seen at once
# rather than after the figure in progress, and is reaped before we exit.
plotting=""
trap 'trap - TERM INT HUP
      [ -n "$plotting" ] && kill "$plotting" 2>/dev/null && wait "$plotting" 2>/dev/null
      rm -f "$run"/.*.tmp; exit 143' TERM INT HUP

failed=0
for data in "$run"/*.dat "$run"/*.bin; do
    [ -f "$data" ] || continue
    file=$(basename "$data")                # speedup-pi.dat, image-julia.bin
    base=${file%.*}                         # speedup-pi
    kind=${base%%-*}                        # speedup
    kernel=${base#*-}                       # pi
    [ -f "$here/$kind.gp" ] || continue
    exts="png svg"
    desc="$run/run.gp"
    size="1000,600"
    case $file in
    *.bin)
        # A picture: its description holds width, height and the title.
        desc="$run/$base.gp"
        [ -f "$desc" ] || { echo "plot.sh: $file has no $base.gp" >&2; failed=1; continue; }
        w=$(sed -n 's/^width = //p' "$desc")
        h=$(sed -n 's/^height = //p' "$desc")
        size="900,$(( 900 * h / w + 60 ))"
        exts="png" ;;
    *)
        # A data file may come with its own labels (breakdown-gpu.gp).
        [ -f "$run/$base.gp" ] && desc="$run/$base.gp"
        # Bars with labels under them (speedup): wide enough
        # that the longest label line (at about 7 px a character in an
        # 11-point font) fits its bar's slot, beside the margins' 220 px.
        if [ "$kind" = speedup ]; then
            width=$(awk -F'\t' '!/^#/ && NF > 1 { n++
                        for (f = 1; f <= 8; f += 7) { l = length($f) - 2; if (l > w) w = l } }
                     END { w = w < 8 ? 8 : w; print 220 + n * (w * 7 + 16) }' "$data")
            [ "$width" -gt 1000 ] && size="$width,600"
        fi
        # The roofline's legend sits under the plot: room for it.
        [ "$kind" = roofline ] && size="1000,720"
        # A comparison has one row per configuration: grow with them.
        if [ "$kind" = compare ]; then
            rows=$(sed -n 's/^rows = //p' "$desc")
            size="1200,$(( 160 + 18 * ${rows:-10} ))"
        fi
        # No data rows (every configuration invalid): nothing honest to draw.
        if [ -z "$(grep -v '^#' "$data" | tr -d '[:space:]')" ]; then
            echo "plot.sh: $base: no valid measurements, no plot"
            continue
        fi ;;
    esac
    for ext in $exts; do
        case $ext in
        png) term="pngcairo size $size font 'sans,11'" ;;
        svg) term="svg size $size dynamic font 'sans,11'" ;;
        esac
        out="$run/$base.$ext"
        tmp="$run/.$base.$ext.tmp"
        gnuplot -e "datafile='$data'; outfile='$tmp'; kernel='$kernel'; dir='$run'" \
                -e "load '$run/run.gp'; load '$desc'; set terminal $term" \
                "$here/$kind.gp" &
        plotting=$!
        if wait "$plotting" && [ -s "$tmp" ]; then
            mv "$tmp" "$out"
        else
            rm -f "$tmp"
            echo "plot.sh: could not plot $out" >&2
            failed=1
        fi
        plotting=""
    done
done
exit $failed
