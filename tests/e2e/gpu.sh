#!/bin/sh
# gpu.sh - end-to-end: lesson 5: the breakdown, honest labels, the crossover, staged variants.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# Lesson 5: the staged offload files, the GPU breakdown with its honest
# label, the crossover, and the CUDA variants skipped with a reason.
case_gpu() {
    bench=$1; runner=$2
    if ! nvidia-smi -L >/dev/null 2>&1; then
        expect_rc 4 "gpu_check.sh without a GPU stops at once" sh "$top/scripts/gpu_check.sh" --quick
        one_line "gpu_check.sh without a GPU"
    fi
    # GCC's offload table would make a PIE link warn of text relocations
    # on every build: the programs are plain executables, without them.
    for prog in "$bench" "$runner" "$(dirname "$bench")/speedlab-check"; do
        readelf -d "$prog" | grep -q TEXTREL && fail "$(basename "$prog") has text relocations" ||
            ok "$(basename "$prog"): no text relocations"
    done
    res="$tmp/results"
    expect_rc 0 "bench ${e2e_image} with the breakdown" "$bench" --quick --kernel ${e2e_image} \
        --size 256 --threads 2 --reps 2 --min-time 0.01 --results "$res"
    run="$res/$(readlink "$res/latest")"
    csv="$run/breakdown.csv"
    [ -s "$csv" ] && ok "breakdown.csv written" || { fail "breakdown.csv missing"; return; }
    for step in first_target_region to_device kernel to_host release \
                staged_end_to_end per_call_end_to_end best_cpu; do
        grep -q ",$step," "$csv" && ok "breakdown has $step" || fail "breakdown lacks $step"
    done
    expect_in "$csv" "\"$e2e_image 256x256\",$e2e_image,256,0,262144," "image bytes back: 256*256*4"
    if [ "$(grep -c . "$run/crossover-${e2e_image}.dat")" -eq 4 ]; then
        ok "crossover sweep: 64, 128, 256"
    else
        fail "crossover-${e2e_image}.dat: $(cat "$run/crossover-${e2e_image}.dat")"
    fi
    if grep -q ',device,' "$csv"; then
        ok "a device is present: labels checked on the device run"
    else
        grep ',kernel,' "$csv" | grep -q ',host fallback,' &&
            ok "kernel step labelled host fallback" || fail "kernel step not labelled host fallback"
        expect_not_in "$csv" ',device,' "no figure claims the device"
        expect_in "$run/summary.md" "n/a (host fallback)" "no GPU speedup claimed in the summary"
        expect_match "$run/summary.md" '^\|  \| gpu \| host fallback \|' "the headline's threads: host fallback"
        expect_not_in "$run/summary.md" "device's" "no table gives the host's threads to a device"
        expect_in "$run/summary.md" "none: the gpu variant ran on the host" "no crossover claimed"
        expect_in "$run/breakdown-gpu.gp" 'host fallback, not a GPU' "plot title says host fallback"
        expect_in "$run/speedup-${e2e_image}.dat" "host fallback\"" "speedup bar labelled host fallback"
    fi
    if command -v gnuplot >/dev/null 2>&1; then
        for f in breakdown-gpu.png crossover-${e2e_image}.png; do
            [ -s "$run/$f" ] && ok "$f plotted" || fail "$f missing or empty"
        done
    fi

    # One "best CPU" per size: with a weak study in the run (its 1-thread
    # point is a half-height image), the breakdown and the crossover take
    # the strong study's best at the gpu's own size, with its very median.
    # One schedule, static,1: the best CPU's name holds a comma, which
    # breakdown.csv must quote.
    expect_rc 0 "bench ${e2e_image} with a weak study" "$bench" --quick --kernel ${e2e_image} \
        --size 256 --threads 1,2 --schedule static,1 --reps 2 --min-time 0.01 --results "$res"
    run="$res/$(readlink "$res/latest")"
    grep -q ',weak,' "$run/results.csv" && ok "the run has a weak study" || fail "no weak study"
    # The configuration is the last field, quoted (static,1 has a comma).
    line=$(grep "^\"$e2e_image [0-9]*x[0-9]*\",$e2e_image,.*,best_cpu," "$run/breakdown.csv")
    secs=$(echo "$line" | cut -d, -f7)
    name=$(echo "$line" | sed -n 's/.*,"\([^"]*\)"$/\1/p')
    case $name in
    */weak|"") fail "best CPU is '$name'" ;;
    *) ok "best CPU from the strong study: $name" ;;
    esac
    # Its median in results.csv: tree/kernel/variant[/threads:T][/schedule:S].
    # results.csv quotes its schedule column: hide that comma from awk. On a
    # busy machine the name ends " (disturbed)": a label, not part of the key.
    median=$(sed 's/"\([a-z]*\),\([0-9]*\)"/"\1;\2"/' "$run/results.csv" |
             awk -F, -v want="${name% (disturbed)}" 'NR > 1 && $26 == "strong" {
                 n = $1 "/" $2 "/" $3; if ($4 > 0) n = n "/threads:" $4
                 s = $7; gsub(/"/, "", s); sub(/;/, ",", s); if (s != "") n = n "/schedule:" s
                 if (n == want) print $11 }')
    [ -n "$median" ] && [ "$median" = "$secs" ] &&
        ok "breakdown's best CPU is that configuration's median ($secs s)" ||
        fail "breakdown's best CPU $secs s, the table's median '$median'"
    expect_in "$run/crossover-${e2e_image}.gp" "cpu_name = \"$name\"" "the crossover names the same best CPU"
    last=$(tail -1 "$run/crossover-${e2e_image}.dat" | awk '{ print $4 }')
    awk -v a="$last" -v b="$secs" 'BEGIN { d = a - 1000 * b; exit !(d * d < 1e-6 * a * a) }' &&
        ok "the crossover's last point is the same median" ||
        fail "crossover's best CPU at 256: $last ms, the table's $secs s"

    expect_rc 0 "bench ${e2e_example}: staged files and ${e2e_example} from an array" "$bench" --quick --kernel ${e2e_example} \
        --size 2000003 --threads 2 --reps 2 --min-time 0.01 --results "$res"
    run="$res/$(readlink "$res/latest")"
    expect_in "$run/breakdown.csv" "\"$e2e_example, array of 1e+07\",$e2e_example,10000000,80000000,8," \
        "${e2e_example} from an array: 8 bytes per element in, one double out"
    for v in gpu_v1 gpu_v2 gpu gpu_v4; do
        grep -q "^solutions,${e2e_example},$v," "$run/results.csv" && ok "bench timed $v" || fail "bench lacks $v"
    done

    # The runner shows the rungs of the kernel's own lesson, and says how
    # to see lesson 5's stages; --all shows them.
    expect_rc 0 "runner ${e2e_example}" "$runner" ${e2e_example} --min-time 0.01 --size 100003
    expect_not_in "$tmp/out" "^solutions +gpu_v[0-9]" "by default, no stage rows"
    expect_in "$tmp/out" "gpu stages (gpu_v1, gpu_v2, gpu_v4) are left out: add --all" \
        "the runner says which stages it left out and how to see them"
    expect_rc 0 "runner ${e2e_example} --all" "$runner" ${e2e_example} --all --min-time 0.01 --size 100003
    expect_not_in "$tmp/out" "are left out" "--all: nothing left out"
    for v in gpu_v1 gpu_v2 gpu_v4; do
        grep -qE "^solutions +$v .*(host fallback|device)" "$tmp/out" &&
            ok "runner shows $v and where it ran" || fail "runner lacks $v"
    done
    grep -qE "right; host, not a GPU +host fallback" "$tmp/out" || grep -q " device$" "$tmp/out" &&
        ok "runner: a host fallback is not a GPU figure" || fail "runner verdict for host fallback"

    # CUDA: built (nvcc found) and no device: skipped with a reason, exit 4
    # when asked for by name; not built: an unknown variant, exit 2.
    "$bench" --quick --kernel ${e2e_example} --variant cuda --reps 2 --min-time 0.01 \
        --results "$tmp/cuda" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $rc in
    4) expect_in "$tmp/err" "cannot run here: no CUDA device" "--variant cuda, no device: exit 4"
       one_line "--variant cuda"
       [ ! -e "$tmp/cuda/latest" ] && ok "nothing written" || fail "a run folder was written" ;;
    2) expect_in "$tmp/err" "unknown variant 'cuda'" "no nvcc: cuda is not a variant" ;;
    0) ok "--variant cuda ran on a CUDA device" ;;
    *) fail "--variant cuda: exit $rc" ;;
    esac
}

# Lesson 5.9 on LLVM's host offload device (OFFLOAD=host: clang 19): the
# "device" has memory of its own, so every map copies, as to a GPU. Both
# trees right there, and named so; the missing map(from:) exhibit WRONG
# (make fails with its exit 3); the runtime's own table of maps and
# copies (LIBOMPTARGET_INFO) naming the array; and a planted step-7.6
# slip (kernels/<k>/planted/unmapped) right on the host fallback of the
# default build (BUILD, this test's argument) yet WRONG here.
case_host_offload() {
    brief_timing
    default_build=$1
    # The folder lesson 5.9's `make ... OFFLOAD=host` builds in (GNUmakefile),
    # kept between runs as build/racecheck is: a second make test, or the
    # participant's first make missing-map OFFLOAD=host, finds it built.
    b="$top/build/clang-19-host-offload"
    # Its runtime is downloaded and unpacked: where that cannot be, say why.
    host_offload_ready "$tmp/omp" || { echo "skipped: $(tail -1 "$tmp/omp.err")"; exit 77; }
    expect_rc 0 "make check OFFLOAD=host" make -C "$top" check OFFLOAD=host BUILD="$b"
    cp "$tmp/out" "$tmp/check.out"
    expect_in "$tmp/check.out" "offload        host offload device" "configure names the host offload device"
    expect_match "$tmp/check.out" "^[0-9]+ passed, 0 failed$" "every lesson right on a device that copies"
    expect_match "$tmp/check.out" "^lesson 5 .* right \(gpu ones on the host offload device: copies like a GPU\)" \
        "lesson 5's line names the device"
    expect_not_in "$tmp/check.out" "host fallback" "no lesson says host fallback"

    expect_rc 2 "make missing-map OFFLOAD=host fails" make -C "$top" missing-map OFFLOAD=host BUILD="$b" \
        RESULTS="$tmp/results" ARGS="--size 1000000 --reps 2"
    cat "$tmp/out" "$tmp/err" >"$tmp/map.out"
    expect_in "$tmp/map.out" "missing-map] Error 3" "with the runner's exit 3 (a wrong answer)"
    expect_match "$tmp/map.out" "^exhibits +map_alloc .*WRONG.*host offload device$" "map_alloc WRONG on the host offload device"
    expect_match "$tmp/map.out" "^exhibits +map_from .*right; host offload, not a GPU +host offload device$" \
        "map_from right, no speed verdict, not a GPU"
    # The runtime's table: the array mapped alloc, by name, and no copy of
    # it home (only on_host's 4 bytes come back).
    LIBOMPTARGET_INFO=$((0x01 | 0x20)) "$b/bench/speedlab" missing-map --size 1000 --reps 1 \
        --results "$tmp/results" >"$tmp/info.out" 2>&1
    expect_match "$tmp/info.out" "info: alloc\(terms\[0:steps\]\)\[8000\]" "LIBOMPTARGET_INFO names the alloc map"
    expect_match "$tmp/info.out" "info: from\(terms\[0:steps\]\)\[8000\]" "and the from map"
    expect_match "$tmp/info.out" "Copying data from device to host.*Size=8000, Name=terms\[0:steps\]" \
        "the from map's copy home"
    # What LLVM's runtimes leave behind a process: the plugin's device
    # image in /tmp/tmpfile_*, libomp's registration in /dev/shm, which
    # the runner's validating children (ended by _exit) left. The kit's
    # programs remove their own (common/omp_leftovers.h). The names, from
    # the runtimes' own calls.
    if command -v strace >/dev/null 2>&1; then
        strace -f -qq -e trace=openat -o "$tmp/trace" "$b/bench/speedlab" ${e2e_example} \
            --size 100003 --reps 1 --results "$tmp/results" >/dev/null 2>&1
        made=$(grep -oE '"(/tmp/tmpfile_|/dev/shm/__KMP_REGISTERED_LIB_)[A-Za-z0-9_]*"' "$tmp/trace" |
            tr -d '"' | sort -u)
        images=$(echo "$made" | grep -c tmpfile_); registered=$(echo "$made" | grep -c __KMP_)
        [ "$images" -ge 1 ] && [ "$registered" -ge 2 ] &&
            ok "the runtimes wrote $images device image(s), $registered registration(s)" ||
            fail "strace saw $images device image(s), $registered registration(s): $(tail -2 "$tmp/trace")"
        left=$(for f in $made; do [ -e "$f" ] && echo "$f"; done)
        [ -z "$left" ] && ok "and left none of them" || fail "left: $left"
    else
        echo "skipped: no strace to see the runtimes' files with"
    fi

    # A participant's slip, right where maps copy nothing.
    expect_rc 0 "the planted unmapped tree on the host fallback: the bug hides" \
        sh "$top/scripts/check.sh" "$default_build" unmapped
    expect_rc 1 "the planted unmapped tree on the host offload device" \
        sh "$top/scripts/check.sh" "$b" unmapped
    for file in "$top"/kernels/*/planted/unmapped/*.c; do
        variant=$(basename "$file" .c)
        folder=$(basename "$(dirname "$(dirname "$(dirname "$file")")")")
        names=$(sh "$top/scripts/kernels.sh" | awk -v f="$folder" '$3 == f { printf "%s%s", s, $1; s = "|" }')
        expect_match "$tmp/out" "^lesson [0-9]+ .*WRONG: unmapped/($names)/$variant" \
            "make check names the planted $folder/$variant.c"
    done
}
