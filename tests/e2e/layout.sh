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
            [ -e "$top/bench/measure/$to.h" ] || [ -e "$top/bench/report/$to.h" ] || continue
            [ "$from" != "$to" ] && echo "$from $to"
        done
    done
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
    # Measurement never reads the report.
    bad=""
    for f in "$top"/bench/measure/*; do
        for h in $(sed -n 's/^#include "\([^"]*\)"/\1/p' "$f"); do
            [ -e "$top/bench/report/$h" ] && bad="$bad $(basename "$f")->$h"
        done
    done
    [ -z "$bad" ] && ok "measure/ includes nothing from report/" || fail "measure/ calls back:$bad"
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
