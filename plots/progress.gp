# progress.gp - a participant's afternoon on one lesson (speedlab-history
# --progress): each of their variants' speedup over the solution's scalar,
# run after run; a WRONG run is a red cross on the axis, a right one with
# no speed verdict (a busy machine) a grey circle there. The data's index
# blocks are the variants, each named on its first line. Set by plot.sh:
# datafile, outfile, kernel.
set output outfile
set termoption noenhanced
set title sprintf("%s: your variants, run after run (higher is better; red x: WRONG; grey o: busy, no figure)", kernel)
set xlabel "your run of the lesson (one x, one run)"
set ylabel "speedup over the solution's scalar"
set grid
set xtics 1
set yrange [0:*]
set key outside right top
stats datafile using 1 nooutput
# One run alone would be an empty x range (gnuplot warns on the console).
set xrange [STATS_min - 0.5:STATS_max + 0.5]
plot for [i=0:STATS_blocks - 1] datafile index i using 1:($3 > 0 ? NaN : $2) with linespoints pt 7 lw 2 title columnheader(1), \
     for [i=0:STATS_blocks - 1] datafile index i using 1:($3 == 1 ? 0 : NaN) with points pt 2 ps 2.5 lw 3 lc rgb "red" notitle, \
     for [i=0:STATS_blocks - 1] datafile index i using 1:($3 == 2 ? 0 : NaN) with points pt 6 ps 2 lw 2 lc rgb "#888888" notitle
