"""Sorting inside compiled code: ruchey vs Numba vs NumPy itself.

    python3 bench/sorting.py [--n N] [--thread-time] [--dtypes float64,int32,...]

numpy.sort and numpy.argsort (default and stable kinds) of N (10**6)
random elements of each dtype (floats in [0, 1), ints over their whole
range), and numpy.searchsorted of N/10 random needles in N sorted float64,
each written once as a small function, compiled by ruchey and by Numba
(where it takes the kind) and run uncompiled by NumPy. Every result is
checked against NumPy's first (values; stable indices exactly). Prints
the median milliseconds per call (bench/timing.py's round robin; with
--thread-time, the calls' own CPU time, alternated call by call, for a
machine whose other work preempts this one) and ruchey's time over
NumPy's.

RUCHEY_SORT_ISA=avx2 (or scalar) in the environment measures the sorts
a processor without AVX-512 (or without AVX2) runs.

Targets (issue 14): numpy.sort and numpy.argsort within 1.3x of NumPy's;
numpy.searchsorted within 1.2x.
"""
import argparse
import statistics
import time

import numpy as np

from timing import round_robin


def sort(a):
    return np.sort(a)


def argsort(a):
    return np.argsort(a)


def sort_stable(a):
    return np.sort(a, kind="mergesort")


def argsort_stable(a):
    return np.argsort(a, kind="mergesort")


def searchsorted(a, v):
    return np.searchsorted(a, v)


DTYPES = "float64,float32,int64,int32,uint32,int16,uint16,int8,uint8"


def random_values(rng, dtype, n):
    if np.dtype(dtype).kind == "f":
        return rng.random(n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--thread-time", action="store_true")
    parser.add_argument("--dtypes", default=DTYPES)
    args = parser.parse_args()
    global MEDIANS
    MEDIANS = thread_time_medians if args.thread_time else round_robin_medians
    import ruchey
    try:
        import numba
    except ImportError:
        numba = None
    print(f"{'':24s}{'numpy':>10s}{'ruchey':>10s}{'numba':>10s}{'ruchey/numpy':>14s}   (ms, 10^{len(str(args.n)) - 1} elements)")
    compiled = {f: ruchey.njit(f) for f in (sort, argsort, sort_stable, argsort_stable)}
    jitted = {f: numba.njit(f) for f in compiled} if numba is not None else {}
    for dtype in args.dtypes.split(","):
        a = random_values(np.random.default_rng(1), dtype, args.n)
        for f, r in compiled.items():
            calls = {"numpy": lambda f=f: f(a), "ruchey": lambda r=r: r(a)}
            indices = "argsort" in f.__name__
            expected = np.argsort(a, kind="stable") if indices else np.sort(a)
            got = calls["ruchey"]()
            assert np.array_equal(a[got], a[expected]) if indices else np.array_equal(got, expected)
            if indices and "stable" in f.__name__:
                assert np.array_equal(got, expected)
            if f in jitted:
                try:
                    jitted[f](a[:10])
                    calls["numba"] = lambda nb=jitted[f]: nb(a)
                except numba.core.errors.TypingError:  # no kind= in Numba
                    pass
            report(f"{f.__name__} {dtype}", calls)
    a = np.random.default_rng(1).random(args.n)
    s, v = np.sort(a), np.random.default_rng(2).random(args.n // 10)
    calls = {"numpy": lambda: searchsorted(s, v), "ruchey": (lambda r=ruchey.njit(searchsorted): r(s, v))}
    assert np.array_equal(calls["numpy"](), calls["ruchey"]())
    if numba is not None:
        calls["numba"] = lambda nb=numba.njit(searchsorted): nb(s, v)
    report("searchsorted float64", calls)


def round_robin_medians(calls):
    return round_robin(calls, budget_s=6, min_rounds=5, max_rounds=30)[0]


def thread_time_medians(calls, rounds=21):
    """Median CPU seconds of this thread per call, the calls alternated."""
    samples = {k: [] for k in calls}
    for _ in range(rounds):
        for k, fn in calls.items():
            start = time.thread_time()
            fn()
            samples[k].append(time.thread_time() - start)
    return {k: statistics.median(v) for k, v in samples.items()}


MEDIANS = round_robin_medians


def report(name, calls):
    med = MEDIANS(calls)
    cols = "".join(f"{med[k] * 1e3:10.2f}" if k in med else f"{'-':>10s}" for k in ("numpy", "ruchey", "numba"))
    print(f"{name:24s}{cols}{med['ruchey'] / med['numpy']:14.2f}", flush=True)


if __name__ == "__main__":
    main()
