# compile.gp - lesson 8: where the first call of each numba variant goes.
# One stacked bar per variant: numba's compile phases (its pass timings:
# bytecode and IR, inlining in numba's IR, type inference, parfor passes, lowering through LLVM to
# machine code, and compile time no pass claims), then the call's own run.
# Set by plot.sh: datafile, outfile, kernel.
set output outfile
set termoption noenhanced
set title "numba: the first call of each variant, compile then run (lower is better)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set ylabel "seconds"
set grid ytics
set key outside right top vertical Left reverse
set xtics rotate by -35 left
set bmargin 9
set rmargin 24
plot datafile using 2:xtic(1) title "bytecode, IR" lc rgb "#a6cee3", \
     '' using 3 title "inlining (numba IR)" lc rgb "#cab2d6", \
     '' using 4 title "type inference" lc rgb "#1f78b4", \
     '' using 5 title "parfor passes" lc rgb "#b2df8a", \
     '' using 6 title "lowering (LLVM)" lc rgb "#33a02c", \
     '' using 7 title "other compile" lc rgb "#fb9a99", \
     '' using 8 title "the run itself" lc rgb "#aaaaaa"
