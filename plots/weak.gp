# weak.gp - weak scaling: time per call as the threads grow with the work
# per thread held constant, with its 95% interval and the flat ideal (the
# 1-thread time); efficiency, from the work each thread actually did, on
# the right axis. Set by plot.sh: datafile, outfile, kernel, cores, machine.
set output outfile
note = exists("schedule_note") ? schedule_note : ""
set title sprintf("%s: weak scaling (work per thread held constant%s)\n%s", kernel, note, machine)
set xlabel "threads"
set ylabel "time per call (ms)"
set y2label "weak efficiency"
set key bottom left
set grid
set termoption noenhanced
stats datafile using 1 nooutput
tmax = STATS_max > cores ? STATS_max : cores
blocks = STATS_blocks
stats datafile using 4 nooutput
set xrange [0.5:tmax + 0.5]
set yrange [0:STATS_max * 1.3]
set y2range [0:1.3]
set xtics 1
set ytics nomirror
set y2tics 0.2
set arrow 1 from cores, graph 0 to cores, graph 1 nohead dt 2 lw 2 lc rgb "#d95f02"
set label 1 sprintf("%d cores: the limit here", cores) at cores, graph 0.97 right offset -0.5, 0 tc rgb "#d95f02"
plot for [b=0:blocks-1] datafile index b using 1:2:3:4 with yerrorlines lw 2 pt 7 \
         lc b + 1 title columnheader(1), \
     for [b=0:blocks-1] datafile index b using 1:7 with lines dt 2 lc b + 1 \
         title "ideal: flat at 1 thread's time", \
     for [b=0:blocks-1] datafile index b using 1:6 axes x1y2 with linespoints dt 3 \
         pt 6 lc b + 1 title "efficiency (right axis)"
