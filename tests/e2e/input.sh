#!/bin/sh
# input.sh - end-to-end: bad input everywhere: one clear line, exit 2, nothing written.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

case_bad_input() {
    bench=$1
    res="$tmp/results"
    mkdir -p "$res"
    touch "$tmp/afile"
    expect_rc 2 "--size abc" "$bench" --size abc --results "$res"; one_line "--size abc"
    expect_in "$tmp/err" "'abc' is not a whole number" "--size abc names the value"
    expect_rc 2 "--size 0" "$bench" --size 0 --results "$res"
    expect_rc 2 "--size -5" "$bench" --size -5 --results "$res"
    expect_rc 2 "--size 12abc" "$bench" --size 12abc --results "$res"
    expect_rc 2 "--size overflow" "$bench" --size 99999999999999999999 --results "$res"
    expect_rc 2 "--size above the kernel's max" "$bench" --size 9e18 --results "$res"
    expect_rc 2 "--size without a value" "$bench" --size
    expect_rc 2 "--threads 0" "$bench" --threads 0 --results "$res"
    expect_rc 2 "--threads 1,,2" "$bench" --threads 1,,2 --results "$res"
    expect_rc 2 "--threads 99999" "$bench" --threads 99999 --results "$res"
    expect_rc 2 "--kernel $typo" "$bench" --kernel $typo --results "$res"; one_line "--kernel $typo"
    expect_in "$tmp/err" "did you mean '${e2e_example}'" "--kernel $typo suggests ${e2e_example}"
    expect_rc 2 "--variant smid" "$bench" --variant smid --results "$res"
    expect_in "$tmp/err" "did you mean 'simd'" "--variant smid suggests simd"
    expect_rc 2 "--size $typo=5" "$bench" --size $typo=5 --results "$res"; one_line "--size $typo=5"
    expect_in "$tmp/err" "unknown kernel in --size '${e2e_example}e' (did you mean '${e2e_example}'?" "--size $typo=5 names the kernel"
    expect_rc 2 "--size =5" "$bench" --size =5 --results "$res"
    expect_rc 2 "--size ${e2e_example}=abc" "$bench" --size ${e2e_example}=abc --results "$res"
    expect_in "$tmp/err" "'abc' is not a whole number" "--size ${e2e_example}=abc names the value"
    expect_rc 2 "--size ${e2e_example}=9e18" "$bench" --kernel ${e2e_example} --size ${e2e_example}=9e18 --results "$res"
    expect_rc 2 "--variant gpu,smid" "$bench" --variant gpu,smid --results "$res"; one_line "--variant gpu,smid"
    expect_in "$tmp/err" "unknown variant 'smid' (did you mean 'simd'?" "--variant gpu,smid names the typo"
    expect_rc 2 "--reps 0" "$bench" --reps 0 --results "$res"
    expect_rc 2 "--min-time 0.05s" "$bench" --min-time 0.05s --results "$res"
    expect_rc 2 "--target 101" "$bench" --target 101 --results "$res"; one_line "--target 101"
    expect_in "$tmp/err" "'101' is not a percentage from 0 to 100" "--target 101 says the range"
    expect_rc 2 "--budget 10m" "$bench" --budget 10m --results "$res"; one_line "--budget 10m"
    expect_in "$tmp/err" "'10m' is not a number of minutes" "--budget 10m says what it takes"
    expect_rc 2 "--benchmark_min_time=0.05s" "$bench" --benchmark_min_time=0.05s --results "$res"
    expect_rc 2 "--benchmark_repetitions=0" "$bench" --benchmark_repetitions=0 --results "$res"
    expect_rc 2 "--benchmark_format=xml" "$bench" --benchmark_format=xml --results "$res"
    expect_rc 2 "--benchmark_out=x" "$bench" --benchmark_out=x --results "$res"
    # Google Benchmark flags the kit cannot honour are refused (issue 16):
    # each once published a run with nothing timed, or was ignored.
    for flag in --benchmark_list_tests=true --benchmark_report_aggregates_only=true \
                --benchmark_repetitions=3 --benchmark_color=false --benchmark_out_format=csv; do
        expect_rc 2 "$flag" "$bench" --quick --kernel ${e2e_example} --results "$res" "$flag"
        one_line "$flag"
    done
    expect_in "$tmp/err" "benchmark_out" "a refused flag is named"
    expect_rc 2 "--benchmark_repetitions=3 says what to use" "$bench" --benchmark_repetitions=3 \
        --results "$res"
    expect_in "$tmp/err" "use --reps N" "--benchmark_repetitions points at --reps"
    [ ! -e "$res/latest" ] && ok "no run published by a refused flag" || fail "a run was published"
    # A filter that keeps nothing is refused when the run is planned, over
    # every kernel, before anything is validated (it used to take 17 s).
    expect_rc 2 "--benchmark_filter that matches nothing" "$bench" --quick \
        --benchmark_filter=nomatch --results "$res"
    one_line "--benchmark_filter=nomatch"
    expect_in "$tmp/err" "matches none of the" "the filter is named and what names look like"
    expect_not_in "$tmp/out" "validating" "refused before validating"
    expect_rc 2 "--benchmark_filter that is not a regex" "$bench" --quick \
        --benchmark_filter='(' --results "$res"
    expect_rc 2 "unknown option" "$bench" --frobnicate --results "$res"
    expect_rc 2 "results path is a file" "$bench" --quick --results "$tmp/afile"
    expect_rc 2 "OMP_NUM_THREADS=abc" env OMP_NUM_THREADS=abc "$bench" --results "$res"
    expect_in "$tmp/err" "OMP_NUM_THREADS: 'abc'" "OMP_NUM_THREADS=abc named"
    expect_rc 2 "OMP_NUM_THREADS=0" env OMP_NUM_THREADS=0 "$bench" --results "$res"
    expect_rc 2 "OMP_PROC_BIND=bogus" env OMP_PROC_BIND=bogus "$bench" --results "$res"
    # A bad OMP_PLACES is refused as a bad OMP_PROC_BIND is (libgomp would
    # warn and run unbound, and the run would claim a binding).
    expect_rc 2 "OMP_PLACES=bogus" env OMP_PLACES=bogus "$bench" --results "$res"
    expect_in "$tmp/err" "OMP_PLACES: 'bogus' is not allowed" "OMP_PLACES=bogus named"
    expect_rc 2 "OMP_WAIT_POLICY=spin" env OMP_WAIT_POLICY=spin "$bench" --results "$res"
    expect_rc 2 "SPEEDLAB_MIN_TIME=0" env SPEEDLAB_MIN_TIME=0 "$bench" --results "$res"
    expect_in "$tmp/err" "SPEEDLAB_MIN_TIME: '0' is not a number of seconds" "SPEEDLAB_MIN_TIME=0 named"
    left=$(ls -A "$res" | wc -l)
    [ "$left" -eq 0 ] && ok "bad input wrote nothing" || { fail "bad input left files:"; ls -A "$res" >&2; }
    expect_rc 0 "--help" "$bench" --help
    require_device "$bench" --kernel ${e2e_example} --variant gpu --size 1003 --reps 1 --min-time 0.01 \
        --results "$res"
    left=$(ls -A "$res" | wc -l)
    [ "$rc" -ne 4 ] || [ "$left" -eq 0 ] && ok "--require-device wrote nothing" ||
        fail "--require-device left files"
}

# Bad input everywhere a user can type, for every program and script: each
# is refused before anything runs, with exit 2 and one line naming the
# value, and nothing is written. (e2e.bad_input has the bench's own list.)
case_bad_input_all() {
    bench=$1; runner=$2; compare=$3
    res="$tmp/results"
    mkdir -p "$res"
    # A results path longer than the kit's limit is refused, never cut
    # short and written somewhere else (issue 16).
    long="$tmp/$(printf '%0200d/' 1 2 3 4 5 6 7 8 9 10 11 | tr 0 d)x"
    for prog in bench runner compare; do
        case $prog in
        bench) set -- "$bench" --quick --kernel ${e2e_example} --results "$long" ;;
        runner) set -- "$runner" ${e2e_example} --results "$long" ;;
        compare) set -- "$compare" "$res" "$res" --results "$long" ;;
        esac
        expect_rc 2 "$prog: a results path over the limit" "$@"
        one_line "$prog: a long path"
        grep -qE -- "path too long: [0-9]+ > 2000 characters" "$tmp/err" &&
            ok "$prog: says the path is too long, with the numbers" || fail "$prog: $(cat "$tmp/err")"
    done
    [ ! -e "$tmp/ddddd" ] && [ -z "$(ls -d "$tmp"/d* 2>/dev/null)" ] && ok "no folder made for a long path" ||
        fail "a folder was made for a long path"
    echo keep >"$res/earlier.txt"
    sum=$(cksum <"$res/earlier.txt")
    # The runner.
    says="did you mean '${e2e_example}'";         bad "speedlab $typo" "$runner" $typo --results "$res"
    says="not a whole number";        bad "speedlab ${e2e_example} --size abc" "$runner" ${e2e_example} --size abc --results "$res"
    says="";                          bad "speedlab ${e2e_example} --size -1" "$runner" ${e2e_example} --size -1 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --size 0" "$runner" ${e2e_example} --size 0 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --size 12abc" "$runner" ${e2e_example} --size 12abc --results "$res"
    says="at most";                   bad "speedlab ${e2e_example} --size 9e18 (over the max)" "$runner" ${e2e_example} --size 9000000000000000000 --results "$res"
    says="at most";                   bad "speedlab ${e2e_image} --size 10^9 (memory)" "$runner" ${e2e_image} --size 1000000000 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --threads abc" "$runner" ${e2e_example} --threads abc --results "$res"
    says="";                          bad "speedlab ${e2e_example} --threads 4abc" "$runner" ${e2e_example} --threads 4abc --results "$res"
    says="";                          bad "speedlab ${e2e_example} --threads -3" "$runner" ${e2e_example} --threads -3 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --threads 99999999999" "$runner" ${e2e_example} --threads 99999999999 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --threads 1,,2" "$runner" ${e2e_example} --threads 1,,2 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --reps 0" "$runner" ${e2e_example} --reps 0 --results "$res"
    says="";                          bad "speedlab ${e2e_example} --reps 101" "$runner" ${e2e_example} --reps 101 --results "$res"
    says="did you mean 'simd'";       bad "speedlab ${e2e_example} --variant smid" "$runner" ${e2e_example} --variant smid --results "$res"
    says="";                          bad "speedlab ${e2e_example} --tree mine" "$runner" ${e2e_example} --tree mine --results "$res"
    says="";                          bad "speedlab ${e2e_seeded} --seed -1" "$runner" ${e2e_seeded} --seed -1 --results "$res"
    says="";                          bad "speedlab ${e2e_seeded} --seed 1e30" "$runner" ${e2e_seeded} --seed 1e30 --results "$res"
    says="";                          bad "speedlab ${e2e_image} --max-iter 0" "$runner" ${e2e_image} --max-iter 0 --results "$res"
    says="";                          bad "speedlab ${e2e_image} --schedule bogus" "$runner" ${e2e_image} --schedule bogus --results "$res"
    says="";                          bad "speedlab ${e2e_image} --schedule static,x" "$runner" ${e2e_image} --schedule static,x --results "$res"
    says="unknown argument";          bad "speedlab ${e2e_example} --frobnicate" "$runner" ${e2e_example} --frobnicate --results "$res"
    says="needs a value";             bad "speedlab ${e2e_example} --size (no value)" "$runner" ${e2e_example} --size
    says="";                          bad "speedlab (no kernel)" "$runner"
    says="SPEEDLAB_MIN_TIME: 'abc'";  bad "SPEEDLAB_MIN_TIME=abc" env SPEEDLAB_MIN_TIME=abc "$runner" ${e2e_example} --results "$res"
    # The OpenMP environment, for the runner and the bench.
    for v in abc 0 -3 4abc 99999999999; do
        says="OMP_NUM_THREADS";       bad "speedlab: OMP_NUM_THREADS=$v" env OMP_NUM_THREADS=$v "$runner" ${e2e_example} --results "$res"
    done
    for v in -3 4abc 99999999999; do
        says="OMP_NUM_THREADS";       bad "bench: OMP_NUM_THREADS=$v" env OMP_NUM_THREADS=$v "$bench" --results "$res"
    done
    says="OMP_PROC_BIND";             bad "speedlab: OMP_PROC_BIND=bogus" env OMP_PROC_BIND=bogus "$runner" ${e2e_example} --results "$res"
    says="OMP_PLACES";                bad "speedlab: OMP_PLACES={0,1" env OMP_PLACES={0,1 "$runner" ${e2e_example} --results "$res"
    # The bench, beyond e2e.bad_input.
    says="";                          bad "bench --max-iter abc" "$bench" --max-iter abc --results "$res"
    says="";                          bad "bench --schedule static,x" "$bench" --schedule static,x --results "$res"
    says="--tree is for the runner";  bad "bench --tree solutions" "$bench" --tree solutions --results "$res"
    says="empty folder name";         bad "bench --results ''" "$bench" --results ""
    says="";                          bad "bench --min-time 61" "$bench" --min-time 61 --results "$res"
    says="";                          bad "bench --min-time -1" "$bench" --min-time -1 --results "$res"
    says="";                          bad "bench --threads with 33 counts" "$bench" --results "$res" \
        --threads 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33
    says="";                          bad "bench --benchmark_repetitions=abc" "$bench" --benchmark_repetitions=abc --results "$res"
    # make compare's program.
    says="give two run folders";      bad "compare (no folders)" "$compare" --results "$res"
    says="give two run folders";      bad "compare (one folder)" "$compare" "$res" --results "$res"
    says="is not a run folder";       bad "compare (no such folder)" "$compare" "$tmp/nosuch" "$tmp/nosuch2" --results "$res"
    says="is not a run folder";       bad "compare (a folder that is not a run)" "$compare" "$res" "$res" --results "$res"
    says="needs a value";             bad "compare --label-a (no value)" "$compare" "$res" "$res" --label-a
    says="unknown argument";          bad "compare --frobnicate" "$compare" --frobnicate
    says="may not hold quotes";       bad "compare --label-a with a quote" "$compare" "$res" "$res" --label-a 'a"b' --results "$res"
    # The scripts.
    says="unknown tree";              bad "racecheck.sh nosuch" sh "$top/scripts/racecheck.sh" nosuch
    says="unknown kernel";            bad "racecheck.sh solutions $typo" sh "$top/scripts/racecheck.sh" solutions $typo
    says="usage";                     bad "vecreport.sh (no build folder)" sh "$top/scripts/vecreport.sh" "$tmp/nosuch"
    says="usage";                     bad "plot.sh (no run folder)" sh "$top/plots/plot.sh" "$tmp/nosuch"
    # Nothing was written, and what was there is intact.
    [ "$(ls -A "$res")" = earlier.txt ] && ok "bad input wrote nothing" ||
        fail "bad input left: $(ls -A "$res" | tr '\n' ' ')"
    [ "$(cksum <"$res/earlier.txt")" = "$sum" ] && ok "the file already there is intact" ||
        fail "earlier file changed"
    # A path with spaces is not bad input: it works.
    expect_rc 0 "a results folder with spaces" "$bench" --quick --kernel ${e2e_example} --size 20003 \
        --variant scalar --reps 1 --min-time 0.01 --no-plots --no-weak --results "$tmp/my results"
    [ -s "$tmp/my results/latest/summary.md" ] && ok "results written under a path with spaces" ||
        fail "no results under a path with spaces"
}

# A results folder exactly at the kit's limit (SL_PATH_LIMIT, 2000
# characters) is not bad input: every file the bench, the runner and
# compare write lands under it, the same files as under a short path, and
# none anywhere else (a path cut short would name some other file). No
# re-measurement: a busy machine would add a bench-retry-1.json to one run.
# The one exception: the history, since SQLite opens paths of at most 512
# characters; the runs say they are not in it, and why.
case_long_paths() {
    bench=$1; runner=$2; compare=$3
    short="$tmp/s"
    long=$(limit_path "$tmp/L")
    [ ${#long} -eq 2000 ] && ok "a results folder of exactly 2000 characters" ||
        fail "the planted path has ${#long} characters"
    files() { (cd "$1" && find . -name latest -prune -o -name 'history.sqlite*' -prune -o -type f -print |
               sed 's/[0-9]\{8\}T[0-9]\{6\}Z-[^/]*/RUN/' | sort); }
    for where in "$short" "$long"; do
        expect_rc 0 "the bench, results at ${#where} characters" "$bench" --quick \
            --kernel ${e2e_example},${e2e_image} --size ${e2e_example}=200003 --size ${e2e_image}=64 --threads 1,2 \
            --reps 2 --min-time 0.01 --retry-busy 0 --results "$where"
        expect_rc 0 "the runner, results at ${#where} characters" "$runner" ${e2e_image} \
            --tree solutions --size 64 --reps 1 --min-time 0.01 --results "$where"
        [ "$where" = "$long" ] && expect_in "$tmp/err" "paths of at most 512 characters" \
            "the runner says why its run is not in the history"
        run=$(ls -d "$where"/2*)
        cp -R "$run" "$where/copy"     # compare refuses a run against itself
        expect_rc 0 "compare, results at ${#where} characters" "$compare" "$run" "$where/copy" \
            --results "$where"
    done
    [ -s "$short/history.sqlite" ] && ok "the short path keeps a history" || fail "no history"
    files "$short" >"$tmp/short.files"
    files "$long" >"$tmp/long.files"
    n=$(wc -l <"$tmp/long.files")
    [ "$n" -gt 40 ] && cmp -s "$tmp/short.files" "$tmp/long.files" &&
        ok "the same $n files under the long path as under the short one" ||
        fail "files differ: $(diff "$tmp/short.files" "$tmp/long.files" | head -5 | tr '\n' ' ')"
    for f in index.html summary.md results.csv speedup-${e2e_example}.png image-${e2e_image}.png; do
        [ -s "$long/latest/$f" ] || [ -s "$long/$e2e_image/latest/$f" ] ||
            fail "$f missing under the long path"
    done
    [ -s "$long/compare/latest/compare.csv" ] && ok "compare's files too" ||
        fail "no compare.csv under the long path"
    [ "$(ls -A "$tmp" | grep -v -e '^s$' -e '^L$' -e '\.files$' -e '^out$' -e '^err$' | wc -l)" -eq 0 ] &&
        ok "nothing written beside the folders asked for" ||
        fail "stray files: $(ls -A "$tmp" | tr '\n' ' ')"
}
