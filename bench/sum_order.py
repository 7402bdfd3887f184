"""Reductions in code written for Numba, bit for bit against Numba's own:
sum, mean, var, std, nansum, nanmean, nanvar, prod, cumsum, np.dot of
vectors, np.linalg.norm, sums along axis 0 and 1, the sum of an array
expression and a kurtosis (np.mean((a - np.mean(a)) ** 4) / np.std(a) ** 4: float ** int multiplies
as Numba's, complex ** int takes Numba's polar form), of float64, float32, complex128 and complex64 arrays of four
shapes, each C, Fortran, transposed and strided, and complex np.log. Numba
runs in one interpreter, ruchey registered as numba (install_as_numba) in
another, on the same inputs; prints how many results differ, per function
and dtype.

    python3 bench/sum_order.py
"""
import pickle
import subprocess
import sys
from collections import Counter

import numpy as np

CHILD = """
import pickle, sys
import numpy as np
if sys.argv[1] == "ruchey":
    import ruchey
    ruchey.install_as_numba()
import numba

FUNCTIONS = {
    "sum": lambda a: a.sum(), "mean": lambda a: np.mean(a), "var": lambda a: np.var(a),
    "std": lambda a: a.std(), "nansum": lambda a: np.nansum(a), "nanmean": lambda a: np.nanmean(a),
    "nanvar": lambda a: np.nanvar(a), "prod": lambda a: np.prod(a[..., :7] * 0.9 + 0.6),
    "cumsum": lambda a: np.cumsum(a), "dot": lambda a: np.dot(a.ravel(), a.ravel()[::-1].copy()),
    "norm": lambda a: np.linalg.norm(a.ravel()),
    "sum axis 0": lambda a: np.sum(a, axis=0), "sum axis 1": lambda a: np.sum(a, axis=1),
    "expression sum": lambda a: (a * 2.0 + 1.0).sum(),
    "kurtosis": lambda a: np.mean((a - np.mean(a)) ** 4) / np.std(a) ** 4 - 3,
}
compiled = {name: numba.njit(f) for name, f in FUNCTIONS.items()}
log = numba.njit(lambda a: np.log(a))
rng = np.random.default_rng(2)
out = []
for shape in [(1000,), (37, 53), (5, 6, 7), (300, 15)]:
    for dtype in (np.float64, np.float32, np.complex128, np.complex64):
        a = rng.random(shape) * 10.0 ** rng.integers(-5, 5, shape)
        a = (a + 1j * rng.random(shape) if np.dtype(dtype).kind == "c" else a).astype(dtype)
        for layout, x in [("C", a), ("F", np.asfortranarray(a)), ("T", a.T), ("strided", a[..., ::2])]:
            for name, f in compiled.items():
                if name.startswith("sum axis") and x.ndim != 2:
                    continue
                out.append(((shape, dtype.__name__, layout, name), np.asarray(f(x))))
            if x.dtype.kind == "c":
                out.append(((shape, dtype.__name__, layout, "log"), log(x)))
sys.stdout.buffer.write(pickle.dumps(out))
"""


def results(which):
    done = subprocess.run([sys.executable, "-c", CHILD, which], capture_output=True, check=True)
    return pickle.loads(done.stdout)


def main():
    numba, ruchey = results("numba"), results("ruchey")
    differ, total = Counter(), Counter()
    for (key, want), (key2, got) in zip(numba, ruchey):
        assert key == key2
        total[key[3]] += 1
        if want.dtype != got.dtype or want.shape != got.shape or not np.array_equal(want, got, equal_nan=True):
            differ[key[3], key[1]] += 1
    dtypes = ("float64", "float32", "complex128", "complex64")
    print(f"{'function':16} {'results':>8}" + "".join(f" {d + ' differ':>17}" for d in dtypes))
    for name in total:
        print(f"{name:16} {total[name]:8}" + "".join(f" {differ[name, d]:17}" for d in dtypes))
    print(f"all: {sum(differ.values())} of {sum(total.values())} differ from Numba's bits")


if __name__ == "__main__":
    main()
