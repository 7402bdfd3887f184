"""Generator functions: ruchey vs Numba vs pure Python.

    python3 bench/generators.py [--n N]

Each generator compiled by ruchey and by Numba and run uncompiled by
Python: N (10**6) values of a linear congruential generator summed by a
compiled for loop over it; the sums of the windows of 8 elements of an
array of N floats (a generator of slices' sums); the primes below N by a
sieve kept across yields, counted; and a generator of N/10 ints iterated
from Python (list()). "loop" is the same first workload written as one
compiled loop without a generator, the cost a generator's state adds.
Every result is checked against Python's first (a float's to 1e-12: NumPy
and the compilers sum a window in different orders). Prints the median
milliseconds per call (bench/timing.py's round robin).
"""
import argparse
import math

import numpy as np

from timing import print_timed_row


def lcg(n):
    x = 1
    for _ in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        yield x


def lcg_sum(n):
    s = 0
    for x in lcg(n):
        s += x
    return s


def lcg_loop(n):
    s = 0
    x = 1
    for _ in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        s += x
    return s


def windows(a, w):
    for i in range(len(a) - w + 1):
        yield a[i:i + w].sum()


def window_max(a):
    best = -np.inf
    for s in windows(a, 8):
        best = max(best, s)
    return best


def primes(n):
    sieve = np.ones(n, dtype=np.bool_)
    for i in range(2, n):
        if sieve[i]:
            yield i
            for j in range(i * i, n, i):
                sieve[j] = False


def count_primes(n):
    c = 0
    for _ in primes(n):
        c += 1
    return c


def compile_all(jit):
    """The workloads compiled by jit, each calling its own compiled generator."""
    g = dict(np=np)
    for f in (lcg, lcg_sum, lcg_loop, windows, window_max, primes, count_primes):
        code = f.__code__
        g[f.__name__] = None
        fn = type(f)(code, g, f.__name__)
        g[f.__name__] = jit(fn)
    return g


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    args = parser.parse_args()
    n = args.n
    import ruchey
    try:
        import numba
    except ImportError:
        numba = None
        print("numba is not installed: Numba could not be measured")
    r = compile_all(ruchey.njit)
    nb = compile_all(numba.njit) if numba is not None else {}
    a = np.random.default_rng(1).standard_normal(n)
    print(f"{'':22s}{'python':>10s}{'ruchey':>10s}{'numba':>10s}   (ms, n = {n})")
    for name, f, arg in (("lcg summed", "lcg_sum", n), ("lcg, no generator", "lcg_loop", n),
                         ("window sums' max", "window_max", a), ("primes counted", "count_primes", n)):
        calls = {"python": lambda f=globals()[f]: f(arg), "ruchey": lambda f=r[f]: f(arg)}
        if nb:
            calls["numba"] = lambda f=nb[f]: f(arg)
        report(name, calls, globals()[f](arg))
    m = n // 10
    calls = {"python": lambda: list(lcg(m)), "ruchey": lambda: list(r["lcg"](m))}
    if nb:
        calls["numba"] = lambda: list(nb["lcg"](m))
    report("list() from Python", calls, list(lcg(m)))


def report(name, calls, expected):
    for label, fn in calls.items():
        got = fn()
        same = math.isclose(got, expected, rel_tol=1e-12) if isinstance(expected, float) else got == expected
        assert same, f"{name}: {label} gave {got!r:.60}, Python {expected!r:.60}"
    print_timed_row(name, calls)


if __name__ == "__main__":
    main()
