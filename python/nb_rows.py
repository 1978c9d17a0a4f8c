"""nb_rows.py - lesson 8's rows: results.csv with the C bench's columns
(tree=numba) and compile.csv (where each first call goes, with what it ran
on as '#' lines, which the report shows).
Rows, not a report: the C bench imports them (--import) and its one report
shows them beside the C ladder, speedups against the C scalar, with the
compile table and its figure (scripts/numba.sh, make bench NUMBA=1).
"""
import os
import platform
import re
import shutil

from nb_measure import PHASES

def read_columns():
    """results.csv's columns, in order, from the kit's one table of them
    (bench/report/columns.def), which the C writers are built from."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "bench", "report", "columns.def")) as f:
        return [m.group(1) for m in (re.match(r"SL_COLUMN\((\w+),", ln) for ln in f) if m]


COLUMNS = read_columns()


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
    """One row, by column (bench/report/columns.def); the cells a numba row
    does not fill are empty."""
    t = timed(c)
    v = c.get("verdict") or dict(expected=0.0, error=0.0, tolerance=0.0)
    ans = c.get("answer", (float("nan"), 0))
    cell = dict(tree="numba", kernel=c["kernel"], variant=c["variant"],
                threads_requested=str(c["threads"]), threads_used=str(c["threads"] or 1),
                oversubscribed=str(int(c["threads"] > ncores)), schedule='""',
                size=str(c["problem"]["size"]), work_unit=c["unit"],
                repetitions=str(len(c["seconds"]) if t else 0))
    for key, fmt in (("median", "%.9g"), ("min", "%.9g"), ("max", "%.9g"),
                     ("stddev", "%.9g"), ("cv", "%.4f")):
        cell[key if key == "cv" else key + "_s"] = num(fmt, c.get(key, 0.0), t)
    cell["rate_per_s"] = num("%.6g", work(c) / c["median"] if t else 0.0, t)
    # The speedup, std_error and error_sigmas are the report's (against C's
    # scalar, from the C kernel's). Exact, as the C writer: the bench judges
    # these again on import.
    cell.update(result="%.17g" % ans[0], expected="%.17g" % v["expected"],
                abs_error="%.17g" % v["error"], tolerance="%.17g" % v["tolerance"],
                valid="yes" if c.get("valid") else "no", ran_on="host", study="strong",
                height=str(c["problem"]["size"] if c["image"] else 0),
                work_per_call="%.17g" % work(c))
    for key, fmt in (("ci_low", "%.9g"), ("ci_high", "%.9g"), ("ci_level", "%.4f")):
        cell[key + "_s" if key != "ci_level" else key] = num(fmt, c.get(key, 0.0), t)
    cell["others_cpu"] = num("%.3f", c.get("others_cpu", -1.0),
                             t and c.get("others_cpu", -1) >= 0)
    cell.update(disturbed_reps=str(c.get("disturbed", 0)),
                contaminated=str(c.get("contaminated", 0)),
                remeasured=str(c.get("remeasured", 0)),
                check=c.get("mode", "exact"))      # no precision target; not lesson 6's
    unknown = set(cell) - set(COLUMNS)
    if unknown:
        raise KeyError(f"nb_rows: cells for no column of columns.def: {sorted(unknown)}")
    return ",".join(cell.get(name, "") for name in COLUMNS)


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
                 ",".join(COLUMNS) + "\n" + "".join(csv_row(c, ctx["cores"]) + "\n"
                                          for c in configs))
    atomic_write(os.path.join(d, "compile.csv"), compile_csv(configs, ctx))


def discard(d):
    shutil.rmtree(d, ignore_errors=True)
