# roofline.gp - lesson 7: every kernel under the machine's roofs. x: the
# operations of a kernel's limiting instruction per byte it moves (from
# the level its arrays live in); y: those operations per second. The
# memory roof is the measured bandwidth times x, and each cache level's
# roof (L1, L2, L3: every core's) its own (a run probes only the kind its
# rows stand under, the memory's or the caches'); each compute roof is a probed
# peak on every core. A kernel whose arrays fit a cache stands under that
# cache's roof.
# A point under the slanted part is memory-bound, under a flat part
# compute-bound. Kernels that move no bytes worth counting sit right of
# the edge, a column each; the legend, under the plot, names every
# kernel's colour and marks a roof probed while the machine was busy. Set by plot.sh: datafile, outfile, machine; by roofline.gp
# in the run folder: the roofs.
set output outfile
set termoption noenhanced
set title sprintf("Roofline: each kernel's best rungs under the measured roofs\n%s", machine)
set logscale xy
set xlabel "operations per byte moved (the kernel's limiting instruction; right edge: no memory traffic)"
set ylabel "operations per second"
set xrange [xmin:xedge * 40]
set grid
# The legend under the plot: off the roofs and the points.
set key outside below center horizontal maxrows 4
top = roof_fma > roof_mul64 ? roof_fma : roof_mul64
top = roof_divide > top ? roof_divide : top
set yrange [ymin:top * 30]
set samples 400
min(a, b) = a < b ? a : b
roof(x, peak) = bw_all > 0 ? min(bw_all * x, peak) : peak
set arrow 1 from first xedge, graph 0 to first xedge, graph 1 nohead dt 3 lc rgb "#999999"
if (!exists("kernels")) kernels = ""
if (!exists("bw_l1")) bw_l1 = 0; bw_l2 = 0; bw_l3 = 0
level(bw, x) = bw > 0 ? min(bw * x, top) : 1/0
if (!exists("bw_disturbed")) bw_disturbed = 0; divide_disturbed = 0; fma_disturbed = 0; mul64_disturbed = 0
marked(d) = d ? " (disturbed: may be low)" : ""
plot roof(x, roof_fma) with lines lw 2 lc rgb "#1b9e77" title sprintf("FMA roof, %d cores: %.3g /s%s", cores, roof_fma, marked(fma_disturbed)), \
     roof(x, roof_divide) with lines lw 2 lc rgb "#d95f02" title sprintf("divide roof: %.3g /s%s", roof_divide, marked(divide_disturbed)), \
     roof(x, roof_mul64) with lines lw 2 lc rgb "#7570b3" title sprintf("64-bit multiply roof: %.3g /s%s", roof_mul64, marked(mul64_disturbed)), \
     (bw_all > 0 ? bw_all * x : 1/0) with lines dt 2 lw 1 lc rgb "#000000" title (bw_all > 0 ? sprintf("memory roof: %.1f GB/s on %d threads (%.1f on 1)%s", bw_all / 1e9, bw_threads, bw_one / 1e9, marked(bw_disturbed)) : "memory roof: not probed (no row stands under it)"), \
     level(bw_l1, x) with lines dt 4 lw 1 lc rgb "#e7298a" title (bw_l1 > 0 ? sprintf("L1 roof: %.0f GB/s", bw_l1 / 1e9) : ""), \
     level(bw_l2, x) with lines dt 4 lw 1 lc rgb "#66a61e" title (bw_l2 > 0 ? sprintf("L2 roof: %.0f GB/s", bw_l2 / 1e9) : ""), \
     level(bw_l3, x) with lines dt 4 lw 1 lc rgb "#a6761d" title (bw_l3 > 0 ? sprintf("L3 roof: %.0f GB/s", bw_l3 / 1e9) : ""), \
     for [k = 1:words(kernels)] datafile using 2:($1 == k ? $3 : 1/0) with points pt 7 ps 1.4 lc k title word(kernels, k), \
     datafile using 2:3:4 with labels left offset 0.8, 0.4 font ",9" notitle
