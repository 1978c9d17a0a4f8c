#!/bin/sh
# hygiene.sh - end-to-end: what the tree says about itself holds. Every path
# a comment or a doc names exists; no test outside busy.sh reads a verdict
# that depends on how busy the machine is.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# The files to read: git's list in a checkout, else every file but build
# outputs and results. exercises/ is the participant's: their comments are
# theirs (the generated copy of each is checked through solutions/).
tracked_files() {
    if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
        git -C "$top" ls-files
    else
        (cd "$top" && find . -type f ! -path './build*' ! -path './results*' ! -path './.git/*' |
            sed 's|^\./||')
    fi | grep -v '^exercises/'
}

# Paths that start at a top-level folder of the kit and end in a source or
# doc suffix: "bench/measure/quiet.h", "course/00-setup.md". A placeholder
# ("solutions/<kernel>/scalar.c") or a path inside another one
# ("build/bench/...") does not match.
path_re='(^|[^A-Za-z0-9_./<>*{$-])(bench|common|solutions|exercises|tests|scripts|plots|cmake|python|exhibits|offload|docs|course)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(c|h|cc|cu|sh|py|md|gp|txt|cmake|sbatch|in)\b'

# missing_paths: "file:line names path" for each named path that is not
# there (paths are relative to the top of the kit).
missing_paths() {
    while IFS=: read -r file line match; do
        path=$(printf '%s' "$match" | sed 's/^[^a-z]*//')
        [ -e "$top/$path" ] || echo "$file:$line names $path"
    done
}

case_paths() {
    (cd "$top" && tracked_files | tr '\n' '\0' | xargs -0 grep -HnoE "$path_re") >"$tmp/named"
    n=$(wc -l <"$tmp/named")
    [ "$n" -gt 100 ] && ok "$n paths named in comments and docs" || fail "only $n paths found: is the scan broken?"
    missing_paths <"$tmp/named" >"$tmp/missing"
    if [ -s "$tmp/missing" ]; then
        fail "$(wc -l <"$tmp/missing") path(s) that do not exist:"
        sed 's/^/    /' "$tmp/missing" >&2
    else
        ok "every named path exists"
    fi
    # The same scan on a file naming a path that is gone, and one that is not.
    printf '/* see %s.c, and bench/runner_main.c */\n' bench/no_such_file >"$tmp/probe.c"
    grep -HnoE "$path_re" "$tmp/probe.c" | missing_paths >"$tmp/probe.out"
    [ "$(grep -c . "$tmp/probe.out")" -eq 1 ] && grep -q 'names bench/no_such_file[.]c$' "$tmp/probe.out" &&
        ok "the scan sees a stale name and only it" || fail "the scan on a probe: $(cat "$tmp/probe.out")"
}

# The runner's verdict for a right row says "ok", "not faster yet",
# "machine busy" or "solution is Nx" by how fast it ran, so by how busy the
# machine was. Only busy.sh, whose subject that is, may look for those
# words; everything else uses row_right (lib.sh).
case_verdicts() {
    if grep -nE "not faster|machine busy|solution is|no faster|\.\* ok|\(ok\||\|ok\)" \
            "$here"/*.sh | grep -vE "^$here/(busy|lib|hygiene)\.sh:" >"$tmp/speedwords"; then
        fail "a test reads a speed verdict:"
        sed 's/^/    /' "$tmp/speedwords" >&2
    else
        ok "no test outside busy.sh reads a speed verdict"
    fi
}

# The docs' shape (issue 30): README and COURSE.md are front pages, each
# lesson a file a participant can read through, with its time, objectives
# and key points, and no run ID in the teaching text (provenance lives in
# course/instructors/provenance.md).
case_docs() {
    for f in README.md COURSE.md; do
        n=$(wc -l <"$top/$f")
        [ "$n" -le 160 ] && ok "$f: $n lines" || fail "$f: $n lines (a front page: at most about 150)"
    done
    # The instructors' guide: one page a task, each readable through,
    # each linked from the guide's front page.
    for f in "$top"/course/instructors/*.md; do
        part=${f#"$top"/course/}
        n=$(wc -l <"$f")
        [ "$n" -lt 300 ] || fail "course/$part: $n lines (under 300)"
        grep -qF "($part)" "$top/course/instructors.md" || fail "course/instructors.md does not link $part"
    done
    lessons=$(ls "$top"/course/[0-9][0-9]-*.md 2>/dev/null | wc -l)
    [ "$lessons" -ge 9 ] && ok "$lessons lesson files" || fail "$lessons lesson files in course/"
    for f in "$top"/course/[0-9][0-9]-*.md; do
        lesson=${f#"$top"/}
        n=$(wc -l <"$f")
        [ "$n" -lt 300 ] || fail "$lesson: $n lines (under 300)"
        for part in '**Time:**' '**Objectives.**' '## Key points'; do
            grep -qF -- "$part" "$f" || fail "$lesson has no '$part'"
        done
        grep -qE '[0-9]{8}T[0-9]{6}Z' "$f" && fail "$lesson quotes a run ID (they go in course/instructors/provenance.md)"
        # Thirty participants on one login node share /tmp: a fixed name
        # there is the first one's (0600), and everyone else's fails.
        grep -nE '(^|[ =])/tmp/[A-Za-z]' "$f" && fail "$lesson: a command writes a fixed name in /tmp"
        # A folded answer left open would fold the rest of the lesson away.
        [ "$(grep -c '<details>' "$f")" -eq "$(grep -c '</details>' "$f")" ] ||
            fail "$lesson: a <details> without its </details>"
        grep -qF "($lesson)" "$top/COURSE.md" || fail "COURSE.md does not link $lesson"
        # Room to think: open questions, and a folded challenge.
        grep -q '^## Questions$' "$f" || fail "$lesson has no '## Questions'"
        grep -q '<details><summary>Challenge' "$f" || fail "$lesson has no folded challenge"
        # One "what we measured" a step in the text; more goes in a fold.
        awk -v f="$lesson" '/^## /{ step = $0; n = 0 } /<details>/{ fold = 1 }
            /<\/details>/{ fold = 0; next }
            !fold && /[Mm]easured here|^\*Measured\*/ && ++n == 2 {
                print f ": \"" step "\" quotes a second measured figure outside a <details> fold" }' \
            "$f" >>"$tmp/figures"
    done
    [ ! -s "$tmp/figures" ] || fail "$(cat "$tmp/figures")"
    # The glossary: linked, and every word it explains used in a lesson.
    grep -qF "(course/glossary.md)" "$top/COURSE.md" || fail "COURSE.md does not link the glossary"
    sed -n 's/^- \*\*\([^*]*\)\*\*.*/\1/p' "$top/course/glossary.md" | tr '/' '\n' |
        sed 's/^ *//; s/ *$//' >"$tmp/terms"
    [ "$(wc -l <"$tmp/terms")" -ge 25 ] || fail "the glossary explains $(wc -l <"$tmp/terms") words"
    cat "$top"/course/[0-9][0-9]-*.md | tr '\n' ' ' | sed 's/  */ /g' >"$tmp/lessons"
    while IFS= read -r term; do
        grep -qiF -- "$term" "$tmp/lessons" || fail "glossary: '$term' is in no lesson"
    done <"$tmp/terms"
    ok "every lesson file checked"
    # The reference's command table names every target make help names,
    # and every lesson make help lists (issue 49).
    make -s -C "$top" help >"$tmp/help" 2>&1 || fail "make help failed"
    { sed -n 's/^  make \([a-z][a-z_-]*\).*/\1/p' "$tmp/help"
      sed -n 's/.*lessons: //p' "$tmp/help" | tr ',' '\n' | sed 's/^ *\([a-z_]*\).*/\1/'; } |
        sort -u >"$tmp/targets"
    [ "$(wc -l <"$tmp/targets")" -ge 30 ] || fail "make help named $(wc -l <"$tmp/targets") targets"
    while IFS= read -r t; do
        grep -qE "^\| .*\`make $t[\` ]" "$top/docs/reference.md" ||
            fail "docs/reference.md's command table lacks make $t (make help names it)"
    done <"$tmp/targets"
}

# The harness's shape (issue 31): every option is declared once, in
# bench/run/cli.c's table, and no function of bench/ or common/ runs
# past about 80 lines (tables are data, not functions: their opening brace
# is not alone on its line).
case_code() {
    opts=$(sed -n 's/.*{ \.name = "\(--[a-z-]*\)".*/\1/p' "$top/bench/run/cli.c")
    [ "$(echo "$opts" | wc -w)" -ge 20 ] && ok "$(echo "$opts" | wc -w) options in the table" ||
        fail "the option table was not found: $(echo "$opts" | tr '\n' ' ')"
    twice=""
    for o in $opts; do
        n=$(cat "$top"/bench/*.c "$top"/bench/*/*.c "$top"/bench/*/*.cc | grep -o "\"$o\"" | wc -l)
        [ "$n" -eq 1 ] || twice="$twice $o ($n)"
    done
    [ -z "$twice" ] && ok "every option's name is written once" ||
        fail "options written more than once in bench/ (once: the table):$twice"
    for f in "$top"/bench/*.c "$top"/bench/*/*.c "$top"/bench/*/*.cc "$top"/common/*.c; do
        awk -v file="${f#"$top"/}" '
            /^[A-Za-z].*[),]$/ { if (!open) sig = $0 }
            /^\{/ { start = FNR; open = 1 }
            /^\}/ && open { n = FNR - start + 1; open = 0
                            if (n > 85) printf "%s: %d lines: %s\n", file, n, sig }' "$f"
    done >"$tmp/long"
    [ ! -s "$tmp/long" ] && ok "no function over 85 lines in bench/ and common/" ||
        fail "functions too long to read at once:$(sed 's/^/\n    /' "$tmp/long")"
}
