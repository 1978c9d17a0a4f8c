# speedup.gp - speedup vs scalar, one bar per rung of the ladder (the most
# threads with a core each, the fastest schedule; the schedule sweep is
# schedule.gp's) with the median's interval (95% from 6 repetitions; run.gp
# names the coverage a shorter run had). Under each bar: the variant, its
# threads and schedule, and the value, so no label can cover a bar or a
# line. Reference lines for what SIMD lanes, cores and both would give are
# labelled in the right margin. A gpu bar that ran on the CPU (host
# fallback or host offload device) is grey (a CPU figure, not a GPU one),
# disturbed or not; disturbed bars are orange, or edged orange when grey. plot.sh widens the figure so that the
# labels under the bars never meet.
# Set by plot.sh: datafile, outfile, kernel, lanes, cores, machine, interval.
if (!exists("interval")) interval = "95% CI"
set output outfile
set termoption noenhanced
set title sprintf("%s: speedup over scalar, one bar per rung (higher is better)\n%s", kernel, machine)
set style fill solid 0.85 border -1
set boxwidth 0.6
set ylabel "speedup vs scalar"
set grid ytics
set key top left
set bmargin 5
set rmargin 16
ymax(a, b) = a > b ? a : b
stats datafile using 6 nooutput
n = STATS_records
set xrange [-0.6:n - 0.4]
set yrange [0:ymax(STATS_max, lanes * cores) * 1.12]
set arrow 1 from graph 0, first lanes to graph 1, first lanes nohead dt 2 lw 2 lc rgb "#d95f02"
set label 1 sprintf("%d SIMD lanes", lanes) at graph 1.01, first lanes left tc rgb "#d95f02"
set arrow 2 from graph 0, first cores to graph 1, first cores nohead dt 3 lw 2 lc rgb "#1b9e77"
set label 2 sprintf("%d cores", cores) at graph 1.01, first cores left tc rgb "#1b9e77"
set arrow 3 from graph 0, first lanes * cores to graph 1, first lanes * cores nohead dt 4 lw 1 lc rgb "#7570b3"
set label 3 sprintf("lanes x cores\n= %d", lanes * cores) at graph 1.01, first lanes * cores left tc rgb "#7570b3"
# mark: +1 on the CPU in a GPU's place, +2 disturbed. A disturbed grey bar
# stays grey (it is still no GPU figure) with an orange edge.
colour(m) = (int(m) & 1) ? 0xaaaaaa : (int(m) & 2) ? 0xe08a2c : 0x4477aa
tic(v, d, s) = sprintf("%s\n%s\n%.1fx", v, d, s)
plot datafile using 0:2:(colour($7)):xtic(tic(strcol(1), strcol(8), $2)) with boxes \
         lc rgb variable notitle, \
     '' using 0:(int($7) == 3 ? $2 : NaN) with boxes fs empty lw 4 lc rgb "#e08a2c" notitle, \
     '' using 0:2:5:6 with yerrorbars lc rgb "black" pt -1 title "median, bars: ".interval, \
     NaN with boxes lc rgb "#aaaaaa" title "gpu variant on the CPU (host fallback or host offload): not a GPU figure", \
     NaN with boxes lc rgb "#e08a2c" title "disturbed by other processes (edge: on a grey bar)"
