#!/bin/sh
# mca.sh - each variant's hot loop as compiled, analysed statically: the
# file compiled to assembly with the build's own command, its hot loop
# found (below), and llvm-mca's model of this machine's CPU run over it
# to predict the cycles one iteration takes and what binds them. The
# bench puts the prediction beside the cycles it measured (mca.csv in the
# build folder; bench/report/mca_report.c).
#
# usage: scripts/mca.sh BUILD_DIR [solutions|exercises] [OUT.csv]
# (OUT written under a temporary name, then renamed; else stdout).
#
# The hot loop: of the backward jumps in the file (a loop from a label to
# the jump back to it), the one with the most lanes of the kernels'
# limiting instructions (divides; multiplies and FMAs; 64-bit integer
# multiplies), and of those the shortest (the innermost). Branches inside
# it are taken as if every instruction ran: an upper bound on its work.
# One row per file: file (under the tree), the loop's label, its
# instructions, lanes of each limiting class per iteration, llvm-mca's
# cycles per iteration (simulated, loop-carried dependencies included)
# and its block throughput (ports only), the resource most used and the
# instruction using it most, the CPU model, what was not analysed, and
# the loop's vector instructions on zmm, ymm and xmm registers (an
# instruction counted at its widest). The bench divides each count by
# the rate its probe measured at that width: a bound the model misses
# where it issues 512-bit instructions at the 256-bit rate (llvm-mca 19
# on Zen 4), and one that differs by width (an Intel core: 2 zmm xors a
# cycle, 3 ymm).
# SPEEDLAB_LLVM_MCA names the llvm-mca to use (else the newest found).
# Exit: 0, 2 on bad usage or no llvm-mca.
set -u
[ $# -ge 1 ] && [ $# -le 3 ] && [ -f "$1/compile_commands.json" ] || {
    echo "usage: $0 BUILD_DIR [solutions|exercises] [OUT.csv] (a configured build folder)" >&2
    exit 2
}
build=$(cd "$1" && pwd)
tree=${2:-solutions}
if [ $# -eq 3 ]; then
    out=$3
    sh "$0" "$1" "$tree" >"$out.part" && mv "$out.part" "$out"
    exit
fi
mca=${SPEEDLAB_LLVM_MCA:-}
for v in 19 18 17 16 15 14 ""; do
    [ -z "$mca" ] || break
    command -v "llvm-mca${v:+-$v}" >/dev/null 2>&1 && mca="llvm-mca${v:+-$v}"
done
[ -n "$mca" ] || {
    echo "mca: no llvm-mca: apt-get install llvm (Debian/Ubuntu; llvm-19 knows the newest CPUs)" >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
work=$(mktemp -d /tmp/speedlab-mca.XXXXXX)
trap 'rm -rf "$work"' EXIT
# llvm-mca models the CPU it runs on (-mcpu=native), which it names.
cpu=$("$mca" --version 2>/dev/null | awk '/Host CPU:/ { print $3; exit }')
cpu=${cpu:-native}

echo "kernel,variant,class,loop,instructions,lanes,cycles_per_iteration,block_rthroughput,bound,resource,resource_cycles,instruction,chain,cpu,note,zmm,ymm,xmm"
# compile_commands.json: CMake writes "directory", "command" and "file"
# each on a line of its own.
awk -v tree="$tree" '
    /"directory":/ { d = $0; sub(/^[^:]*: *"/, "", d); sub(/",? *$/, "", d) }
    /"command":/ { c = $0; sub(/^[^:]*: *"/, "", c); sub(/",? *$/, "", c) }
    /"file":/ { f = $0; sub(/^[^:]*: *"/, "", f); sub(/",? *$/, "", f)
        if (c ~ ("-DSPEEDLAB_TREE=" tree " ") && f ~ ("/" tree "/[^/]+/[^/]+[.]c$"))
            print d "\t" f "\t" c }' "$build/compile_commands.json" >"$work/files"

# First every file to assembly, with the build's own command.
while IFS="$(printf '\t')" read -r dir file cmd; do
    rel=${file#*/$tree/}
    s="$work/$(echo "$rel" | tr / :).s"
    asm_cmd=$(echo "$cmd" | sed -e 's/ -o [^ ]*/ /' -e 's/ -c / -S /' -e "s|\$| -o '$s'|")
    (cd "$dir" && eval "$asm_cmd") 2>/dev/null || rm -f "$s"
    echo "$rel" >>"$work/rels"
done <"$work/files"

# One row per kernel of the file's folder: llvm-mca over the hot loop of
# class $3 in $2's assembly, for the file $1 (another file's loop when
# the call goes there: note $4).
analyse() {
    body="$work/body.s"
    rm -f "$body"
    found=$(awk -v want="$3" -v out="$body" -f "$here/hot_loop.awk" "$2")
    [ -n "$found" ] || return 1
    set -- "$1" "$2" "$3" "$4" $found
    vectors=$(awk '/%zmm/ { z++; next } /%ymm/ { y++; next } /%xmm/ { x++ }
                   END { printf "%d,%d,%d", z, y, x }' "$body")
    "$mca" -mcpu=native -iterations=100 -bottleneck-analysis "$body" >"$work/mca.out" 2>&1 || {
        for k in $(kernels_of "$1"); do
            echo "$k,$(variant_of "$1"),$3,$5,$6,$7,,,,,,,,$cpu,llvm-mca failed: $(head -1 "$work/mca.out" | tr , ' '),$vectors"
        done
        return 0
    }
    for k in $(kernels_of "$1"); do
    awk -v row="$k,$(variant_of "$1"),$3,$5,$6,$7" -v cpu="$cpu" -v note="$4" -v vectors="$vectors" '
        /^Iterations:/ { iters = $2 }
        /^Total Cycles:/ { cycles = $3 }
        /^Block RThroughput:/ { rt = $3 }
        /^\[[0-9.]+\] +- / { name[$1] = $3 }
        /\+----< *[0-9]+\./ && chain == "" { chain = $3 }
        /^Resource pressure per iteration:/ { state = 1; next }
        state == 1 { ncol = split($0, head); state = 2; next }
        state == 2 { split($0, v)
                     for (i = 1; i <= ncol; i++) if (v[i] != "-" && v[i] + 0 > best) { best = v[i] + 0; res = name[head[i]] }
                     state = 3; next }
        /^Resource pressure by instruction:/ { state = 4; next }
        state == 4 { state = 5; next }
        state == 5 && NF > ncol {
            # Columns 1..ncol: pressures; the rest: the instruction.
            for (i = 1; i <= ncol; i++) if (name[head[i]] == res && $i != "-" && $i + 0 > most) {
                most = $i + 0; ins = $(ncol + 1) }
        }
        END { per = iters > 0 ? cycles / iters : 0
              printf "%s,%.3f,%s,%s,%s,%.2f,%s,%s,%s,%s,%s\n", row, per, rt,
                     (per <= 1.15 * rt ? "ports" : "latency"), res, best, ins, chain, cpu, note,
                     vectors }' "$work/mca.out"
    done
}

# The kernels a folder's files serve (one folder may serve two), by
# the names its problem files give; a file's variant is its name.
kernels_of() {
    sed -n 's/^ *\.name = "\([a-z_0-9]*\)".*/\1/p' "$top/kernels/${1%%/*}"/*_problem.c
}
variant_of() {
    v=${1##*/}
    echo "${v%.c}"
}

# Then each file and class: its own loop, or, when it has none of that
# class, the loop of the file in its folder that defines a function it
# calls (threads.c calling simd.c's row).
while read -r rel; do
    s="$work/$(echo "$rel" | tr / :).s"
    [ -f "$s" ] || continue
    for class in div fma mul64; do
        analyse "$rel" "$s" "$class" "" && continue
        for callee in $(awk '$1 ~ /^callq?$/ { sub(/@.*/, "", $2); print $2 }' "$s" | sort -u); do
            for other in "$work/${rel%%/*}":*.s; do
                [ "$other" != "$s" ] && grep -q "^$callee:" "$other" || continue
                via=${other##*:}
                analyse "$rel" "$other" "$class" "via ${via%.s}'s $callee" && break 2
            done
        done
    done
done <"$work/rels"
