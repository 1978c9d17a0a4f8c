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

# layout_block FILE: the first code block after FILE's "## Layout"
# heading (docs/reference.md), or its first code block (bench/README.md).
layout_block() {
    awk -v any="${2:-}" '(any || /^## Layout/) { on = 1 } on && /^```/ { if (inside) exit; inside = 1; next }
                     inside' "$1"
}

# layout_unnamed ROOT BUILD: what the layout texts leave out or name in
# vain, one line each: a top folder, a bench/ floor, a script or a program
# that the reference's layout does not name, a folder it names that is
# not there, a bench/ source file that bench/README.md does not place, or
# places in the wrong floor.
layout_unnamed() {
    root=$1 build=$2
    layout_block "$root/docs/reference.md" >"$tmp/ref-layout"
    layout_block "$root/bench/README.md" any >"$tmp/bench-layout"
    for d in "$root"/*/; do
        d=$(basename "$d")
        case $d in build | results | gpu-bundle*) continue ;; esac
        grep -qE "^$d/" "$tmp/ref-layout" || echo "folder $d/ is not in the reference's layout"
    done
    for d in "$root"/bench/*/; do
        d=$(basename "$d")
        grep -qE "^  $d/" "$tmp/ref-layout" || echo "folder bench/$d/ is not in the reference's layout"
    done
    sed -n 's|^\([a-z][a-z0-9_-]*\)/ .*|\1|p' "$tmp/ref-layout" | while read -r d; do
        [ -d "$root/$d" ] || echo "the reference's layout names $d/, which is not there"
    done
    sed -n 's|^  \([a-z][a-z0-9_-]*\)/ .*|\1|p' "$tmp/ref-layout" | while read -r d; do
        [ -d "$root/bench/$d" ] || echo "the reference's layout names bench/$d/, which is not there"
    done
    for f in "$root"/scripts/*; do
        f=$(basename "$f")
        grep -qF "$f" "$tmp/ref-layout" || echo "scripts/$f is not in the reference's layout"
    done
    for p in "$build"/bench/speedlab*; do
        [ -f "$p" ] && [ -x "$p" ] || continue
        p=$(basename "$p")
        grep -qE "(^|[^a-z-])$p([^a-z-]|$)" "$tmp/ref-layout" ||
            echo "the program $p is not in the reference's layout"
    done
    # bench/README.md: each floor's files under its name.
    for f in "$root"/bench/*/*.c "$root"/bench/*/*.cc; do
        [ -e "$f" ] || continue
        name=$(basename "$f") floor=$(basename "$(dirname "$f")")
        awk -v floor="$floor/" -v name="$name" '
            /^[a-z]+\/ / { at = $1 }
            { n = split($0, w, /[^A-Za-z0-9_.]+/); for (i = 1; i <= n; i++) if (w[i] == name) { seen = 1; if (at == floor) here = 1 } }
            END { exit !(seen && here) }' "$tmp/bench-layout" ||
            echo "bench/$floor/$name is not under $floor/ in bench/README.md"
    done
    grep -oE '[a-z_]+\.(c|cc)\b' "$tmp/bench-layout" | sort -u | while read -r name; do
        ls "$root"/bench/*/"$name" >/dev/null 2>&1 || ls "$root/bench/$name" >/dev/null 2>&1 ||
            echo "bench/README.md names $name, which is not in bench/"
    done
}

# The layout texts against the tree: main's pass; a planted folder, script
# and program that no text names, and a file moved to another floor, fail.
case_layout_text() {
    build=$1
    layout_unnamed "$top" "$build" >"$tmp/unnamed"
    [ ! -s "$tmp/unnamed" ] && ok "the reference's and bench/README.md's layouts name every folder, script, program and bench/ file" ||
        fail "the layout texts: $(tr '\n' ';' <"$tmp/unnamed")"
    plant=$tmp/plant
    mkdir -p "$plant/docs" "$plant/bench" "$plant/scripts" "$plant/build/bench"
    cp "$top/docs/reference.md" "$plant/docs/"
    cp "$top/bench/README.md" "$plant/bench/"
    for d in "$top"/*/; do mkdir -p "$plant/$(basename "$d")"; done
    for f in "$top"/bench/*/*.c "$top"/bench/*/*.cc "$top"/scripts/*; do
        [ -e "$f" ] || continue
        rel=${f#"$top"/}; mkdir -p "$plant/$(dirname "$rel")"; : >"$plant/$rel"
    done
    # (The planted names, built here: no path in this file names them.)
    script=unnamed.sh moved=noise.c
    mkdir -p "$plant/stray"
    : >"$plant/scripts/$script"
    printf '#!/bin/sh\n' >"$plant/build/bench/speedlab-unnamed" && chmod +x "$plant/build/bench/speedlab-unnamed"
    mv "$plant/bench/measure/$moved" "$plant/bench/report/$moved"
    layout_unnamed "$plant" "$plant/build" >"$tmp/planted"
    for want in "folder stray/ is not" "scripts/$script is not" "program speedlab-unnamed is not" \
                "bench/report/$moved is not under report/"; do
        expect_in "$tmp/planted" "$want" "planted: $want"
    done
}
