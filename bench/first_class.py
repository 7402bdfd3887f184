"""First-class functions (types.FunctionType): ruchey vs Numba vs pure Python.

    python3 bench/first_class.py [--n N]

A cost matrix of two series of N (500) points whose distance is a
FunctionType parameter (pyts' DTW shape): the function is called N * N
times through its address; and the same function called 1000 times from
Python on 2-point series, where passing the compiled distance in (unboxing
it to its entry) dominates. Every result is checked against Python's first. Prints
the median milliseconds per call (bench/timing.py's round robin).
"""
import argparse

import numpy as np

from timing import print_timed_row


def cost(x, y, dist):
    out = np.empty((x.size, y.size))
    for i in range(x.size):
        for j in range(y.size):
            out[i, j] = dist(x[i], y[j])
    return out


def absolute(a, b):
    return abs(a - b)


def compiled(jit, types):
    sig = types.FunctionType(types.float64(types.float64, types.float64))
    return (jit(types.float64[:, :](types.float64[:], types.float64[:], sig))(cost),
            jit("float64(float64, float64)")(absolute))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    args = parser.parse_args()
    import ruchey
    try:
        import numba
    except ImportError:
        numba = None
        print("numba is not installed: Numba could not be measured")
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(args.n), rng.standard_normal(args.n)
    small = x[:2].copy(), y[:2].copy()
    impls = {"ruchey": compiled(ruchey.njit, ruchey.types)}
    if numba is not None:
        impls["numba"] = compiled(numba.njit, numba.types)
    print(f"{'':22s}{'python':>10s}{'ruchey':>10s}{'numba':>10s}   (ms, n = {args.n})")
    for name, (a, b), times in (("cost matrix", (x, y), 1), ("1000 calls of 2x2", small, 1000)):
        expected = cost(a, b, absolute)
        calls = {"python": lambda a=a, b=b, times=times: [cost(a, b, absolute) for _ in range(times)]}
        for label, (f, d) in impls.items():
            assert np.array_equal(f(a, b, d), expected), f"{name}: {label} differs from Python"
            calls[label] = lambda f=f, d=d, a=a, b=b, times=times: [f(a, b, d) for _ in range(times)]
        print_timed_row(name, calls)


if __name__ == "__main__":
    main()
