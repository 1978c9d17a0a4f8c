# schedule.gp - the schedule sweep: speedup vs scalar of each threaded
# variant under static, static,1, dynamic and guided.
# Set by plot.sh: datafile, outfile, kernel, cores, machine.
set output outfile
set termoption noenhanced
set title sprintf("%s: which schedule balances the rows? (higher is better)\n%s", kernel, machine)
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "speedup vs scalar"
set yrange [0:*]
set grid ytics
set key top left
set xtics noenhanced
plot for [col = 2:*] datafile using col:xtic(1) title columnhead(col)
