# diff.gp - where a variant's image is wrong: red blocks on grey.
# Set by plot.sh: datafile, outfile; by the picture's .gp: width, height,
# wrong, title.
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
plot datafile binary array=(width, height) format='%int32' using 1 with image
