"""Splits, windows, insert, delete and setxor1d inside compiled code:
ruchey vs Numba vs NumPy itself.

    python3 bench/split_insert.py [--n N] [--budget SECONDS]

Each operation is one small function written once (below), compiled by
ruchey and by Numba from the same source and run uncompiled by NumPy (the
loops as Python): 1000 pieces of array_split of N (10**6) float64, the
sums of the 16-wide windows of sliding_window_view over N/10, insert and
delete at 1000 random positions of N float64, and setxor1d of two arrays
of N/10 random ints. Every result is checked against NumPy's first.
Prints the median milliseconds per call (bench/timing.py's round robin,
the three columns in alternating rounds) and ruchey's time over Numba's.
"""
import argparse

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from timing import round_robin


def split_heads(a, n):
    s = 0.0
    for p in np.array_split(a, n):
        s += p[0]
    return s


def window_sums(x, w):
    v = sliding_window_view(x, w)
    out = np.empty(v.shape[0])
    for i in range(v.shape[0]):
        out[i] = v[i].sum()
    return out


def insert(a, ix, v):
    return np.insert(a, ix, v)


def delete(a, ix):
    return np.delete(a, ix)


def setxor(a, b):
    return np.setxor1d(a, b)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of timing per operation")
    args = parser.parse_args()
    import numba
    import ruchey

    rng = np.random.default_rng(0)
    n = args.n
    a, ix, v = rng.random(n), rng.integers(0, n, 1000), rng.random(1000)
    cases = [(split_heads, (a, 1000)), (window_sums, (a[: n // 10], 16)), (insert, (a, ix, v)), (delete, (a, ix)),
             (setxor, (rng.integers(0, n // 5, n // 10), rng.integers(0, n // 5, n // 10)))]
    print(f"{'operation':12s} {'ruchey ms':>10s} {'Numba ms':>10s} {'NumPy ms':>10s} {'ruchey/Numba':>13s}")
    for fn, fargs in cases:
        compiled = {"ruchey": ruchey.njit(fn), "numba": numba.njit(fn)}
        expected = fn(*fargs)
        for label, f in compiled.items():
            np.testing.assert_allclose(f(*fargs), expected, err_msg=f"{fn.__name__} under {label}")
        calls = {label: (lambda f=f: f(*fargs)) for label, f in compiled.items()}
        calls["numpy"] = lambda: fn(*fargs)
        median, _ = round_robin(calls, args.budget, 5, 200)
        print(f"{fn.__name__:12s} {median['ruchey'] * 1e3:10.3f} {median['numba'] * 1e3:10.3f} "
              f"{median['numpy'] * 1e3:10.3f} {median['ruchey'] / median['numba']:13.2f}")


if __name__ == "__main__":
    main()
