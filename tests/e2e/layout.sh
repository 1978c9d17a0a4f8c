#!/bin/sh
# layout.sh - end-to-end: the structure bench/ promises (bench/CMakeLists.txt):
# measurement and report flow one way, no include cycle, and report code
# meets kernels only through their tables and problem definitions.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# Module edges "includer included" between bench/'s own files (a module is
# a file name without its extension), from their #include lines.
bench_edges() {
    for f in "$top"/bench/*.c "$top"/bench/*/*.c "$top"/bench/*/*.cc "$top"/bench/*/*.h; do
        from=$(basename "$f"); from=${from%.*}
        sed -n 's/^#include "\([^"]*\)\.h"/\1/p' "$f" | while read -r to; do
            ls "$top"/bench/*/"$to.h" >/dev/null 2>&1 || continue
            [ "$from" != "$to" ] && echo "$from $to"
        done
    done
}

# bench/'s floors, lowest first (bench/CMakeLists.txt).
floor_of() {
    case $1 in
        run) echo 1 ;; measure) echo 2 ;; history) echo 3 ;; report) echo 4 ;; hybrid|room) echo 5 ;;
    esac
}

case_layout() {
    bench_edges >"$tmp/edges"
    [ -s "$tmp/edges" ] && ok "$(wc -l <"$tmp/edges") include edges in bench/" ||
        fail "no include edges found"
    if tsort "$tmp/edges" >/dev/null 2>"$tmp/loop"; then
        ok "no include cycle in bench/"
    else
        fail "an include cycle in bench/: $(tr '\n' ' ' <"$tmp/loop")"
    fi
    # The floors of bench/ (bench/CMakeLists.txt): a folder includes only
    # from its own floor's folder and the floors below, never up or across.
    bad=""
    for f in "$top"/bench/*/*.c "$top"/bench/*/*.cc "$top"/bench/*/*.h; do
        dir=$(basename "$(dirname "$f")"); at=$(floor_of "$dir")
        [ -n "$at" ] || { bad="$bad $dir/(a folder with no floor)"; continue; }
        for h in $(sed -n 's/^#include "\([^"]*\)"/\1/p' "$f"); do
            for there in "$top"/bench/*/"$h"; do
                [ -e "$there" ] || continue
                to=$(basename "$(dirname "$there")")
                [ "$to" = "$dir" ] && continue
                [ "$(floor_of "$to")" -lt "$at" ] || bad="$bad $dir/$(basename "$f")->$to/$h"
            done
        done
    done
    [ -z "$bad" ] && ok "bench/'s folders include only from floors below: run, measure, history, report, hybrid and room" ||
        fail "an include up or across bench/'s floors:$bad"
    # Report code names no kernel and compares no problem definition.
    kernels=$(sh "$top/scripts/kernels.sh" --names | tr ' ' '|')
    [ -n "$kernels" ] && ok "kernels: $kernels" || fail "no kernel names found"
    folders=$(sh "$top/scripts/kernels.sh" | awk '{ print $3 }' | sort -u | tr '\n' '|')
    if grep -nE "\"($kernels)\"|&[a-z_]+_problem|($kernels|${folders%|})_problem" \
            "$top"/bench/report/*.[ch] >"$tmp/named"; then
        fail "report code names a kernel: $(head -3 "$tmp/named" | tr '\n' ' ')"
    else
        ok "report code names no kernel and no problem definition"
    fi
    # The harness, the make targets and the scripts learn the kernels from
    # kernels/ (scripts/kernels.sh, the generated kernel lists): none names
    # one, so that a new kernel touches none of them; nor do the
    # end-to-end cases (the kernels' e2e.sh give them their examples).
    if (cd "$top" && git grep -n -w -E "$kernels" -- bench python GNUmakefile scripts tests/e2e) >"$tmp/named"; then
        fail "a kernel named outside its folder: $(head -3 "$tmp/named" | tr '\n' ' ')"
    else
        ok "bench/, python/, GNUmakefile, scripts/ and tests/e2e/ name no kernel"
    fi
}
