# hybrid.gp - lesson 6: one kernel's MPI + OpenMP grid. Above: speedup over
# the one-process scalar variant at each ranks x threads point, one bar per
# variant (block and cyclic rows for the images). Below: each bar's time
# split into compute (the slowest rank's own share) and communication and
# waiting (the reduce or gather, and the wait for the slowest rank), so
# load imbalance shows as a tall top segment.
# Set by plot.sh: datafile, outfile, kernel; by hybrid-<kernel>.gp:
# nvariants, variant1, variant2; by run.gp: machine.
set output outfile
set termoption noenhanced
set multiplot layout 2,1 title sprintf("%s: MPI ranks x OpenMP threads per rank\n%s", kernel, machine)
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set grid ytics
set key top left
set ylabel "speedup vs one-process scalar"
set yrange [0:*]
if (nvariants > 1) {
    plot datafile index 0 using 2:xtic(1) title variant1 lc rgb "#4477aa", \
         '' index 0 using 3 title variant2 lc rgb "#1b9e77"
} else {
    plot datafile index 0 using 2:xtic(1) title variant1 lc rgb "#4477aa"
}
set style histogram rowstacked
set boxwidth 0.6
set ylabel "ms per call"
set xtics rotate by 30 right
plot datafile index 1 using 2:xtic(1) title "compute (slowest rank)" lc rgb "#4477aa", \
     '' index 1 using 3 title "communication and waiting" lc rgb "#e08a2c"
unset multiplot
