"""nb_report.py - lesson 8's run folder: results.csv with the C bench's
columns (tree=numba, so `make compare` and the C report's --import read it
as they read their own), compile.csv and its plot data, speedup-<kernel>.dat
in plots/speedup.gp's format, context.txt and a story-first summary.md.

Speedups here are against numba's own plain @njit rung of the same kernel,
measured in the same run; in `make bench NUMBA=1` the C report puts the
rows beside the C ladder and measures them against the C scalar.
"""
import math
import os
import platform
import shutil
import subprocess

from nb_measure import PHASES

COLUMNS = ("tree,kernel,variant,threads_requested,threads_used,oversubscribed,schedule,"
           "size,work_unit,repetitions,median_s,min_s,max_s,stddev_s,cv,rate_per_s,"
           "speedup_vs_scalar,result,expected,abs_error,tolerance,valid,ran_on,std_error,"
           "error_sigmas,study,height,work_per_call,ci_low_s,ci_high_s,ci_level,others_cpu,"
           "disturbed_reps,contaminated,remeasured")
BASELINE = "njit"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def simd_lanes():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((ln for ln in f if ln.startswith("flags")), "").split()
    except OSError:
        flags = []
    return 8 if "avx512f" in flags else 4 if "avx" in flags else 2


def context(numba, ncores, min_time, reps):
    import llvmlite
    import numpy
    try:
        layer = numba.threading_layer()
    except ValueError:       # no parallel variant ran
        layer = "none started"
    return dict(cpu_model=cpu_model(), cores=ncores, simd_lanes_f64=simd_lanes(),
                numba=numba.__version__, llvmlite=llvmlite.__version__,
                numpy=numpy.__version__, python=platform.python_version(),
                threading_layer=layer, numba_threads=numba.config.NUMBA_NUM_THREADS,
                min_time_s=min_time, repetitions=reps)


def work(c):
    return c.get("work", 0.0)   # set by the driver from the kernel's table


def timed(c):
    return c.get("valid") and "median" in c


def baseline(configs, c):
    for b in configs:
        if b["kernel"] == c["kernel"] and b["variant"] == BASELINE and timed(b):
            return b
    return None


def speedup(configs, c):
    b = baseline(configs, c)
    return b["median"] / c["median"] if b and timed(c) else 0.0


def std_error(c):
    """Monte Carlo's standard error of 4 * inside / N (montecarlo_problem.h)."""
    if c["kernel"] != "montecarlo":
        return 0.0
    p = math.pi / 4
    return 4.0 * math.sqrt(p * (1 - p) / c["problem"]["size"])


def num(fmt, value, show):
    return fmt % value if show else ""


def csv_row(configs, c, ncores):
    t = timed(c)
    v = c.get("verdict") or dict(expected=0.0, error=0.0, tolerance=0.0)
    ans = c.get("answer", (float("nan"), 0))
    se, sp = std_error(c), speedup(configs, c)
    cells = ["numba", c["kernel"], c["variant"], str(c["threads"]), str(c["threads"] or 1),
             str(int(c["threads"] > ncores)), '""', str(c["problem"]["size"]), c["unit"],
             str(len(c["seconds"]) if t else 0)]
    for key, fmt in (("median", "%.9g"), ("min", "%.9g"), ("max", "%.9g"),
                     ("stddev", "%.9g"), ("cv", "%.4f")):
        cells.append(num(fmt, c.get(key, 0.0), t))
    cells.append(num("%.6g", work(c) / c["median"] if t else 0.0, t))
    cells.append(num("%.4f", sp, sp > 0))
    cells += ["%.17g" % ans[0], "%.17g" % v["expected"], "%.3g" % v["error"],
              "%.3g" % v["tolerance"], "yes" if c.get("valid") else "no", "host"]
    cells.append(num("%.6g", se, se > 0))
    cells.append(num("%.4f", v["error"] / se if se > 0 else 0.0, se > 0 and c.get("valid")))
    cells += ["strong", str(c["problem"]["size"] if c["image"] else 0), "%.17g" % work(c)]
    for key, fmt in (("ci_low", "%.9g"), ("ci_high", "%.9g"), ("ci_level", "%.4f")):
        cells.append(num(fmt, c.get(key, 0.0), t))
    cells.append(num("%.3f", c.get("others_cpu", -1.0), t and c.get("others_cpu", -1) >= 0))
    cells += [str(c.get("disturbed", 0)), str(c.get("contaminated", 0)),
              str(c.get("remeasured", 0))]
    return ",".join(cells)


def rungs(configs, kernel, ncores):
    """One per variant: the most threads with a core each (as the C story)."""
    best = {}
    for c in configs:
        if c["kernel"] != kernel or not timed(c) or c["threads"] > ncores:
            continue
        b = best.get(c["variant"])
        if b is None or c["threads"] > b["threads"]:
            best[c["variant"]] = c
    order = [c["variant"] for c in configs if c["kernel"] == kernel]
    return [best[v] for v in dict.fromkeys(order) if v in best]


def fmt_time(s):
    return f"{s * 1e3:.3g} ms" if s < 1 else f"{s:.3g} s"


def fmt_rate(r, unit):
    return f"{r / 1e9:.3g} G {unit}/s" if r >= 1e8 else f"{r / 1e6:.3g} M {unit}/s"


def kernels_of(configs):
    return list(dict.fromkeys(c["kernel"] for c in configs))


def headline(configs, ctx):
    rows = ["| kernel | rung | threads | median | rate | speedup vs njit |",
            "|---|---|--:|--:|--:|--:|"]
    for k in kernels_of(configs):
        for i, c in enumerate(rungs(configs, k, ctx["cores"])):
            mark = " (disturbed)" if c["contaminated"] else ""
            rows.append(f"| {k if i == 0 else ''} | {c['variant']} | {c['threads'] or 1} | "
                        f"{fmt_time(c['median'])}{mark} | "
                        f"{fmt_rate(work(c) / c['median'], c['unit'])} | "
                        f"{speedup(configs, c):.2f}x |")
    return "\n".join(rows)


def compile_rows(configs):
    return [c for c in configs if "compile" in c]


def compile_table(configs):
    rows = ["| kernel | variant | first call | compiling | LLVM lowering | typing | numba IR "
            "inlining | the call warm (threads) |", "|---|---|--:|--:|--:|--:|--:|--:|"]
    for c in compile_rows(configs):
        m, ph = c["compile"], c["compile"]["phases"]
        split = [f"{ph[p]:.3f} s" if m["functions"] else "n/a"
                 for p in ("lowering", "typing", "inlining")]
        warm = f"{fmt_time(c['median'])} ({c['threads'] or 1})" if timed(c) else "not timed"
        rows.append(f"| {c['kernel']} | {c['variant']} | {m['first']:.3f} s | "
                    f"{m['compile']:.3f} s | " + " | ".join(split) + f" | {warm} |")
    return "\n".join(rows)


def warnings(configs):
    out = []
    bad = [c for c in configs if not c.get("valid")]
    if bad:
        out.append(f"- **invalid**: {len(bad)} configuration(s) failed the kit's check and "
                   f"were not timed: " + ", ".join(name(c) for c in bad[:6]))
    dist = [c for c in configs if c.get("contaminated")]
    if dist:
        out.append(f"- **disturbed**: {len(dist)} configuration(s) ran while other processes "
                   "used more than 0.25 of a core, even after being measured again: marked "
                   "\"(disturbed)\". Rerun on a quiet machine before quoting them.")
    noisy = [c for c in configs if timed(c) and c["cv"] > 0.05]
    if noisy:
        out.append(f"- {len(noisy)} configuration(s) varied by more than 5% between "
                   "repetitions (results.csv: cv).")
    return out


def name(c):
    return f"numba/{c['kernel']}/{c['variant']}" + (f"/threads:{c['threads']}" if c["threads"]
                                                      else "")


def machine_line(ctx):
    return (f"{ctx['cpu_model']}, {ctx['cores']} cores; numba {ctx['numba']} (llvmlite "
            f"{ctx['llvmlite']}), NumPy {ctx['numpy']}, Python {ctx['python']}; threading "
            f"layer {ctx['threading_layer']}")


def summary(configs, ctx, run_name):
    parts = [f"# speedlab numba: {run_name}", "",
             machine_line(ctx) + ". Every variant was checked by the kit's own checks "
             "(speedlab-check: the C references and tolerances) before it was timed.", ""]
    w = warnings(configs)
    if w:
        parts += ["## Warnings", ""] + w + [""]
    parts += ["## Headline", "",
              "Each rung at the most threads with a core each; medians of "
              f"{ctx['repetitions']} interleaved repetitions; speedup against this run's "
              "plain `@njit`.", "", headline(configs, ctx), "",
              "## Compile time: where the first call goes", "",
              "The first call of each variant in this process: numba compiles it (numba's "
              "`numba:compile` events; phases from its pass timings), then runs it. A warm "
              "call is the same call again, timed.", "", compile_table(configs), "",
              "## Details", "", "Every configuration: results.csv (the C bench's columns). "
              "Compile phases: compile.csv. Figures: speedup-<kernel>, compile-numba.", ""]
    return "\n".join(parts)


def console(configs, ctx):
    parts = [machine_line(ctx), ""] + warnings(configs) + ["", headline(configs, ctx), "",
                                                         compile_table(configs)]
    return "\n".join(parts)


def atomic_write(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def speedup_dat(configs, k, ctx):
    lines = [f"# {k}: speedup vs numba's @njit, one bar per rung (the most threads with a "
             "core each)", "# variant\tspeedup\tthreads\tran_on\tspeedup_low\tspeedup_high\t"
             "mark\tdetail", "# mark: 0 measured, 2 disturbed by other processes"]
    for c in rungs(configs, k, ctx["cores"]):
        b = baseline(configs, c)
        if not b:
            continue
        mark = 2 if c["contaminated"] else 0
        detail = (f"x{c['threads']}" if c["threads"] else "") + \
            (", disturbed" if mark else "")
        lines.append(f"\"{c['variant']}\"\t{speedup(configs, c):.4f}\t{c['threads'] or 1}\t"
                     f"\"host\"\t{b['ci_low'] / c['ci_high']:.4f}\t"
                     f"{b['ci_high'] / c['ci_low']:.4f}\t{mark}\t\"{detail.lstrip(', ')}\"")
    return "\n".join(lines) + "\n"


def compile_dat(configs):
    lines = ["# the first call of each numba variant, in seconds: compile phases, then run",
             "# label\t" + "\t".join(PHASES) + "\tother_compile\trun"]
    for c in compile_rows(configs):
        m, ph = c["compile"], c["compile"]["phases"]
        other = max(0.0, m["compile"] - sum(ph.values()))
        lines.append(f"\"{c['kernel']} {c['variant']}\"\t" +
                     "".join(f"{ph[p]:.5f}\t" for p in PHASES) +
                     f"{other:.5f}\t{max(0.0, m['first'] - m['compile']):.5f}")
    return "\n".join(lines) + "\n"


def compile_csv(configs):
    lines = ["kernel,variant,threads,first_call_s,compile_s,first_call_run_s," +
             "".join(f"{p}_s," for p in PHASES) + "functions_compiled,warm_median_s"]
    for c in compile_rows(configs):
        m, ph = c["compile"], c["compile"]["phases"]
        lines.append(f"{c['kernel']},{c['variant']},{c['threads']},{m['first']:.6f},"
                     f"{m['compile']:.6f},{max(0.0, m['first'] - m['compile']):.6f}," +
                     "".join(f"{ph[p]:.6f}," for p in PHASES) + f"{m['functions']}," +
                     (f"{c['median']:.9g}" if timed(c) else ""))
    return "\n".join(lines) + "\n"


def write_run(d, run_name, configs, ctx):
    atomic_write(os.path.join(d, "results.csv"),
                 COLUMNS + "\n" + "".join(csv_row(configs, c, ctx["cores"]) + "\n"
                                          for c in configs))
    atomic_write(os.path.join(d, "compile.csv"), compile_csv(configs))
    atomic_write(os.path.join(d, "compile-numba.dat"), compile_dat(configs))
    for k in kernels_of(configs):
        atomic_write(os.path.join(d, f"speedup-{k}.dat"), speedup_dat(configs, k, ctx))
    atomic_write(os.path.join(d, "run.gp"),
                 "# reference lines for plots/*.gp, from this run's context\n"
                 f"lanes = {ctx['simd_lanes_f64']}\ncores = {ctx['cores']}\n"
                 f"machine = \"{ctx['cpu_model']}, numba {ctx['numba']}\"\n"
                 "interval = \"95% CI\"\n")
    atomic_write(os.path.join(d, "context.txt"),
                 "".join(f"{k}: {v}\n" for k, v in ctx.items()))
    atomic_write(os.path.join(d, "summary.md"), summary(configs, ctx, run_name))


def plot(d, root):
    if shutil.which("gnuplot") is None:
        print("plots: gnuplot is not installed; the data is written (make bench installs it)")
        return
    subprocess.run(["sh", os.path.join(root, "plots", "plot.sh"), d],
                   stdout=subprocess.DEVNULL)


def discard(d):
    shutil.rmtree(d, ignore_errors=True)
