#!/bin/sh
# report.sh - end-to-end: the plots and the instructor's report (summary, page in a browser, compare).
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

case_plots() {
    run="$tmp/run"
    mkdir -p "$run"
    printf 'lanes = 8\ncores = 2\nmachine = "test"\n' >"$run/run.gp"
    printf '# header only\n# label\tspeedup\n' >"$run/speedup-${e2e_example}.dat"
    # No gnuplot on PATH: exit 3, no image.
    bin_without_gnuplot
    expect_rc 3 "plot.sh without gnuplot" env PATH="$tmp/bin" sh "$top/plots/plot.sh" "$run"
    expect_in "$tmp/err" "apt-get install gnuplot-nox" "says how to install gnuplot"
    # A gnuplot that fails after creating an empty file: no 0-byte image.
    failing_gnuplot
    printf '"scalar"\t1.0\t1\t"host"\n' >>"$run/speedup-${e2e_example}.dat"
    expect_rc 1 "plot.sh with a failing gnuplot" env PATH="$tmp/bin" sh "$top/plots/plot.sh" "$run"
    found=$(find "$run" -name '*.png' -o -name '*.svg' -o -name '.*tmp' | wc -l)
    [ "$found" -eq 0 ] && ok "no 0-byte or temporary image left" || fail "$found image files left"
    # Header-only data: no plot, not an error.
    printf '# header only\n' >"$run/speedup-${e2e_example}.dat"
    expect_rc 0 "plot.sh with no valid data" sh "$top/plots/plot.sh" "$run"
    [ ! -e "$run/speedup-${e2e_example}.png" ] && ok "no image from empty data" || fail "image from empty data"
    command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot missing: label widths not checked"; return; }
    # The longest labels a speedup figure gets (every rung of a GPU node's
    # run: 10 bars, each disturbed on the host fallback, a swept schedule)
    # at the default size: in the SVG no two labels under the bars meet, at
    # 0.6 em a character of the 11-point font; and a disturbed fallback
    # bar keeps its host-fallback mark.
    printf 'lanes = 8\ncores = 2\nmachine = "test"\ninterval = "95%% CI"\n' >"$run/run.gp"
    { printf '# variant\tspeedup\n'
      for v in scalar simd threads threads_simd expert gpu gpu_rows gpu_loop gpu_teams cuda; do
          printf '"%s"\t2.0\t16\t"host fallback"\t1.5\t2.5\t3\t"x16, dynamic,4, host fallback, disturbed"\n' "$v"
      done; } >"$run/speedup-${e2e_example}.dat"
    expect_rc 0 "plot.sh: ten bars with long labels" sh "$top/plots/plot.sh" "$run"
    awk '/^[ \t]*<g transform="translate\(/ && /text-anchor="middle"/ {
             split($0, a, /[(,)]/); x = a[2] + 0; y = a[3]; next }
         /<text>/ && x != "" { t = $0; sub(/.*<text>/, "", t); sub(/<\/text>.*/, "", t)
             # Each row of labels left to right: the last one met in it.
             if ((y in px) && x - px[y] < (length(t) + pw[y]) / 2 * 6.6) bad++
             if (y in px) pairs++
             px[y] = x; pw[y] = length(t); x = "" }
         END { exit pairs < 9 || bad > 0 }' "$run/speedup-${e2e_example}.svg" &&
        ok "ten labels under the bars, none meeting another" ||
        fail "speedup labels overlap at the default size"
    expect_in "$run/speedup-${e2e_example}.svg" "edge: on a grey bar" "the legend explains the orange edge"
}

# The instructor's report: the scaling and evidence sections, the Amdahl
# fit on data with a known answer, index.html in a real browser (every
# image loads; a missing one is reported), and make compare.
case_report() {
    bench=$1; compare=$2
    quick_bench 0 "report bench" "$bench" --threads 1,2 --reps 6
    for section in "## Strong scaling" "## Weak scaling" "## How close to the machine" \
                   "**Closest to the machine**" "Amdahl fit of the scaling plots needs 3" \
                   "median [95% CI]"; do
        expect_in "$run/summary.md" "$section" "summary has '$section'"
    done
    # Times in the unit that fits them, an interval in its median's unit.
    expect_match "$run/summary.md" '\| [0-9.]+ (s|ms|µs) \[[0-9.]+, [0-9.]+\] \|' \
        "a median and its interval in one unit"
    expect_not_in "$run/summary.md" ' 0\.[0-9]+ ms' "no time under a millisecond written in ms"
    # The evidence: the ceiling scales with the cores a configuration had
    # (2 threads: twice 1 thread's), and percent = 100 x rate / ceiling.
    # Nothing here depends on how fast the machine was.
    col() { awk -F, -v v="$1" -v t="$2" -v c="$3" -v k="$e2e_example" '$2 == k && $3 == v && $4 == t { print $c }' "$run/evidence.csv"; }
    c1=$(col scalar 1 11); c2=$(col threads_simd 2 11)
    awk -v a="$c1" -v b="$c2" 'BEGIN { exit !(a > 0 && b > 0 && (b / a - 2) ^ 2 < 1e-8) }' &&
        ok "evidence: the 2-thread ceiling is twice the 1-thread one" ||
        fail "evidence ceilings: 1 thread '$c1', 2 threads '$c2'"
    awk -F, 'NR > 1 && $11 != "" { n++; d = 100 * $7 / $11 - $12; if (d * d > 1e-4) bad = 1 }
             END { exit bad || n < 10 }' "$run/evidence.csv" &&
        ok "evidence: every percent is 100 x rate / ceiling" || fail "evidence percentages inconsistent"
    # Each with the others' share of a core in its window (column 10),
    # which marks it disturbed (column 9) above 0.25 only.
    n=$(awk -F, 'NR > 1 && $4 > 0 && $10 ~ /^[0-9]+[.][0-9]+$/ && ($9 != "yes" || $10 > 0.25)' \
        "$run/ceiling.csv" | wc -l)
    [ "$n" -eq 4 ] && ok "ceiling.csv: 4 probes measured, each with the others' CPU that marks it" ||
        fail "ceiling.csv: $n probes measured and consistent: $(cat "$run/ceiling.csv")"
    # 6 repetitions give the 96.9% interval; a busy machine's replacements
    # may leave more in a median (all of a still-disturbed one's, or a
    # repetition no longer in a slow stretch): 95% or more, never fewer
    # than 6.
    awk -F, 'NR > 1 { n++; if ($10 < 6 || ($10 == 6 ? $31 != "0.9688" : $31 < 0.95)) bad = 1 }
             END { exit bad || n != 16 }' "$run/results.csv" &&
        ok "6 repetitions give the 96.9% interval" ||
        fail "interval level wrong: $(cut -d, -f3,4,10,31,34 "$run/results.csv" | tr '\n' ' ')"
    expect_in "$run/scaling-${e2e_example}.gp" "fit_points = 2" "2 in-core thread counts: fit skipped"

    # Amdahl fit on synthetic data with serial fraction 0.1: found again.
    if command -v gnuplot >/dev/null 2>&1; then
        syn="$tmp/syn"; mkdir -p "$syn"
        printf 'lanes = 8\ncores = 8\nmachine = "test"\n' >"$syn/run.gp"
        printf 'fit_points = 4\nfit_min = 3\nfit_note = "x"\n' >"$syn/scaling-syn.gp"
        awk 'BEGIN { print "# t"; print "\"threads\""
                     for (p = 1; p <= 8; p *= 2) { s = 1 / (0.1 + 0.9 / p)
                         printf "%d\t%.6f\t%.6f\t%.6f\t%.6f\tNaN\t0\n", p, s, s / p, s, s }
                     print "9\t1.0\t0.1\t1.0\t1.0\tNaN\t1" }' >"$syn/scaling-syn.dat"
        expect_rc 0 "plot synthetic scaling" sh "$top/plots/plot.sh" "$syn"
        f=$(awk '{ print $4 }' "$syn/fit-syn.txt")
        awk -v f="$f" 'BEGIN { exit !(f > 0.0999 && f < 0.1001) }' &&
            ok "Amdahl fit finds serial fraction $f (0.1)" || fail "Amdahl fit gave '$f'"
    fi

    # The page in a real browser.
    chromium=$(chromium_path)
    if [ -z "$chromium" ] || ! command -v gnuplot >/dev/null 2>&1; then
        echo "report: skipped the browser check: chromium or gnuplot is not installed"
        exit 77
    fi
    pngs=$(ls "$run"/*.png | wc -l)
    got=$(browser_check "$run/index.html")
    [ "$got" = "images: $pngs of $pngs loaded; headline: above the fold" ] && ok "browser: $got" ||
        fail "browser says '$got', expected all $pngs images loaded"
    cp -R "$run" "$tmp/damaged"
    rm "$tmp/damaged/speedup-${e2e_example}.png"
    got=$(browser_check "$tmp/damaged/index.html")
    case $got in
    *"broken: speedup-${e2e_example}.png"*) ok "browser reports the missing image" ;;
    *) fail "a missing image went unnoticed: '$got'" ;;
    esac

    # make compare: a run against itself (named twice, or through a latest
    # link that names it) is refused as the same run; against a copy of
    # itself it differs nowhere; against a copy whose every time is ten
    # times longer, B is slower everywhere, by 10. The times are made here,
    # 1 ms to 1.05 ms by repetition, so that the verdict does not depend on
    # how busy the machine was while the run above was timed (a loaded
    # repetition can take ten times another).
    expect_rc 2 "compare a run with itself" "$compare" "$run" "$run" --results "$tmp/c"
    one_line "compare a run with itself"
    expect_in "$tmp/err" "A and B are the same run" "itself: named as the same run"
    mkdir -p "$tmp/linked" && ln -s "$run" "$tmp/linked/latest"
    expect_rc 2 "compare a run with a latest link to it" "$compare" "$run" "$tmp/linked/latest" \
        --results "$tmp/c"
    expect_in "$tmp/err" "A and B are the same run" "through latest: the same run"
    [ ! -e "$tmp/c/compare" ] && ok "nothing written for the same run" || fail "the same run wrote $tmp/c/compare"
    cp -R "$run" "$tmp/copy"
    expect_rc 0 "compare a run with its copy" "$compare" "$run" "$tmp/copy" --results "$tmp/c"
    n=$(grep -c 'no significant difference' "$tmp/out")
    [ "$n" -eq 16 ] && ok "its copy: 16 of 16 not different" || fail "its copy: $n of 16 not different"
    # One repetition a configuration against six: too few for the test to
    # reach 5%, so no interval and no verdict on any line.
    awk -F, 'NR == 1 { print; next } $13 == "" && !seen[$1 FS $2 FS $3 FS $4 FS $5 FS $6 FS $7 FS $8]++' \
        "$run/samples.csv" >"$tmp/one.csv"
    cp -R "$run" "$tmp/one" && mv "$tmp/one.csv" "$tmp/one/samples.csv"
    expect_rc 0 "compare one repetition with six" "$compare" "$tmp/one" "$run" --results "$tmp/c"
    # (B: the repetitions the bench kept, re-timed ones included.)
    n=$(grep -cE 'too few samples to judge \(1 and [0-9]+ repetitions\)' "$tmp/out")
    [ "$n" -eq 16 ] && ok "1 against 6: 16 of 16 too few to judge" || fail "1 against 6: $n of 16 too few"
    expect_not_in "$tmp/out" "\[ *[0-9.]+, *[0-9.]+\]" "1 against 6: no interval printed"
    expect_in "$tmp/c/compare/latest/summary.md" "16 with too few repetitions to judge" \
        "the summary counts them"
    # samples.csv: variant is column 3, repetition column 9, seconds
    # column 10, left_out column 13. slow: every rung ten times as slow,
    # scalar as fast (the code slower); host: everything ten times as slow
    # (the host slower). The times are planted, so none is left out: the
    # test's own run may have been disturbed (make test's load), and a
    # fifth of it left out made A "disturbed" too.
    for speed in fast:1:1 slow:10:1 host:10:10; do
        name=${speed%%:*}; k=${speed#*:}; k=${k%:*}; ks=${speed##*:}
        cp -R "$run" "$tmp/$name"
        awk -F, -v k="$k" -v ks="$ks" 'BEGIN { OFS = "," }
            NR > 1 { $10 = ($3 == "scalar" ? ks : k) * 0.001 * (1 + 0.01 * $9); $13 = "" } { print }' \
            "$run/samples.csv" >"$tmp/$name/samples.csv"
    done
    run="$tmp/fast"
    expect_rc 0 "compare with rungs ten times as slow" "$compare" "$run" "$tmp/slow" \
        --label-a fast --label-b slow --results "$tmp/c"
    n=$(grep -c ' 10.000 .*B slower' "$tmp/out")
    [ "$n" -eq 15 ] && ok "rungs ten times as slow: 15 of 15 B slower, ratio 10.000" ||
        fail "rungs ten times as slow: $n of 15 found"
    expect_match "$tmp/out" "^${e2e_example} scalar x1 +1.000 .*no significant difference" \
        "scalar as fast: no difference"
    # A host ten times as slow: the scalar's time says so; every rung's
    # share of scalar's time beside it does not move: not the code.
    expect_rc 0 "compare with a host ten times as slow" "$compare" "$run" "$tmp/host" \
        --label-a fast --label-b host --no-plots --results "$tmp/c"
    # (The weak-scaling points have no scalar beside them: times too.)
    n=$(grep 'B slower' "$tmp/out" | grep -cv -e ' scalar x1 ' -e '(weak)')
    m=$(grep -c 'B slower' "$tmp/out")
    [ "$n" -eq 0 ] && [ "$m" -eq 3 ] && ok "a slower host: only the times (scalar, weak) are slower" ||
        fail "a slower host: rows B slower: $(grep 'B slower' "$tmp/out")"
    # A run whose repetitions the bench mostly left out is called
    # disturbed before any verdict.
    cp -R "$tmp/host" "$tmp/busy"
    awk -F, 'BEGIN { OFS = "," } NR > 1 { $13 = "disturbed" } { print }' "$tmp/host/samples.csv" \
        >"$tmp/busy/samples.csv"
    expect_rc 0 "compare with a disturbed run" "$compare" "$run" "$tmp/busy" \
        --label-a fast --label-b busy --no-plots --results "$tmp/c"
    first=$(sed -n 1p "$tmp/out")
    case $first in
    "B (busy) was disturbed: the bench left out"*) ok "a disturbed run: said first" ;;
    *) fail "a disturbed run: first line '$first'" ;;
    esac
    # A host whose cores ran faster at once in B (its L1 roofs: 85% of one
    # core's speed each in A, 98% in B) and every threaded or gpu row 12%
    # faster: the host's, not claimed; without B's roofs, claimed.
    cp -R "$run" "$tmp/crowd_a"; cp -R "$run" "$tmp/crowd_b"
    roofs() {
        printf 'limit,lanes,threads,per_core_lane_ops_per_s,gb_per_s,spread,stores,working_set_bytes,disturbed,others_cpu\n'
        printf 'L1 bandwidth,,1,,400,,plain,24576,no,\nL1 bandwidth,,2,,%s,,plain,49152,no,\n' "$1"
    }
    roofs 680 >"$tmp/crowd_a/ceiling.csv"; roofs 784 >"$tmp/crowd_b/ceiling.csv"
    awk -F, 'BEGIN { OFS = "," } NR > 1 && $4 != 1 { $10 *= 0.88 } { print }' "$run/samples.csv" \
        >"$tmp/crowd_b/samples.csv"
    crowded=$(awk -F, 'NR > 1 && $4 != 1 { print $3, $4, $6 }' "$run/samples.csv" |
        sort -u | wc -l)
    expect_rc 0 "compare with a host faster on its cores at once" "$compare" "$tmp/crowd_a" \
        "$tmp/crowd_b" --label-a A --label-b B --no-plots --results "$tmp/c"
    expect_match "$tmp/out" "^The host differed between the runs: with 2 cores at once each core ran at 85% of its speed alone in A and 98% in B" \
        "a host faster on its cores at once: said first"
    n=$(grep -c 'as the host differed' "$tmp/out")
    [ "$crowded" -gt 0 ] && [ "$n" -eq "$crowded" ] && ! grep -q 'B faster' "$tmp/out" &&
        ok "the $n threaded and gpu rungs 12% faster: the host's, none claimed" ||
        fail "crowded rungs: $n of $crowded the host's; claimed: $(grep 'B faster' "$tmp/out" | head -2)"
    rm "$tmp/crowd_b/ceiling.csv"
    expect_rc 0 "compare without B's roofs" "$compare" "$tmp/crowd_a" "$tmp/crowd_b" \
        --label-a A --label-b B --no-plots --results "$tmp/c"
    n=$(grep -c 'B faster' "$tmp/out")
    [ "$n" -eq "$crowded" ] && ! grep -q 'host differed' "$tmp/out" &&
        ok "without B's roofs the same rows are claimed faster" ||
        fail "without B's roofs: $n of $crowded claimed"
    # 104% against 97%: above 100% is the probes' noise, read as 100%;
    # within the margin, no host to allow for.
    roofs 832 >"$tmp/crowd_a/ceiling.csv"; roofs 776 >"$tmp/crowd_b/ceiling.csv"
    expect_rc 0 "compare with roofs at 104% and 97%" "$compare" "$tmp/crowd_a" "$tmp/crowd_b" \
        --label-a A --label-b B --no-plots --results "$tmp/c"
    n=$(grep -c 'B faster' "$tmp/out")
    [ "$n" -eq "$crowded" ] && ! grep -q 'host differed' "$tmp/out" &&
        ok "roofs at 104% and 97%: the same host, the rows claimed" ||
        fail "roofs at 104% and 97%: $n of $crowded claimed; $(grep 'host differed' "$tmp/out")"
    expect_rc 0 "compare with rungs ten times as slow (page)" "$compare" "$run" "$tmp/slow" \
        --label-a fast --label-b slow --results "$tmp/c"
    cmp_run="$tmp/c/compare/$(readlink "$tmp/c/compare/latest")"
    for f in compare.csv summary.md index.html compare-runs.png; do
        [ -s "$cmp_run/$f" ] && ok "compare wrote $f" || fail "compare did not write $f"
    done
    got=$(browser_check "$cmp_run/index.html")
    [ "$got" = "images: 1 of 1 loaded; headline: above the fold" ] && ok "compare page: $got" || fail "compare page: '$got'"
    expect_rc 2 "compare with one folder" "$compare" "$run"; one_line "compare with one folder"
    expect_rc 2 "compare with a folder that is not a run" "$compare" "$run" "$tmp"
    one_line "compare with a folder that is not a run"
    expect_in "$tmp/err" "is not a run folder" "says what is wrong"
    # A corrupt samples.csv is refused, naming the file, the line and the
    # value: impossible times, a renamed column, text where numbers go.
    mkdir -p "$tmp/bad"
    first=$(sed -n 2p "$run/samples.csv")
    secs=$(echo "$first" | cut -d, -f10)
    for case in "inf|s/,$secs,/,inf,/" "1e400|s/,$secs,/,1e400,/" "0.2586x|s/,$secs,/,0.2586x,/" \
                "secs|1s/,seconds,/,secs,/" "one|2s/^\([^,]*,[^,]*,[^,]*\),[0-9]*,/\1,one,/"; do
        value=${case%%|*}; edit=${case#*|}
        cp "$run"/*.csv "$tmp/bad/"
        sed -i "$edit" "$tmp/bad/samples.csv"
        expect_rc 2 "compare: samples.csv with '$value'" "$compare" "$run" "$tmp/bad" --no-plots \
            --results "$tmp/c"
        one_line "compare: '$value'"
        grep -qE "samples.csv' line [0-9]+: .*" "$tmp/err" && ok "compare: '$value': names the line" ||
            fail "compare: '$value': $(cat "$tmp/err")"
    done
}

# The story first, on a full quick run of every kernel: the console fits a
# screen, summary.md tells the story before its details, every figure there
# has a caption, the headline has one row per rung, and the page shows the
# headline above the fold. How many warnings a run gets depends on how busy
# the machine was (disturbed, re-measured, varied): the budgets count the
# story without them, and the warnings at one line per kind (at most 12,
# sl_story_warnings), so a loaded machine passes as a quiet one does.
case_story() {
    bench=$1
    # Two short repetitions at a tenth of the quick sizes, none timed again
    # when disturbed: the story is under test, not the timings (this was
    # 36 of the test's 48 s of timing; retries tripled it in CI). And the
    # kernels' smoke sizes (e2e_smoke): one quick size past a 480 MiB L3
    # was 32 of the run's 64 s, most of it the kernel clearing fresh pages.
    # shellcheck disable=SC2086
    expect_rc 0 "a full quick bench" "$bench" --quick --min-time 0.01 --reps 2 --retry-busy 0 \
        --size ${e2e_example}=10000019 --size ${e2e_seeded}=10000019 --size ${e2e_image}=160 --size ${e2e_image}=160 \
        $e2e_smoke --results "$tmp/s"
    run="$tmp/s/$(readlink "$tmp/s/latest")"
    n=$(grep -cvE '^warning: |^  measuring .* again|^  timing took ' "$tmp/out")
    w=$(grep -c '^warning: ' "$tmp/out")
    # The budgets grow with the kernels, so that a new kernel's folder
    # needs no line here: the headline's rungs (one line each), and per
    # kernel its findings and figures' lines (6 kernels, 34 rungs: 46 and 74).
    kernels=$(awk -F, 'NR > 1 { print $2 }' "$run/results.csv" | sort -u | wc -l)
    rungs=$(awk -F'|' '/^## Headline/ { h = 1 } /^## Findings/ { h = 0 }
                       h && /^\| / && !/^\| kernel/ && !/^\|--/' "$run/summary.md" | wc -l)
    # (+2: the host's noise and what it allows, said before anything.)
    budget=$((rungs + 14))
    [ "$n" -le "$budget" ] && ok "console: $n lines besides the warnings (at most $budget: $rungs rungs)" ||
        fail "console: $n lines, more than $budget ($rungs rungs)"
    [ "$w" -le 12 ] && ok "console: $w warning line(s)" || fail "console: $w warning lines"
    # The console's headline is the summary's table, aligned: every row's
    # last column starts where its title does (a gpu row's "host fallback"
    # once overflowed the threads column and shifted it). Columns, not
    # bytes: the two-byte signs count as one.
    sed 's/±/+/g; s/µ/u/g' "$tmp/out" |
        awk '/^kernel +rung +threads/ { at = index($0, "what limits it"); next }
             at && /^$/ { exit }
             at { n++; if (substr($0, at - 2, 2) != "  " || substr($0, at, 1) == " ") bad++ }
             END { exit !(n > 0 && bad == 0) }' &&
        ok "console: the headline's columns line up" ||
        fail "console: a headline row out of line: $(grep -A3 '^kernel  *rung' "$tmp/out")"
    before=$(awk '/^## Warnings/ { w = 1; next } /^## / { w = 0 } /^# Details/ { print n; exit }
                  !(w && /^- /) { n++ }' "$run/summary.md")
    w=$(awk '/^## Warnings/ { w = 1; next } /^## / { w = 0 } w && /^- /' "$run/summary.md" | wc -l)
    budget=$((rungs + 3 * kernels + 22))
    [ -n "$before" ] && [ "$before" -le "$budget" ] &&
        ok "summary: $before lines before the details, warnings aside (at most $budget)" ||
        fail "summary: '$before' lines before the details, warnings aside (more than $budget)"
    [ "$w" -le 12 ] && ok "summary: $w warning(s)" || fail "summary: $w warnings"
    first=$(grep -n '^## ' "$run/summary.md" | head -4 | sed 's/^[0-9]*:## //' | tr '\n' ',')
    case $first in
    "Warnings,Headline,Findings,Figures,"|"Headline,Findings,Figures,"*) ok "story order: $first" ;;
    *) fail "the summary opens with: $first" ;;
    esac
    # The example's rungs: scalar, simd, threads, threads_simd, gpu (the
    # stages are details); each kernel row block starts with the kernel's name.
    rows=$(awk -F'|' -v want="$e2e_example" '/^## Headline/ { h = 1 } /^## Findings/ { h = 0 }
                      h && /^\| / && !/^\| kernel/ { if ($2 ~ /[a-z]/) { k = $2; gsub(/ /, "", k) }
                                                       if (k == want) print $3 }' \
           "$run/summary.md" | tr -d ' ' | tr '\n' ',')
    # (Without AVX-512 an x86 expert may run the rung below's code, and say so.)
    case $rows:$(grep -o '"simd_isa": *"[^"]*"' "$run/bench.json") in
    "scalar,simd,threads,threads_simd,expert,gpu,":* | \
    "scalar,simd,threads,threads_simd,expert(fallback),gpu,":*'"AVX2"'*)
        ok "${e2e_example}'s headline rungs: $rows" ;;
    *) fail "${e2e_example}'s headline rungs: $rows" ;;
    esac
    # The schedule sweep holds strong points only (the weak study's
    # 1-thread point is another problem).
    expect_not_in "$run/schedule-${e2e_image}.dat" 'x1"' "the schedule sweep has no weak point"
    nfind=$(awk '/^## Findings/ { f = 1; next } /^## / { f = 0 } f && /^- /' "$run/summary.md" | wc -l)
    # One per kernel, and at most two about the run as a whole.
    [ "$nfind" -ge 3 ] && [ "$nfind" -le $((kernels + 2)) ] && ok "$nfind findings ($kernels kernels)" ||
        fail "$nfind findings ($kernels kernels)"
    if command -v gnuplot >/dev/null 2>&1; then
        missing=""
        for png in "$run"/*.png; do
            f=$(basename "$png")
            grep -qE "!\[[^]]+: [^]]+\]\($f\)" "$run/summary.md" || missing="$missing $f"
        done
        [ -z "$missing" ] && ok "every figure captioned in summary.md" ||
            fail "figures without a caption:$missing"
    fi
    chromium=$(chromium_path)
    if [ -n "$chromium" ]; then
        got=$(browser_check "$run/index.html")
        case $got in
        *"headline: above the fold") ok "page: $got" ;;
        *) fail "page: '$got'" ;;
        esac
        timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
            --window-size=1280,900 --virtual-time-budget=10000 \
            --screenshot="$tmp/page.png" "file://$run/index.html" >/dev/null 2>&1
        [ -s "$tmp/page.png" ] && ok "a screenshot of the page's first screen" ||
            fail "no screenshot"
    fi
}
