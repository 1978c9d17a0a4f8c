# hot_loop.awk - the hot loop of a compiled file for one class of
# limiting instruction, `want` (div, fma or mul64; scripts/mca.sh): of
# the innermost loops (a label, then later a jump back to it, holding no
# other loop), the one with the most lanes of that class, the shortest of
# equals. Writes its instructions to `out` and prints "label instructions
# lanes", or nothing when no loop has one.
# x86-64 (AT&T syntax) and aarch64.

# Lanes of one instruction's result: its widest vector register over the
# element width its mnemonic names; 1 for a scalar one.
function lanes(t, mn,    w) {
    w = (mn ~ /ps$/ || t ~ /\.4s/) ? 4 : 8
    if (t ~ /%zmm/) return 64 / w
    if (t ~ /%ymm/) return 32 / w
    if (mn ~ /s[sd]$/) return 1
    if (t ~ /%xmm/) return 16 / w
    if (t ~ /v[0-9]+\.2d/) return 2
    if (t ~ /v[0-9]+\.4s/) return 4
    return 1
}
function class(mnem) {
    if (mnem ~ /^v?div[ps][sd]$|^fdiv$/) return "div"
    if (mnem ~ /^vfn?m(add|sub)[0-9]*[ps][sd]$|^v?mul[ps][sd]$|^fml[as]$|^fmul$|^fn?m(add|sub)$/) return "fma"
    if (mnem ~ /^vpmullq$|^imulq$|^mulq$|^mulxq?$|^umulh$|^mul$/) return "mul64"
    return ""
}
{
    line[NR] = $0
    if ($0 ~ /^[.A-Za-z_$][^ \t]*:/) { lab = $0; sub(/:.*/, "", lab); at[lab] = NR; next }
    if ($1 ~ /^(j[a-z]+|b(\.[a-z]+)?|cbn?z|tbn?z)$/) {
        target = $NF
        if (target in at && at[target] < NR) { nloops++; from[nloops] = at[target]; to[nloops] = NR; name[nloops] = target }
    }
}
END {
    best = 0
    for (k = 1; k <= nloops; k++) {
        # Innermost loops only: none holds another loop's jump back.
        for (j = 1; j <= nloops; j++)
            if (j != k && from[j] >= from[k] && to[j] < to[k]) break
        if (j <= nloops) continue
        n = 0; got = 0
        for (i = from[k] + 1; i <= to[k]; i++) {
            t = line[i]
            if (t ~ /^[ \t]*\./ || t ~ /^[^ \t]/ || t ~ /^[ \t]*$/) continue
            split(t, w, /[ \t,]+/)
            n++
            if (class(w[2]) == want) got += lanes(t, w[2])
        }
        if (got > best || (got == best && got > 0 && n < bestn)) {
            best = got; bestn = n; pick = k
        }
    }
    if (best == 0) exit
    for (i = from[pick] + 1; i <= to[pick]; i++) {
        t = line[i]
        if (t ~ /^[ \t]*\./ || t ~ /^[^ \t]/ || t ~ /^[ \t]*$/) continue
        print t > out
    }
    print name[pick], bestn, best
}
