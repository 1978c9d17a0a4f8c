#!/bin/sh
# setup.sh - end-to-end: the kit set up where it cannot install anything.
# A clean clone, as a user who is not root, inside a mount namespace that
# hides the system's Google Benchmark (headers, library, CMake package)
# and gnuplot: without a source for Google Benchmark `make check` stops
# with one message naming the ways to get it, exit 2, and nothing in the
# way of the next try; given the system's source tarball (Debian's or
# Ubuntu's, fetched with apt-get source --download-only) it
# builds Google Benchmark itself, `make check` and `make bench QUICK=1`
# (one kernel) exit 0, and the run folder is complete but for the
# figures, said once, with a user's ways to get gnuplot.
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# plant_login_sudo DIR LOG: DIR/sudo, a login node's sudo, there but not
# for this user: asked without a password (-n) it says so; asked
# otherwise it would prompt for one and report the user to the
# administrators (here: its arguments written to LOG).
plant_login_sudo() {
    printf '#!/bin/sh\n[ "$1" = -n ] && { echo "sudo: a password is required" >&2; exit 1; }\necho "$*" >>%s; exit 1\n' \
        "$2" >"$1/sudo" && chmod 755 "$1" "$1/sudo"
}

# fetch_benchmark_source DIR: the system's own benchmark_*.orig.tar.gz
# (Debian's is GitHub's v1.7.1; Ubuntu 24.04's, 1.8.3) into DIR, from its
# distribution's archive with its keyring; nothing of the system's apt
# touched.
fetch_benchmark_source() {
    d=$1; mkdir -p "$d/parts" "$d/lists/partial" "$d/cache/archives/partial"
    # shellcheck disable=SC1091
    codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    # One the kit takes (1.7 or newer): Ubuntu 22.04's 1.6.1 is not, so
    # Ubuntu 24.04's stands in for it.
    if [ -f /usr/share/keyrings/ubuntu-archive-keyring.gpg ] && [ -n "$codename" ]; then
        url=http://archive.ubuntu.com/ubuntu part=universe key=ubuntu-archive-keyring.gpg suites="$codename noble"
    else
        url=http://deb.debian.org/debian part=main key=debian-archive-keyring.gpg suites=bookworm
    fi
    set -- -o Dir::Etc::SourceParts="$d/parts" -o Dir::Etc::SourceList=/dev/null \
        -o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache"
    for suite in $suites; do
        printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\nSigned-By: /usr/share/keyrings/%s\n' \
            "$url" "$suite" "$part" "$key" >"$d/parts/src.sources"
        (cd "$d" && rm -f benchmark_* && apt-get "$@" update -qq && apt-get "$@" source --download-only -qq benchmark) \
            >>"$d/apt.log" 2>&1
        got=$(ls "$d"/benchmark_*.orig.tar.gz 2>/dev/null | head -1)
        v=$(basename "${got:-none}" | sed -n 's/^benchmark_\([0-9.]*\)\.orig.*/\1/p')
        [ -n "$v" ] && [ "$(printf '1.7\n%s\n' "$v" | sort -V | head -1)" = 1.7 ] && { echo "$got"; return; }
    done
}

case_no_root() {
    brief_timing
    [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1 ||
        { echo "skipped: needs root (to make the namespace), unshare and setpriv"; exit 77; }
    cmake_dirs=$(find /usr/lib /usr/local/lib -path '*cmake/benchmark/benchmarkConfig.cmake' 2>/dev/null |
        sed 's|/benchmarkConfig.cmake$||' | tr '\n' ' ')
    # gnuplot is /usr/bin/gnuplot -> /etc/alternatives/gnuplot: hidden by
    # an alternatives folder without it (an empty file in its place would
    # still be found by Ubuntu 22.04's dash, whose command -v takes files
    # that cannot run).
    cp -a /etc/alternatives "$tmp/alternatives" && rm -f "$tmp/alternatives"/gnuplot*
    tarball=$(fetch_benchmark_source "$tmp/src")
    [ -n "$tarball" ] || { echo "skipped: the benchmark source could not be fetched: $(tail -1 "$tmp/src/apt.log")"; exit 77; }
    chmod 755 "$tmp" "$tmp/src"; chmod 644 "$tarball"
    home="$tmp/home"; clone="$home/speedlab"
    mkdir -p "$home" && git clone -q "$top" "$clone" && chown -R 65534:65534 "$home" ||
        { fail "cloning for the user"; return; }
    : >"$tmp/empty"; mkdir -p "$tmp/emptydir" "$tmp/old_gb"
    # In place of the system's CMake package: Ubuntu 22.04's 1.6.1, too old
    # for the bench (no warm-up setting), which must be passed over.
    printf 'set(PACKAGE_VERSION 1.6.1)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\nif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)\n  set(PACKAGE_VERSION_COMPATIBLE FALSE)\nendif()\n' \
        >"$tmp/old_gb/benchmarkConfigVersion.cmake"
    echo 'message(FATAL_ERROR "the 1.6.1 stand-in was taken")' >"$tmp/old_gb/benchmarkConfig.cmake"
    chmod -R a+rX "$tmp/old_gb"
    mkdir -p "$tmp/bin" "$tmp/asked" && chmod 777 "$tmp/asked"
    plant_login_sudo "$tmp/bin" "$tmp/asked/sudo"
    # as_user CMD: CMD as uid 65534 in a namespace where Google Benchmark
    # is 1.6.1's CMake package only, gnuplot is not there, and sudo is a
    # login node's.
    as_user() {
        unshare --mount sh -c '
            [ -d /usr/include/benchmark ] && mount --bind "$2/emptydir" /usr/include/benchmark
            for d in $1; do [ -d "$d" ] && mount --bind "$2/old_gb" "$d"; done
            for f in /usr/lib/*/libbenchmark.so* /usr/lib/*/libbenchmark_main.a; do
                [ -e "$f" ] && mount --bind "$2/empty" "$f"; done
            mount --bind "$2/alternatives" /etc/alternatives
            bin=$2/bin; shift 2
            exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$HOME_DIR" \
                PATH="$bin:/usr/local/bin:/usr/bin:/bin" sh -c "$*"' as_user "$cmake_dirs" "$tmp" "$@"
    }
    export HOME_DIR="$home"
    as_user "command -v gnuplot; test -e /usr/include/benchmark/benchmark.h && echo visible" >"$tmp/seen" 2>&1
    [ -s "$tmp/seen" ] && fail "gnuplot or Google Benchmark still visible: $(cat "$tmp/seen")" ||
        ok "in the namespace: no gnuplot, no Google Benchmark; uid $(as_user id -u)"

    # No source: one message with the ways, exit 2, no partial download.
    as_user "cd '$clone' && make check" >"$tmp/out1" 2>&1
    rc=$?
    [ "$rc" = 2 ] && ok "without a source: make check exits 2" || fail "without a source: exit $rc"
    expect_in "$tmp/out1" "Google Benchmark is not installed, and its source could not be had" \
        "the message says why"
    expect_in "$tmp/out1" "SPEEDLAB_BENCHMARK_SOURCE=/path/to/benchmark-1.7.1.tar.gz" "and the ways"
    [ -z "$(find "$clone/build" -name '*.part' 2>/dev/null)" ] && ok "no partial download left" ||
        fail "a partial download stays: $(find "$clone/build" -name '*.part')"

    # With the tarball: built here, checked, benched.
    # CUDA off, one kernel benched: the rest is built and benched by the
    # other tests (CI's budget); the set-up is what is under test here.
    as_user "cd '$clone' && make check CMAKE_ARGS='-DSPEEDLAB_BENCHMARK_SOURCE=$tarball -DSPEEDLAB_CUDA=OFF'" \
        >"$tmp/out2" 2>&1
    rc=$?
    [ "$rc" = 0 ] && ok "make check with the tarball: exit 0" ||
        { fail "make check with the tarball: exit $rc"; tail -15 "$tmp/out2" >&2; return; }
    expect_in "$tmp/out2" "speedlab: Google Benchmark built from $tarball" "Google Benchmark built from the tarball"
    expect_in "$tmp/out2" "the installed Google Benchmark (1.6.1) is older than 1.7" "the installed 1.6.1 said to be passed over"
    # (A hundredth of the quick size: 17 CPU-s to 5, Zen 4.)
    as_user "cd '$clone' && make bench QUICK=1 RESULTS='$home/results' BENCH_ARGS='--kernel $e2e_example --size $e2e_example=100003'" \
        >"$tmp/out3" 2>&1
    rc=$?
    [ "$rc" = 0 ] && ok "make bench QUICK=1: exit 0" || { fail "make bench QUICK=1: exit $rc"; tail -15 "$tmp/out3" >&2; return; }
    run="$home/results/$(readlink "$home/results/latest")"
    for f in results.csv samples.csv summary.md index.html bench.json; do
        [ -s "$run/$f" ] || fail "the run folder has no $f"
    done
    [ -n "$(ls "$run"/*.dat 2>/dev/null)" ] && [ -z "$(ls "$run"/*.png 2>/dev/null)" ] &&
        ok "the run folder: every file and figure's data, no figure" ||
        fail "the run folder: $(ls "$run" | tr '\n' ' ')"
    # Said once, at the end, with a user's ways (no root, no sudo here).
    n=$(grep -c "gnuplot" "$tmp/out3")
    [ "$n" = 1 ] && ok "the bench says once that gnuplot is missing: $(grep -m1 gnuplot "$tmp/out3")" ||
        fail "gnuplot named $n times in: $(grep gnuplot "$tmp/out3")"
    expect_in "$tmp/out3" "to get it: module load gnuplot, spack install gnuplot or conda install -c conda-forge gnuplot" \
        "with a user's ways to get it"
    [ ! -s "$tmp/asked/sudo" ] && ok "sudo (there, not for this user) was never asked for a password" ||
        fail "sudo was asked: $(tr '\n' ';' <"$tmp/asked/sudo")"
    cat "$tmp/out1" "$tmp/out2" "$tmp/out3" >"$tmp/said"
    expect_not_in "$tmp/said" "installing" "no install announced"
}

# A C compiler that builds no OpenMP program (Apple's clang before `brew
# install libomp`; here gcc behind a wrapper refusing -fopenmp while
# $tmp/without exists): make stops with the ways to get OpenMP, exit 2;
# once OpenMP is there, make again configures again and goes on (a
# failed configure leaves a cache but no Makefiles, which must not count
# as configured).
case_no_openmp() {
    mkdir -p "$tmp/bin"
    cat >"$tmp/bin/cc-no-openmp" <<WRAP
#!/bin/sh
if [ -e "$tmp/without" ]; then
    for a; do case \$a in -fopenmp*) echo "cc-no-openmp: unknown option \$a" >&2; exit 1 ;; esac; done
fi
exec gcc "\$@"
WRAP
    chmod +x "$tmp/bin/cc-no-openmp"; : >"$tmp/without"
    build="$tmp/build"
    in_top() { (cd "$top" && SPEEDLAB_SKIP_DEPS=1 make configured BUILD="$build" CC="$tmp/bin/cc-no-openmp" CXX=g++); }
    expect_rc 2 "make without OpenMP" in_top
    cat "$tmp/err" "$tmp/out" >"$tmp/both"
    expect_match "$tmp/both" "^speedlab: the C compiler \\(GNU [0-9.]+, $tmp/bin/cc-no-openmp\\) builds no OpenMP program" \
        "says which compiler builds no OpenMP program"
    expect_in "$tmp/both" "brew install libomp" "names Homebrew's libomp"
    expect_in "$tmp/both" "apt-get install libomp-dev" "names Debian's libomp"
    expect_in "$tmp/both" "speedlab: no OpenMP for the C compiler (the ways to get it are above)" "the stop"
    [ -f "$build/CMakeCache.txt" ] && [ ! -f "$build/Makefile" ] ||
        fail "the failed configure should leave a cache and no Makefile (what the next try must see past)"
    rm -f "$tmp/without"
    expect_rc 0 "make again with OpenMP" in_top
    [ -f "$build/Makefile" ] && ok "configured again: the Makefiles are there" || fail "no Makefile after the retry"
}

# deps.sh --for-tests where the apt sources serve no arm64 packages
# (Ubuntu's archive), with stand-ins for dpkg, dpkg-query, apt-get,
# apt-cache and sudo that keep their state in $tmp: the architecture it
# added goes again, so apt-get update keeps working; one the system
# had before stays.
case_deps_arch() {
    stubs="$tmp/stubs"; mkdir -p "$stubs"; : >"$tmp/arches"
    cat >"$stubs/dpkg" <<STUB
#!/bin/sh
case \$1 in
--print-architecture) echo amd64 ;;
--print-foreign-architectures) cat "$tmp/arches" ;;
--add-architecture) echo "\$2" >>"$tmp/arches" ;;
--remove-architecture) grep -vx "\$2" "$tmp/arches" >"$tmp/arches.new"; mv "$tmp/arches.new" "$tmp/arches" ;;
esac
STUB
    # Every package installed but the aarch64 suite's.
    cat >"$stubs/dpkg-query" <<STUB
#!/bin/sh
for a; do :; done
case \$a in *:arm64|*aarch64*|qemu-user) exit 1 ;; esac
printf 'install ok installed'
STUB
    cat >"$stubs/apt-get" <<STUB
#!/bin/sh
case " \$* " in
*" update "*) ! grep -qx arm64 "$tmp/arches" || { echo "E: Failed to fetch .../binary-arm64/Packages  404  Not Found" >&2; exit 100; } ;;
*" install "*) echo "E: Unable to locate package" >&2; exit 100 ;;
esac
STUB
    printf '#!/bin/sh\necho "  Candidate: 1.0"\n' >"$stubs/apt-cache"
    printf '#!/bin/sh\nexec "$@"\n' >"$stubs/sudo"
    chmod +x "$stubs"/*
    expect_rc 0 "deps.sh --for-tests, sources without arm64" env PATH="$stubs:$PATH" sh "$top/scripts/deps.sh" cc --for-tests
    expect_in "$tmp/err" "could not install the aarch64 cross toolchain and qemu-user" "says the aarch64 suite could not be installed"
    expect_in "$tmp/err" "removed the arm64 architecture again" "says it removed the architecture it added"
    [ ! -s "$tmp/arches" ] && ok "no foreign architecture left" || fail "left: $(cat "$tmp/arches")"
    echo arm64 >"$tmp/arches"
    expect_rc 0 "again, arm64 already there" env PATH="$stubs:$PATH" sh "$top/scripts/deps.sh" cc --for-tests
    expect_not_in "$tmp/err" "removed the arm64" "leaves the system's own architecture"
    grep -qx arm64 "$tmp/arches" && ok "arm64 still there" || fail "arm64 removed"
    # A login node's user (uid 1000 in no sudo group, with a login node's
    # sudo): dpkg is not touched, sudo never asked, and the command named
    # is for an administrator.
    : >"$tmp/arches"; login="$tmp/login"; mkdir -p "$login"
    printf '#!/bin/sh\ncase $1 in -u) echo 1000 ;; -Gn) echo users ;; *) exec /usr/bin/id "$@" ;; esac\n' >"$login/id"
    chmod +x "$login/id"
    plant_login_sudo "$login" "$tmp/asked"
    expect_rc 0 "as a login node's user" env PATH="$login:$stubs:$PATH" sh "$top/scripts/deps.sh" cc --for-tests
    [ ! -s "$tmp/asked" ] && ok "sudo never asked" || fail "sudo asked: $(tr '\n' ';' <"$tmp/asked")"
    [ ! -s "$tmp/arches" ] && ok "no architecture added" || fail "added: $(cat "$tmp/arches")"
    expect_in "$tmp/err" "an administrator's apt-get install gcc-aarch64-linux-gnu" "names the command for an administrator"
    expect_not_in "$tmp/err" "sudo apt-get" "names no sudo command"
}
