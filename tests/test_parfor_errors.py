"""The body of a prange loop of a parallel function written for Numba
divides as NumPy does: Numba compiles it as a parfor, under
error_model="numpy", so x / 0.0 is inf or nan and n // 0, n % 0 are 0
where the rest of the function raises ZeroDivisionError (uxarray's
Green-Gauss gradient divides by a zero cross-product norm there). The
Python original, on NumPy scalars, gives the same values (with NumPy's
warnings); ruchey's own functions keep Python's errors."""

import pytest

from conftest import AS_NUMBA, run_python_file

shim_only = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")


@shim_only
def test_prange_bodies_divide_as_numpy_in_numba_code(tmp_path):
    done = run_python_file("""
        import warnings
        import numpy as np
        import ruchey

        @ruchey.njit(parallel=True)
        def own(x):
            out = np.empty(x.shape[0])
            for i in ruchey.prange(x.shape[0]):
                out[i] = 1.0 / x[i]
            return out

        numba = ruchey.install_as_numba()
        from numba import njit, prange

        @njit(parallel=True)
        def quotients(x, n):
            out = np.empty((x.shape[0], 5))
            for i in prange(x.shape[0]):
                out[i, 0] = 1.0 / x[i]
                out[i, 1] = x[i] / x[i]
                out[i, 2] = 7 // n[i]
                out[i, 3] = 7 % n[i]
                s = 0.0
                for j in range(3):
                    s += (j + 1.0) / (x[i] * j)
                out[i, 4] = s
            return out

        @njit(parallel=True)
        def left_serial(x):
            # (its reduction variable is also read: the loop runs serially, Numba's parfor still)
            total = 0.0
            for i in prange(x.shape[0]):
                total += 1.0 / x[i] + total * 0.0
            return total

        @njit(parallel=True)
        def outside(x):
            s = 0.0
            for i in prange(x.shape[0]):
                s += 1.0 / x[i]
            return s + 1.0 / x[0]

        @njit
        def not_parallel(x):
            out = np.empty(x.shape[0])
            for i in prange(x.shape[0]):
                out[i] = 1.0 / x[i]
            return out

        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's scalar division by zero
        rng = np.random.default_rng(0)
        for trial in range(5):
            x = rng.standard_normal(40)
            x[rng.integers(0, 40, 6)] = 0.0
            n = rng.integers(-3, 4, 40)
            np.testing.assert_array_equal(quotients(x, n), quotients.py_func(x, n))
            assert np.isinf(left_serial(x)) or np.isnan(left_serial(x))
        for fn in (outside, not_parallel, own):
            try:
                fn(np.zeros(3))
            except ZeroDivisionError as e:
                print("raises", fn.__name__, e)
        print("ok")
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["raises outside float division by zero",
                                        "raises not_parallel float division by zero",
                                        "raises own float division by zero", "ok"]
