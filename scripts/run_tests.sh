#!/bin/sh
# run_tests.sh - run CTest in a build folder, write the test-time table
# (test_times.sh) and close with one line:
#   N passed, N failed[, N skipped]
# Exit status: CTest's (0 only when nothing failed).
#
# usage: scripts/run_tests.sh BUILD_DIR [ctest args...]
set -u
build=$1
shift
log="$build/Testing/speedlab-ctest.log"
mkdir -p "$build/Testing"
started=$(date +%s)
ctest --test-dir "$build" --output-on-failure "$@" 2>&1 | tee "$log"
sh "$(dirname "$0")/test_times.sh" "$build" $(($(date +%s) - started))
status=$(awk '/tests passed, .* tests failed out of/ { print "seen" }' "$log")
# CTest's last line: "x% tests passed, F tests failed out of T"; skipped tests
# are listed as "(Skipped)" and counted neither as passed nor failed here.
total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
skipped=$(grep -c '(Skipped)' "$log")
if [ -z "$status" ] || [ -z "$total" ]; then
    echo "0 passed, 1 failed (ctest did not run; see above)"
    exit 1
fi
passed=$((total - failed - skipped))
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
