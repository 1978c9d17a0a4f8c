#!/bin/sh
# test_times.sh - make test's test-time table: every test's seconds, the
# CPU-seconds its processes used (the e2e cases print theirs; a unit test
# is its own one process, counted as its seconds) and its result, longest
# first, in BUILD/Testing/test-times.csv, and one summary line, so that a
# change that makes the suite slower is seen in the change.
#
# usage: scripts/test_times.sh BUILD_DIR WALL_SECONDS
set -u
build=$1
wall=$2
log="$build/Testing/Temporary/LastTest.log"
table="$build/Testing/test-times.csv"
[ -s "$log" ] || { echo "test times: no CTest log in $build/Testing/Temporary"; exit 0; }
awk -v out="$table.tmp" -v wall="$wall" -v table="$table" -v console="$build/Testing/speedlab-ctest.log" '
    function hms(s,   m) { m = index(s, "m"); return substr(s, 1, m - 1) * 60 + substr(s, m + 1) }
    # The console log first: CTest logs a skipped test as passed.
    FILENAME == console { if ($0 ~ /Test +#[0-9]+: .*Skipped/) { sub(/.*Test +#[0-9]+: /, ""); skipped[$1] = 1 }; next }
    / Testing: / { name = $3; cpu = "" }
    /^cpu: [0-9]+m[0-9.]+s user, [0-9]+m[0-9.]+s system$/ {
        u = $2; sub(/s$/, "", u); y = $4; sub(/s$/, "", y); cpu = hms(u) + hms(y) }
    /^Test time = / { secs = $4 }
    /^Test (Passed|Failed)\.|^Test not run/ && name != "" {
        result = name in skipped ? "skipped" : $0 ~ /Passed/ ? "passed" : "failed"
        if (cpu == "") cpu = secs
        row[++n] = sprintf("%s,%.1f,%.1f,%s", name, secs, cpu, result)
        t[n] = secs; total += secs; cpus += cpu; name = "" }
    END {
        # Longest first (a few hundred rows: a plain selection sort).
        for (i = 1; i <= n; i++)
            for (j = i + 1; j <= n; j++)
                if (t[j] > t[i]) { x = t[i]; t[i] = t[j]; t[j] = x; r = row[i]; row[i] = row[j]; row[j] = r }
        print "test,seconds,cpu_seconds,result" > out
        for (i = 1; i <= n; i++) print row[i] > out
        top = ""
        for (i = 1; i <= n && i <= 3; i++) { split(row[i], f, ","); top = top (i > 1 ? ", " : "") f[1] " " int(f[2] + 0.5) " s" }
        printf "test times: %d tests in %d s of wall time (%d s of test time, %d CPU-seconds); longest: %s; table: %s\n",
            n, wall, total, cpus, top, table
    }' "$build/Testing/speedlab-ctest.log" "$log" && mv "$table.tmp" "$table"
