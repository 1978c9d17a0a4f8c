#!/bin/sh
# new_kernel.sh - `make new-kernel NAME=<name>`: a new kernel, ready to run.
#
# usage: scripts/new_kernel.sh NAME
#
# Writes kernels/NAME/ (the problem: its sizes, reference and tolerance)
# and solutions/NAME/ (the ladder: scalar.c and five copies of it, the
# variant table), then exercises/NAME/ from them (gen_exercises.sh). Straight
# away `make NAME` builds, validates and times it ("not faster yet"
# everywhere) and `make bench` includes it: nothing else in the kit names a
# kernel (CMake, the make targets, the runner and the report find it).
# The problem it starts with is a placeholder with a known answer (the
# midpoint sum of x^2 over [0, 1]): replace it with yours, reference first
# (docs/reference.md, "A new kernel").
# Exit: 0, 2 a bad or taken name (nothing is written), 1 a file could not
# be written (what was written is removed).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-}
say() { echo "new-kernel: $*" >&2; }

case $name in
'') say "give the kernel a name: make new-kernel NAME=<name>"; exit 2 ;;
*[!a-z0-9_]*|[!a-z]*)
    say "'$name': a name is a lower-case letter, then letters, digits or _"; exit 2 ;;
esac
if [ ${#name} -gt 24 ]; then
    say "'$name': at most 24 characters"; exit 2
fi
if sh "$top/scripts/kernels.sh" --has "$name"; then
    say "'$name' is a kernel already"; exit 2
fi
# make NAME runs the kernel's lesson, so the name must be no target and
# no file at the top (make would build or find that instead).
if sed -n 's/^\.PHONY: *//p' "$top/GNUmakefile" | tr ' ' '\n' | grep -qx "$name" ||
   [ -e "$top/$name" ] || [ "$name" = results ]; then
    say "'$name' is taken at the top of the kit (make $name): pick another name"; exit 2
fi
for d in kernels solutions exercises; do
    if [ -e "$top/$d/$name" ]; then
        say "$d/$name exists already"; exit 2
    fi
done
# The kit's own names: the kernel's symbols are NAME_..., its header
# NAME.h; a prefix or a header the kit already has would not compile, or
# would include the kit's header instead of the kernel's.
used=$(cd "$top" && grep -rlE "(^|[^A-Za-z0-9_])${name}_[A-Za-z0-9_]" common bench kernels solutions \
           exhibits offload tests --include='*.c' --include='*.h' --include='*.cu' 2>/dev/null | head -1)
header=$(cd "$top" && find common bench kernels solutions exhibits offload -name "$name.h" 2>/dev/null | head -1)
if [ -n "$used$header" ]; then
    say "'$name' collides with the kit's own names (${header:-${name}_... in $used}): pick another name"
    exit 2
fi

upper=$(printf '%s' "$name" | tr 'a-z' 'A-Z')
made=""
cleanup() { for d in $made; do rm -rf "$top/$d/$name"; done; }
trap 'cleanup; exit 1' INT TERM
write() {   # write FILE: standard input, with @N@ and @U@ for the names
    sed -e "s/@N@/$name/g" -e "s/@U@/$upper/g" >"$1" || { cleanup; say "cannot write $1"; exit 1; }
}
mkdir -p "$top/kernels/$name" && made="kernels" &&
    mkdir -p "$top/solutions/$name" && made="$made solutions" ||
    { cleanup; say "cannot make the kernel's folders"; exit 1; }

write "$top/kernels/$name/${name}_problem.h" <<'EOF'
/* @N@_problem.h - the @N@ problem: the signature every variant has, and
 * what a right answer is (made by make new-kernel: make it yours).
 *
 * The placeholder: S = h * sum of x_i^2 over the midpoints x_i = (i+0.5)h,
 * h = 1/steps, whose exact value is 1/3 - h^2/12.
 */
#ifndef SPEEDLAB_@U@_PROBLEM_H
#define SPEEDLAB_@U@_PROBLEM_H

#include <stdint.h>

#include "kernel.h"

/* Every @N@ variant: the answer for `steps` on `threads` OpenMP threads
 * (variants without threads ignore it); *where says where the loop ran. */
typedef double @N@_fn(int64_t steps, int threads, sl_where *where);

/* The problem shared by both trees. */
extern const sl_problem_def @N@_problem;

#endif
EOF

write "$top/kernels/$name/${name}_problem.c" <<'EOF'
/* @N@_problem.c - the @N@ problem: sizes, work, how to call a variant,
 * and the reference check (made by make new-kernel: make it yours).
 *
 * Reference first: a check that knows the right answer (here the exact
 * 1/3 - h^2/12) and a tolerance that accepts every correct summation
 * order (rounding: steps * eps relative to terms of at most 1) but not
 * the usual bugs (a missed or repeated step changes S by about h: far
 * above the tolerance at the probe size).
 */
#include "@N@_problem.h"

#include <float.h>
#include <math.h>

static int @N@_run(const sl_variant *v, const sl_problem *p, sl_outcome *out)
{
    @N@_fn *fn = (@N@_fn *)v->fn;
    out->where = SL_RAN_HOST;
    out->value = fn(p->size, p->threads, &out->where);
    out->work = (double)p->size;
    return 0;
}

static sl_verdict @N@_check(const sl_problem *p, const sl_outcome *out)
{
    const double h = 1.0 / (double)p->size;
    sl_verdict v = { 0 };
    v.expected = 1.0 / 3.0 - h * h / 12.0;
    v.error = fabs(out->value - v.expected);
    v.tolerance = 4.0 * ((double)p->size + 8.0) * DBL_EPSILON;
    v.ok = v.error <= v.tolerance;   /* NaN compares false: never ok */
    return v;
}

/* Sizes around the SIMD widths and thread counts, a prime and the probe
 * size: where off-by-ones and remainder loops go wrong. */
static const sl_problem @N@_test_cases[] = {
    { .size = 1 }, { .size = 2 }, { .size = 3 }, { .size = 7 }, { .size = 8 },
    { .size = 9 }, { .size = 17 }, { .size = 63 }, { .size = 65 }, { .size = 1009 },
    { .size = 1000003 }, { .size = 0 },
};

const sl_problem_def @N@_problem = {
    .name = "@N@",
    .lesson = 9,
    .size_name = "steps",
    .work_unit = "steps",
    .default_size = 200000000,
    .quick_size = 20000000,
    .probe_size = 1000003,
    .max_size = INT64_C(1) << 40,
    .error_name = "abs error",
    .test_cases = @N@_test_cases,
    .run = @N@_run,
    .check = @N@_check,
    .ceiling = SL_CEILING_FMA,
    .ceiling_ops = 1,
    .ceiling_why = "1 multiply-add per step",
    .exact = 1.0 / 3.0,
};
EOF

write "$top/solutions/$name/$name.h" <<'EOF'
/* @N@.h - the @N@ variants of this tree: one signature, the ladder's rungs.
 *
 * Every variant computes the problem in kernels/@N@/@N@_problem.h and must
 * agree with its reference to the tolerance there. The harness (tests,
 * bench, runner) finds them through the table in table.c.
 */
#ifndef SPEEDLAB_@U@_H
#define SPEEDLAB_@U@_H

#include <stdint.h>

#include "kernel.h"
#include "@N@_problem.h"
#include "tree.h"

/* Each tree gets its own symbol names (see common/tree.h). */
#define @N@_scalar SL_TREE_SYMBOL(@N@_scalar)
#define @N@_simd SL_TREE_SYMBOL(@N@_simd)
#define @N@_threads SL_TREE_SYMBOL(@N@_threads)
#define @N@_threads_simd SL_TREE_SYMBOL(@N@_threads_simd)
#define @N@_gpu SL_TREE_SYMBOL(@N@_gpu)
#define @N@_expert SL_TREE_SYMBOL(@N@_expert)
#define @N@_kernel SL_TREE_SYMBOL(@N@_kernel)

/* The signature @N@_fn: if a variant drifts from it, this stops the build. */
@N@_fn @N@_scalar, @N@_simd, @N@_threads, @N@_threads_simd, @N@_gpu, @N@_expert;

extern const sl_kernel @N@_kernel;

#endif
EOF

write "$top/solutions/$name/table.c" <<'EOF'
/* table.c - the @N@ variants of this tree, in ladder order.
 *
 * This table is the only list of variants: tests, bench and runner walk it.
 * A new variant is one more line here.
 */
#include "@N@.h"

static const sl_variant @N@_variants[] = {
    { "scalar", (sl_any_fn *)@N@_scalar, 0, NULL, NULL, NULL },
    { "simd", (sl_any_fn *)@N@_simd, SL_USES_SIMD, NULL, NULL, NULL },
    { "threads", (sl_any_fn *)@N@_threads, SL_USES_THREADS, NULL, NULL, NULL },
    { "threads_simd", (sl_any_fn *)@N@_threads_simd, SL_USES_THREADS | SL_USES_SIMD,
      NULL, NULL, NULL },
    { "expert", (sl_any_fn *)@N@_expert, SL_USES_THREADS | SL_USES_SIMD | SL_EXPERT,
      NULL, NULL, NULL },
    { "gpu", (sl_any_fn *)@N@_gpu, SL_USES_GPU, NULL, NULL, NULL },
};

const sl_kernel @N@_kernel = {
    .problem = &@N@_problem,
    .variants = @N@_variants,
    .count = sizeof @N@_variants / sizeof @N@_variants[0],
};
EOF

# scalar.c, then each rung as a copy of it that says what the rung adds.
rung() {   # rung FILE FUNCTION "what this rung adds" [WHERE]
    write "$top/solutions/$name/$1" <<EOF
/* $1 - @N@, $3
 *
 * For now a copy of scalar.c: make new-kernel wrote it, and the runner
 * says "not faster yet" until this rung does what it says.
 */
#include "@N@.h"

double $2(int64_t steps, int threads, sl_where *where)
{
    (void)threads;
    *where = ${4:-SL_RAN_HOST};
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    for (int64_t i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * h;
        sum += x * x;
    }
    return h * sum;
}
EOF
}
rung scalar.c "${name}_scalar" "one core, one number at a time: the baseline (built with
 * the auto-vectoriser off, so every speedup is measured against scalar code)."
rung simd.c "${name}_simd" "the same loop as SIMD: omp simd with a reduction."
rung threads.c "${name}_threads" "the loop on threads: omp parallel for with a reduction."
rung threads_simd.c "${name}_threads_simd" "threads and SIMD together: parallel for simd."
rung expert.c "${name}_expert" "what an expert gets: beyond the ladder, by whatever it takes."
rung gpu.c "${name}_gpu" "offloaded: omp target teams distribute parallel for, with
 * the data mapped; until then it runs on the host, and says so (where:
 * host fallback, so no GPU figure is ever claimed for it)." SL_RAN_HOST_FALLBACK

if ! sh "$top/scripts/gen_exercises.sh" "$top/solutions/$name" "$top/exercises/$name"; then
    cleanup; say "cannot generate exercises/$name"; exit 1
fi
trap - INT TERM
echo "new-kernel: made kernels/$name/ (the problem), solutions/$name/ (the ladder) and"
echo "exercises/$name/; next: make $name, then make the reference yours (kernels/$name/${name}_problem.c)"
