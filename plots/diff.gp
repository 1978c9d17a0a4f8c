# diff.gp - where a variant's image is wrong: a red dot on each wrong block
# over a grey field (a single wrong pixel would be invisible on a slide).
# Set by plot.sh: datafile, outfile; by the picture's .gp: width, height,
# wrong, title. The wrong blocks are listed in the .pts file beside the .bin.
set output outfile
set termoption noenhanced
set title sprintf("%s: %d wrong pixels", title, wrong)
set size ratio -1
unset key
unset tics
unset colorbox
set margins 0, 0, 0, 2
set xrange [-0.5:width - 0.5]
set yrange [-0.5:height - 0.5]
set cbrange [0:1]
set palette defined (0 "#e8e8e8", 1 "#d7191c")
points = datafile[1:strlen(datafile) - 4] . ".pts"
plot datafile binary array=(width, height) format='%int32' using 1 with image, \
     points using 1:2 with points pt 7 ps 0.8 lc rgb "#d7191c"
