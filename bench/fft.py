"""numpy.fft inside compiled code: ruchey vs NumPy (and Numba where
rocket-fft, which gives Numba its numpy.fft, is installed).

    python3 bench/fft.py

Each transform is one small function, compiled by ruchey (and Numba) and
called from Python beside NumPy running the same function uncompiled;
results are checked against NumPy's first. Prints the median ms per call
(bench/timing.py's round robin) and ruchey/NumPy. ruchey transforms with
NumPy 1.26's pocketfft C, in double precision, the lines of an axis eight
at a time; NumPy 2's C++ pocketfft also runs several lines through SIMD
registers at once, which the C one cannot.
"""
import numpy as np

import ruchey
from timing import round_robin

CASES = [
    # (name, NumPy expression of a, the input)
    ("fft 4096", "np.fft.fft(a)", lambda rng: rng.standard_normal(4096)),
    ("rfft 4096", "np.fft.rfft(a)", lambda rng: rng.standard_normal(4096)),
    ("fft 1000 (2^3 5^3)", "np.fft.fft(a)", lambda rng: rng.standard_normal(1000) + 1j),
    ("fft2 256x256 complex", "np.fft.fft2(a)", lambda rng: rng.standard_normal((256, 256)) + 1j),
    ("rfft2 256x256", "np.fft.rfft2(a)", lambda rng: rng.standard_normal((256, 256))),
    ("irfft2 256x129", "np.fft.irfft2(a)", lambda rng: np.fft.rfft2(rng.standard_normal((256, 256)))),
    ("fft axis 0, 512x512", "np.fft.fft(a, axis=0)", lambda rng: rng.standard_normal((512, 512))),
    ("fftn 32^3 complex", "np.fft.fftn(a)", lambda rng: rng.standard_normal((32, 32, 32)) + 1j),
]


def numba_with_fft():
    """Numba's njit where rocket-fft gives it numpy.fft, else None."""
    try:
        import numba
        import rocket_fft  # noqa: F401  (registers numpy.fft with Numba)
    except ImportError:
        return None
    return numba.njit


def main():
    rng = np.random.default_rng(7)
    numba_jit = numba_with_fft()
    print(f"{'':24s}{'numpy':>10s}{'ruchey':>10s}{'numba':>10s}   (ms per call)")
    for name, expr, make in CASES:
        a = make(rng)
        namespace = {"np": np}
        exec(f"def f(a):\n    return {expr}\n", namespace)
        f = namespace["f"]
        calls = {"numpy": lambda f=f, a=a: f(a), "ruchey": lambda g=ruchey.njit(f), a=a: g(a)}
        if numba_jit:
            calls["numba"] = lambda g=numba_jit(f), a=a: g(a)
        expected = f(a)
        for key, call in calls.items():
            np.testing.assert_allclose(call(), expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max(),
                                       err_msg=f"{name}: {key}")
        med, _ = round_robin(calls, budget_s=4, min_rounds=5, max_rounds=30)
        cols = "".join(f"{med[k] * 1e3:10.3f}" if k in med else f"{'-':>10s}" for k in ("numpy", "ruchey", "numba"))
        print(f"{name:24s}{cols}   ruchey/numpy {med['ruchey'] / med['numpy']:.2f}")


if __name__ == "__main__":
    main()
