# numba.sh - lesson 8: the numba ladder checked by the kit's own checks, its
# results.csv read by the C report (--import), and numba missing (exit 4).
# Skipped (77) where no Python here can import numba.

# numba_python: the interpreter scripts/numba.sh would pick, or skip.
numba_python() {
    for py in ${SPEEDLAB_PYTHON:-} python3 /usr/bin/python3; do
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import numba, numpy' 2>/dev/null; then
            echo "$py"
            return 0
        fi
    done
    echo "skipped: numba is not installed (apt-get install python3-numba python3-numpy; where it is not packaged, pip in a venv named by SPEEDLAB_PYTHON)" >&2
    exit 77
}

# case_ladder BUILD_DIR BENCH: every numba variant valid by the kit's check,
# the run folder's files, then the C report with the rows imported.
case_ladder() {
    build=$1; bench=$2
    py=$(numba_python) || exit 77
    quick="--quick --reps 2 --min-time 0.01 --threads 1,2 --no-plots"
    brief="--reps 2 --min-time 0.01 --retry-busy 0"
    SPEEDLAB_SKIP_DEPS=1 expect_rc 0 "make numba's driver, quick" \
        sh "$top/scripts/numba.sh" "$build" "$tmp/res" $quick
    run="$tmp/res/rows/latest"
    csv="$run/results.csv"
    [ -f "$csv" ] || { fail "no results.csv in $run"; return; }
    # What the kernels' tables (kernels/*/numba.py) ask for: each variant
    # once, the ones that take threads at 1 and 2.
    set -- $("$py" -c '
import glob, importlib.util, sys
variants = configs = 0
for path in glob.glob(sys.argv[1] + "/kernels/*/numba.py"):
    spec = importlib.util.spec_from_file_location("table", path)
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    for kernel in table.KERNELS.values():
        for _name, _make, threaded, _mode in kernel["variants"]:
            variants += 1
            configs += 2 if threaded else 1
print(variants, configs)' "$top")
    variants=$1; configs=$2
    rows=$(($(wc -l <"$csv") - 1))
    [ "$rows" -eq "$configs" ] && ok "$configs configurations ($variants variants, threaded ones at 1 and 2 threads)" ||
        fail "results.csv has $rows rows, expected $configs"
    [ "$(csv_get "$csv" valid | sort -u)" = yes ] && ok "every numba variant passed the kit's check" ||
        fail "valid column: $(csv_get "$csv" valid | sort | uniq -c | tr '\n' ' ')"
    [ "$(csv_get "$csv" tree | sort -u)" = numba ] && ok "tree=numba" || fail "tree column"
    # The counter-based generator's count is the C reference's exactly: the
    # exact check passed, so its estimate is the C scalar's to the last bit.
    # (The C runs here are read, not timed: 2 repetitions, none again when
    # disturbed. The seeded kernel's quick size is a third of a second a
    # call, Zen 4: its 6 repetitions were retimed twice on a busy machine.)
    mc=$(awk -F, -v k="$e2e_seeded" '$2 == k && $3 == "njit" { print $18 }' "$csv")
    expect_rc 0 "the C scalar at the same size" "$bench" --quick --kernel ${e2e_seeded} \
        --variant scalar --no-weak $brief --no-plots --results "$tmp/c0"
    [ "$(head -1 "$csv")" = "$(head -1 "$tmp/c0/latest/results.csv")" ] &&
        ok "the C bench's columns, in its order" || fail "results.csv header differs from C's"
    c=$(awk -F, -v k="$e2e_seeded" '$1 == "solutions" && $2 == k && $3 == "scalar" { print $18 }' \
        "$tmp/c0/latest/results.csv")
    [ -n "$mc" ] && [ "$mc" = "$c" ] && ok "Monte Carlo in numba = C's estimate ($mc)" ||
        fail "Monte Carlo: numba $mc, C $c"
    n=$(($(grep -vc '^#' "$run/compile.csv") - 1))
    [ "$n" -eq "$variants" ] && ok "compile.csv: a row per variant" || fail "compile.csv has $n rows"
    awk -F, '/^#/ { next } ++row > 1 && !($5 > 0) { bad = 1 } END { exit bad }' "$run/compile.csv" &&
        ok "every first call compiled (compile_s > 0)" || fail "a compile_s is 0"
    # make numba's run folder is the one report's: C's scalar, numba's rows,
    # the compile table and its figure's data; the driver wrote rows only.
    report="$tmp/res/latest"
    [ ! -e "$run/summary.md" ] && ok "the numba driver writes rows, not a summary" ||
        fail "the numba driver wrote a summary"
    for f in summary.md index.html results.csv; do
        [ -s "$report/$f" ] && ok "make numba: $f" || fail "make numba: no $f in $report"
    done
    expect_in "$report/summary.md" "| ${e2e_example} (numba) | njit |" "the numba rungs in the headline"
    # The numba driver writes no summary of its own for a row to point to.
    expect_not_in "$report/summary.md" "summary says more" "no row sends the reader elsewhere"
    # A numba finding's "threads alone" is its ladder's first threaded rung
    # (prange), as the headline gives it, not a later one (vectorize_parallel).
    awk -F'|' '
      /^\| [a-z0-9_]+ \(numba\) \|/ { blk = $2; gsub(/^ +| +$/, "", blk); seen = 0 }
      /^\| [a-z0-9_]+ \|/ { blk = "" }
      /^\|/ && blk != "" && !seen && $4 + 0 >= 2 {
          sp = $6; gsub(/[ x]/, "", sp); first[blk] = sp; seen = 1 }
      /^- \*\*[a-z0-9_]+ \(numba\)\*\*/ && /threads alone/ {
          k = $0; sub(/^- \*\*/, "", k); sub(/\*\*.*/, "", k)
          v = $0; sub(/.*threads alone /, "", v); sub(/x.*/, "", v)
          # The finding rounds to 0.1, the headline to 0.01.
          n++; if ((v - first[k]) ^ 2 > 0.06 ^ 2) {
              print k ": threads alone " v "x, first threaded rung " first[k] "x"; bad = 1 } }
      END { exit bad || !n }' "$report/summary.md" >"$tmp/alone" &&
        ok "each numba finding's 'threads alone' is its first threaded rung" ||
        fail "threads alone: $(cat "$tmp/alone")"
    expect_in "$report/summary.md" "## Compile time" "summary.md has the compile table"
    expect_not_in "$report/summary.md" '\| 0\.[0-9]+ s \|' "its times in ms and µs, as every table's"
    expect_in "$report/summary.md" "The first call pays for the compiler" "and its finding"
    expect_in "$report/summary.md" "Measured with: cpu_model:" "and what numba ran on"
    expect_in "$report/summary.md" "threading_layer: " "its threading layer too"
    expect_in "$report/index.html" 'id="compile"' "on the page"
    expect_in "$report/compile-numba.dat" "${e2e_example} prange_fastmath" "compile plot data"

    # The C report reads the rows: one summary, one speedup plot per kernel.
    expect_rc 0 "C bench with --import" "$bench" --quick --kernel ${e2e_example},${e2e_seeded} --variant scalar \
        --no-weak $brief --no-plots --results "$tmp/c1" --import "$csv"
    expect_in "$tmp/c1/latest/summary.md" "| ${e2e_example} (numba) | njit |" "headline block for numba"
    expect_in "$tmp/c1/latest/speedup-${e2e_example}.dat" '"prange_fastmath"' "numba bar in the C speedup plot"
    expect_in "$tmp/c1/latest/results.csv" "numba,${e2e_seeded},prange_nprandom" "rows in the C run's results.csv"
    # An image kernel's run with no threaded rung swept over schedules (as
    # make numba's C half): no schedule figure, and every figure drawn
    # without a gnuplot error.
    expect_rc 0 "C bench, ${e2e_image} scalar only" "$bench" --quick --kernel ${e2e_image} \
        --variant scalar --no-weak --reps 2 --min-time 0.01 --no-plots --results "$tmp/c5"
    [ ! -e "$tmp/c5/latest/schedule-${e2e_image}.dat" ] && ok "no schedule figure without a sweep" ||
        fail "schedule-${e2e_image}.dat written with no sweep: $(head -3 "$tmp/c5/latest/schedule-${e2e_image}.dat")"
    if command -v gnuplot >/dev/null 2>&1; then
        expect_rc 0 "plots/plot.sh on it" sh "$top/plots/plot.sh" "$tmp/c5/latest"
        expect_not_in "$tmp/err" "undefined variable|gnuplot failed|line [0-9]+: " "no gnuplot error"
    fi
    # A wrong numba row is flagged like a C one: exit 3.
    sed '0,/,yes,host,/s//,no,host,/' "$csv" >"$tmp/wrong.csv"
    expect_rc 3 "an invalid imported row" "$bench" --quick --kernel ${e2e_example} --variant scalar \
        --no-weak $brief --no-plots --results "$tmp/c2" --import "$tmp/wrong.csv"
    expect_in "$tmp/c2/latest/summary.md" "wrong answer" "the invalid row is named"
    # A row that says valid but is not: a result of 3.0 for the first
    # kernel, and a count off by one (4 / size) for the seeded one. Judged
    # again against the run's own reference: invalid, exit 3.
    awk -F, -v k1="${e2e_example}" -v k2="${e2e_seeded}" 'BEGIN { OFS = "," }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
        $c["valid"] == "yes" && $c["kernel"] == k1 && !d1++ { $c["result"] = "3.0" }
        $c["valid"] == "yes" && $c["kernel"] == k2 && !d2++ {
            $c["result"] = sprintf("%.17g", $c["result"] + 4 / $c["size"]) }
        { print }' "$csv" >"$tmp/tampered.csv"
    expect_rc 3 "imported rows that claim to be valid" "$bench" --quick \
        --kernel ${e2e_example},${e2e_seeded} --variant scalar --no-weak $brief \
        --no-plots --results "$tmp/c4" --import "$tmp/tampered.csv"
    n=$(grep -c "is INVALID\*\*: imported as valid, but" "$tmp/c4/latest/summary.md")
    [ "$n" -eq 2 ] && ok "both tampered rows named invalid" ||
        fail "tampered rows: $n of 2 named: $(grep -i invalid "$tmp/c4/latest/summary.md" | head -3)"
    expect_in "$tmp/c4/latest/summary.md" "its count is not the reference's" "the count off by one"
    expect_in "$tmp/c4/latest/summary.md" "its result is outside the tolerance" "the result of 3.0"
    n=$(awk -F, 'NR > 1 && $1 == "numba" && $22 == "no"' "$tmp/c4/latest/results.csv" | wc -l)
    [ "$n" -eq 2 ] && ok "results.csv agrees: 2 numba rows valid=no" ||
        fail "results.csv: $n numba rows valid=no"
    # Rows at another size, or of the bench's own tree: one line, exit 2.
    expect_rc 2 "rows at another size" "$bench" --kernel ${e2e_example} --variant scalar --no-weak \
        --no-plots --results "$tmp/c3" --import "$csv"
    expect_in "$tmp/err" "the same size" "says why"
    expect_rc 2 "not a results.csv" "$bench" --quick --kernel ${e2e_example} --results "$tmp/c3" \
        --import "$run/compile.csv"
    [ ! -e "$tmp/c3" ] || [ -z "$(ls "$tmp/c3")" ] && ok "nothing written for bad imports" ||
        fail "a run folder was written"
}

# case_planted BUILD_DIR: a wrong numba variant is flagged and not timed.
case_planted() {
    py=$(numba_python) || exit 77    # (its skip, out of the command substitution)
    expect_rc 3 "a planted off-by-one numba variant" "$py" "$top/kernels/$(folder_of "$e2e_example")/planted/numba_off_by_one.py" \
        --checker "$1/bench/speedlab-check" --results "$tmp/res" --kernel ${e2e_example} \
        --variant njit_off_by_one --quick --reps 2 --min-time 0.01 --no-plots
    expect_in "$tmp/out" "numba/$e2e_example/njit_off_by_one: WRONG" "named as wrong"
    row=$(grep ',njit_off_by_one,' "$tmp/res/latest/results.csv")
    case $row in
    *,no,host,*) ok "valid=no in results.csv" ;;
    *) fail "row: $row" ;;
    esac
    [ -z "$(echo "$row" | cut -d, -f11)" ] && ok "never timed (no median)" || fail "it was timed"
}

# case_missing BUILD_DIR: a Python without numba: its pip command, exit 4.
case_missing() {
    printf '#!/bin/sh\nexec python3 -S -E "$@"\n' >"$tmp/nonumba"
    chmod +x "$tmp/nonumba"
    SPEEDLAB_SKIP_DEPS=1 SPEEDLAB_PYTHON="$tmp/nonumba" expect_rc 4 "numba missing" \
        sh "$top/scripts/numba.sh" "$1" "$tmp/res" --quick
    expect_in "$tmp/err" "nonumba -m pip install numba numpy" "names the pip of that Python"
    [ ! -e "$tmp/res" ] && ok "nothing written" || fail "a results folder appeared"
}
