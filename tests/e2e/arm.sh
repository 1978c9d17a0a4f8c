#!/bin/sh
# arm.sh - end-to-end: the whole kit cross-built for aarch64
# (cmake/aarch64-linux-gnu.cmake) and its variants validated under
# qemu-user, with NEON (a Neoverse N1, standing in for Apple's cores) and
# with SVE at 256 bits (Graviton 3) and 512 bits (A64FX), a build for each:
# GCC 12 leaves Monte Carlo's loop scalar in vector-length-agnostic code
# (its omp simd reduction array has no fixed size there), and vectorises it
# with -msve-vector-bits, whose code runs only at that length.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# What the suite needs, or why it cannot run here (one line).
arm_missing() {
    for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ qemu-aarch64; do
        command -v "$tool" >/dev/null 2>&1 || { echo "no $tool"; return; }
    done
    for lib in libbenchmark.so libsqlite3.so libgomp.so.1; do
        [ -e "/usr/lib/aarch64-linux-gnu/$lib" ] || { echo "no arm64 $lib"; return; }
    done
}

# Configure and build one flavour into $1 (kept between runs) for -march=$2
# with C flags $3; the targets to build follow (none: all).
arm_build() {
    dir=$1 arch=$2 tune=$3
    shift 3
    cmake -S "$top" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$top/cmake/aarch64-linux-gnu.cmake" \
        -DSPEEDLAB_ARCH="$arch" -DCMAKE_C_FLAGS="$tune" -DSPEEDLAB_CUDA=OFF -DSPEEDLAB_MPI=OFF \
        -DSPEEDLAB_WERROR=ON >"$dir.configure.log" 2>&1 &&
        cmake --build "$dir" -j "$(nproc)" "$@" >"$dir.build.log" 2>&1
}

# Whether answer files $1 and $2 ("kernel case value hits image-hash")
# agree: counts and images exactly, values to 1e-15 relative (a few
# ulps). For a native build by another compiler than the cross one (GCC):
# Clang contracts a*b+c into one FMA in the scalar rung where GCC in ISO C
# mode does not, which moves a sum's last digit.
answers_close() {
    awk 'NR == FNR { want[FNR] = $0; n = FNR; next }
         { split(want[FNR], w); d = $3 - w[3]; d = d < 0 ? -d : d; m = w[3] < 0 ? -w[3] : w[3]
           if ($1 != w[1] || $2 != w[2] || $4 != w[4] || $5 != w[5] || d > 1e-15 * m) bad++ }
         END { exit !(bad == 0 && FNR == n) }' "$1" "$2"
}

# Every variant at the emulated sizes on one emulated CPU ($2), and the
# answers equal to this machine's ($native_answers): exactly when this
# build's compiler is GCC, as the cross compiler is.
arm_validate() {
    dir=$1 cpu=$2 label=$3
    start=$(date +%s)
    QEMU_CPU=$cpu qemu-aarch64 -L / "$dir/tests/test-solutions" --emulated >"$tmp/$label.out" 2>&1 &&
        ok "$label: every variant valid ($(grep -c 'cases, 0 wrong' "$tmp/$label.out") variants, $(($(date +%s) - start)) s)" ||
        { fail "$label: $(tail -1 "$tmp/$label.out")"; grep -v ', 0 wrong' "$tmp/$label.out" | head -5 >&2; }
    n=$(wc -l <"$native_answers")
    if ! QEMU_CPU=$cpu qemu-aarch64 -L / "$dir/tests/test-solutions" --answers >"$tmp/$label.answers" 2>&1; then
        fail "$label: no answers: $(tail -1 "$tmp/$label.answers")"
    elif [ "$native_cc" = GNU ] && cmp -s "$tmp/$label.answers" "$native_answers"; then
        ok "$label: the same $n answers as x86-64 (counts, images, sums)"
    elif [ "$native_cc" != GNU ] && answers_close "$native_answers" "$tmp/$label.answers"; then
        ok "$label: the same $n answers as x86-64 ($native_cc): counts and images, sums to 1e-15"
    else
        fail "$label: answers differ from x86-64's"; diff "$native_answers" "$tmp/$label.answers" | head -5 >&2
    fi
}

# build: the folder prefix for the three builds; native: this machine's
# test-solutions; native_cc: its compiler (CMake's id: GNU, Clang).
case_aarch64() {
    build=$1 native=$2 native_cc=${3:-GNU}
    why=$(arm_missing)
    if [ -n "$why" ]; then
        echo "skipped: the aarch64 suite cannot run here ($why): sh scripts/deps.sh cc --for-tests installs it on Debian/Ubuntu amd64"
        exit 77
    fi
    native_answers=$tmp/native.answers
    "$native" --answers >"$native_answers" || { fail "this machine's answers"; return; }
    # NEON: the whole kit (kernels, bench, runner, tests' programs).
    arm_build "$build-neon" armv8.2-a "" &&
        ok "the whole kit builds for aarch64 with NEON ($(grep -c 'Built target' "$build-neon.build.log") targets, warnings as errors)" ||
        { fail "the NEON build: $(grep -m1 -E 'error|Error' "$build-neon.configure.log" "$build-neon.build.log")"; return; }
    expect_in "$build-neon.configure.log" "SIMD ISA       NEON, 2 doubles" "the NEON build says NEON"
    # SVE: the variants and their checks (the bench's own code is the NEON
    # build's: nothing in it depends on the vector length), and at 256 bits
    # the objects the vectorisation report reads.
    for bits in 256 512; do
        vec=""; [ "$bits" = 256 ] && vec=speedlab_vecreport
        # shellcheck disable=SC2086
        arm_build "$build-sve$bits" armv8.2-a+sve -msve-vector-bits=$bits \
            --target test-solutions $vec &&
            ok "the variants build for aarch64 with $bits-bit SVE" ||
            { fail "the SVE build: $(grep -m1 -E 'error|Error' "$build-sve$bits.configure.log" "$build-sve$bits.build.log")"; return; }
        expect_in "$build-sve$bits.configure.log" "SIMD ISA       SVE, $((bits / 64)) doubles" \
            "the $bits-bit SVE build says SVE, $((bits / 64)) doubles per vector"
    done
    arm_validate "$build-neon" neoverse-n1 "NEON (Neoverse N1)"
    arm_validate "$build-sve256" max,sve-max-vq=2 "SVE 256-bit"
    arm_validate "$build-sve512" max,sve-max-vq=4 "SVE 512-bit"
    # Packed NEON or SVE arithmetic in every simd.c that asks for SIMD.
    sh "$top/scripts/vecreport.sh" "$build-neon" >"$tmp/vec-neon" 2>&1
    sh "$top/scripts/vecreport.sh" "$build-sve256" >"$tmp/vec-sve" 2>&1
    for path in "$top"/solutions/*/simd.c; do
        f=${path#"$top/"}
        grep -q 'omp .*simd' "$path" || continue
        neon=$(awk -v f="$f" '$1 == f { print $2 }' "$tmp/vec-neon")
        sve=$(awk -v f="$f" '$1 == f && $4 == "SVE" { print $2 }' "$tmp/vec-sve")
        [ "${neon:-0}" -gt 0 ] || [ "${sve:-0}" -gt 0 ] &&
            ok "$f: ${neon:-0} packed NEON, ${sve:-0} packed SVE instructions" ||
            fail "$f: no packed NEON or SVE instruction"
    done
    # Every expert rung with its own code here (x86-64) has its own code on
    # ARM too, in the NEON or the SVE build (validated above), not the
    # rung below's under its name.
    "$native" --emulated >"$tmp/native.out" 2>&1
    for k in $(awk '$3 == "expert" && !/fallback: the rung below/ { print $2 }' "$tmp/native.out"); do
        arm=$(awk -v k="$k" '$2 == k && $3 == "expert" && !/fallback: the rung below/' \
                  "$tmp/NEON (Neoverse N1).out" "$tmp/SVE 256-bit.out" | wc -l)
        [ "$arm" -gt 0 ] && ok "$k's expert has an ARM path ($arm of 2 builds)" ||
            fail "$k's expert runs the rung below's code on ARM"
    done
    # The bench refuses to time under emulation, in one line.
    expect_rc 2 "the bench under qemu: nothing timed" env QEMU_CPU=neoverse-n1 \
        qemu-aarch64 -L / "$build-neon/bench/speedlab-bench-solutions" --quick --kernel "$e2e_example"
    one_line "the bench under qemu"
    expect_in "$tmp/err" "an aarch64 program on an x86-64 CPU: emulated (qemu-user)" \
        "the bench says why it times nothing"
    # make doctor says it too, with what it means.
    expect_rc 0 "make doctor under qemu" env QEMU_CPU=neoverse-n1 \
        qemu-aarch64 -L / "$build-neon/bench/speedlab-doctor"
    expect_match "$tmp/out" "^emulation +an aarch64 program on an x86-64 CPU" "doctor: emulation"
    expect_in "$tmp/out" "nothing is timed" "doctor: what emulation means"
}
