#!/bin/sh
# likwid_roofs.sh - the kit's bandwidth roofs checked against a tool
# nobody here wrote: likwid-bench (Debian's likwid package) runs its own
# hand-written stream kernel, A(i) = B(i)*c + C(i), on the working set and
# thread count of each roof a run measured (ceiling.csv's "bandwidth"
# rows), and counts bytes as the kit does (24 an element, no
# write-allocate). Each pair is put side by side with the kit's figure as
# a share of likwid's; the reference (bytes are counted one way) states
# the tolerance. A timed comparison: run it on a quiet machine, by hand,
# never inside make test.
#
# usage: scripts/likwid_roofs.sh [RUN_FOLDER]   (default: results/latest)
# Exit: 0 every roof within the tolerance, 1 one is not, 2 bad usage or
# no likwid-bench.
set -u
tolerance=${SPEEDLAB_LIKWID_TOLERANCE:-25}
run=${1:-results/latest}
[ $# -le 1 ] || { echo "usage: $0 [RUN_FOLDER]" >&2; exit 2; }
[ -f "$run/ceiling.csv" ] || { echo "likwid_roofs: $run/ceiling.csv not found: give a run folder of make bench" >&2; exit 2; }
command -v likwid-bench >/dev/null 2>&1 || {
    echo "likwid_roofs: likwid-bench is not installed: apt-get install likwid (Debian/Ubuntu), spack install likwid, or module load likwid" >&2
    exit 2
}
grep -q ',L[123] bandwidth,\|^L[123] bandwidth,' "$run/ceiling.csv" ||
    echo "likwid_roofs: $run has no cache roofs (a run before they were measured): memory only" >&2

# likwid's widest kernel this CPU has; its non-temporal twin for a memory
# roof the kit measured with non-temporal stores.
flags=$(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null)
case " $flags " in
*" avx512f "*) plain=stream_avx512 nt=stream_mem_avx512 ;;
*" avx "*) plain=stream_avx nt=stream_mem_avx ;;
*) plain=stream nt=stream_mem ;;
esac

printf '%-8s %7s %10s %12s %11s %8s  %s\n' roof threads "set (kB)" "kit GB/s" "likwid GB/s" "kit/lw" kernel
bad=0
# limit,lanes,threads,per_core,gb_per_s,spread,stores,working_set_bytes,disturbed
while IFS=, read -r limit _ threads _ gb _ stores set disturbed _; do
    case $limit in *" bandwidth") ;; *) continue ;; esac
    kernel=$plain
    [ "$stores" = non-temporal ] && kernel=$nt
    kb=$(( (set + 1023) / 1024 ))
    lw=$(likwid-bench -t "$kernel" -w "N:${kb}kB:$threads" 2>&1 | awk '/^MByte\/s:/ { print $2 / 1000 }')
    if [ -z "$lw" ]; then
        printf '%-8s %7s %10s %12s %11s %8s  %s\n' "${limit% bandwidth}" "$threads" "$kb" "$gb" "-" "-" "$kernel: likwid-bench gave no figure"
        bad=1
        continue
    fi
    verdict=$(awk -v k="$gb" -v l="$lw" -v t="$tolerance" 'BEGIN {
        r = k / l; printf "%.2f %s", r, (r >= 1 - t / 100 && r <= 1 / (1 - t / 100)) ? "within" : "OUTSIDE" }')
    case $verdict in *OUTSIDE) bad=1 ;; esac
    [ "$disturbed" = yes ] && verdict="$verdict (the kit's roof was disturbed)"
    printf '%-8s %7s %10s %12.1f %11.1f %8s  %s\n' "${limit% bandwidth}" "$threads" "$kb" "$gb" "$lw" \
        "${verdict%% *}" "$kernel, ${verdict#* }"
done <"$run/ceiling.csv"
echo "tolerance: the kit's roof within ${tolerance}% below likwid's, or as far above (kit/lw from $(awk -v t="$tolerance" 'BEGIN { printf "%.2f to %.2f", 1 - t / 100, 1 / (1 - t / 100) }'))"
exit $bad
