# trend.gp - one kernel's history (speedlab-history): each series' median
# time run after run with its interval, a flagged slower step ringed in
# red. The data's index blocks are the series, each named on its first
# line. Set by plot.sh: datafile, outfile, kernel; from run.gp: machine.
set output outfile
set termoption noenhanced
set title sprintf("%s: median time per run, lower is better (bars: the median's interval)\n%s", kernel, machine)
set xlabel "run of the series, in the order recorded"
set ylabel "median time (ms)"
set logscale y
set grid
set xtics 1
set xrange [0.5:*]
set key outside right top
set offsets 0.3, 0.3, 0, 0
stats datafile using 1 nooutput
plot for [i=0:STATS_blocks - 1] datafile index i using 1:2:3:4 with yerrorlines pt 7 title columnheader(1), \
     for [i=0:STATS_blocks - 1] datafile index i using 1:($5 > 0 ? $2 : NaN) with points pt 6 ps 3 lw 2 lc rgb "red" notitle
