"""NumPy inside compiled code: ruchey vs Numba vs NumPy itself.

    python3 bench/numpy_ops.py [--quick] [--json PATH]

Each operation is one small function written once (below) over 10**6
elements (a 1000x1000 array for the axis reductions), compiled by ruchey
and by Numba from the same source and called from Python beside NumPy
running the same function uncompiled. Every result is checked against
NumPy's before anything is timed. Measured: the median seconds per call
(bench/timing.py's round robin, all columns in alternating rounds), and
the first call (compile + run) of each operation in a fresh interpreter.

Targets (issue 13): fused expressions at least 1.5x faster than NumPy and
no slower than Numba; reductions, masks and where within 1.1x of NumPy;
axis reductions within 1.2x; a first call under 1/10 of Numba's.
"""
import argparse
import json
import sys
import textwrap

import numpy as np

from timing import REPO_ROOT, ChildError, round_robin, run_child

DEFAULT_JSON = REPO_ROOT / "bench" / "results" / "numpy_ops.json"

SOURCE = '''
import numpy as np

def fused_5(a, b, c, d, e):
    return a * b + c * d - e

def fused_norm(x, y):
    return np.sqrt(x * x + y * y)

def total(x):
    return np.sum(x)

def mean(x):
    return x.mean()

def std(x):
    return x.std()

def argmax(x):
    return np.argmax(x)

def masked(x):
    return x[x > 0.5]

def where(c, a, b):
    return np.where(c, a, b)

def sum_axis0(m):
    return m.sum(axis=0)

def sum_axis1(m):
    return m.sum(axis=1)
'''

# name -> (argument maker, target ratio of ruchey's time to NumPy's, or None)
N = 10**6


def make_args(name):
    r = np.random.default_rng(2024)
    if name == "fused_5":
        return tuple(r.random(N) for _ in range(5))
    if name == "fused_norm":
        return r.random(N), r.random(N)
    if name == "where":
        return r.random(N) > 0.5, r.random(N), r.random(N)
    if name.startswith("sum_axis"):
        return (r.random((1000, 1000)),)
    return (r.random(N),)


TARGET_VS_NUMPY = {"fused_5": 1 / 1.5, "fused_norm": 1 / 1.5, "total": 1.1, "mean": 1.1, "std": 1.1,
                   "argmax": 1.1, "masked": 1.1, "where": 1.1, "sum_axis0": 1.2, "sum_axis1": 1.2}
NAMES = list(TARGET_VS_NUMPY)

FIRST_CALL = """
import json, time, numpy as np
import {module} as jit
ns = {{}}
exec(compile({source!r}, "<numpy_ops>", "exec"), ns)
f = jit.njit(ns[{name!r}])
args = {args}
t0 = time.perf_counter()
f(*args)
print(json.dumps({{"first_call_s": time.perf_counter() - t0}}))
"""


def first_call_args(name):
    """A small version of the inputs, as source for the child process."""
    if name == "fused_5":
        return "tuple(np.random.rand(1000) for _ in range(5))"
    if name == "fused_norm":
        return "(np.random.rand(1000), np.random.rand(1000))"
    if name == "where":
        return "(np.random.rand(1000) > 0.5, np.random.rand(1000), np.random.rand(1000))"
    if name.startswith("sum_axis"):
        return "(np.random.rand(30, 30),)"
    return "(np.random.rand(1000),)"


def compile_all(module):
    ns = {}
    exec(compile(SOURCE, "<numpy_ops>", "exec"), ns)
    return {name: module.njit(ns[name]) for name in NAMES}, ns


def same(expected, got):
    if isinstance(expected, np.ndarray):
        return expected.shape == np.shape(got) and np.allclose(expected, got, rtol=1e-12, atol=0)
    return np.isclose(expected, got, rtol=1e-12, atol=0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", default=str(DEFAULT_JSON))
    opts = ap.parse_args()
    import ruchey
    jits = {"ruchey": ruchey}
    try:
        import numba
        jits["numba"] = numba
    except ImportError:
        print("numba is not installed: its column is left out")
    compiled = {label: compile_all(m)[0] for label, m in jits.items()}
    _, plain = compile_all(ruchey)
    budget = 0.5 if opts.quick else 2.0
    rows = {}
    for name in NAMES:
        args = make_args(name)
        expected = plain[name](*args)
        calls = {"numpy": lambda f=plain[name]: f(*args)}
        for label in jits:
            fn = compiled[label][name]
            if not same(expected, fn(*args)):
                raise SystemExit(f"{label} {name}: wrong result")
            calls[label] = lambda f=fn: f(*args)
        medians, _ = round_robin(calls, budget, 7, 51)
        rows[name] = {"steady": medians}
    for name in NAMES:
        firsts = {}
        for label in jits:
            src = FIRST_CALL.format(module=label, source=SOURCE, name=name, args=first_call_args(name))
            try:
                samples = [r["first_call_s"] for r in run_child(textwrap.dedent(src), 3)]
                firsts[label] = sorted(samples)[1]
            except ChildError as e:
                firsts[label] = None
                print(f"{label} {name}: first call failed: {e}", file=sys.stderr)
        rows[name]["first_call"] = firsts
    report(rows, "numba" in jits)
    with open(opts.json, "w") as out:
        json.dump({"n": N, "rows": rows, "targets_vs_numpy": TARGET_VS_NUMPY}, out, indent=1)


def report(rows, with_numba):
    print(f"{'operation':12} {'ruchey':>10} {'numpy':>10} {'numba':>10} {'r/numpy':>8} {'r/numba':>8} "
          f"{'1st r':>8} {'1st nb':>8} {'1st r/nb':>8}  target")
    for name, row in rows.items():
        s, f = row["steady"], row["first_call"]
        vs_np = s["ruchey"] / s["numpy"]
        vs_nb = s["ruchey"] / s["numba"] if with_numba else float("nan")
        first_r, first_nb = f.get("ruchey"), f.get("numba")
        first_ratio = first_r / first_nb if first_r and first_nb else float("nan")
        ok = vs_np <= TARGET_VS_NUMPY[name] and (not with_numba or not name.startswith("fused") or vs_nb <= 1.0)
        ok = ok and (first_ratio != first_ratio or first_ratio < 0.1)
        print(f"{name:12} {s['ruchey'] * 1e3:9.3f}m {s['numpy'] * 1e3:9.3f}m "
              f"{s.get('numba', float('nan')) * 1e3:9.3f}m {vs_np:8.2f} {vs_nb:8.2f} "
              f"{(first_r or float('nan')) * 1e3:7.1f}m {(first_nb or float('nan')) * 1e3:7.1f}m {first_ratio:8.3f}  "
              f"{'PASS' if ok else 'FAIL'}")


if __name__ == "__main__":
    main()
