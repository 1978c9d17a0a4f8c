#!/bin/sh
# offload_profile.sh - where a gpu variant's time went, read from LLVM's
# offload runtime's own profile (LIBOMPTARGET_PROFILE=FILE, with
# LIBOMPTARGET_PROFILE_GRANULARITY=0 so that every event is kept).
#
# usage: scripts/offload_profile.sh PROFILE PART
#   PROFILE  the runtime's trace (Chrome trace JSON, one event per object)
#   PART     a part of the source path to keep, e.g. exercises/<folder>/:
#            events of other files (the kit's own probes) are left out
#
# One row per source line and step: copies to the device, the kernel,
# copies back, waiting for the device, and the runtime's own time around
# them (its mapping table, allocation, release): each construct's outer
# "Runtime: ..." event less the steps timed inside it. On a GPU copies and
# kernels are asynchronous, so their time shows as waiting for the device;
# on the host offload device they are synchronous. Exit 0, or 1 when the
# profile has no event of PART's files (the code did not offload).
set -u
[ $# = 2 ] || { echo "usage: $0 PROFILE PART" >&2; exit 2; }
[ -s "$1" ] || { echo "offload_profile: no profile at $1" >&2; exit 1; }
sed 's/},{"pid"/}\n{"pid"/g' "$1" | awk -v part="$2" '
function field(key,    re, s) {
    re = "\"" key "\":(\"[^\"]*\"|[0-9]+)"
    if (!match($0, re)) return ""
    s = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
    gsub(/"/, "", s)
    return s
}
function shown(us) {
    if (us >= 1e6) return sprintf("%.2f s", us / 1e6)
    if (us >= 1e3) return sprintf("%.2f ms", us / 1e3)
    return sprintf("%.1f us", us)
}
{
    name = field("name"); detail = field("detail"); dur = field("dur")
    if (detail == "" || dur == "") next
    split(detail, d, ";")          # ;file;function;line;column;;more
    if (index(d[2], part) == 0) next
    at = substr(d[2], index(d[2], part)) ":" d[4]
    if (name == "HostToDev") what = "copies to the device"
    else if (name == "DevToHost") what = "copies back"
    else if (name == "Kernel Target") what = "kernel"
    else if (name == "Runtime: syncronize") what = "waiting for the device"
    else if (name ~ /^Runtime: /) {
        if (!(at in outer)) places[++nplaces] = at
        outer[at] += dur; total += dur; next
    }
    else next
    key = at SUBSEP what
    if (!(key in sum)) order[++rows] = key
    sum[key] += dur; calls[key]++; inner[at] += dur
}
END {
    if (total == 0) exit 1
    printf "\nwhere the time of your gpu code went (the offload runtime'"'"'s own profile, %s in all):\n", shown(total)
    for (i = 1; i <= rows; i++) {
        split(order[i], k, SUBSEP)
        printf "  %-28s %-24s %7d x %-10s = %-10s %3.0f%%\n", k[1], k[2], calls[order[i]],
            shown(sum[order[i]] / calls[order[i]]), shown(sum[order[i]]), 100 * sum[order[i]] / total
    }
    for (i = 1; i <= nplaces; i++) {
        at = places[i]; own = outer[at] - inner[at]
        if (own > 0)
            printf "  %-28s %-24s %23s %-10s %3.0f%%\n", at, "runtime (maps, release)", "", shown(own), 100 * own / total
    }
    print "  (every call of one short run; on a GPU, copies and kernels run asynchronously and"
    print "  their time shows as waiting for the device)"
}'
