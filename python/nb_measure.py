"""nb_measure.py - lesson 8's clock, quietness and statistics, kept to the C
bench's rules so that numba rows mean what C rows mean.

- A repetition runs calls until min_time has passed; its time is per call.
- The median's interval is the distribution-free one of bench/measure/
  sample.c (order statistics of a binomial(n, 1/2), at least 95%).
- Quietness is bench/measure/quiet.h's: other processes' CPU while a
  repetition ran, from /proc/stat (busy time of every CPU, steal included)
  minus this process's own; a repetition is disturbed above a quarter of a
  core (and 0.03 CPU-seconds, the kernel's tick).
- Compile time comes from numba's own events (numba.core.event): the
  outermost numba:compile spans, and the pipeline's pass times grouped into
  phases.
"""
import math
import os
import time

from numba.core import event

BUSY_CORES = 0.25
BUSY_MIN_SECONDS = 0.03
CI_MIN_REPS = 6


def now():
    return time.perf_counter()


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def median_ci(values):
    """(low, high, coverage) for the median, as sl_median_ci."""
    s = sorted(values)
    n = len(s)
    pk = 2.0 ** -n
    tail = pk
    k = 0
    while k + 1 <= (n - 1) // 2:
        nxt = pk * (n - k) / (k + 1)
        if 1.0 - 2.0 * (tail + nxt) < 0.95:
            break
        pk = nxt
        tail += nxt
        k += 1
    return s[k], s[n - 1 - k], 1.0 - 2.0 * tail


def summarise(seconds):
    n = len(seconds)
    mean = sum(seconds) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in seconds) / (n - 1)) if n > 1 else 0.0
    low, high, level = median_ci(seconds)
    return dict(median=median(seconds), min=min(seconds), max=max(seconds), stddev=sd,
                cv=sd / mean if mean > 0 else 0.0, ci_low=low, ci_high=high,
                ci_level=level)


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def quiet_mark():
    """(wall, CPU-seconds of every process, CPU-seconds of this one), or None
    where /proc/stat cannot be read: "not measured", never "quiet"."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    # user nice system idle iowait irq softirq steal: busy is all but idle, iowait
    v = [int(x) for x in fields[1:9]]
    busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / _TICK
    t = os.times()
    return now(), busy, t.user + t.system


def others_between(a, b):
    """CPU-seconds other processes used between two marks (>= 0), or -1."""
    if a is None or b is None:
        return -1.0
    return max(0.0, (b[1] - a[1]) - (b[2] - a[2]))


def disturbed(others, wall):
    return others >= 0 and wall > 0 and others > BUSY_MIN_SECONDS and \
        others / wall > BUSY_CORES


def repetition(call, min_time):
    """One repetition: (seconds per call, calls, others CPU-seconds, wall)."""
    mark = quiet_mark()
    start = now()
    calls = 0
    while True:
        call()
        calls += 1
        elapsed = now() - start
        if elapsed >= min_time:
            break
    end = quiet_mark()
    return elapsed / calls, calls, others_between(mark, end), elapsed


def _phase(pass_name):
    if "inline" in pass_name:
        return "inlining"
    if "parfor" in pass_name:
        return "parfors"
    if "type" in pass_name or "typing" in pass_name:
        return "typing"
    if "lowering" in pass_name:
        return "lowering"
    return "front_end"


PHASES = ("front_end", "inlining", "typing", "parfors", "lowering")


class CompileClock:
    """Records numba's compile events during a block: the wall time inside
    outermost numba:compile spans, and the pass times of the functions those
    spans compiled, grouped into phases. Only the outermost ones: a nested
    compile (an inlined helper, the parfor's gufunc) runs inside one of
    their passes and is counted there. @vectorize with signatures compiles
    as it is built, without these events; `built` (seconds spent building
    the variant) stands in for it then."""

    def __enter__(self):
        self._rec = event.install_recorder("numba:compile")
        self._buffer = self._rec.__enter__()
        self.built = 0.0
        return self

    def __exit__(self, *exc):
        self._rec.__exit__(*exc)
        spans, depth, opened, outer = 0.0, 0, 0.0, {}
        for ts, ev in self._buffer.buffer:
            if ev.is_start:
                opened = ts if depth == 0 else opened
                depth += 1
                continue
            depth -= 1
            if depth == 0:
                spans += ts - opened
                disp = ev.data.get("dispatcher") if ev.data else None
                if disp is not None:
                    outer[id(disp)] = disp
        self.seconds = max(spans, self.built)
        self.phases = dict.fromkeys(PHASES, 0.0)
        self.functions = 0
        for disp in outer.values():
            for cres in getattr(disp, "overloads", {}).values():
                times = (getattr(cres, "metadata", None) or {}).get("pipeline_times", {})
                self.functions += 1
                for pipeline in times.values():
                    for name, t in pipeline.items():
                        self.phases[_phase(name)] += t.init + t.run + t.finalize
        return False
