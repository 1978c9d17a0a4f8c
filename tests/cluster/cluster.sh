#!/bin/sh
# cluster.sh - a test cluster in a box: two "nodes" on this machine, each a
# set of Linux namespaces (network, hostname, mounts) with its own address
# on a private virtual link, running a real SLURM node daemon; the first
# node also runs the controller (it is the login node). Munge, which SLURM
# authenticates with, runs beside them. Everything lives in one folder and
# goes with `down`: no daemon, namespace or link is left behind.
#
# usage: tests/cluster/cluster.sh up DIR [split]   start it (needs root), print the nodes;
#            split: each node gets its own half of this machine's CPUs (every
#            process on it is held to them), as on two real machines;
#            otherwise both nodes have all of them
#        tests/cluster/cluster.sh on DIR N CMD...   run CMD on node N (1 or 2)
#        tests/cluster/cluster.sh pids DIR N [PATTERN]   processes on node N (whose
#            command line matches PATTERN, as pgrep -f)
#        tests/cluster/cluster.sh down DIR   stop everything started in DIR
#        tests/cluster/cluster.sh check      can this machine run it? (exit 77 if not, with why)
# Nodes: slnode1 at 10.77.0.1 and slnode2 at 10.77.0.2 (names in each node's
# own /etc/hosts); SLURM_CONF=DIR/slurm.conf for the clients. Partitions:
# box (both nodes, the default) and gpu (node 2, one job at a time).
# Exit: 0; 77 this machine cannot run it (said why); 1 it did not come up.
set -u
cmd=${1:-}
net=10.77.0

say() { printf 'cluster: %s\n' "$*"; }

# Why this machine cannot run the cluster, or nothing.
cannot() {
    [ "$(id -u)" = 0 ] || { echo "needs root (namespaces, daemons)"; return; }
    for t in unshare nsenter ip slurmctld slurmd munged sbatch; do
        command -v $t >/dev/null 2>&1 ||
            { echo "$t not found (apt-get install slurm-wlm munge iproute2)"; return; }
    done
    unshare --net --uts --mount true 2>/dev/null || echo "cannot create namespaces here"
}

holder_pid() { cat "$1/node$2.pid" 2>/dev/null; }

# Run on node N: its network, hostname and mounts; SLURM_CONF for clients.
on() {
    dir=$1; n=$2; shift 2
    pid=$(holder_pid "$dir" "$n")
    [ -n "$pid" ] || { echo "cluster: node $n is not up in $dir" >&2; return 1; }
    # A process entered from outside keeps its own CPUs: held to the node's.
    # Its root and /, as entering its mounts alone gives: in a chroot the
    # mount tree's root is not the node's.
    SLURM_CONF="$dir/slurm.conf" taskset -c "$(cat "$dir/node$n.cpus")" \
        nsenter -t "$pid" -n -u -m --root --wd=/ "$@"
}

# One node: a process that holds its namespaces, with the hostname and
# hosts file set inside. It waits until its file 'stop' exists.
start_node() {
    dir=$1; n=$2; pin=$3
    $pin unshare --net --uts --mount --fork --kill-child sh -c '
        hostname "slnode$2" && mount --bind "$1/hosts" /etc/hosts && ip link set lo up &&
        taskset -cp $$ | sed "s/.*: //" >"$1/node$2.cpus" && echo $$ >"$1/node$2.pid" || exit 1
        while [ ! -e "$1/stop" ]; do sleep 0.2; done' node "$dir" "$n" \
        >"$dir/node$n.log" 2>&1 &
    for _ in $(seq 50); do [ -s "$dir/node$n.pid" ] && return 0; sleep 0.1; done
    say "node $n did not start: $(cat "$dir/node$n.log")" >&2
    return 1
}

write_config() {
    dir=$1; cpus=$2; tasks=$3
    printf '127.0.0.1 localhost\n%s.1 slnode1\n%s.2 slnode2\n' "$net" "$net" >"$dir/hosts"
    cat >"$dir/slurm.conf" <<EOF
# A test cluster (tests/cluster/cluster.sh): two nodes in namespaces.
ClusterName=speedlab
SlurmctldHost=slnode1($net.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=$tasks
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=slnode1 NodeAddr=$net.1 NodeHostname=slnode1 CPUs=$cpus State=UNKNOWN
NodeName=slnode2 NodeAddr=$net.2 NodeHostname=slnode2 CPUs=$cpus State=UNKNOWN
PartitionName=box Nodes=slnode[1-2] Default=YES MaxTime=30 State=UP
# The room's "GPU" node (make submit): node 2, a whole node per job.
PartitionName=gpu Nodes=slnode2 MaxTime=30 State=UP OverSubscribe=EXCLUSIVE
EOF
}

up() {
    dir=$1; split=${2:-}
    why=$(cannot)
    [ -z "$why" ] || { say "cannot run here: $why"; exit 77; }
    mkdir -p "$dir/state" || exit 1
    rm -f "$dir/stop"
    cpus=$(nproc)
    pin1="" pin2="" tasks=task/affinity
    if [ "$split" = split ]; then
        [ "$cpus" -ge 2 ] || { say "cannot run here: split needs 2 CPUs, this machine has $cpus"; exit 77; }
        half=$((cpus / 2))
        first=$(taskset -cp $$ | sed 's/.*: //; s/[-,].*//')
        pin1="taskset -c $first-$((first + half - 1))"
        pin2="taskset -c $((first + half))-$((first + 2 * half - 1))"
        cpus=$half
        # SLURM's affinity would bind both nodes' tasks to CPU 0 (each node
        # numbers its CPUs from 0): tasks keep their node's CPUs instead.
        tasks=task/none
    fi
    write_config "$dir" "$cpus" "$tasks"
    # Munge's key and daemon, private to this folder.
    dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$dir/munge.key"
    munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
        --seed-file="$dir/munged.seed" || { say "munged did not start"; exit 1; }
    start_node "$dir" 1 "$pin1" && start_node "$dir" 2 "$pin2" || exit 1
    # The link: a veth pair, one end in each node (gone with the nodes).
    link=slv$$
    ip link add "${link}a" type veth peer name "${link}b" &&
        ip link set "${link}a" netns "$(holder_pid "$dir" 1)" &&
        ip link set "${link}b" netns "$(holder_pid "$dir" 2)" &&
        on "$dir" 1 ip addr add "$net.1/24" dev "${link}a" && on "$dir" 1 ip link set "${link}a" up &&
        on "$dir" 2 ip addr add "$net.2/24" dev "${link}b" && on "$dir" 2 ip link set "${link}b" up ||
        { say "the link between the nodes could not be made"; exit 1; }
    echo "${link}a ${link}b" >"$dir/link"
    on "$dir" 1 slurmctld -f "$dir/slurm.conf" -i || { say "slurmctld did not start: $(tail -3 "$dir/slurmctld.log")"; exit 1; }
    on "$dir" 1 slurmd -f "$dir/slurm.conf" || { say "slurmd on node 1 did not start"; exit 1; }
    on "$dir" 2 slurmd -f "$dir/slurm.conf" || { say "slurmd on node 2 did not start"; exit 1; }
    for _ in $(seq 60); do
        idle=$(on "$dir" 1 sinfo -h -N -o '%N %T' 2>/dev/null | sort -u | grep -c ' idle')
        [ "$idle" = 2 ] && { say "up: slnode1 ($net.1), slnode2 ($net.2), $cpus CPU(s) each; SLURM_CONF=$dir/slurm.conf"; return 0; }
        sleep 0.5
    done
    say "the nodes did not become idle: $(on "$dir" 1 sinfo -N 2>&1 | tail -3)"
    exit 1
}

# Every process in node N's network namespace (daemons, job steps, ranks),
# or those whose command line matches $3 (pgrep -f).
in_node() {
    pid=$(holder_pid "$1" "$2")
    [ -n "$pid" ] || return 0
    ns=$(readlink "/proc/$pid/ns/net" 2>/dev/null) || return 0
    if [ -n "${3:-}" ]; then
        candidates=$(pgrep -f "$3")
    else
        candidates=$(cd /proc && ls -d [0-9]* 2>/dev/null)
    fi
    for p in $candidates; do
        [ "$(readlink "/proc/$p/ns/net" 2>/dev/null)" = "$ns" ] && [ "$p" != "$pid" ] && echo "$p"
    done
}

# Stop every daemon by its pid file and whatever still runs on the nodes,
# then the nodes (their namespaces and the link go with them).
down() {
    dir=$1
    [ -d "$dir" ] || return 0
    for f in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -s "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
    done
    sleep 0.5
    for n in 1 2; do
        for p in $(in_node "$dir" $n); do kill -KILL "$p" 2>/dev/null; done
    done
    touch "$dir/stop"
    for _ in $(seq 50); do
        alive=""
        for f in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munged.pid" "$dir"/node?.pid; do
            [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive="$alive $f"
        done
        [ -z "$alive" ] && return 0
        sleep 0.2
    done
    for f in $alive; do kill -KILL "$(cat "$f")" 2>/dev/null; done
    return 0
}

case $cmd in
up) up "$2" "${3:-}" ;;
on) dir=$2; n=$3; shift 3; on "$dir" "$n" "$@" ;;
pids) in_node "$2" "$3" "${4:-}" ;;
down) down "$2" ;;
check) why=$(cannot); [ -z "$why" ] || { echo "$why"; exit 77; } ;;
*) echo "usage: $0 up DIR [split] | on DIR N CMD... | pids DIR N [PATTERN] | down DIR | check" >&2; exit 2 ;;
esac
