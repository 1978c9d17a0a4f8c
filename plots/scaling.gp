# scaling.gp - strong scaling: speedup of each threaded variant vs itself on
# one thread, with the ideal line, and parallel efficiency on the right axis.
# Set by plot.sh: datafile, outfile, kernel, lanes, cores, machine.
set output outfile
set title sprintf("%s: thread scaling (vs the same variant on 1 thread)\n%s", kernel, machine)
set xlabel "threads"
set ylabel "speedup"
set y2label "efficiency (speedup / threads)"
set key top left
set grid
stats datafile using 1 nooutput
tmax = STATS_max > cores ? STATS_max : cores
set xrange [0.5:tmax + 0.5]
set yrange [0:tmax * 1.2]
set y2range [0:1.2]
set xtics 1
set ytics nomirror
set y2tics 0.2
set termoption noenhanced
blocks = STATS_blocks
# Solid: speedup (left axis); dotted, same colour: efficiency (right axis).
plot x title "ideal" with lines dt 2 lc rgb "gray40", \
     for [b=0:blocks-1] datafile index b using 1:2 with linespoints lw 2 pt 7 \
         lc b + 1 title columnheader(1), \
     for [b=0:blocks-1] datafile index b using 1:3 axes x1y2 with linespoints dt 3 \
         pt 6 lc b + 1 notitle, \
     NaN with linespoints dt 3 pt 6 lc rgb "black" title "dotted: efficiency (right axis)"
