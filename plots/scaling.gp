# scaling.gp - strong scaling: speedup of each threaded variant vs itself on
# one thread with its 95% interval, the ideal line, the machine's core count
# (points beyond it are oversubscribed), parallel efficiency on the right
# axis, and an Amdahl fit of the serial fraction when the run has enough
# thread counts with a core each (fit_points >= fit_min, from
# scaling-<kernel>.gp); the fitted fractions go to fit-<kernel>.txt.
# A hybrid machine's fast cores (fast_cores, from run.gp) get a line too.
# Set by plot.sh: datafile, outfile, kernel, lanes, cores, machine, schedule_note,
# fit_points, fit_min, fit_note.
set output outfile
note = exists("schedule_note") ? schedule_note : ""
set title sprintf("%s: strong scaling (vs the same variant on 1 thread%s)\n%s", kernel, note, machine)
set xlabel "threads"
set ylabel "speedup"
set y2label "efficiency (speedup / threads)"
set key top left
set grid
stats datafile using 1 nooutput
tmax = STATS_max > cores ? STATS_max : cores
blocks = STATS_blocks
set xrange [0.5:tmax + 0.5]
set yrange [0:tmax * 1.25]
set y2range [0:1.25]
set xtics 1
set ytics nomirror
set y2tics 0.2
set termoption noenhanced
# The machine's limit: every thread has a core up to here.
set arrow 1 from cores, graph 0 to cores, graph 1 nohead dt 2 lw 2 lc rgb "#d95f02"
set label 1 sprintf("%d cores: the limit here", cores) at cores, graph 0.04 right offset -0.5, 0 tc rgb "#d95f02"
# A hybrid machine: past its fast cores, threads land on slow ones.
if (exists("fast_cores") && fast_cores > 0 && fast_cores < cores) {
    set arrow 2 from fast_cores, graph 0 to fast_cores, graph 1 nohead dt 3 lw 2 lc rgb "#1b9e77"
    set label 4 sprintf("%d fast core%s", fast_cores, fast_cores == 1 ? "" : "s") at fast_cores, graph 0.1 right offset -0.5, 0 tc rgb "#1b9e77"
}
if (tmax > cores) {
    set object 1 rect from cores, graph 0 to tmax + 0.5, graph 1 behind fc rgb "#f3e0d0" fs solid 0.5 noborder
    set label 2 "oversubscribed" at tmax + 0.4, graph 0.06 right tc rgb "#a0522d"
}

# Amdahl: S(p) = 1 / (f + (1 - f) / p), fitted per variant to the points
# that have a core each (column 7 is 0).
amdahl(p, f) = 1.0 / (f + (1.0 - f) / p)
array serial[blocks > 0 ? blocks : 1]
do for [b = 1:|serial|] { serial[b] = 0 }
fitted = (fit_points >= fit_min)
if (fitted) {
    set fit quiet
    set fit logfile '/dev/null'
    set print sprintf("%s/fit-%s.txt", dir, kernel)
    do for [b = 0:blocks - 1] {
        f_b = 0.05
        fit amdahl(x, f_b) datafile index b using 1:($7 == 0 ? $2 : 1/0) via f_b
        serial[b + 1] = f_b
        print sprintf("block %d serial_fraction %.6f", b, f_b)
    }
    unset print
} else {
    set label 3 fit_note at graph 0.02, graph 0.72 left tc rgb "gray30"
}

# Solid with error bars: speedup (left axis); dotted, same colour:
# efficiency (right axis); dashed, same colour: the Amdahl fit.
plot x title "ideal" with lines dt 2 lc rgb "gray40", \
     for [b=0:blocks-1] datafile index b using 1:2:4:5 with yerrorlines lw 2 pt 7 \
         lc b + 1 title columnheader(1), \
     for [b=0:blocks-1] datafile index b using 1:3 axes x1y2 with linespoints dt 3 \
         pt 6 lc b + 1 notitle, \
     for [b=0:(fitted ? blocks - 1 : -1)] amdahl(x, serial[b + 1]) with lines dt 4 \
         lc b + 1 title sprintf("Amdahl fit: serial %.1f%%", 100 * serial[b + 1]), \
     NaN with linespoints dt 3 pt 6 lc rgb "black" title "dotted: efficiency (right axis)"
