# regions.awk - one solution file as its exercise (gen_exercises.sh), or
# as its exercise with one step solved (step.sh's make solution).
#
# Variables: file (for messages); solve, a step ("1.2"), "*" for every
# step (the solutions with the exercises' headers), or empty; has_step,
# 1 when the file names TODO(solve) somewhere. Regions and headers are
# those gen_exercises.sh describes. With solve set, a region whose
# exercise text names TODO(solve) keeps its solution lines, and so does a
# region with no TODO at all (a helper the step's code needs) in a file
# that names the step; every other region becomes its exercise lines.
function fail(msg) { printf "%s:%d: %s\n", file, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
function close_region(   solved) {
    solved = solve == "*" ||
             (solve != "" && (index(ex, "TODO(" solve ")") || (has_step && ex !~ /TODO\(/)))
    printf "%s", solved ? sol : ex
    sol = ""; ex = ""; state = 0
}
/^[ \t]*\/\* BEGIN SOLUTION \*\/[ \t]*$/ {
    if (state != 0) fail("BEGIN SOLUTION inside a region")
    state = 1; start = FNR; next
}
/^[ \t]*\/\* EXERCISE[ \t]*$/ {
    if (state != 1) fail("EXERCISE outside a solution region")
    state = 2; next
}
/^[ \t]*END SOLUTION \*\/[ \t]*$/ {
    if (state != 2) fail("END SOLUTION */ without /* EXERCISE")
    close_region(); next
}
/^[ \t]*\/\* END SOLUTION \*\/[ \t]*$/ {
    if (state != 1) fail("/* END SOLUTION */ outside a solution region")
    close_region(); next
}
/^ \* BEGIN SOLUTION HEADER$/ {
    if (state != 0) fail("BEGIN SOLUTION HEADER inside a region")
    state = 3; start = FNR; next
}
/^ \* EXERCISE HEADER$/ {
    if (state != 3) fail("EXERCISE HEADER outside a solution header")
    state = 4; next
}
/^ \* END SOLUTION HEADER$/ {
    if (state != 4) fail("END SOLUTION HEADER without EXERCISE HEADER")
    state = 0; next
}
/SOLUTION/ && state == 0 { fail("a SOLUTION marker must be alone on its line") }
state == 1 { sol = sol $0 "\n"; next }
state == 2 { ex = ex $0 "\n"; next }
state == 4 { print; next }
state == 3 { next }
{ print }
END {
    if (!bad && state != 0) { FNR = start; fail("region opened here is never closed") }
}
