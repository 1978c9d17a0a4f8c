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

case_store() {
    bench=$1; runner=$2
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

    # A lesson run (make pi): the participant's rows and the solution's.
    expect_rc 0 "the runner" "$runner" "$e2e_example" --size 100003 --reps 1 --min-time 0.01 \
        --threads 2 --results "$res"
    [ "$(sql "$db" "select count(distinct configs.tree) from configs join runs on run = id where kind = 'lesson'")" -eq 2 ] &&
        ok "the runner's exercises and solutions rows" || fail "lesson rows: $(sql "$db" "select configs.tree, variant from configs join runs on run = id where kind = 'lesson'")"

    # Two benches at once into one folder: both land, nothing lost.
    set -- --quick --kernel "$e2e_example" --size 2000003 --threads 1,2 --reps 2 --min-time 0.01 \
        --no-plots --no-weak --results "$res"
    "$bench" "$@" >"$tmp/a" 2>&1 & a=$!
    "$bench" "$@" >"$tmp/b" 2>&1 & b=$!
    wait "$a"; ra=$?; wait "$b"; rb=$?
    [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] && ok "two benches at once: both exit 0" ||
        fail "two benches: exit $ra and $rb"
    [ "$(sql "$db" "select count(*) from runs where kind = 'bench'")" -eq 3 ] &&
        ok "both in the history" || fail "runs: $(sql "$db" "select id, kind, folder from runs")"
    grep -q "not in the history" "$tmp/a" "$tmp/b" && fail "a history warning: $(cat "$tmp/a" "$tmp/b")" ||
        ok "no history warning"
    n=$(sql "$db" "select count(*) from configs join runs on run = id where kind = 'bench' group by run" | sort -u | tr '\n' ' ')
    [ "$(echo $n | wc -w)" -ge 1 ] && ok "configurations per bench run: $n" || fail "no configurations"

    # Killed mid-run (SIGKILL): the database stays readable, without it.
    before=$(sql "$db" "select count(*) from runs")
    "$bench" --kernel "$e2e_example" --size 100000000 --threads 1 --reps 6 --min-time 0.2 \
        --no-plots --results "$res" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    wait_for_first_timing
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    [ "$(sql "$db" "pragma integrity_check")" = ok ] && ok "SIGKILL: the database is intact" ||
        fail "integrity: $(sql "$db" "pragma integrity_check")"
    [ "$(sql "$db" "select count(*) from runs")" -eq "$before" ] && ok "SIGKILL: the killed run is not in it" ||
        fail "runs after the kill: $(sql "$db" "select count(*) from runs"), before $before"

    # A history that cannot be written: the run still succeeds, and says so.
    mkdir -p "$tmp/bad/history.sqlite"
    expect_rc 0 "an unwritable history" "$bench" --quick --kernel "$e2e_example" --size 100003 \
        --threads 1 --reps 1 --min-time 0.01 --no-plots --no-weak --results "$tmp/bad"
    expect_in "$tmp/err" "warning: the run is not in the history" "says the run is not in it"
}
