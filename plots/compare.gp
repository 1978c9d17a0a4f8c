# compare.gp - two runs side by side: per configuration the ratio of median
# times B/A (below 1: B is faster) with its 95% bootstrap interval; green
# where B is significantly faster, red where slower (the Mann-Whitney test
# and the interval agreeing), grey where no difference is claimed (also
# where the host's cores at once explain it: compare.h's sl_compare_host). Set by plot.sh: datafile, outfile;
# from compare-runs.gp: label_a, label_b, rows.
set output outfile
set termoption noenhanced
set title sprintf("B = %s vs A = %s: median time B / A per configuration (below 1: B is faster)", label_b, label_a)
set xlabel "time ratio B / A (bars: 95% bootstrap interval)"
set ytics nomirror
set grid xtics
set key bottom right
set yrange [-0.7:rows - 0.3]
set offsets graph 0.05, graph 0.05, 0, 0
set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb "gray30"
colour(s) = s == 1 ? 0x1b9e77 : s == 2 ? 0xd95f02 : 0x999999
plot datafile using 2:0:3:4:(colour($5)):ytic(1) with xerrorbars pt 7 ps 1.2 lc rgb variable notitle, \
     NaN with points pt 7 lc rgb "#1b9e77" title "B faster (p < 0.05)", \
     NaN with points pt 7 lc rgb "#d95f02" title "B slower (p < 0.05)", \
     NaN with points pt 7 lc rgb "#999999" title "no difference claimed (none found, too few repetitions, unclear, or the host)"
