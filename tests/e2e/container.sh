#!/bin/sh
# container.sh - end-to-end: the container image. A Debian 12 base made
# here with debootstrap (no image registry is reachable) and imported into
# podman, the Containerfile built on it from a clean clone for linux/amd64
# or linux/arm64 (the image an Apple Silicon laptop runs; here under
# qemu-user-static's binfmt handler), then in the image: make check green
# (also the build's last step), make doctor naming the container, and,
# emulated, the runner refusing to time. Not in make test: a base and an
# image take minutes (arm64, emulated, far longer). By hand, as root:
#   sh tests/e2e/run.sh container image amd64   (or arm64)
# Sourced by tests/e2e/run.sh, which provides lib.sh's helpers.

# What building for ARCH needs that this machine lacks (one line), or
# nothing.
image_missing() {
    arch=$1
    [ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, podman's storage)"; return; }
    for tool in podman runc debootstrap; do
        command -v $tool >/dev/null 2>&1 ||
            { echo "no $tool (apt-get install podman runc debootstrap)"; return; }
    done
    [ "$arch" = "$(dpkg --print-architecture)" ] && return
    case $arch in arm64) handler=qemu-aarch64 ;; amd64) handler=qemu-x86_64 ;; *) echo "no such arch: $arch"; return ;; esac
    grep -q enabled "/proc/sys/fs/binfmt_misc/$handler" 2>/dev/null ||
        echo "no binfmt handler for $arch (apt-get install qemu-user-static binfmt-support; update-binfmts --enable $handler)"
}

case_image() {
    arch=$1
    why=$(image_missing "$arch")
    [ -z "$why" ] || { echo "skipped: $why"; exit 77; }
    # podman here: Debian's runc (crun refuses the VM's hybrid cgroups),
    # no default ulimits (not permitted), storage of this test's own.
    printf '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' \
        >"$tmp/containers.conf"
    export CONTAINERS_CONF="$tmp/containers.conf"
    pm() { podman --root "$tmp/storage" --runroot "$tmp/runroot" "$@"; }
    base=localhost/speedlab-base:$arch image=localhost/speedlab:$arch

    debootstrap --variant=minbase --arch="$arch" bookworm "$tmp/rootfs" \
        "${SPEEDLAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$tmp/debootstrap.log" 2>&1 ||
        { echo "skipped: debootstrap could not make a base: $(tail -1 "$tmp/debootstrap.log")"; exit 77; }
    tar -C "$tmp/rootfs" -c . | pm import --arch "$arch" - "$base" >/dev/null 2>"$tmp/import.log" &&
        ok "a $arch Debian base, debootstrapped and imported" ||
        { fail "importing the base: $(tail -1 "$tmp/import.log")"; return; }
    rm -rf "$tmp/rootfs"

    git clone -q "$top" "$tmp/kit" || { fail "cloning"; return; }
    pm build --platform "linux/$arch" --network host --build-arg BASE="$base" -t "$image" \
        -f "$tmp/kit/Containerfile" "$tmp/kit" >"$tmp/build.log" 2>&1
    rc=$?
    [ "$rc" = 0 ] && ok "the image builds from the Containerfile (make check its smoke test)" ||
        { fail "podman build: exit $rc"; tail -20 "$tmp/build.log" >&2; return; }
    expect_match "$tmp/build.log" "^[0-9]+ passed, 0 failed" "make check while building: every lesson right"

    pm run --rm "$image" make check >"$tmp/check.out" 2>&1
    rc=$?
    [ "$rc" = 0 ] && ok "make check in the image: exit 0" ||
        { fail "make check in the image: exit $rc"; tail -10 "$tmp/check.out" >&2; }
    expect_match "$tmp/check.out" "^[0-9]+ passed, 0 failed" "make check in the image: every lesson right"
    pm run --rm "$image" uname -m >"$tmp/uname" 2>&1
    want=$arch; [ "$arch" = arm64 ] && want=aarch64; [ "$arch" = amd64 ] && want=x86_64
    expect_in "$tmp/uname" "$want" "the image's programs are $want"
    pm run --rm "$image" make doctor >"$tmp/doctor.out" 2>&1
    expect_match "$tmp/doctor.out" "^container +a container" "make doctor: in a container"
    if [ "$arch" != "$(dpkg --print-architecture)" ]; then
        expect_match "$tmp/doctor.out" "emulated" "make doctor: emulated"
        pm run --rm "$image" make "$e2e_example" >"$tmp/lesson.out" 2>&1
        rc=$?
        [ "$rc" != 0 ] && ok "emulated, make $e2e_example times nothing (exit $rc)" || fail "emulated, make $e2e_example: exit 0"
        expect_in "$tmp/lesson.out" "so nothing is timed" "and says why"
    fi
    pm rmi -a -f >/dev/null 2>&1
    rm -rf "$tmp/storage" 2>/dev/null
}
