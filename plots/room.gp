# room.gp - the workshop's room (speedlab-room): for each lesson step, how
# many participants are at each state, as one stacked bar (worst at the
# bottom: not started, WRONG, right but too busy to time, slower than
# scalar, right but slow, caught up). The data: a header naming the states, then one row per step.
# Set by plot.sh: datafile, outfile, kernel ("states"), machine.
set output outfile
set termoption noenhanced
set title sprintf("The room: each step's participants by state\n%s", machine)
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set ylabel "participants"
set yrange [0:*]
set grid ytics
set key outside right top
set xtics rotate by -30
plot datafile using 2:xtic(1) title columnheader(2) lc rgb "#bbbbbb", \
     '' using 3 title columnheader(3) lc rgb "#d7301f", \
     '' using 4 title columnheader(4) lc rgb "#9e9ac8", \
     '' using 5 title columnheader(5) lc rgb "#fc8d59", \
     '' using 6 title columnheader(6) lc rgb "#fdcc8a", \
     '' using 7 title columnheader(7) lc rgb "#1a9850"
