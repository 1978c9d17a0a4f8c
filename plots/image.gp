# image.gp - a fractal picture: colour by count on a log scale, black where
# the count reached max_iter (inside the set).
# Set by plot.sh: datafile, outfile; by the picture's .gp: width, height,
# max_iter, title.
set output outfile
set termoption noenhanced
set title title
set size ratio -1
unset key
unset tics
unset border
unset colorbox
set margins 0, 0, 0, 2
set xrange [-0.5:width - 0.5]
set yrange [-0.5:height - 0.5]
set cbrange [0:1]
set palette defined (0 "#000764", 0.25 "#206bcb", 0.5 "#edffff", 0.75 "#ffaa00", 0.99 "#300000", 1 "#000000")
shade(n) = n >= max_iter ? 1.0 : 0.99 * log(n + 1) / log(max_iter + 1)
plot datafile binary array=(width, height) format='%int32' using (shade($1)) with image
