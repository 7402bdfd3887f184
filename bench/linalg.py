"""Linear algebra in compiled code: ruchey vs Numba vs NumPy itself.

    python3 bench/linalg.py [--quick] [--sizes 200,500,1000]

``a @ b`` of two n x n float64 matrices, a matrix times a vector,
``numpy.linalg.solve`` of an n x n system, and (n up to 500) the
decompositions ``svd``, ``eigh`` and ``cholesky`` of an n x n matrix,
compiled by ruchey and by Numba from the same source, called from Python
beside NumPy's own ``a @ b``. Results are checked against NumPy's before
anything is timed. Measured: the median seconds per call (bench/timing.py's
round robin, all columns in alternating rounds).

Decompositions are checked by their values (singular values,
eigenvalues: vectors may differ in sign), cholesky whole.

Targets (issue 14): ``a @ b`` and ``solve`` of 500x500 float64 within 1.2x
of NumPy. ruchey and Numba both call the BLAS and LAPACK SciPy ships
(scipy.linalg.cython_blas, cython_lapack); NumPy calls the one it ships, so
the ratio compares two builds of OpenBLAS as much as the compilers. On a
busy machine OPENBLAS_NUM_THREADS=1 gives steadier figures.
"""
import argparse

import numpy as np

from timing import round_robin


def matmul(a, b):
    return a @ b


def matvec(a, x):
    return a @ x


def solve(a, b):
    return np.linalg.solve(a, b)


def svd(a):
    return np.linalg.svd(a)


def eigh(a):
    return np.linalg.eigh(a)


def cholesky(a):
    return np.linalg.cholesky(a)


def same(got, expected):
    return np.allclose(got, expected, rtol=1e-10, atol=1e-10 * np.abs(expected).max())


def first_results(k):
    """Compares result k of two tuples (the values of a decomposition)."""
    return lambda got, expected: same(got[k], expected[k])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes", default="200,500,1000")
    opts = ap.parse_args()
    import ruchey
    jits = {"ruchey": ruchey.njit}
    try:
        import numba
        jits["numba"] = numba.njit
    except ImportError:
        print("numba is not installed: its column is left out")
    rng = np.random.default_rng(0)
    print(f"{'operation':16} {'ruchey':>10} {'numpy':>10} {'numba':>10} {'r/numpy':>8} {'r/numba':>8}")
    for n in (int(s) for s in opts.sizes.split(",")):
        a, b = rng.random((n, n)), rng.random((n, n))
        spd = a @ a.T + n * np.eye(n)
        rows = [("matmul", matmul, (a, b), same), ("matvec", matvec, (a, b[:, 0].copy()), same),
                ("solve", solve, (spd, b[:, 0].copy()), same)]
        if n <= 500:
            rows += [("svd", svd, (a,), first_results(1)), ("eigh", eigh, (spd,), first_results(0)),
                     ("cholesky", cholesky, (spd,), same)]
        for name, f, args, check in rows:
            expected = f(*args)
            calls = {"numpy": lambda f=f, args=args: f(*args)}
            for label, jit in jits.items():
                fn = jit(f)
                if not check(fn(*args), expected):
                    raise SystemExit(f"{label} {name} {n}: wrong result")
                calls[label] = lambda fn=fn, args=args: fn(*args)
            med, _ = round_robin(calls, 0.5 if opts.quick else 3.0, 5, 41)
            nb = med.get("numba", float("nan"))
            print(f"{name + ' ' + str(n):16} {med['ruchey'] * 1e3:9.3f}m {med['numpy'] * 1e3:9.3f}m {nb * 1e3:9.3f}m "
                  f"{med['ruchey'] / med['numpy']:8.2f} {med['ruchey'] / nb:8.2f}")


if __name__ == "__main__":
    main()
