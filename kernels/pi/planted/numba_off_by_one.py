"""planted/numba_off_by_one.py - lesson 8's check, tested: the numba driver with one more pi
variant that drops the last step (an off-by-one a participant makes) must
flag it with the kit's own check and exit 3, never time it.

usage: python3 kernels/pi/planted/numba_off_by_one.py [numba_bench.py options]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "python"))
import numba_bench  # noqa: E402
from numba import njit  # noqa: E402


def pi_off_by_one(steps):
    h = 1.0 / steps
    total = 0.0
    for i in range(steps - 1):
        x = (i + 0.5) * h
        total += 4.0 / (1.0 + x * x)
    return h * total


numba_bench.KERNELS["pi"]["variants"].append(
    ("njit_off_by_one", lambda: njit(pi_off_by_one), False, "exact"))
sys.exit(numba_bench.main(sys.argv[1:]))
