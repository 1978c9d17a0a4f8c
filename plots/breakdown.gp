# breakdown.gp - lesson 5: where a GPU run's time goes. One stacked bar per
# workload: the share of each step (copy to the device, kernel, copy back,
# release: the steps of a persistent target data region) in their total,
# so workloads of any size compare; the label above gives the times, with
# the per-call region's end to end and the best CPU variant's.
# Set by plot.sh: datafile, outfile, machine; by breakdown-gpu.gp: gpu_where,
# device, start_ms.
set output outfile
set termoption noenhanced
set title sprintf("Where the time goes: kernels ran on the %s\n%s; first target region %.1f ms", gpu_where, machine, start_ms)
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.5
set ylabel "share of end to end (%)"
set yrange [0:125]
set ytics 0, 20, 100
set grid ytics
set key outside right top vertical
set xtics noenhanced
total(a, b, c, d) = a + b + c + d > 0 ? a + b + c + d : 1
share(x) = 100 * x / total($2, $3, $4, $5)
plot datafile using (share($2)):xtic(1) title "copy to device" lc rgb "#d95f02", \
     '' using (share($3)) title "kernel" lc rgb "#1b9e77", \
     '' using (share($4)) title "copy to host" lc rgb "#7570b3", \
     '' using (share($5)) title "release" lc rgb "#999999", \
     '' using 0:(100):(sprintf("end to end %.3g ms\nper-call map %.3g ms\nbest CPU %.3g ms", $2 + $3 + $4 + $5, $6, $7)) with labels offset 0, 3 notitle
