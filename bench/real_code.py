"""Real-code patterns: ruchey against Numba on the loops real Numba code is made of.

    python3 bench/real_code.py [--quick] [--json PATH] [--only NAME,...]

The kernels (bench/real_kernels.py) are the shapes found in Numba functions
from public projects: distances with a helper per element or a runtime
integer exponent, guarded reductions, small heaps, moving averages, random
samplers, tiny dot products called a million times. Each is compiled from
the same source by ruchey and by Numba; both results are checked against
the plain Python function first (exactly for integers, to 1e-12 relative
for floats), then the median seconds per call are taken in alternating
rounds (bench/timing.py) and the ratio ruchey/Numba printed.

Target (issue 19): every kernel at most 1.0x Numba's time.
"""
import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np

from timing import REPO_ROOT, geomean, round_robin

DEFAULT_JSON = REPO_ROOT / "bench" / "results" / "real_code.json"
KERNELS_PATH = Path(__file__).resolve().with_name("real_kernels.py")


def load(label):
    """real_kernels.py as a fresh module, every function jitted by `label`
    (None: plain Python) before any call, so calls between them resolve to
    the compiled versions."""
    name = f"_real_kernels_{label or 'python'}"
    spec = importlib.util.spec_from_file_location(name, KERNELS_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if label is not None:
        jit = importlib.import_module(label)
        for key, value in list(vars(module).items()):
            if callable(value) and getattr(value, "__module__", None) == name:
                setattr(module, key, jit.njit(value))
    return module


def cases(quick):
    """(row name, kernel, full-size arguments, small arguments for the
    check against pure Python)."""
    r = np.random.default_rng(19)
    n = 10**5 if quick else 10**6

    def pair(size):
        return r.random(size) - 0.25, r.random(size) - 0.25
    x, y = pair(n)
    xs, ys = pair(500)
    short_x, short_y = pair(32)
    m, v = r.random((64, 10)), r.random(10)
    calls = 10**5 if quick else 10**6
    return [
        ("huber_distance", "huber_distance", (x, y), (xs, ys)),
        ("smooth_many", "smooth_many", (r.random(16), calls // 10), (r.random(16), 50)),
        ("minkowski p=3", "minkowski", (x, y, 3), (xs, ys, 3)),
        ("squared_euclidean", "squared_euclidean", (x, y), (xs, ys)),
        ("squared_euclidean n=32", "squared_euclidean", (short_x, short_y), (short_x, short_y)),
        ("canberra", "canberra", (x, y), (xs, ys)),
        ("k_smallest_sum k=16", "k_smallest_sum", (x, 16), (xs, 16)),
        ("ema", "ema", (x, 0.1), (xs, 0.1)),
        ("pi_by_rejection", "pi_by_rejection", (n // 2, 12345), (2000, 12345)),
        ("dot_rows 10-element", "dot_rows", (m, v, calls), (m, v, 300)),
    ]


def same(expected, got):
    if isinstance(expected, np.ndarray):
        return expected.shape == np.shape(got) and np.allclose(expected, got, rtol=1e-12, atol=0)
    if isinstance(expected, int):
        return expected == got
    return math.isclose(expected, got, rel_tol=1e-12, abs_tol=0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", default=str(DEFAULT_JSON))
    ap.add_argument("--only", default="")
    opts = ap.parse_args()
    plain = load(None)
    jits = {"ruchey": load("ruchey"), "numba": load("numba")}
    only = [s for s in opts.only.split(",") if s]
    budget = 0.5 if opts.quick else 2.0
    rows = {}
    for row, name, args, small in cases(opts.quick):
        if only and not any(o in row for o in only):
            continue
        expected = getattr(plain, name)(*small)
        calls = {}
        for label, module in jits.items():
            fn = getattr(module, name)
            if not same(expected, fn(*small)):
                raise SystemExit(f"{label} {row}: wrong result {fn(*small)!r}, Python gives {expected!r}")
            fn(*args)
            calls[label] = lambda f=fn: f(*args)
        medians, _ = round_robin(calls, budget, 7, 51)
        rows[row] = medians
        ratio = medians["ruchey"] / medians["numba"]
        print(f"{row:24} ruchey {medians['ruchey'] * 1e6:10.2f} us  numba {medians['numba'] * 1e6:10.2f} us"
              f"  ratio {ratio:5.2f}  {'PASS' if ratio <= 1.0 else 'FAIL'}", flush=True)
    ratios = [r["ruchey"] / r["numba"] for r in rows.values()]
    print(f"geometric mean ruchey/numba: {geomean(ratios):.2f}  (target: every kernel <= 1.0)")
    with open(opts.json, "w") as out:
        json.dump({"quick": opts.quick, "rows": rows}, out, indent=1)


if __name__ == "__main__":
    main()
