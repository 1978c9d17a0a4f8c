# convergence.gp - Monte Carlo's error against the number of samples, on
# log-log axes: each seed's |estimate - pi| (dots), their root mean square,
# and the standard error 1.642/sqrt(N) (the line every correct run follows).
# Set by plot.sh: datafile, outfile, kernel, lanes, cores, machine.
set output outfile
set title sprintf("%s: error against samples (halves with every 4x more)\n%s", kernel, machine)
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "samples N"
set ylabel "|estimate - pi|"
set key bottom left
set grid
stats datafile using 1 nooutput
seeds = STATS_columns - 3
plot for [k=4:STATS_columns] datafile using 1:k with points pt 7 ps 0.5 \
         lc rgb "gray60" title (k == 4 ? sprintf("one seed (%d seeds)", seeds) : ""), \
     datafile using 1:2 with linespoints lw 2 pt 7 lc rgb "#1f77b4" \
         title "root mean square over the seeds", \
     datafile using 1:3 with lines lw 2 dt 2 lc rgb "black" \
         title "standard error 4 sqrt(p(1-p)/N), p = pi/4"
