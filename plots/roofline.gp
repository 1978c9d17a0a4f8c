# roofline.gp - lesson 7: every kernel under the machine's roofs. x: the
# operations of a kernel's limiting instruction per byte it moves from
# memory; y: those operations per second. The memory roof is the measured
# bandwidth times x; each compute roof is a probed peak on every core.
# A point under the slanted part is memory-bound, under a flat part
# compute-bound. Kernels that move no bytes worth counting sit at the
# right edge. Set by plot.sh: datafile, outfile, machine; by roofline.gp
# in the run folder: the roofs.
set output outfile
set termoption noenhanced
set title sprintf("Roofline: each kernel's best rungs under the measured roofs\n%s", machine)
set logscale xy
set xlabel "operations per byte from memory (the kernel's limiting instruction; right edge: no memory traffic)"
set ylabel "operations per second"
set xrange [xmin:xedge * 40]
set grid
set key top left
top = roof_fma > roof_mul64 ? roof_fma : roof_mul64
top = roof_divide > top ? roof_divide : top
set yrange [ymin:top * 30]
set samples 400
min(a, b) = a < b ? a : b
roof(x, peak) = bw_all > 0 ? min(bw_all * x, peak) : peak
set arrow 1 from first xedge, graph 0 to first xedge, graph 1 nohead dt 3 lc rgb "#999999"
plot roof(x, roof_fma) with lines lw 2 lc rgb "#1b9e77" title sprintf("FMA roof, %d cores: %.3g /s", cores, roof_fma), \
     roof(x, roof_divide) with lines lw 2 lc rgb "#d95f02" title sprintf("divide roof: %.3g /s", roof_divide), \
     roof(x, roof_mul64) with lines lw 2 lc rgb "#7570b3" title sprintf("64-bit multiply roof: %.3g /s", roof_mul64), \
     (bw_all > 0 ? bw_all * x : 1/0) with lines dt 2 lw 1 lc rgb "#000000" title sprintf("memory roof: %.1f GB/s on %d threads (%.1f on 1)", bw_all / 1e9, bw_threads, bw_one / 1e9), \
     datafile using 2:3:1 with points pt 7 ps 1.4 lc variable notitle, \
     '' using 2:3:4 with labels left offset 0.8, 0.4 font ",9" notitle
