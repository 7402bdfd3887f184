"""NumPy functions inside compiled code, ruchey against Numba, in CPU time.

    python3 bench/numpy_cpu.py [--rounds N] [--only NAME,...]

Each operation is one small function written once (below), compiled by
ruchey and by Numba from the same source. Every result is checked against
the uncompiled function's before anything is timed (ruchey's must equal
it; Numba's histogram, which skips NumPy's edge corrections, may not). Measured: the process
CPU time of one sample (enough calls to last ~20 ms), the minimum over
alternating rounds of the two compilers, so that other work on a loaded
machine (which shows in wall time, much less in our own CPU time) slows
neither more than the other. Printed: both minima and ruchey / Numba
(below 1: ruchey is faster).
"""
import argparse
import gc
import time

import numpy as np

SOURCE = '''
import numpy as np

def histogram_range(x):
    return np.histogram(x, 50, (0.1, 0.9))

def histogram_auto(x):
    return np.histogram(x, 50)

def partition(x):
    return np.partition(x, x.size // 3)

def flip(m):
    return np.flip(m)

def flip_1d(x):
    return np.flip(x)

def ravel_transpose(m):
    return m.T.ravel()

def take_indices(x, i):
    return x[i]

def take_mask(x, mask):
    return x[mask]
'''

N = 10**6


def make_args(name):
    r = np.random.default_rng(2024)
    if name in ("flip", "ravel_transpose"):
        return (r.random((1000, 1000)),)
    if name == "take_indices":
        return r.random(N), r.integers(0, N, N)
    if name == "take_mask":
        return r.random(N), r.random(N) > 0.5
    return (r.random(N),)


NAMES = ["histogram_range", "histogram_auto", "partition", "flip", "flip_1d", "ravel_transpose",
         "take_indices", "take_mask"]


def compile_all(module, names):
    ns = {}
    exec(compile(SOURCE, "<numpy_cpu>", "exec"), ns)
    return {name: module.njit(ns[name]) for name in names}, ns


def same(expected, got):
    if isinstance(expected, tuple):
        return all(same(e, g) for e, g in zip(expected, got))
    return np.array_equal(expected, got)


def cpu_sample(fn, number):
    start = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - start) / number


def cpu_minima(calls, rounds, sample_s=0.02):
    """min over `rounds` alternating samples of each callable's CPU seconds per call"""
    number = {}
    for label, fn in calls.items():
        fn()
        number[label] = max(1, int(sample_s / max(cpu_sample(fn, 1), 1e-7)))
    best = {label: float("inf") for label in calls}
    gc.disable()
    try:
        for r in range(rounds):
            for label in (list(calls) if r % 2 == 0 else list(reversed(calls))):
                best[label] = min(best[label], cpu_sample(calls[label], number[label]))
    finally:
        gc.enable()
    return best


def check(name, expected, got, args):
    """a partition's order within each side is free: its kth element, sides and values are checked"""
    if name == "partition":
        k = args[0].size // 3
        return got[k] == expected[k] and np.array_equal(np.sort(got), np.sort(expected)) and \
            (got[:k] <= got[k]).all() and (got[k + 1:] >= got[k]).all()
    return same(expected, got)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--only", default="")
    opts = ap.parse_args()
    names = opts.only.split(",") if opts.only else NAMES
    import numba
    import ruchey
    jits = {"ruchey": ruchey, "numba": numba}
    compiled = {label: compile_all(m, names)[0] for label, m in jits.items()}
    _, plain = compile_all(ruchey, names)
    print(f"{'operation':18} {'ruchey us':>10} {'numba us':>10} {'ratio':>7}")
    for name in names:
        args = make_args(name)
        expected = plain[name](*args)
        calls = {}
        for label in jits:
            fn = compiled[label][name]
            if not check(name, expected, fn(*args), args):
                if label == "ruchey":
                    raise SystemExit(f"{label} {name}: wrong result")
                print(f"  ({label}'s {name} differs from NumPy's)")
            calls[label] = lambda f=fn: f(*args)
        best = cpu_minima(calls, opts.rounds)
        print(f"{name:18} {best['ruchey'] * 1e6:10.1f} {best['numba'] * 1e6:10.1f} "
              f"{best['ruchey'] / best['numba']:7.2f}", flush=True)


if __name__ == "__main__":
    main()
