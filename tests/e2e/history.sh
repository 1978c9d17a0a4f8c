#!/bin/sh
# history.sh - end-to-end: every run remembered in results/history.sqlite
# (bench/history/): the bench's and the runner's runs land whole, two
# benches at once both land, and a run killed mid-way leaves the database
# readable and without it. Read back with Python's sqlite3 (the standard
# library), not with the code under test.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# sql DB QUERY: one line per row, fields joined by '|'.
sql() {
    /usr/bin/python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in db.execute(sys.argv[2]):
    print("|".join(str(v) for v in row))' "$1" "$2"
}

# sql_write DB STATEMENTS: run them and commit.
sql_write() {
    /usr/bin/python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.executescript(sys.argv[2]); db.commit()' "$1" "$2"
}

case_store() {
    bench=$1; runner=$2; shim=$3
    /usr/bin/python3 -c 'import sqlite3' 2>/dev/null ||
        { echo "skipped: no Python sqlite3 to read the history with"; exit 77; }
    res="$tmp/results"; db="$res/history.sqlite"
    expect_rc 0 "a quick bench" "$bench" --quick --kernel "$e2e_example" --size 100003 \
        --threads 1,2 --reps 2 --min-time 0.01 --no-plots --results "$res"
    folder=$(readlink "$res/latest")
    [ "$(sql "$db" "select kind, folder, tree from runs")" = "bench|$folder|solutions" ] &&
        ok "the run is in the history, by its folder" || fail "runs: $(sql "$db" "select * from runs")"
    rows=$(tail -n +2 "$res/latest/results.csv" | wc -l)
    [ "$(sql "$db" "select count(*) from configs")" -eq "$rows" ] &&
        ok "every configuration of results.csv ($rows)" ||
        fail "$(sql "$db" "select count(*) from configs") configurations, results.csv has $rows"
    want=$(awk -F, -v k="$e2e_example" '$2 == k && $3 == "threads_simd" && $4 == 2 && $26 == "strong" { print $11 }' \
           "$res/latest/results.csv")
    got=$(sql "$db" "select median_s from configs where variant = 'threads_simd' and threads = 2 and study = 'strong'")
    awk -v a="$want" -v b="$got" 'BEGIN { d = a / b - 1; exit !(a > 0 && d * d < 1e-12) }' &&
        ok "its median is results.csv's ($got s)" || fail "median: history $got, results.csv $want"
    commit=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    [ "$(sql "$db" "select commit_id from runs")" = "$commit" ] && ok "the commit: $commit" ||
        fail "commit: $(sql "$db" "select commit_id from runs")"
    [ "$(sql "$db" "pragma journal_mode")" = wal ] && ok "write-ahead log" || fail "not in WAL mode"

    # A lesson run (make <lesson>): the participant's rows and the solution's.
    expect_rc 0 "the runner" "$runner" "$e2e_example" --size 100003 --reps 1 --min-time 0.01 \
        --threads 2 --results "$res"
    [ "$(sql "$db" "select count(distinct configs.tree) from configs join runs on run = id where kind = 'lesson'")" -eq 2 ] &&
        ok "the runner's exercises and solutions rows" || fail "lesson rows: $(sql "$db" "select configs.tree, variant from configs join runs on run = id where kind = 'lesson'")"

    # Four benches at once into one folder: each publishes a complete run
    # folder of its own, latest names one, and all land in the history.
    # (Each cleans stale partial folders as it starts: before the owner lock
    # got its name only once locked, one could take another's fresh folder
    # for a killed run's and remove it; 2 of 24 such benches failed.)
    set -- --quick --kernel "$e2e_example" --size 2000003 --threads 1,2 --reps 2 --min-time 0.01 \
        --no-plots --no-weak --results "$res"
    ls "$res" | grep -v -e '^latest$' -e '^history\.sqlite' >"$tmp/runs.before"
    pids=""
    for k in 1 2 3 4; do "$bench" "$@" >"$tmp/at$k" 2>&1 & pids="$pids $!"; done
    codes=""
    for p in $pids; do wait "$p"; codes="$codes $?"; done
    if [ "$codes" = " 0 0 0 0" ]; then
        ok "four benches at once: all exit 0"
    else
        fail "four benches: exit$codes"
        tail -n 3 "$tmp"/at* >&2
    fi
    ls "$res" | grep -v -e '^latest$' -e '^history\.sqlite' | grep -vxF -f "$tmp/runs.before" >"$tmp/runs.new"
    [ "$(wc -l <"$tmp/runs.new")" -eq 4 ] && ok "four new run folders" || fail "new run folders: $(cat "$tmp/runs.new")"
    while read -r d; do
        [ -s "$res/$d/results.csv" ] && [ -s "$res/$d/summary.md" ] && ok "$d complete" || fail "$d incomplete"
    done <"$tmp/runs.new"
    grep -qxF "$(readlink "$res/latest")" "$tmp/runs.new" && ok "latest names one of them" ||
        fail "latest: $(readlink "$res/latest")"
    [ -z "$(ls -A "$res" | grep partial)" ] && ok "no partial folder left" || fail "a partial folder is left"
    [ "$(sql "$db" "select count(*) from runs where kind = 'bench'")" -eq 5 ] &&
        ok "all in the history" || fail "runs: $(sql "$db" "select id, kind, folder from runs")"
    grep -q "not in the history" "$tmp"/at* && fail "a history warning: $(cat "$tmp"/at*)" ||
        ok "no history warning"
    n=$(sql "$db" "select count(*) from configs join runs on run = id where kind = 'bench' group by run" | sort -u | tr '\n' ' ')
    [ "$(echo $n | wc -w)" -ge 1 ] && ok "configurations per bench run: $n" || fail "no configurations"

    # Killed mid-run (SIGKILL): the database stays readable, without it.
    before=$(sql "$db" "select count(*) from runs")
    in_background "$bench" --kernel "$e2e_example" --size 100000000 --threads 1 --reps 6 --min-time 0.2 \
        --no-plots --results "$res"
    wait_for_first_timing
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    rm -f $(registrations "$pid")   # what this test's kill leaves
    [ "$(sql "$db" "pragma integrity_check")" = ok ] && ok "SIGKILL: the database is intact" ||
        fail "integrity: $(sql "$db" "pragma integrity_check")"
    [ "$(sql "$db" "select count(*) from runs")" -eq "$before" ] && ok "SIGKILL: the killed run is not in it" ||
        fail "runs after the kill: $(sql "$db" "select count(*) from runs"), before $before"

    killed_in_transaction "$bench" "$shim"

    # A history that cannot be written: the run still succeeds, and says so.
    mkdir -p "$tmp/bad/history.sqlite"
    expect_rc 0 "an unwritable history" "$bench" --quick --kernel "$e2e_example" --size 100003 \
        --threads 1 --reps 1 --min-time 0.01 --no-plots --no-weak --results "$tmp/bad"
    expect_in "$tmp/err" "warning: the run is not in the history" "says the run is not in it"
}

# Killed inside the history's own transaction: a shim (tests/faults/
# kill_in_wal.c) kills the bench halfway through its Nth write to the
# write-ahead log, leaving a torn frame. Each time the database stays
# readable and without that run (its folder was published before), and the
# next run lands.
killed_in_transaction() {
    bench=$1; shim=$2
    [ -f "$shim" ] || { fail "no kill_in_wal shim: $shim"; return; }
    # AddressSanitizer must be the first library loaded: no LD_PRELOAD
    # beside it (the plain build runs this case).
    if grep -qa '__asan_init' "$bench"; then
        echo "history: the kill inside the transaction is not run under AddressSanitizer"
        return
    fi
    for n in 1 2 3; do
        before=$(sql "$db" "select count(*) from runs")
        env LD_PRELOAD="$shim" SL_KILL_WAL_WRITE=$n "$bench" --quick --kernel "$e2e_example" \
            --size 100003 --threads 1,2 --reps 1 --min-time 0.01 --no-plots --no-weak \
            --results "$res" >"$tmp/out" 2>&1 &
        pid=$!   # env execs the bench: this is its pid
        wait "$pid"
        rc=$?
        rm -f $(registrations "$pid")   # what the shim's kill leaves
        [ "$rc" -eq 137 ] && ok "killed in its write $n to the log (exit 137)" ||
            fail "write $n to the log: exit $rc, not killed (does SQLite write the log another way?)"
        [ "$(sql "$db" "pragma integrity_check")" = ok ] && ok "write $n: the database is intact" ||
            fail "write $n: integrity: $(sql "$db" "pragma integrity_check")"
        [ "$(sql "$db" "select count(*) from runs")" -eq "$before" ] &&
            ok "write $n: the killed run is not in it" ||
            fail "write $n: runs $(sql "$db" "select count(*) from runs"), before $before"
    done
    expect_rc 0 "a run after the kills" "$bench" --quick --kernel "$e2e_example" --size 100003 \
        --threads 1 --reps 1 --min-time 0.01 --no-plots --no-weak --results "$res"
    [ "$(sql "$db" "select count(*) from runs")" -eq $((before + 1)) ] &&
        ok "the next run lands" || fail "after the kills: $(sql "$db" "select id, folder from runs")"
}

# make history on a history with known steps (written with Python's sqlite3
# into the store's own schema): one series 50% slower with its intervals
# apart is flagged, at its commit; one whose intervals overlap and one that
# moved 5% (intervals apart, under the 10% threshold) are not. Then import:
# a run folder the history lacks is added once.
case_report() {
    bench=$1; history=$2
    /usr/bin/python3 -c 'import sqlite3' 2>/dev/null ||
        { echo "skipped: no Python sqlite3 to write the history with"; exit 77; }
    res="$tmp/results"; db="$res/history.sqlite"
    expect_rc 0 "a quick bench makes the store" "$bench" --quick --kernel "$e2e_example" \
        --size 100003 --threads 1 --reps 2 --min-time 0.01 --no-plots --no-weak --results "$res"
    /usr/bin/python3 - "$db" <<'PY' || fail "writing the planted history"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("delete from configs"); db.execute("delete from runs")
for run, commit in ((1, "c1"), (2, "c2"), (3, "c3planted"), (4, "c4")):
    db.execute("insert into runs values (?, 'bench', ?, ?, ?, 0, 'solutions', 'box', 'cpu',"
               " 2, 'AVX2', 'GCC 12', '-O3', 0)", (run, "f%d" % run, "t%d" % run, commit))
def point(run, variant, median, half):
    db.execute("insert into configs values (?, 'solutions', 'k', ?, 0, 1000, 'strong', ?, ?,"
               " ?, 0.95, 0.0, 0, 1, 1.0)", (run, variant, median, median - half, median + half))
for run, m in ((1, 1.0), (2, 1.0), (3, 1.5), (4, 1.5)):    # slower at c3planted
    point(run, "slowed", m, 0.05)
for run, m in ((1, 1.0), (2, 1.0), (3, 1.3), (4, 1.3)):    # intervals overlap
    point(run, "noisy", m, 0.2)
for run, m in ((1, 1.0), (2, 1.0), (3, 1.05), (4, 1.05)):  # apart, but 5%
    point(run, "small", m, 0.01)
db.commit()
PY
    expect_rc 3 "a slower step: exit 3" "$history" --results "$res" --no-plots
    [ "$(grep -c SLOWER "$tmp/out")" -eq 1 ] && ok "one step flagged" ||
        fail "flagged: $(cat "$tmp/out")"
    grep -qE '^k +solutions slowed .* c3planted .*SLOWER 1\.50x' "$tmp/out" &&
        ok "the slowed series, at the planted commit" || fail "the step: $(cat "$tmp/out")"
    expect_not_in "$tmp/out" "noisy|small" "overlapping and small changes are not steps"
    out="$res/history"
    [ "$(grep -c ',slower$' "$out/history.csv")" -eq 1 ] && ok "history.csv marks it" ||
        fail "history.csv: $(grep slower "$out/history.csv")"
    expect_in "$out/history.html" "<td>c3planted</td><td>slower</td>" "history.html's table has it"
    [ "$(grep -c '^"' "$out/trend-k.dat")" -eq 3 ] && ok "trend-k.dat: 3 series" ||
        fail "trend-k.dat: $(cat "$out/trend-k.dat")"
    expect_rc 0 "a higher threshold: no step" "$history" --results "$res" --no-plots --min-change 60
    expect_rc 2 "a bad threshold" "$history" --results "$res" --min-change abc
    one_line "a bad threshold"
    expect_rc 2 "no history" "$history" --results "$tmp/none"
    expect_in "$tmp/err" "no history in" "says there is none yet"

    # Import: the bench's folder is not in this history any more; added
    # once, every configuration, and a second import adds nothing.
    expect_rc 3 "import" "$history" --results "$res" --import-folders --no-plots
    expect_in "$tmp/out" "imported 1 run folder(s)" "the folder is added"
    rows=$(tail -n +2 "$res/latest/results.csv" | wc -l)
    [ "$(sql "$db" "select count(*) from configs join runs on run = id where kind = 'import'")" -eq "$rows" ] &&
        ok "with its $rows configurations" || fail "imported configurations"
    expect_rc 3 "import again" "$history" --results "$res" --import-folders --no-plots
    expect_in "$tmp/out" "imported 0 run folder(s) from $res; 1 already in the history" "nothing twice"
    # The page in a real browser: its figure loads, the steps' table is in
    # view (page_check.html: the table is the page's headline).
    chromium=$(chromium_path)
    if [ -z "$chromium" ] || ! command -v gnuplot >/dev/null 2>&1; then
        echo "skipped: the browser check needs chromium and gnuplot"
        exit 77
    fi
    expect_rc 3 "with plots" "$history" --results "$res"
    [ -s "$out/trend-k.png" ] && ok "trend-k.png drawn" || fail "no trend-k.png"
    expect_in "$out/history.html" '<a href="trend-k.svg">' "the page links the figure's SVG"
    pngs=$(grep -c '<img ' "$out/history.html")
    got=$(browser_check "$out/history.html")
    [ "$got" = "images: $pngs of $pngs loaded; headline: above the fold" ] &&
        ok "browser: $got" || fail "browser says '$got' ($pngs figures)"
}

# make progress: the example lesson three times in a copy of the checkout,
# the exercises edited in between (as shipped, then a correct simd, then a
# wrong threads): the table and the figure's data show those three states,
# each run's speedup the one that run printed. Not that the correct simd is
# faster: how much faster depends on the load beside the test (in CI, 3.4x
# as shipped, then 4.8x).
case_progress() {
    copy="$tmp/copy"; res="$tmp/results"
    build() { build_copy "$copy" speedlab speedlab-history; }
    runs=0
    lesson() {
        rc=$1 label=$2; shift 2
        expect_rc "$rc" "$label" "$copy/build/bench/speedlab" "$e2e_example" --size 10000019 \
            --reps 2 --min-time 0.01 --threads 2 --no-plots --results "$res" "$@"
        runs=$((runs + 1)); cp "$tmp/out" "$tmp/run$runs.out"
    }
    # printed VARIANT: the speedup each run printed for the exercise ("-": none).
    printed() {
        for k in $(seq 1 "$runs"); do
            awk -v v="$1" '$1 == "exercises" && $2 == v {
                s = "-"; for (i = NF; i > 2; i--) if ($i ~ /^[0-9.]+x$/) s = $i; print s }' \
                "$tmp/run$k.out"
        done | tr '\n' ' '
    }
    # same_speedups LINE PRINTED: LINE's "Ax -> Bx -> ..." are PRINTED's
    # (2 decimals there, 1 here), WRONG or busy (no speed verdict: a busy
    # machine) where a run printed none.
    same_speedups() {
        echo "$1" | awk -v want="$2" '{ sub(/ \([0-9]+ runs\)$/, ""); sub(/^ *[a-z_]+( x[0-9]+)? +/, "")
            n = split($0, got, " -> "); m = split(want, w, " ")
            bad = n != m
            for (i = 1; i <= n && !bad; i++)
                bad = got[i] ~ /^(WRONG|busy)/ ? w[i] ~ /^[0-9.]+x$/ : (d = got[i] - w[i]) * d > 0.051 * 0.051
            exit bad }'
    }
    f=$(folder_of "$e2e_example")
    copy_checkout "$copy" speedlab speedlab-history || return
    # A first run of simd alone: threads' runs are the lesson's 2nd to 4th.
    lesson 0 "run 0: simd alone, as shipped" --variant simd
    lesson 0 "run 1: the exercises as shipped"
    completed "$top/solutions/$f/simd.c" >"$copy/exercises/$f/simd.c"
    build || return
    lesson 0 "run 2: a correct simd"
    # Wrong whatever the load: a race may give the right sum when a busy
    # machine runs its two threads one after the other (seen with -j 3).
    cp "$top/kernels/$f/planted/broken/threads.c" "$copy/exercises/$f/threads.c"
    build || return
    lesson 3 "run 3: a wrong threads"
    expect_rc 0 "make progress" "$copy/build/bench/speedlab-history" --results "$res" --progress
    simd=$(grep -E "^($e2e_example)? +simd " "$tmp/out" | sed "s/^$e2e_example//")
    # (busy: a run the machine was too busy to judge, in make test's load)
    fig='([0-9.]+x|busy, no speed verdict)'
    echo "$simd" | grep -qE " $fig -> $fig -> $fig -> $fig \(4 runs\)$" &&
        same_speedups "$simd" "$(printed simd)" &&
        ok "simd, each run's own speedup: $simd" || fail "simd: '$simd', the runs printed $(printed simd)"
    threads=$(grep -E "^ +threads x2 " "$tmp/out")
    echo "$threads" | grep -qE " $fig -> $fig -> WRONG \(3 runs\)$" &&
        same_speedups "$threads" "$(printed threads)" &&
        ok "threads right twice, then WRONG: $threads" ||
        fail "threads: '$threads', the runs printed $(printed threads)"
    [ "$(grep -c WRONG "$tmp/out")" -eq 1 ] && ok "nothing else WRONG" || fail "$(cat "$tmp/out")"
    dat="$res/history/progress-$e2e_example.dat"
    awk '/^"threads x2"/ { b = 1; next } /^"/ { b = 0 } b && NF == 3 { s = s $3 } END { exit s !~ /^[02][02]1$/ }' "$dat" &&
        ok "the figure's data marks run 3 WRONG" || fail "$dat: $(cat "$dat")"
    # One x, one run: threads' points at the lesson's runs 2 to 4 (it was
    # not in the first), simd's at 1 to 4.
    awk '/^"/ { b = $0; next } NF == 3 { x[b] = x[b] $1 } END { exit x["\"threads x2\""] != "234" || x["\"simd\""] != "1234" }' "$dat" &&
        ok "the figure's x: the lesson's runs" || fail "$dat: $(cat "$dat")"
    head -n 1 "$dat" | grep -qxF "# $e2e_example: your variants' speedup over the solution's scalar, run after run: the lesson's run, the speedup, and 0, or wrong: 1, busy, no speed verdict: 2" &&
        ok "the figure's data says what it holds" || fail "$dat's first line: $(head -n 1 "$dat")"
    expect_in "$res/history/progress.html" "WRONG (3 runs)" "progress.html has the table"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$res/history/progress-$e2e_example.png" ] && ok "the figure is drawn" || fail "no figure"
        expect_in "$res/history/progress.html" "<a href=\"progress-$e2e_example.svg\">" \
            "progress.html links the figure's SVG"
    fi
}

# make bench-commits over three commits of a throwaway clone, the middle
# one a planted slowdown (the example's threads_simd does its sum 8 times:
# 8x the time), then make history. The rule itself is unit.test_trend's
# (planted series) and case_report's (a planted store); here, that the
# plant shows, and nothing else, is asked only when the bench kept every
# median clean (no repetition disturbed by others' CPU: a quiet machine),
# else said not judged. No threshold holds however much load comes and goes:
# with CTest running another test beside this one, an unchanged variant's
# run took 1.9x as long as the run before (the example's scalar, 100.6
# then 186.4 ms, intervals apart), and beside two tests the threads_simd
# of the first commit took 17-19 ms against 6.2 quiet, so a plant run in
# a lull would show 8 / 3 = 2.7x. The threshold is 300%, under the 8x.
case_commits() {
    history=$1
    command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --verify -q HEAD >/dev/null ||
        { echo "skipped: not a git checkout"; exit 77; }
    clone="$tmp/clone"; res="$tmp/results"
    git clone -q "$top" "$clone" || { fail "git clone"; return; }
    g() { git -C "$clone" -c user.name=test -c user.email=test@example.com "$@"; }
    echo "a normal change" >>"$clone/README.md"
    g commit -qam "first: normal" || { fail "commit 1"; return; }
    first=$(g rev-parse --short=12 HEAD)
    e2e_plant_slow "$clone/solutions/$(folder_of "$e2e_example")/threads_simd.c" ||
        { fail "the plant did not take"; return; }
    g commit -qam "second: planted slowdown" || { fail "commit 2"; return; }
    planted=$(g rev-parse --short=12 HEAD)
    echo "another normal change" >>"$clone/README.md"
    g commit -qam "third: normal" || { fail "commit 3"; return; }
    last=$(g rev-parse --short=12 HEAD)
    expect_rc 0 "bench-commits over 3 commits" env SPEEDLAB_HISTORY="$history" \
        sh "$clone/scripts/bench_commits.sh" "$tmp/build" "$res" "$first" "$last" \
        --kernel "$e2e_example" --variant threads_simd --size 100000000 --threads 2 \
        --reps 6 --min-time 0.05 --quick --no-weak --no-plots
    [ "$(grep -c '^  benched: ' "$tmp/out")" -eq 3 ] && ok "3 commits benched" ||
        fail "benched: $(cat "$tmp/out")"
    [ -z "$(git -C "$clone" status --porcelain --untracked-files=no)" ] && ok "the clone's tree untouched" ||
        fail "the tree changed: $(git -C "$clone" status --porcelain)"
    # One build folder for the range: a commit that changed no source
    # (the third: README only) compiles nothing.
    [ -s "$tmp/build/commits/$last.build.log" ] &&
        ! grep -q 'Building C' "$tmp/build/commits/$last.build.log" &&
        ok "the README-only commit compiled nothing" ||
        fail "the third commit rebuilt: $(grep -c "Building C" "$tmp/build/commits/$last.build.log") objects"
    [ "$(git -C "$clone" worktree list | wc -l)" -eq 1 ] && ok "no worktree left" ||
        fail "worktrees: $(git -C "$clone" worktree list)"
    db="$res/history.sqlite"
    runs=$(sql "$db" "select commit_id from runs r join configs c on c.run = r.id
                      where c.tree = 'solutions' and c.variant = 'threads_simd' and c.threads = 2
                      and c.study = 'strong' order by r.id" | tr '\n' ' ')
    [ "$runs" = "$first $planted $last " ] && ok "threads_simd x2 stored under each commit, in order" ||
        fail "threads_simd x2 stored under: $runs"
    "$history" --results "$res" --min-change 300 --no-plots >"$tmp/out" 2>"$tmp/err"
    code=$?
    { [ "$code" -eq 0 ] || [ "$code" -eq 3 ]; } && [ ! -s "$tmp/err" ] &&
        ok "make history over the stored runs: exit $code" ||
        fail "make history: exit $code, $(cat "$tmp/err")"
    stored=$(awk '$(NF - 1) == "SLOWER" || $(NF - 1) == "faster" {
                   s = $1; for (i = 2; i <= NF - 9; i++) s = s " " $i
                   print s, $(NF - 3), $(NF - 1) }' "$tmp/out" | sort)
    case $stored in *SLOWER*) want_code=3 ;; *) want_code=0 ;; esac
    [ "$code" -eq "$want_code" ] && ok "its exit code says whether a step is slower" ||
        fail "exit $code with steps '$stored'"
    clean=$(sql "$db" "select count(*) from configs where study = 'strong' and contaminated = 0")
    all=$(sql "$db" "select count(*) from configs where study = 'strong'")
    if [ "$clean" -eq "$all" ]; then
        [ "$stored" = "$e2e_example solutions threads_simd x2 $planted SLOWER" ] &&
            ok "measured clean, the plant is flagged at $planted and nothing else" ||
            fail "measured clean, not the plant alone: $(cat "$tmp/out")"
    else
        echo "not judged: whether the plant alone shows (the bench kept $clean of $all medians clean)"
    fi
    # A commit that does not build: recorded, and the range goes on. The
    # break is in a header the first objects include, so that the build
    # from scratch, tried next, fails at once too.
    echo "this is not C" >>"$clone/common/kernel.h"
    g commit -qam "fourth: does not build" || { fail "commit 4"; return; }
    broken=$(g rev-parse --short=12 HEAD)
    expect_rc 0 "bench-commits over a commit that does not build" env SPEEDLAB_HISTORY="$history" \
        sh "$clone/scripts/bench_commits.sh" "$tmp/build" "$res" "$broken" "$broken" \
        --kernel "$e2e_example" --variant threads_simd --quick --reps 1 --no-weak --no-plots
    expect_in "$tmp/out" "$broken does not build" "says which commit did not build"
    "$history" --results "$res" --min-change 300 --no-plots >"$tmp/out" 2>&1
    expect_in "$tmp/out" "did not build: $broken" "make history says it too"
    expect_rc 2 "bench-commits: an unknown revision" env SPEEDLAB_HISTORY="$history" \
        sh "$clone/scripts/bench_commits.sh" "$tmp/build" "$res" nosuchrev "$last"
}

# Histories from other versions, and a locked one. A newer kit's history
# (user_version above this kit's, with or without a new column) is left as
# it is, said in one warning, the run still written; an older one (an
# empty SQLite file: version 0) is migrated in one transaction; an extra
# column under this version takes the row by name. Ctrl-C while another
# process holds the history's lock stops the wait at once: the run is in
# its folder, the history skipped, exit 130.
case_versions() {
    bench=$1
    /usr/bin/python3 -c 'import sqlite3' 2>/dev/null ||
        { echo "skipped: no Python sqlite3 to plant histories with"; exit 77; }
    quick() { "$bench" --quick --kernel "$e2e_example" --size 100003 --threads 1 --reps 2 \
                  --min-time 0.01 --no-plots --no-weak --results "$1"; }
    # A first run makes a history of this version to plant from.
    quick "$tmp/base" >/dev/null 2>&1 || { fail "the first run"; return; }
    [ "$(sql "$tmp/base/history.sqlite" "pragma user_version")" = 1 ] && ok "a new history is version 1" ||
        fail "new history version: $(sql "$tmp/base/history.sqlite" "pragma user_version")"
    for plant in "newer:pragma user_version = 2" \
                 "newer_column:alter table configs add column joules real; pragma user_version = 2"; do
        name=${plant%%:*}; res="$tmp/$name"
        mkdir -p "$res" && cp "$tmp/base/history.sqlite" "$res/"
        sql_write "$res/history.sqlite" "${plant#*:}"
        sum=$(cksum <"$res/history.sqlite")
        expect_rc 0 "$name: the run" quick "$res"
        expect_in "$tmp/err" "was written by a newer speedlab (history version 2; this kit writes 1): left as it is" \
            "$name: said why it is not written"
        expect_not_in "$tmp/err" "columns but|values were supplied" "$name: no raw SQLite error"
        [ "$(cksum <"$res/history.sqlite")" = "$sum" ] && ok "$name: the history is unchanged" ||
            fail "$name: the history changed"
        [ -s "$res/latest/results.csv" ] && ok "$name: the run is in its folder" || fail "$name: no run"
    done
    # An extra column, this version: the insert names its columns.
    res="$tmp/extra"; mkdir -p "$res" && cp "$tmp/base/history.sqlite" "$res/"
    sql "$res/history.sqlite" "alter table configs add column note text" >/dev/null
    expect_rc 0 "an extra column: the run" quick "$res"
    [ "$(sql "$res/history.sqlite" "select count(distinct run) from configs")" = 2 ] &&
        ok "an extra column: the run is recorded" || fail "an extra column: $(cat "$tmp/err")"
    # Version 0 (an empty SQLite file): migrated, then written.
    res="$tmp/older"; mkdir -p "$res"
    sql "$res/history.sqlite" "pragma user_version = 0" >/dev/null
    expect_rc 0 "an older history: the run" quick "$res"
    [ "$(sql "$res/history.sqlite" "pragma user_version")|$(sql "$res/history.sqlite" "select count(*) from runs")" = "1|1" ] &&
        ok "an older history: migrated to version 1, the run in it" ||
        fail "an older history: $(sql "$res/history.sqlite" "pragma user_version") $(cat "$tmp/err")"
    # Locked by another process for a minute; Ctrl-C once the run is out.
    res="$tmp/locked"; mkdir -p "$res" && cp "$tmp/base/history.sqlite" "$res/"
    /usr/bin/python3 -c 'import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None); db.execute("begin immediate")
open(sys.argv[2], "w").close(); time.sleep(60)' "$res/history.sqlite" "$tmp/locked.ready" &
    holder=$!
    while [ ! -e "$tmp/locked.ready" ] && kill -0 "$holder" 2>/dev/null; do sleep 0.1; done
    [ -e "$tmp/locked.ready" ] || { fail "the history could not be locked for the test"; return; }
    in_background "$bench" --quick --kernel "$e2e_example" --size 100003 --threads 1 --reps 2 \
        --min-time 0.01 --no-plots --no-weak --results "$res"
    while [ ! -L "$res/latest" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    sleep 1
    start=$(date +%s)
    kill -INT "$pid"
    wait "$pid"; rc=$?
    took=$(( $(date +%s) - start ))
    kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
    [ "$rc" = 130 ] && ok "Ctrl-C while the history is locked: exit 130" || fail "Ctrl-C while locked: exit $rc"
    [ "$took" -le 5 ] && ok "the wait stopped at once (${took} s)" || fail "the wait went on ${took} s"
    expect_in "$tmp/err" "interrupted while waiting for another run's lock on it" "says the history was skipped"
    expect_in "$tmp/out" "interrupted by signal 2 while waiting for the history: the run is complete in its folder" \
        "the last line says where the run is"
}

# Who a step is blamed on, and which steps are judged: a history planted
# from one real run (its intervals made tight, none disturbed), then a run
# three times as slow. From a tree with uncommitted changes: SLOWER, named
# "uncommitted changes on <commit>", exit 3. Marked disturbed by the bench
# (others' load): shown, not judged, exit 0.
case_judged() {
    bench=$1; history=$2
    /usr/bin/python3 -c 'import sqlite3' 2>/dev/null ||
        { echo "skipped: no Python sqlite3 to plant histories with"; exit 77; }
    "$bench" --quick --kernel "$e2e_example" --variant scalar --size 100003 --threads 1 --reps 2 \
        --min-time 0.01 --no-plots --no-weak --results "$tmp/base" >/dev/null 2>&1 ||
        { fail "the first run"; return; }
    for plant in "dirty:1:0" "disturbed:0:1"; do
        name=${plant%%:*}; rest=${plant#*:}; dirty=${rest%%:*}; disturbed=${rest#*:}
        res="$tmp/$name"; mkdir -p "$res" && cp "$tmp/base/history.sqlite" "$res/"
        sql_write "$res/history.sqlite" "update configs set contaminated = 0, ci_low_s = median_s * 0.99,
            ci_high_s = median_s * 1.01; update runs set commit_id = 'c0ffee', dirty = 0" >/dev/null
        sql_write "$res/history.sqlite" "insert into runs (kind, folder, started_utc, commit_id, dirty, tree,
            host, cpu_model, cores, simd_isa, compiler, flags, interrupted) select kind, 'planted',
            started_utc, 'c0ffee', $dirty, tree, host, cpu_model, cores, simd_isa, compiler, flags,
            interrupted from runs where id = 1;
            insert into configs (run, tree, kernel, variant, threads, size, study, median_s, ci_low_s,
            ci_high_s, ci_level, others_cpu, contaminated, valid, speedup) select 2, tree, kernel,
            variant, threads, size, study, median_s * 3, ci_low_s * 3, ci_high_s * 3, ci_level,
            others_cpu, $disturbed, valid, speedup from configs where run = 1" >/dev/null
        want=3; [ "$name" = disturbed ] && want=0
        expect_rc $want "make history, a slowdown from a $name run" "$history" --results "$res" --no-plots
        if [ "$name" = dirty ]; then
            expect_match "$tmp/out" "uncommitted changes on c0ffee .* SLOWER 3.00x" \
                "the slowdown is blamed on the uncommitted changes"
        else
            expect_not_in "$tmp/out" "SLOWER" "no step judged between disturbed runs"
            expect_in "$tmp/out" "change(s) between runs the bench marked disturbed" "said shown, not judged"
        fi
    done
}
