#!/bin/sh
# bundle.sh - end-to-end: the GPU bundle (make gpu-bundle) is self-contained
# and runs here through the host fallback, labelled so.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# The C library's own files and the driver: the only needs a bundle may
# leave to the node.
bundle_system_lib() {
    case $1 in
    linux-vdso.so* | ld-linux* | libc.so* | libm.so* | libdl.so* | libpthread.so* | \
    librt.so* | libutil.so* | libresolv.so* | libcuda.so*) return 0 ;;
    esac
    return 1
}

# Build the bundle into $tmp, check what it needs, run it without a GPU.
# build: the CMake folder the bundle is built in (kept between runs).
case_bundle() {
    build=$1
    bundle="$tmp/gpu-bundle"
    BUILD="$build" sh "$top/scripts/gpu_bundle.sh" "$bundle" >"$tmp/make.out" 2>"$tmp/make.err"
    rc=$?
    if [ "$rc" -eq 2 ]; then
        echo "skipped: the offload compiler cannot be installed here: $(tail -1 "$tmp/make.err")"
        exit 77
    fi
    if [ "$rc" -ne 0 ]; then
        fail "make gpu-bundle: exit $rc"
        tail -n 15 "$tmp/make.err" "$tmp/make.out" >&2
        return
    fi
    ok "the bundle built"
    grep -q 'offload *nvptx' "$tmp/make.out" && ok "offload code generated for nvptx" ||
        fail "the bundle's build does not offload: $(grep offload "$tmp/make.out")"
    # For the node's CPU, not this one's (a folder CMake configured again
    # from nothing once dropped the setting).
    [ "$(grep -c 'SIMD ISA' "$tmp/make.out")" = 1 ] && grep -q 'SIMD ISA.*-march=x86-64-v3' "$tmp/make.out" &&
        ok "configured once, kernels for x86-64-v3" ||
        fail "the bundle's ISA: $(grep 'SIMD ISA' "$tmp/make.out" | tr '\n' ' ')"

    size=$(du -sm "$bundle" | cut -f1)
    [ "$size" -lt 60 ] && ok "bundle is $size MiB (< 60)" || fail "bundle is $size MiB"
    # The node sizes and the profiled kernel, as the kernels declare them.
    want=$(cat "$top"/kernels/*/gpu-node.txt | grep -c '^size ')
    [ "$want" -gt 0 ] && [ "$(grep -c '^size [a-z0-9_]*=[0-9e]*$' "$bundle/node.txt")" -eq "$want" ] &&
        ok "node.txt: the $want node sizes the kernels declare" || fail "node.txt: $(cat "$bundle/node.txt")"
    for f in run.sh offload_profile.sh README BUILD bin/speedlab-bench-solutions bin/speedlab \
             lib/libgomp.so.1 lib/libgomp-plugin-nvptx.so.1; do
        [ -s "$bundle/$f" ] && ok "bundle has $f" || fail "bundle lacks $f"
    done
    # The second offload compiler: wherever its packages install (they do
    # on Debian 12 and Ubuntu 24.04) and a CUDA toolkit is there for its
    # device code (the build found nvcc), the bundle carries it; else
    # BUILD says it does not.
    clang=$(sed -n 's/^clang_label: //p' "$bundle/BUILD")
    if command -v clang-19 >/dev/null 2>&1 && grep -q '^  CUDA .*built by nvcc' "$tmp/make.out"; then
        [ "$clang" = clang-19 ] && ok "BUILD: clang_label clang-19" || fail "BUILD: clang_label '$clang'"
        for f in bin/speedlab-bench-clang clang-runtime.tar.xz; do
            [ -s "$bundle/$f" ] && ok "bundle has $f" || fail "bundle lacks $f"
        done
        expect_match "$bundle/BUILD" "OpenMP offload 2: .*clang version 19.*nvptx sm_80[+]sm_90" \
            "BUILD names clang's offload targets"
        # CUDA 13's ptxas: both images (sm_80, sm_90) get the header clang
        # 19's runtime reads, and BUILD says so.
        expect_match "$bundle/BUILD" "^cubin headers: 2 of clang's device images rewritten" \
            "BUILD says clang's cubin headers were rewritten"
    else
        expect_in "$bundle/BUILD" "OpenMP offload 2: not included" "BUILD says clang is not in it"
    fi
    n=$(wc -l <"$bundle/README")
    [ "$n" -eq 5 ] && ok "README: five lines" || fail "README: $n lines"

    # What each file needs: the bundle's lib/ or the C library, nothing
    # else; clang's bench and runtime: the packed lib-clang/ (unpacked here
    # as run.sh unpacks it).
    mkdir -p "$tmp/unpacked"
    [ -z "$clang" ] || xz -dc "$bundle/clang-runtime.tar.xz" | tar -xf - -C "$tmp/unpacked" ||
        fail "clang-runtime.tar.xz does not unpack"
    for f in "$bundle"/bin/* "$bundle"/lib/* "$tmp"/unpacked/lib-clang/*; do
        [ -f "$f" ] || continue
        fname=$(basename "$f")
        libs="$bundle/lib"
        case $f in
        */speedlab-bench-clang | */lib-clang/*) libs="$tmp/unpacked/lib-clang" ;;
        esac
        readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$tmp/needed"
        while read -r lib; do
            [ -f "$libs/$lib" ] || bundle_system_lib "$lib" ||
                fail "$fname needs $lib, neither in the bundle nor the C library"
        done <"$tmp/needed"
        env -i LD_LIBRARY_PATH="$libs" /usr/bin/ldd "$f" >"$tmp/ldd" 2>&1
        if grep -q 'not found' "$tmp/ldd"; then
            fail "$fname: $(grep 'not found' "$tmp/ldd" | head -1)"
        fi
        while read -r lib arrow path rest; do
            [ "$arrow" = "=>" ] || continue
            case $(realpath "$path") in
            "$(realpath "$libs")"/*) ;;
            *) bundle_system_lib "$lib" || fail "$fname resolves $lib to $path" ;;
            esac
        done <"$tmp/ldd"
    done
    ok "every library resolves to the bundle or the C library (readelf, ldd under env -i)"
    for f in "$bundle"/bin/*; do
        want='$ORIGIN/../lib'
        [ "$(basename "$f")" = speedlab-bench-clang ] && want='$ORIGIN/../lib-clang'
        [ "$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" = "$want" ] &&
            ok "$(basename "$f"): RUNPATH $want" || fail "$(basename "$f"): RUNPATH, not $want"
    done
    need=$(sed -n 's/^glibc_needed: //p' "$bundle/BUILD")
    have=$(getconf GNU_LIBC_VERSION | sed 's/glibc //')
    newest=$(for f in "$bundle"/bin/* "$bundle"/lib/* "$tmp"/unpacked/lib-clang/*; do
        [ -f "$f" ] && objdump -T "$f"; done |
        grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
    [ -n "$need" ] && [ "$need" = "$newest" ] && ok "BUILD names the newest GLIBC needed: $need" ||
        fail "BUILD says GLIBC '$need', the files need $newest"
    [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | tail -1)" = "$have" ] &&
        ok "GLIBC $need is no newer than this machine's $have" || fail "GLIBC $need > $have"
    expect_in "$tmp/make.out" "GLIBC needed: $need" "make gpu-bundle prints the GLIBC version"

    # No GPU here: without --host-ok, one line and exit 4, nothing written.
    expect_rc 4 "run.sh without --host-ok" env -i PATH=/usr/bin:/bin "$bundle/run.sh" \
        --results "$tmp/none"
    one_line "run.sh without a GPU"
    [ ! -e "$tmp/none" ] && ok "nothing written" || fail "run.sh wrote $tmp/none"
    expect_rc 4 "the bundle's bench with --require-device" env -i \
        "$bundle/bin/speedlab-bench-solutions" --require-device --quick --kernel ${e2e_example} \
        --results "$tmp/none"
    one_line "the bench's --require-device"

    # --host-ok: a complete run folder, every gpu row labelled host fallback,
    # with nothing from this machine but the C library (env -i).
    # --size KERNEL=...: a kernel's own size wins over --quick for that kernel.
    # (The seeded kernel's quick size took a second a call here, a third of
    # GCC's run: a tenth of it validates as well. e2e_smoke: the kernels'
    # own smoke sizes.)
    mkdir -p "$tmp/tmpdir"
    # shellcheck disable=SC2086
    expect_rc 0 "run.sh --host-ok" env -i PATH=/usr/bin:/bin TMPDIR="$tmp/tmpdir" \
        "$bundle/run.sh" --host-ok --size ${e2e_example}=3000001 --size ${e2e_seeded}=10000019 \
        $e2e_smoke --results "$tmp/results"
    [ -z "$(ls -A "$tmp/tmpdir")" ] && ok "run.sh leaves no temporary folder" ||
        fail "run.sh left $(ls "$tmp/tmpdir")"
    run="$tmp/results/$(readlink "$tmp/results/latest")"
    for f in bench.json results.csv samples.csv summary.md index.html breakdown.csv \
             crossover-${e2e_image}.dat speedup-${e2e_example}.dat speedup-${e2e_image}.dat \
             speedup-${e2e_image}.dat speedup-${e2e_seeded}.dat image-${e2e_image}.bin; do
        [ -s "$run/$f" ] && ok "run folder has $f" || fail "run folder lacks $f"
    done
    sed 's/"[^"]*"/q/g' "$run/results.csv" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["variant"] ~ /^gpu/ { n++; if ($col["ran_on"] != "host fallback") bad++ }
        END { printf "%d %d\n", n, bad }' >"$tmp/gpu_rows"
    read -r rows bad <"$tmp/gpu_rows"
    [ "$rows" -ge 7 ] && [ "${bad:-0}" -eq 0 ] &&
        ok "all $rows gpu rows say host fallback" || fail "gpu rows: $rows, not host fallback: $bad"
    # The variant list: the baseline, threads_simd and the gpu stages only.
    sed 's/"[^"]*"/q/g' "$run/results.csv" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { print $col["kernel"], $col["variant"], $col["size"] }' | sort -u >"$tmp/rows"
    grep -qE ' (simd|threads) ' "$tmp/rows" && fail "rows outside the variant list: $(grep -E ' (simd|threads) ' "$tmp/rows" | head -2)" ||
        ok "only the listed variants (and the scalar baseline) were planned"
    [ "$(awk -v k="$e2e_example" '$1 == k { print $3 }' "$tmp/rows" | sort -u)" = 3000001 ] &&
        ok "--size ${e2e_example}=3000001 applied to every ${e2e_example} row" || fail "${e2e_example} sizes: $(awk -v k="$e2e_example" '$1 == k' "$tmp/rows")"
    [ "$(awk -v k="$e2e_image" '$1 == k { print $3 }' "$tmp/rows" | sort -u)" = 512 ] &&
        ok "the other kernels kept the quick size" || fail "${e2e_image} sizes: $(awk -v k="$e2e_image" '$1 == k' "$tmp/rows")"
    # Both compilers' rows, each labelled with its compiler, every gpu row
    # validated through the host fallback.
    if [ -n "$clang" ]; then
        gccl=$(sed -n 's/^gcc_label: //p' "$bundle/BUILD")
        sed 's/"[^"]*"/q/g' "$run/results.csv" | awk -F, -v a="$gccl" -v b="$clang" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $col["variant"] ~ /^gpu/ && $col["valid"] == "yes" && $col["ran_on"] == "host fallback" {
                n[$col["tree"]]++ }
            END { printf "%d %d\n", n[a], n[b] }' >"$tmp/per_compiler"
        read -r ngcc nclang <"$tmp/per_compiler"
        [ "$ngcc" -ge 7 ] && [ "$nclang" -eq "$ngcc" ] &&
            ok "$ngcc valid gpu rows labelled $gccl and $nclang labelled $clang, all host fallback" ||
            fail "valid host-fallback gpu rows: $gccl $ngcc, $clang $nclang"
        expect_in "$run/summary.md" "${e2e_image} ($clang) " "the headline names clang's rows"
        # clang's half times no scalar (--no-baseline): GCC's judges its rows.
        [ -z "$(csv_get "$run/results.csv" median_s tree="$clang" variant=scalar)" ] &&
            ok "no scalar row of $clang's: its rows' speedups are over $gccl's scalar" ||
            fail "$clang's half timed a scalar baseline"
        # The loops' other shapes (step 5.7), with each compiler; clang 16's
        # combined "target teams loop" once skipped its loop on the host.
        for shape in gpu_rows gpu_loop gpu_teams; do
            for cc in "$gccl" "$clang"; do
                valid=$(csv_get "$run/results.csv" valid tree="$cc" variant=$shape kernel=${e2e_image})
                [ "$valid" = yes ] && ok "$cc's ${e2e_image} $shape is valid" ||
                    fail "$cc's ${e2e_image} $shape: valid '$valid'"
            done
        done
        expect_match "$run/speedup-${e2e_image}.dat" "^\"gpu\".*\"$clang, host fallback(, disturbed)?\"" \
            "the speedup figure labels clang's bar, a host fallback whether disturbed or not"
        expect_match "$tmp/out" "^  ${e2e_image} +$clang +gpu .*host fallback +valid" \
            "run.sh lists clang's gpu rows"
        # clang's runtime profile, read by the bundle's offload_profile.sh:
        # nothing offloads here, and the file says so (on a GPU: copies
        # and kernel per line of the solution's gpu code).
        expect_match "$tmp/out" "^== where $clang's [a-z_]+ gpu variant spent its time \(profile-clang.txt\)" \
            "run.sh reads clang's offload profile"
        expect_in "$run/profile-clang.txt" "no breakdown: $clang's gpu variant reached no offload device" \
            "profile-clang.txt: no breakdown on the host, and why"
    fi
    expect_in "$run/summary.md" "host fallback: CPU code, no GPU here" "the headline says host fallback"
    expect_in "$run/summary.md" "none: the gpu variant ran on the host" "no crossover claimed"
    expect_in "$tmp/out" "where the gpu variants ran" "run.sh lists where each gpu variant ran"
    expect_in "$run/summary.md" "Not drawn here" "the report says its figures are drawn later"
    # The bench refusing an argument (exit 2): nothing of the run before
    # is shown as this one's.
    expect_rc 2 "run.sh with a size the bench refuses" env -i PATH=/usr/bin:/bin "$bundle/run.sh" \
        --host-ok --size nosuchkernel=5 --results "$tmp/results"
    expect_not_in "$tmp/out" "run folder:|where the gpu variants ran" "run.sh shows no earlier run after a refusal"
    expect_in "$tmp/err" "the bench wrote no run (exit 2" "run.sh says no run was written"

    # The login node's half: plot.sh draws what the page already links.
    if command -v gnuplot >/dev/null 2>&1; then
        expect_rc 0 "plot.sh on the bundle's run" sh "$top/plots/plot.sh" "$run"
        missing=0
        for src in $(grep -o 'src="[^"]*"' "$run/index.html" | sed 's/src="//;s/"$//'); do
            [ -s "$run/$src" ] || { fail "index.html shows $src, not drawn"; missing=1; }
        done
        [ "$missing" = 0 ] && ok "every figure index.html links was drawn"
        [ -s "$run/breakdown-gpu.png" ] && ok "breakdown-gpu.png drawn" || fail "no breakdown-gpu.png"
    fi
}

# Building a bundle again over one that came back from a GPU node: what
# the old one holds that the build does not write (its results/, a note)
# is kept in the new one and named; the build's own files are the new
# ones; no old folder is left beside it (scripts/swap_in.sh).
case_bundle_keeps() {
    mkdir -p "$tmp/new/bin" "$tmp/gpu-bundle/bin" "$tmp/gpu-bundle/results/run-1"
    echo new >"$tmp/new/run.sh"; echo new >"$tmp/new/bin/speedlab"
    echo old >"$tmp/gpu-bundle/run.sh"; echo old >"$tmp/gpu-bundle/bin/speedlab"
    echo mine >"$tmp/gpu-bundle/results/run-1/results.csv"; echo mine >"$tmp/gpu-bundle/.notes"
    expect_rc 0 "swap_in over a bundle that came back" sh "$top/scripts/swap_in.sh" \
        "$tmp/new" "$tmp/gpu-bundle"
    [ "$(cat "$tmp/gpu-bundle/run.sh" "$tmp/gpu-bundle/bin/speedlab")" = "$(printf 'new\nnew')" ] &&
        ok "the build's files are the new ones" || fail "the build's files were not replaced"
    [ "$(cat "$tmp/gpu-bundle/results/run-1/results.csv" "$tmp/gpu-bundle/.notes" 2>/dev/null)" = \
      "$(printf 'mine\nmine')" ] && ok "results/ and a note kept" || fail "results/ or the note lost"
    expect_in "$tmp/out" "kept: results .notes" "the kept ones named"
    [ ! -e "$tmp/new" ] && [ -z "$(ls -d "$tmp"/gpu-bundle.old* 2>/dev/null)" ] &&
        ok "no old folder left" || fail "left: $(ls "$tmp" | tr '\n' ' ')"
    # Where nothing was there before, it is just moved in place.
    mkdir -p "$tmp/new2" && echo x >"$tmp/new2/run.sh"
    expect_rc 0 "swap_in into a fresh place" sh "$top/scripts/swap_in.sh" "$tmp/new2" "$tmp/fresh"
    [ -f "$tmp/fresh/run.sh" ] && [ ! -s "$tmp/out" ] && ok "moved, nothing said" ||
        fail "fresh: $(ls "$tmp/fresh" 2>&1) / $(cat "$tmp/out")"
}
