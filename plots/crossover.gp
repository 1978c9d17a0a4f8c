# crossover.gp - lesson 5: when does the GPU pay? End-to-end time of the
# gpu variant (per-call map: copies included) and of the best CPU variant
# against the image size, on log axes; the crossover is where they cross.
# Set by plot.sh: datafile, outfile, machine; by crossover-<kernel>.gp:
# gpu_where, crossover, cpu_name.
set output outfile
set termoption noenhanced
set title sprintf("Mandelbrot: GPU end to end (ran on the %s) vs the best CPU variant\n%s", gpu_where, machine)
set logscale xy
set xlabel "pixels (image side x side)"
set ylabel "milliseconds per image"
set grid
set key top left
if (crossover > 0) {
    set arrow 1 from first crossover * crossover, graph 0 to first crossover * crossover, graph 1 nohead dt 2 lw 2 lc rgb "#1b9e77"
    set label 1 sprintf("GPU wins from %dx%d", crossover, crossover) at first crossover * crossover, graph 0.95 left offset 0.5, 0 tc rgb "#1b9e77"
}
plot datafile using 2:3 with linespoints pt 7 lw 2 lc rgb "#e7298a" title "gpu variant, end to end", \
     '' using 2:4 with linespoints pt 5 lw 2 lc rgb "#000000" title sprintf("best CPU: %s", cpu_name)
