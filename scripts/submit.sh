#!/bin/sh
# submit.sh - a participant's gpu exercise, sent to the room's GPU node
# through SLURM, and its row back (`make submit KERNEL=<lesson>`).
#
# usage: scripts/submit.sh send KERNEL [FOLDER]
#          on the login node: FOLDER (default exercises/<kernel's folder>)
#          gives its gpu*.c files; they and a manifest (SHA-256 of each,
#          the compiler and flags they will be built with) go to a job
#          folder on the shared file system, one job is queued, its place
#          in the queue is shown, and its row or its named failure is
#          printed when it ends.
#        scripts/submit.sh node KIT JOB KERNEL
#          in the job, on the GPU node: KIT's sources with the job's files
#          in place of the kit's, built incrementally in a folder of the
#          node's own (one job holds the node: --exclusive), then the
#          runner: every variant checked in a child process first (a hang
#          or a crash names the variant), then the gpu rung timed beside
#          the node's scalar (and CUDA, where built); for right files,
#          where their time went (copies, kernel, release: the offload
#          runtime's profile, scripts/offload_profile.sh). With
#          SPEEDLAB_ROOM set, the rows go to the room under the
#          participant's nickname (SPEEDLAB_NICKNAME or results/room/).
# Environment: SPEEDLAB_SUBMIT_PARTITION (default gpu), SPEEDLAB_SUBMIT_DIR
# (the shared job folders; default results/submit), SPEEDLAB_SUBMIT_TIME
# (minutes a job may take, default 10), SPEEDLAB_SUBMIT_MAKE_ARGS (how the
# node builds: e.g. OFFLOAD=host), SPEEDLAB_SUBMIT_WORK (the node's build
# folder, default /tmp/speedlab-submit-<uid>), SPEEDLAB_SUBMIT_ARGS (the
# node's runner options, e.g. --size 4096 for a size a GPU shows at; default
# the lesson's quick size), SPEEDLAB_SUBMIT_RESULTS (the
# participant's results folder, where make submit's RESULTS goes; default
# results/: a row the room did not take waits in its room/queue).
# Exit (send): the runner's (0 right, 3 wrong), 1 the job failed (compile
# error, time limit, crash: named), 2 bad input or no SLURM here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=$(dirname "$here")
say() { printf 'make submit: %s\n' "$*"; }

send() {
    kernel=$1
    folder=$(sh "$here/kernels.sh" | awk -v k="$kernel" '$1 == k { print $3; exit }')
    [ -n "$folder" ] || { say "no lesson '$kernel' (make submit KERNEL=<lesson>: $(sh "$here/kernels.sh" --names))" >&2; exit 2; }
    from=${2:-$kit/exercises/$folder}
    files=$(ls "$from"/gpu*.c 2>/dev/null)
    [ -n "$files" ] || { say "no gpu exercise in $from" >&2; exit 2; }
    command -v sbatch >/dev/null 2>&1 ||
        { say "no SLURM here (sbatch not found): run it on the cluster's login node" >&2; exit 2; }
    partition=${SPEEDLAB_SUBMIT_PARTITION:-gpu}
    minutes=${SPEEDLAB_SUBMIT_TIME:-10}
    base=${SPEEDLAB_SUBMIT_DIR:-$kit/results/submit}
    mkdir -p "$base" || exit 2
    job=$base/$(date -u +%Y%m%dT%H%M%SZ)-$(id -un)-$kernel-$$
    mkdir "$job.partial" "$job.partial/files" || exit 2
    cp $files "$job.partial/files/" || exit 2
    {
        echo "kernel: $kernel"
        echo "folder: exercises/$folder"
        echo "from: $(id -un)@$(hostname) $from"
        echo "kit: $(git -C "$kit" rev-parse HEAD 2>/dev/null || echo unknown)"
        echo "build: make ${SPEEDLAB_SUBMIT_MAKE_ARGS:-} on the node (its offload compiler, -O3 -march=native)"
        echo "run: speedlab $kernel${SPEEDLAB_SUBMIT_ARGS:+ $SPEEDLAB_SUBMIT_ARGS} --variant gpu,cuda"
        for f in $files; do
            echo "sha256: $(sha256sum "$f" | cut -d' ' -f1) exercises/$folder/$(basename "$f")"
        done
    } >"$job.partial/manifest" && mv "$job.partial" "$job" || exit 2
    # The room (SPEEDLAB_ROOM) hears of the job's rows under the
    # participant's own nickname: sbatch passes the environment on.
    results=${SPEEDLAB_SUBMIT_RESULTS:-$kit/results}
    if [ -n "${SPEEDLAB_ROOM:-}" ] && [ -z "${SPEEDLAB_NICKNAME:-}" ] && [ -s "$results/room/nickname" ]; then
        SPEEDLAB_NICKNAME=$(head -1 "$results/room/nickname") && export SPEEDLAB_NICKNAME
    fi
    id=$(sbatch --parsable --partition "$partition" --exclusive --time "$minutes" \
        --job-name speedlab-submit --output "$job/slurm.out" \
        --wrap "sh '$kit/scripts/submit.sh' node '$kit' '$job' '$kernel'" 2>"$job/sbatch.err") ||
        { say "sbatch refused the job: $(tail -1 "$job/sbatch.err")" >&2; rm -rf "$job"; exit 2; }
    id=${id%%;*}
    say "job $id: $(echo $files | wc -w) file(s) of exercises/$folder to partition $partition (manifest: $job/manifest)"
    said=""
    while :; do
        state=$(squeue -h -j "$id" -o %T 2>/dev/null)
        case $state in
        PENDING)
            # Jobs of the partition that will run before this one.
            ahead=$(squeue -h -p "$partition" -o '%i %T' 2>/dev/null |
                awk -v me="$id" '$2 == "RUNNING" || ($2 == "PENDING" && $1 + 0 < me + 0) { n++ } END { print n + 0 }')
            now="queued: $ahead job(s) ahead of yours" ;;
        RUNNING | CONFIGURING | COMPLETING) now="running on $(squeue -h -j "$id" -o %N 2>/dev/null)" ;;
        *) break ;;
        esac
        [ "$now" = "$said" ] || { say "$now"; said=$now; }
        sleep 1
    done
    if [ -f "$job/result" ]; then
        room_home
        cat "$job/result"
        exit "$(cat "$job/rc" 2>/dev/null || echo 1)"
    fi
    why=$(sacct -n -j "$id" -o State 2>/dev/null | head -1 | tr -d ' ')
    case $(tail -5 "$job/slurm.out" 2>/dev/null) in
    *"DUE TO TIME LIMIT"*) why="it ran past its time limit of $minutes minute(s) (a hang?)" ;;
    esac
    say "job $id ended without a result: ${why:-see $job/slurm.out}"
    tail -5 "$job/slurm.out" 2>/dev/null | sed 's/^/    /'
    exit 1
}

# What the node's runner kept for the room comes home: the nickname it
# chose, and rows it could not send yet (the next lesson run sends them).
room_home() {
    [ -n "${SPEEDLAB_ROOM:-}" ] && [ -d "$job/room" ] || return 0
    mkdir -p "$results/room/queue" || return 0
    [ -s "$results/room/nickname" ] || cp "$job/room/nickname" "$results/room/nickname" 2>/dev/null
    for q in "$job"/room/queue/*.json; do
        [ -f "$q" ] && mv "$q" "$results/room/queue/" && say "room: not reachable from the node; your row waits in results/room/queue"
    done
    return 0
}

# The result file, written whole: the participant sees all or nothing.
finish() {
    rc=$1
    mv "$job/result.partial" "$job/result" && echo "$rc" >"$job/rc"
    exit 0
}

node() {
    kit=$1 job=$2 kernel=$3 wrap=
    folder=$(sed -n 's/^folder: //p' "$job/manifest")
    work=${SPEEDLAB_SUBMIT_WORK:-/tmp/speedlab-submit-$(id -u)}
    src=$work/kit build=$work/build
    out=$job/result.partial
    mkdir -p "$src" || exit 1
    # The kit as the node has it (times kept: what did not change is not
    # rebuilt), then the job's files, touched so that they are.
    (cd "$kit" && tar -cf - --exclude=./build --exclude=./results --exclude=./.git --exclude='./gpu-bundle*' .) |
        (cd "$src" && tar -xf -) || exit 1
    for f in "$job"/files/*.c; do
        cp "$f" "$src/$folder/" && touch "$src/$folder/$(basename "$f")"
    done
    echo "job on $(hostname): exercises of $(sed -n 's/^from: //p' "$job/manifest")" >"$out"
    # shellcheck disable=SC2086
    if ! make -s -C "$src" configured BUILD="$build" ${SPEEDLAB_SUBMIT_MAKE_ARGS:-} >"$job/build.log" 2>&1 ||
       ! cmake --build "$build" --target speedlab -j "$(nproc)" >>"$job/build.log" 2>&1; then
        echo "COMPILE ERROR: your files did not build; the compiler said:" >>"$out"
        grep -E ': (fatal )?error|: warning' "$job/build.log" | sed "s|$src/||g" | head -12 | sed 's/^/  /' >>"$out"
        finish 1
    fi
    cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
    echo "built by: $("$cc" --version 2>/dev/null | head -1) (make ${SPEEDLAB_SUBMIT_MAKE_ARGS:-})" >>"$out"
    runner --variant gpu,cuda --results "$job" >"$job/run.out" 2>&1
    rc=$?
    nocuda=$(sed -n -e "s/.*unknown variant 'cuda'.*/the node's build has no CUDA variants/p" \
        -e "s/.*--variant cuda cannot run here.*/the node has no CUDA device/p" "$job/run.out" | head -1)
    if [ -n "$nocuda" ]; then
        echo "(no CUDA rows: $nocuda)" >>"$out"
        runner --variant gpu --results "$job" >"$job/run.out" 2>&1
        rc=$?
    fi
    cat "$job/run.out" >>"$out"
    [ "$rc" = 0 ] && breakdown >>"$out"
    if command -v nsys >/dev/null 2>&1 && [ "$rc" = 0 ]; then
        # Where a GPU run's time went: kernels and copies, Nsight's own sums.
        (cd "$job" && export SPEEDLAB_ROOM='' &&
            wrap="nsys profile --stats=true -o profile --force-overwrite true" &&
            runner --variant gpu --tree exercises --reps 1 --results "$job/nsys") \
            >"$job/nsys.out" 2>&1 &&
            grep -A8 -E 'cuda_gpu_(kern|mem_time)_sum' "$job/nsys.out" | head -24 >>"$out"
    fi
    finish "$rc"
}

# runner OPTION...: the node's runner on the job's kernel, the instructor's
# options (SPEEDLAB_SUBMIT_ARGS) first so that OPTIONs win; under $wrap (a
# profiler's command line) where set.
runner() {
    # shellcheck disable=SC2086
    ${wrap:-} "$build/bench/speedlab" "$kernel" ${SPEEDLAB_SUBMIT_ARGS:-} "$@"
}

# Where the time of the participant's gpu code went (copies, kernel,
# release), by the offload runtime's own profile: one short run of the
# right files, not timed, not sent to the room. LLVM's runtime keeps one;
# GCC's does not.
breakdown() {
    prof=$job/offload-profile.json
    (export SPEEDLAB_ROOM='' LIBOMPTARGET_PROFILE="$prof" LIBOMPTARGET_PROFILE_GRANULARITY=0 &&
        runner --variant gpu --tree exercises --reps 1 --min-time 0.01 \
            --results "$job/profile") >"$job/profile.out" 2>&1
    if [ ! -s "$prof" ]; then
        echo "(no time breakdown: this node's offload runtime keeps no profile; LLVM's does, with clang)"
    elif ! sh "$kit/scripts/offload_profile.sh" "$prof" "$folder/"; then
        echo "(no time breakdown: your gpu code reached no offload device; it ran on the host)"
    fi
    rm -f "$prof"
}

case ${1:-} in
send) shift; [ $# -ge 1 ] || { echo "usage: $0 send KERNEL [FOLDER]" >&2; exit 2; }; send "$@" ;;
node) shift; node "$@" ;;
*) echo "usage: $0 send KERNEL [FOLDER] | node KIT JOB KERNEL" >&2; exit 2 ;;
esac
