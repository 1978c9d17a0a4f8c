"""nb_rows.py - lesson 8's rows: results.csv with the C bench's columns
(tree=numba) and compile.csv (where each first call goes, with what it ran
on as '#' lines, which the report shows).
Rows, not a report: the C bench imports them (--import) and its one report
shows them beside the C ladder, speedups against the C scalar, with the
compile table and its figure (scripts/numba.sh, make bench NUMBA=1).
"""
import os
import platform
import shutil

from nb_measure import PHASES

COLUMNS = ("tree,kernel,variant,threads_requested,threads_used,oversubscribed,schedule,"
           "size,work_unit,repetitions,median_s,min_s,max_s,stddev_s,cv,rate_per_s,"
           "speedup_vs_scalar,result,expected,abs_error,tolerance,valid,ran_on,std_error,"
           "error_sigmas,study,height,work_per_call,ci_low_s,ci_high_s,ci_level,others_cpu,"
           "disturbed_reps,contaminated,remeasured,precision,short_of_target,check,"
           "ranks,compute_s,compute_mean_s,"
           "communication_s,balance,work_balance,note")


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
                numba=f"{numba.__version__} (llvmlite {llvmlite.__version__})",
                numpy=numpy.__version__, python=platform.python_version(),
                threading_layer=layer, numba_threads=numba.config.NUMBA_NUM_THREADS,
                min_time_s=min_time, repetitions=reps)


def work(c):
    return c.get("work", 0.0)   # set by the driver from the kernel's table


def timed(c):
    return c.get("valid") and "median" in c


def num(fmt, value, show):
    return fmt % value if show else ""


def csv_row(c, ncores):
    t = timed(c)
    v = c.get("verdict") or dict(expected=0.0, error=0.0, tolerance=0.0)
    ans = c.get("answer", (float("nan"), 0))
    cells = ["numba", c["kernel"], c["variant"], str(c["threads"]), str(c["threads"] or 1),
             str(int(c["threads"] > ncores)), '""', str(c["problem"]["size"]), c["unit"],
             str(len(c["seconds"]) if t else 0)]
    for key, fmt in (("median", "%.9g"), ("min", "%.9g"), ("max", "%.9g"),
                     ("stddev", "%.9g"), ("cv", "%.4f")):
        cells.append(num(fmt, c.get(key, 0.0), t))
    cells.append(num("%.6g", work(c) / c["median"] if t else 0.0, t))
    cells.append("")     # speedup: the report's, against C's scalar
    # Exact, as the C writer: the bench judges these again on import.
    cells += ["%.17g" % ans[0], "%.17g" % v["expected"], "%.17g" % v["error"],
              "%.17g" % v["tolerance"], "yes" if c.get("valid") else "no", "host"]
    cells += ["", ""]    # std_error, error_sigmas: the report's, from the C kernel's
    cells += ["strong", str(c["problem"]["size"] if c["image"] else 0), "%.17g" % work(c)]
    for key, fmt in (("ci_low", "%.9g"), ("ci_high", "%.9g"), ("ci_level", "%.4f")):
        cells.append(num(fmt, c.get(key, 0.0), t))
    cells.append(num("%.3f", c.get("others_cpu", -1.0), t and c.get("others_cpu", -1) >= 0))
    cells += [str(c.get("disturbed", 0)), str(c.get("contaminated", 0)),
              str(c.get("remeasured", 0))]
    # No precision target; the check the kit ran ("exact" or "statistical");
    # not a lesson 6 row.
    cells += ["", "", c.get("mode", "exact")]
    return ",".join(cells) + ",,,,,,,"


def compile_rows(configs):
    return [c for c in configs if "compile" in c]


def name(c):
    return f"numba/{c['kernel']}/{c['variant']}" + (f"/threads:{c['threads']}" if c["threads"]
                                                      else "")


def atomic_write(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def compile_csv(configs, ctx):
    lines = [f"# {k}: {v}" for k, v in ctx.items()]
    lines += ["kernel,variant,threads,first_call_s,compile_s,first_call_run_s," +
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
                 COLUMNS + "\n" + "".join(csv_row(c, ctx["cores"]) + "\n"
                                          for c in configs))
    atomic_write(os.path.join(d, "compile.csv"), compile_csv(configs, ctx))


def discard(d):
    shutil.rmtree(d, ignore_errors=True)
