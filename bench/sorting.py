"""Sorting inside compiled code: ruchey vs Numba vs NumPy itself.

    python3 bench/sorting.py [--n N] [--thread-time]

numpy.sort and numpy.argsort (default and stable kinds) of N (10**6)
random float64, and numpy.searchsorted of N/10 random needles in them, each written once as a small function, compiled by ruchey
and by Numba (where it takes the kind) and run uncompiled by NumPy. Every
result is checked against NumPy's first (values; stable indices exactly).
Prints the median milliseconds per call (bench/timing.py's round robin;
with --thread-time, the calls' own CPU time, alternated call by call, for
a machine whose other work preempts this one).

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--thread-time", action="store_true")
    args = parser.parse_args()
    global MEDIANS
    MEDIANS = thread_time_medians if args.thread_time else round_robin_medians
    import ruchey
    try:
        import numba
    except ImportError:
        numba = None
    a = np.random.default_rng(1).random(args.n)
    print(f"{'':16s}{'numpy':>10s}{'ruchey':>10s}{'numba':>10s}   (ms, 10^{len(str(args.n)) - 1} float64)")
    for f in (sort, argsort, sort_stable, argsort_stable):
        calls = {"numpy": lambda f=f: f(a), "ruchey": (lambda r=ruchey.njit(f): r(a))}
        expected = np.sort(a) if "argsort" not in f.__name__ else np.argsort(a, kind="stable")
        assert np.array_equal(a[calls["ruchey"]()] if "argsort" in f.__name__ else calls["ruchey"](),
                              a[expected] if "argsort" in f.__name__ else expected)
        if numba is not None:
            nb = numba.njit(f)
            try:
                nb(a[:10])
                calls["numba"] = lambda: nb(a)
            except numba.core.errors.TypingError:  # no kind= in Numba
                pass
        report(f.__name__, calls)
    s, v = np.sort(a), np.random.default_rng(2).random(args.n // 10)
    calls = {"numpy": lambda: searchsorted(s, v), "ruchey": (lambda r=ruchey.njit(searchsorted): r(s, v))}
    assert np.array_equal(calls["numpy"](), calls["ruchey"]())
    if numba is not None:
        calls["numba"] = lambda nb=numba.njit(searchsorted): nb(s, v)
    report("searchsorted", calls)


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
    print(f"{name:16s}{cols}")


if __name__ == "__main__":
    main()
