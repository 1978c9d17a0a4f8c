#!/bin/sh
# e2e.sh - pi's end-to-end test data and hooks. Sourced by tests/e2e/run.sh
# (through lib.sh, which provides the helpers); the harness's cases call
# the hooks for every kernel that defines one.

# The harness's own cases run on pi where any kernel would do (bad input,
# faults, files, the report, the runner): one dimension, one number as its
# answer, a few nanoseconds a step on one core, so that their sizes (10^4
# to 10^8 steps) take milliseconds to a second.
e2e_example=pi

# make racecheck on the racy tree: both planted races (the sum without its
# reduction, a shared temporary), each at its line with the fix in words.
racecheck_pi() {
    expect_rc 3 "racecheck finds pi's planted races" sh "$top/scripts/racecheck.sh" racy pi
    expect_in "$tmp/out" "DATA RACE in kernels/pi/planted/racy/threads.c, line 16, on 'sum'" \
        "names the file, line and variable of the missing reduction"
    expect_in "$tmp/out" "Add reduction(+:sum)" "suggests the reduction"
    expect_in "$tmp/out" "DATA RACE in kernels/pi/planted/racy/threads_simd.c, line 14, on 'x'" \
        "names the shared temporary"
    expect_in "$tmp/out" "Declare it inside the loop body, or add private(x)" "suggests private"
    expect_in "$tmp/out" "2 data race(s) found" "counts the races"
}

# `parallel` without `for` in threads.c (tests/e2e/isolation.sh): every
# thread sums every step, so 2 threads give exactly 2 pi.
e2e_plant_whole_loop() {
    sed -i 's/^#pragma omp parallel for reduction/#pragma omp parallel reduction/' "$1" &&
        grep -q '^#pragma omp parallel reduction' "$1"
}

# make bench-commits' planted slowdown (tests/e2e/history.sh): threads_simd
# sums every step 8 times (7 extra passes), so it takes 8 times as long
# and still gives pi.
e2e_plant_slow() {
    awk '/^    return h \* sum;$/ {
             print "    double again = 0.0;"
             print "    for (int pass = 1; pass < 8; pass++) {"
             print "#pragma omp parallel for simd reduction(+:again) num_threads(threads)"
             print "        for (int64_t i = 0; i < steps; i++) {"
             print "            double x = ((double)i + 0.5) * h;"
             print "            again += 4.0 / (1.0 + x * x);"
             print "        }"
             print "    }"
             print "    return h * (sum + again) / 8.0;"
             found = 1; next }
         { print } END { exit !found }' "$1" >"$1.planted" && mv "$1.planted" "$1"
}
