#!/usr/bin/env python3
"""numba_bench.py - `make numba`: lesson 8's numba ladder, validated and timed
by the kit's rules, written as rows the C kit's report imports.

Order, as in bench/bench_main.c: plan from the kernel tables (kernels/*/numba.py)
and the C problem definitions' sizes (speedlab-check --sizes); run every
configuration once at the timed size (a variant's first call, with numba's
compile events recorded) and at the kernel's probe size; check every answer
with the C kit's own checks (speedlab-check); time only the valid ones,
repetitions interleaved, quietness per repetition, disturbed ones measured
again; write results.csv (the C bench's columns, tree=numba) and compile.csv
(with the run's context) into <results>/.<name>.partial, then rename it. The report
is the C bench's (scripts/numba.sh runs it with these rows imported).
Exit codes as common/exitcodes.h: 2 bad input, 3 a variant failed
validation, 4 numba missing.
"""
import argparse
import datetime
import glob
import importlib.util
import os
import socket
import subprocess
import sys

EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, EXIT_INVALID, EXIT_MISSING = 0, 1, 2, 3, 4
PROG = "numba_bench"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def fail(code, message):
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(code)


def install_hint():
    sudo = "" if os.geteuid() == 0 else "sudo "
    return f"{sudo}apt-get install python3-numba python3-numpy"


try:
    import numba
    import numpy as np
except ImportError as e:
    fail(EXIT_MISSING, f"numba is not installed for {sys.executable} ({e.name} is missing); "
         f"install it with: {install_hint()}")

import nb_measure  # noqa: E402  (after the check above: they import numba)
import nb_rows  # noqa: E402


def kernel_tables():
    """Every kernel's numba ladder: the KERNELS table of each kernel folder's
    numba.py (kernels/<kernel>/numba.py), so a new one needs no line here."""
    tables = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "kernels", "*", "numba.py"))):
        name = "nb_" + os.path.basename(os.path.dirname(path))
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        # Registered before it runs, as Python's own recipe does: numba
        # 0.55 (Ubuntu 22.04's) imports a jitted function's module by name
        # when it types a call to it.
        sys.modules[name] = module
        spec.loader.exec_module(module)
        tables.update(module.KERNELS)
    return tables


KERNELS = kernel_tables()


class Parser(argparse.ArgumentParser):
    def error(self, message):   # one line and exit 2, as the C programs do
        fail(EXIT_USAGE, message)


def parse_args(argv):
    p = Parser(prog="make numba", description=__doc__.split("\n\n")[0])
    p.add_argument("--kernel", help="kernels, comma-separated (default: all)")
    p.add_argument("--variant", help="variants, comma-separated (njit always comes along)")
    p.add_argument("--threads", help="thread counts for prange variants (default: 1, 2, 4, "
                   "... and the core count)")
    p.add_argument("--quick", action="store_true", help="small sizes, short repetitions")
    p.add_argument("--reps", type=int, default=nb_measure.CI_MIN_REPS)
    p.add_argument("--min-time", type=float, default=None, help="seconds per repetition")
    p.add_argument("--results", default=os.path.join(ROOT, "results", "numba"))
    p.add_argument("--checker", default=os.path.join(ROOT, "build", "default", "bench",
                                                     "speedlab-check"))
    p.add_argument("--no-plots", action="store_true", help="passed on to the C report")
    a = p.parse_args(argv)
    if a.reps < 1 or a.reps > 64:
        fail(EXIT_USAGE, f"--reps {a.reps}: allowed 1 to 64")
    if a.min_time is not None and not 0 < a.min_time <= 60:
        fail(EXIT_USAGE, f"--min-time {a.min_time}: allowed (0, 60] seconds")
    return a


def cores():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def thread_list(text):
    if text is None:
        n, out, t = cores(), [], 1
        while t < n:
            out.append(t)
            t *= 2
        return out + [n]
    try:
        out = sorted({int(x) for x in text.split(",")})
    except ValueError:
        fail(EXIT_USAGE, f"--threads '{text}': want a comma list of counts such as 1,2")
    most = numba.config.NUMBA_NUM_THREADS
    if out[0] < 1 or out[-1] > most:
        fail(EXIT_USAGE, f"--threads '{text}': numba's pool has {most} threads here "
             f"(NUMBA_NUM_THREADS); allowed 1 to {most}")
    return out


def kit_sizes(checker):
    """The C problem definitions' sizes: the one source of them."""
    try:
        out = subprocess.run([checker, "--sizes"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        fail(EXIT_USAGE, f"cannot run the kit's checker '{checker}' ({e}); build the kit "
             f"first: make build")
    sizes = {}
    for line in out.stdout.splitlines():
        name, default, quick, probe, max_iter, unit = line.split("\t")
        sizes[name] = dict(default=int(default), quick=int(quick), probe=int(probe),
                           max_iter=int(max_iter), unit=unit)
    return sizes


def pick(names, known, what):
    if names is None:
        return list(known)
    out = names.split(",")
    for n in out:
        if n not in known:
            fail(EXIT_USAGE, f"unknown {what} '{n}' (known: {', '.join(known)})")
    return out


def plan(args, sizes):
    configs = []
    counts = thread_list(args.threads)
    all_variants = {v[0] for k in KERNELS.values() for v in k["variants"]}
    wanted = pick(args.variant, sorted(all_variants), "variant")
    # The kit's lesson order (speedlab-check --sizes lists it so).
    ordered = [k for k in sizes if k in KERNELS]
    for kname in pick(args.kernel, ordered, "kernel"):
        k, s = KERNELS[kname], sizes[kname]
        for name, make, threaded, mode in k["variants"]:
            if name != "njit" and name not in wanted:
                continue
            for t in counts if threaded else [0]:
                problem = dict(size=s["quick"] if args.quick else s["default"], height=0,
                               max_iter=s["max_iter"], seed=0, threads=t)
                configs.append(dict(kernel=kname, variant=name, make=make, mode=mode,
                                    threads=t, problem=problem, unit=s["unit"],
                                    probe=dict(problem, size=s["probe"]),
                                    image=k.get("image", False), error=""))
    return configs


def call(c, fn, problem):
    """One call of config c's variant on problem, on c's threads."""
    if c["threads"]:
        numba.set_num_threads(c["threads"])
    return KERNELS[c["kernel"]]["call"](fn, problem)


def run_once(c, fn, problem, answer_path):
    """One call; its image (fractals) or its arrays (a kernel table's
    "write": k-means' labels and centroids) go to answer_path for the
    kit's checker."""
    value, hits, data = call(c, fn, problem)
    if data is not None:
        write = KERNELS[c["kernel"]].get("write")
        if write:
            write(data, answer_path)
        else:
            data.astype(np.int32).tofile(answer_path)
    return value, hits, data


def validate(configs, partial, checker):
    """Run each configuration at its size and at the probe size, then check
    every answer with the kit's own checks. The first configuration of each
    variant builds it (compile events recorded); the others reuse it."""
    built, manifest = {}, []
    for i, c in enumerate(configs):
        key = (c["kernel"], c["variant"])
        images = [os.path.join(partial, f".check-{i}-{w}.bin") for w in ("t", "p")]
        try:
            if key not in built:
                start = nb_measure.now()
                with nb_measure.CompileClock() as clock:
                    fn = c["make"]()
                    clock.built = nb_measure.now() - start
                    answer = run_once(c, fn, c["problem"], images[0])
                first = nb_measure.now() - start
                built[key] = fn
                c["compile"] = dict(first=first, compile=clock.seconds, phases=clock.phases,
                                    functions=clock.functions)
                note = f"first call {first:.2f} s, of which compiling {clock.seconds:.2f} s"
            else:
                answer = run_once(c, built[key], c["problem"], images[0])
                note = ""
            probe = run_once(c, built[key], c["probe"], images[1])
        except Exception as e:   # a numba error is this variant's, not the run's
            c["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            print(f"  {nb_rows.name(c)}: FAILED to run: {c['error']}")
            continue
        c["fn"] = built[key]
        c["answer"] = answer[:2]
        c["work"] = KERNELS[c["kernel"]]["work"](c["problem"], answer)
        for tag, p, ans, img in (("t", c["problem"], answer, images[0]),
                                 ("p", c["probe"], probe, images[1])):
            manifest.append(f"{i}{tag}\t{c['kernel']}\t{p['size']}\t{p['height']}\t"
                            f"{p['max_iter']}\t{p['seed']}\t{c['mode']}\t{ans[0]!r}\t"
                            f"{ans[1]}\t{img if ans[2] is not None else '-'}")
        if note:
            print(f"  {nb_rows.name(c)}: {note}")
        sys.stdout.flush()
    path = os.path.join(partial, ".manifest.tsv")
    with open(path, "w") as f:
        f.write("\n".join(manifest) + "\n")
    out = subprocess.run([checker, path], capture_output=True, text=True)
    if out.returncode not in (EXIT_OK, EXIT_INVALID):
        fail(EXIT_RUNTIME, f"the kit's checker failed: {out.stderr.strip()}")
    verdicts = {}
    for line in out.stdout.splitlines():
        vid, ok, expected, error, tolerance, error_name = line.split("\t")
        verdicts[vid] = dict(ok=ok == "ok", expected=float(expected), error=float(error),
                             tolerance=float(tolerance), error_name=error_name)
    for name in os.listdir(partial):
        if name.startswith(".check-") or name == ".manifest.tsv":
            os.remove(os.path.join(partial, name))
    invalid = 0
    for i, c in enumerate(configs):
        t, p = verdicts.get(f"{i}t"), verdicts.get(f"{i}p")
        c["verdict"] = t
        c["valid"] = bool(t and p and t["ok"] and p["ok"])
        if not c["valid"]:
            invalid += 1
            bad = t if t and not t["ok"] else p
            why = c["error"] or (f"{bad['error_name']} {bad['error']:g} > tolerance "
                                 f"{bad['tolerance']:g}" if bad else "no answer")
            where = "" if c["error"] or bad is t else " (at the probe size)"
            print(f"  {nb_rows.name(c)}: WRONG{where}: {why}")
    return invalid


def time_all(configs, reps, min_time, passes=2):
    """Repetitions interleaved across configurations, as the C bench does;
    a configuration disturbed by other processes is measured again at the
    end (once), and the cleaner measurement is kept."""
    valid = [c for c in configs if c["valid"]]
    pending = valid
    for attempt in range(passes):
        if not pending:
            break
        label = "timing" if attempt == 0 else "measuring again (disturbed)"
        est = sum(max(min_time, c["first_run"]) for c in pending) * reps
        print(f"{label} {len(pending)} configuration(s): {reps} repetitions, >= {min_time:g} s "
              f"each, about {est:.0f} s")
        got = {id(c): [] for c in pending}
        for r in range(reps):
            for c in pending:
                got[id(c)].append(nb_measure.repetition(
                    lambda c=c: call(c, c["fn"], c["problem"]), min_time))
            print(f"  repetition {r + 1}/{reps} done")
            sys.stdout.flush()
        for c in pending:
            rows = got[id(c)]
            d = sum(nb_measure.disturbed(o, w) for _, _, o, w in rows)
            if attempt == 0 or d < c["disturbed"]:
                c.update(seconds=[s for s, _, _, _ in rows], disturbed=d,
                         others=[o for _, _, o, _ in rows], windows=[w for _, _, _, w in rows])
            c["remeasured"] = attempt
        pending = [c for c in pending if c["disturbed"] > 0]
    for c in valid:
        c.update(nb_measure.summarise(c["seconds"]))
        known = [(o, w) for o, w in zip(c["others"], c["windows"]) if o >= 0]
        c["others_cpu"] = sum(o for o, _ in known) / sum(w for _, w in known) if known else -1.0
        c["contaminated"] = int(c["disturbed"] > 0)


def first_runs(configs):
    """A call's time from validation, for the time estimate only."""
    for c in configs:
        comp = c.get("compile")
        c["first_run"] = max(0.0, comp["first"] - comp["compile"]) if comp else 0.1


def make_run_folder(base):
    os.makedirs(base, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    name = f"{stamp}-{socket.gethostname().split('.')[0]}"
    partial = os.path.join(base, f".{name}.partial")
    os.mkdir(partial)
    return name, partial


def publish(base, name, partial):
    final = os.path.join(base, name)
    os.rename(partial, final)
    tmp = os.path.join(base, ".latest.tmp")
    if os.path.lexists(tmp):
        os.remove(tmp)
    os.symlink(name, tmp)
    os.replace(tmp, os.path.join(base, "latest"))
    return final


def main(argv):
    args = parse_args(argv)
    sizes = kit_sizes(args.checker)
    min_time = args.min_time or (0.05 if args.quick else 0.5)
    configs = plan(args, sizes)
    try:
        name, partial = make_run_folder(args.results)
    except OSError as e:
        fail(EXIT_USAGE, f"cannot make a run folder in '{args.results}': {e.strerror}")
    try:
        print(f"speedlab numba (numba {numba.__version__}, Python "
              f"{sys.version.split()[0]}): validating {len(configs)} configurations")
        invalid = validate(configs, partial, args.checker)
        print(f"  {len(configs) - invalid} of {len(configs)} valid")
        first_runs(configs)
        if invalid < len(configs):
            time_all(configs, args.reps, min_time)
        context = nb_rows.context(numba, cores(), min_time, args.reps)
        nb_rows.write_run(partial, name, configs, context)
        final = publish(args.results, name, partial)
    except KeyboardInterrupt:
        nb_rows.discard(partial)
        fail(130, "interrupted; nothing written")
    except OSError as e:
        nb_rows.discard(partial)
        fail(EXIT_RUNTIME, f"cannot write the run folder: {e}")
    print(f"rows: {final}/results.csv and compile.csv (also {args.results}/latest)")
    if invalid:
        print(f"{invalid} configuration(s) failed validation: see above; exit code 3")
        return EXIT_INVALID
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
