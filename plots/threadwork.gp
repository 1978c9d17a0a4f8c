# threadwork.gp - each thread's share of the iterations under each schedule,
# from the rows it computed; the dashed line is the even share.
# Set by plot.sh: datafile, outfile, kernel, machine.
set output outfile
set termoption noenhanced
stats datafile using 1 nooutput
threads = STATS_records
set title sprintf("%s: work per thread on %d threads (an even split is %.1f%%)\n%s", kernel, threads, 100.0 / threads, machine)
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xlabel "thread"
set ylabel "share of the iterations (%)"
set yrange [0:100]
set grid ytics
set key top right
set arrow 1 from graph 0, first 100.0 / threads to graph 1, first 100.0 / threads nohead dt 2 lw 2 lc rgb "#333333"
plot for [col = 2:*] datafile using col:xtic(1) title columnhead(col)
