#!/bin/sh
# swap_in.sh - put a freshly built folder in the place of an old one that
# the kit wrote before, keeping what the old one holds that the new one
# does not: those are a person's (a GPU node's results copied back inside
# gpu-bundle/, notes), so they move into the new folder and are named.
# The old folder is removed only once all of that has moved; otherwise it
# stays beside, under a name that is said.
#
# usage: scripts/swap_in.sh NEW OUT
# Prints "kept: NAME..." when it kept anything. Exit 0; 1 (one line on
# stderr) when OUT could not be replaced (then OUT is as it was).
set -u
new=$1 out=$2
old="$out.old.$$" kept="" stuck=""
if [ -d "$out" ]; then
    mv "$out" "$old" || { echo "swap_in: cannot move $out aside: nothing changed" >&2; exit 1; }
fi
if ! mv "$new" "$out"; then
    [ -d "$old" ] && mv "$old" "$out"
    echo "swap_in: cannot put $new in place of $out: nothing changed" >&2
    exit 1
fi
[ -d "$old" ] || exit 0
for entry in "$old"/* "$old"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=$(basename "$entry")
    [ -e "$out/$name" ] && continue
    if mv "$entry" "$out/"; then kept="$kept $name"; else stuck=1; fi
done
[ -z "$kept" ] || echo "kept:$kept"
if [ -z "$stuck" ]; then
    rm -rf "$old"
else
    echo "swap_in: some of the old $out could not be moved into the new one: they are in $old" >&2
fi
