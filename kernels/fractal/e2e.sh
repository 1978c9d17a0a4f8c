#!/bin/sh
# e2e.sh - the fractals (Mandelbrot, Julia)'s own end-to-end cases and test data. Sourced by
# tests/e2e/run.sh (through lib.sh, which provides the helpers); CMake makes
# each case_<name> below a CTest test e2e.<name>, given: the bench, the
# broken tree's bench, the runner, the build folder.

# The harness's own tests draw pictures with it: a kernel whose answer is
# an image, its size the pixels of a side.
e2e_image=mandelbrot

# Mandelbrot and Julia end to end: the schedule sweep and its evidence, the
# pictures, a wrong image flagged and drawn, the runner's pictures, the FMA
# exhibit, and the fractal options' bad input.
case_fractals() {
    bench=$1; broken=$2; runner=$3
    fbench() {
        want=$1; label=$2; b=$3; shift 3
        expect_rc "$want" "$label" "$b" --size 96 --threads 1,2 --reps 1 \
            --min-time 0.01 --results "$tmp/f" "$@"
        run="$tmp/f/$(readlink "$tmp/f/latest")"
    }
    fbench 0 "bench mandelbrot" "$bench" --kernel mandelbrot
    for f in image-mandelbrot.png schedule-mandelbrot.png lanes-mandelbrot.png \
             threadwork-mandelbrot-2.png threadwork-mandelbrot-3.png speedup-mandelbrot.png; do
        [ -s "$run/$f" ] && ok "bench drew $f" || fail "bench did not draw $f"
    done
    n=$(grep -c '^solutions,mandelbrot,threads,2,.*"static,1"' "$run/results.csv")
    [ "$n" -eq 1 ] && ok "csv has the static,1 row at 2 threads" || fail "$n static,1 rows"
    expect_in "$run/summary.md" "lane utilisation" "summary gives the lane utilisation"
    expect_in "$run/summary.md" "schedule(static): the busiest thread did" "summary gives each schedule's busiest thread"
    # Every thread's share is there and the shares add up to 100%.
    awk 'NR > 2 { s += $2 } END { exit !(s > 99.9 && s < 100.1) }' "$run/threadwork-mandelbrot-3.dat" &&
        ok "static shares add up to 100%" || fail "static shares do not add up"
    # Both fractals in one run share a variant table; each scaling study
    # must hold only its own kernel's points: threads 1, 2 (and 3).
    fbench 0 "bench mandelbrot and julia" "$bench" --variant threads_simd --no-weak
    for k in mandelbrot julia; do
        rows=$(awk '/^"threads_simd"/ { b = 1; next } b && NF == 7 { printf "%s ", $1 }' "$run/scaling-$k.dat")
        [ "$rows" = "1 2 3 " ] && ok "$k's scaling study has only its own points" ||
            fail "$k's scaling study has rows for threads '$rows'"
    done
    fbench 3 "broken fractal threads exits 3" "$broken" --kernel mandelbrot
    n=$(ls "$run" | grep -c '^diff-broken-mandelbrot-threads-.*\.png$')
    [ "$n" -ge 1 ] && ok "difference images for the wrong variant ($n)" || fail "no difference image"
    expect_not_in "$run/speedup-mandelbrot.dat" '^"threads"	' "wrong variant left out of the speedup plot"
    expect_in "$run/speedup-mandelbrot.dat" '"threads_simd"	' "right variants still plotted"
    expect_in "$tmp/out" "wrong pixels" "console counts the wrong pixels"
    # The runner: a picture per lesson; the FMA exhibit differs, and says so.
    expect_rc 0 "speedlab julia" "$runner" julia --min-time 0.01 --size 80 --reps 1 --results "$tmp/r"
    [ -s "$tmp/r/julia/latest/image-julia.png" ] && ok "runner drew julia" || fail "runner drew no julia"
    expect_rc 3 "speedlab fma" "$runner" fma --min-time 0.01 --size 256 --reps 1 --results "$tmp/r"
    expect_in "$tmp/out" "WRONG:" "fma exhibit is flagged"
    [ -s "$tmp/r/fma/latest/diff-exhibits-fma-fma.png" ] && ok "fma difference image" ||
        fail "no fma difference image"
    # Bad input: one line, exit 2, nothing written.
    before=$(ls "$tmp/f" | wc -l)
    for args in "--max-iter 0" "--max-iter abc" "--max-iter 1000001" "--schedule auto" \
                "--schedule static,0" "--schedule" "--size 65537"; do
        # shellcheck disable=SC2086
        expect_rc 2 "bench --kernel mandelbrot $args" "$bench" --kernel mandelbrot \
            --results "$tmp/f" $args
        one_line "bench $args"
    done
    [ "$(ls "$tmp/f" | wc -l)" -eq "$before" ] && ok "bad input wrote nothing" ||
        fail "bad input wrote into the results folder"
}

# The harness's isolation case (tests/e2e/isolation.sh) plants these in a
# copy's exercise FILE; each fails when its line is not there any more.
# A row index that never advances: an infinite loop.
e2e_plant_hang() {
    sed -i 's/for (int64_t j = 0; j < job->height; j++)$/for (int64_t j = 0; j < job->height; j += (job->height < 0))/' "$1" &&
        grep -q 'j += (job->height < 0)' "$1"
}
# A store far out of bounds: a crash.
e2e_plant_crash() {
    sed -i 's/row\[i\] = fractal_pixel(job, i, j);/row[i + ((int64_t)1 << 36)] = fractal_pixel(job, i, j);/' "$1" &&
        grep -q '1 << 36' "$1"
}
# A schedule written into the code: right, and the rows must say so.
e2e_plant_static() {
    sed -i 's/schedule(dynamic)/schedule(static)/' "$1" && grep -q 'schedule(static)' "$1"
}
