# lanes.gp - SIMD lane utilisation: useful / executed lane-iterations for
# fixed strips and for the lane pool, against the lane count.
# Set by plot.sh: datafile, outfile, kernel, lanes, machine.
set output outfile
set termoption noenhanced
set title sprintf("%s: how many lane-iterations are useful? (higher is better)", kernel)
set logscale x 2
set xlabel "lanes iterated together"
set ylabel "useful / executed lane-iterations (%)"
set yrange [0:105]
set grid
set key bottom left
set arrow 1 from first lanes, graph 0 to first lanes, graph 1 nohead dt 2 lc rgb "#d95f02"
set label 1 sprintf("%d doubles per vector", lanes) at first lanes, graph 0.95 offset 0.5, 0 tc rgb "#d95f02"
plot for [col = 2:3] datafile using 1:col with linespoints lw 2 pt 7 title columnhead(col)
