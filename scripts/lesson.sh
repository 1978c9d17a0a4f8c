#!/bin/sh
# lesson.sh - `make <lesson>`: build the participant's runner, then run it
# for that lesson. Only the runner: a half-written exercise of a program
# the lesson does not use (lesson 6's mpi.c) must not stop it. The runner
# is one program built from every lesson's exercises, so an exercise of
# another lesson that does not compile would stop this one too: it is set
# aside for this run (its folder built from solutions/, said on the
# console), and the build folder is configured back afterwards, so that
# every other target still meets the error.
#
# usage: scripts/lesson.sh LESSON BUILD JOBS RESULTS [runner options...]
set -u
lesson=$1; build=$2; jobs=$3; results=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
log="$build/lesson-build.log"

# build [ARG...]: cmake --build, its output on the console and in $log;
# its status.
build() {
    echo "cmake --build $build -j $jobs $*"
    rc_file="$build/lesson-build.rc"
    { sh "$top/scripts/locked.sh" "$build" cmake --build "$build" -j "$jobs" "$@" 2>&1
      echo $? >"$rc_file"; } | tee "$log"
    return "$(cat "$rc_file")"
}

# set_aside "FOLDERS": configure the build folder with them set aside ("":
# none), quietly.
set_aside() {
    sh "$top/scripts/locked.sh" "$build" cmake -S "$top" -B "$build" \
        "-DSPEEDLAB_SET_ASIDE=$1" >/dev/null
}

if build --target speedlab; then
    exec "$build/bench/speedlab" "$lesson" --results "$results" "$@"
fi
# The exercises that failed: "exercises/<folder>/<file>:<line>".
broken=$(sed -nE 's|.*(exercises/[a-z0-9_]+/[^: ]+):([0-9]+):[0-9]+: error.*|\1:\2|p' "$log" |
         sort -u)
[ -n "$broken" ] || exit 1      # not an exercise: the errors above say what
folders=$(printf '%s\n' "$broken" | sed 's|^exercises/\([^/]*\)/.*|\1|' | sort -u)
kernels=$(sh "$top/scripts/kernels.sh")      # "name lesson folder" lines
own=$(printf '%s\n' "$kernels" | awk -v k="$lesson" '$1 == k { print $3 }')
first=$(printf '%s\n' "$broken" | head -1)
if printf '%s\n' "$folders" | grep -qx "$own"; then
    first=$(printf '%s\n' "$broken" | grep "^exercises/$own/" | head -1)
    echo "make $lesson: your $first does not compile (the error above): fix it, then" \
         "make $lesson again" >&2
    exit 1
fi
lessons=$(printf '%s\n' "$kernels" | awk -v f="$(echo $folders)" '
    BEGIN { n = split(f, want, " "); for (i = 1; i <= n; i++) w[want[i]] = 1 }
    $3 in w { printf "%s%s", (k++ ? ", " : ""), $1 }')
echo "make $lesson: $first does not compile (lessons $lessons); it is set aside for" \
     "this run (built from solutions/): fix it before make ${lessons%%,*}" >&2
# Configured back however the run ends (Ctrl-C too); `make`'s configured
# target also resets a folder a killed run left set aside.
trap 'set_aside ""' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set_aside "$(echo $folders | tr ' ' ';')"
if build --target speedlab >/dev/null; then
    "$build/bench/speedlab" "$lesson" --results "$results" "$@"
    rc=$?
else
    echo "make $lesson: the build failed with $first set aside too: see $log" >&2
    rc=1
fi
exit "$rc"
