# schedule.gp - the schedule sweep: speedup vs scalar of each threaded
# variant under static, static,1, dynamic and guided, with the 95% interval
# of each, and headroom above the tallest bar for the key.
# Set by plot.sh: datafile, outfile, kernel, cores, machine.
set output outfile
set termoption noenhanced
set title sprintf("%s: which schedule balances the rows? (higher is better)\n%s", kernel, machine)
set datafile missing "-"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set ylabel "speedup vs scalar"
set grid ytics
set key top left horizontal
set xtics noenhanced
stats datafile using 2 nooutput
cols = STATS_columns
tallest = 0
do for [c = 4:cols:3] {
    stats datafile using c nooutput
    tallest = STATS_max > tallest ? STATS_max : tallest
}
set yrange [0:tallest * 1.3]
plot for [c = 2:cols:3] datafile using c:c + 1:c + 2:xtic(1) title columnhead(c)
