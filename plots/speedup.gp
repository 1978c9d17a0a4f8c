# speedup.gp - speedup vs scalar, one bar per valid configuration with its
# 95% interval (from the two medians' intervals), and the SIMD lane count
# and the core count as reference lines (what a perfect vectoriser or
# perfect threading would reach on their own).
# Set by plot.sh: datafile, outfile, kernel, lanes, cores, machine.
set output outfile
set termoption noenhanced
set title sprintf("%s: speedup vs the scalar baseline (higher is better)\n%s", kernel, machine)
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.7
set ylabel "speedup vs scalar"
set yrange [0:*]
set grid ytics
set key top left
set xtics rotate by -25 noenhanced
ymax(a, b) = a > b ? a : b
stats datafile using 6 nooutput
set yrange [0:ymax(STATS_max, lanes * cores) * 1.15]
set arrow 1 from graph 0, first lanes to graph 1, first lanes nohead dt 2 lw 2 lc rgb "#d95f02"
set label 1 sprintf("%d SIMD lanes", lanes) at graph 0.99, first lanes right offset 0, 0.7 tc rgb "#d95f02"
set arrow 2 from graph 0, first cores to graph 1, first cores nohead dt 3 lw 2 lc rgb "#1b9e77"
set label 2 sprintf("%d cores", cores) at graph 0.99, first cores right offset 0, 0.7 tc rgb "#1b9e77"
set arrow 3 from graph 0, first lanes * cores to graph 1, first lanes * cores nohead dt 4 lw 1 lc rgb "#7570b3"
set label 3 sprintf("lanes x cores = %d", lanes * cores) at graph 0.99, first lanes * cores right offset 0, 0.7 tc rgb "#7570b3"
plot datafile using 2:5:6:xtic(1) title "measured (median, bars: 95% interval)" lc rgb "#4477aa", \
     '' using 0:6:(sprintf("%.1fx", $2)) with labels offset 0, 0.8 notitle
