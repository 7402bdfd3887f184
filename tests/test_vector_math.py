"""Math functions in vectorised loops. ruchey's own code calls glibc's vector
math library (libmvec) there, within a few ulps of the scalar functions;
code written for Numba (decorated after install_as_numba()) calls glibc's
scalar functions for each element, as Numba's code does (its LLVM knows no
vector library), so its results are Numba's to the bit.

The float64 checks compare with the Python original (CPython's math module
calls glibc's scalar functions); float32 ones, which Numba computes in
float32, with glibc's float32 functions called through ctypes."""

import platform

import pytest

from conftest import AS_NUMBA, run_python_file

shim_only = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")


@shim_only
def test_numba_code_calls_scalar_math_in_loops(tmp_path):
    done = run_python_file("""
        import ctypes, math
        import numpy as np
        import ruchey

        numba = ruchey.install_as_numba()
        libm = ctypes.CDLL("libm.so.6")

        LOOP = '''
        def loop_{name}(x):
            out = np.empty_like(x)
            for i in range(x.shape[0]):
                out[i] = {call}(x[i])
            return out
        '''
        # name, the inputs' range for float64, for float32
        FUNCTIONS = [("sin", 100, 100), ("cos", 100, 100), ("tan", 3, 3), ("exp", 700, 80),
                     ("log", 1e300, 1e30), ("log10", 1e5, 1e5), ("log2", 1e5, 1e5), ("expm1", 5, 5),
                     ("log1p", 10, 10), ("tanh", 20, 20), ("sinh", 20, 20), ("atan", 50, 50),
                     ("asin", 1, 1), ("cbrt", 1e6, 1e6)]
        POSITIVE = {"log", "log10", "log2", "log1p"}
        rng = np.random.default_rng(11)

        def compiled(name, module):
            scope = {"np": np, "math": math}
            exec(LOOP.format(name=name, call=module + "." + name), scope)
            return numba.njit(scope["loop_" + name])

        def libm_f32(name):
            f = getattr(libm, name + "f")
            f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
            return lambda x: np.array([f(float(v)) for v in x], dtype=np.float32)

        def inputs(name, top, dtype):
            x = rng.uniform(0 if name in POSITIVE else -top, top, 100_000).astype(dtype)
            return np.where(x == 0, dtype(0.5), x)

        for name, top, top32 in FUNCTIONS:
            if hasattr(math, name):  # (math.cbrt is Python 3.11's)
                x = inputs(name, top, np.float64)
                f = compiled(name, "math")
                assert np.array_equal(f(x), f.py_func(x)), name
            x32 = inputs(name, top32, np.float32)
            g = compiled({"asin": "arcsin", "atan": "arctan"}.get(name, name), "np")
            got = g(x32)
            assert got.dtype == np.float32, name
            assert np.array_equal(got, libm_f32(name)(x32)), name

        @numba.njit
        def whole_arrays(x):
            return np.sin(x) * np.cos(x), np.exp(-x)

        x = rng.uniform(-30, 30, 100_001)
        s, e = whole_arrays(x)
        assert np.array_equal(s, [math.sin(v) * math.cos(v) for v in x])
        assert np.array_equal(e, [math.exp(-v) for v in x])
        print("ok")
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")


@shim_only
@pytest.mark.skipif(platform.machine() != "x86_64", reason="libmvec is glibc's on x86-64")
def test_own_code_still_vectorises_with_libmvec_beside_numba_code(tmp_path):
    """One process, both kinds: ruchey's own loop calls libmvec's vector sin
    (within 4 ulps of glibc's), the same loop compiled for Numba the scalar
    one (bit for bit)."""
    done = run_python_file("""
        import ctypes, math
        import numpy as np
        import ruchey

        try:
            ctypes.CDLL("libmvec.so.1")
        except OSError:
            print("ok no libmvec")
            raise SystemExit

        def loop_sin(x):
            out = np.empty_like(x)
            for i in range(x.shape[0]):
                out[i] = math.sin(x[i]) + math.exp(x[i] * 1e-2)
            return out

        own = ruchey.njit(loop_sin)
        x = np.random.default_rng(5).uniform(-100, 100, 100_000)
        mine = own(x)
        numba = ruchey.install_as_numba()
        theirs = numba.njit(loop_sin)
        assert np.array_equal(theirs(x), theirs.py_func(x))
        np.testing.assert_allclose(mine, own.py_func(x), rtol=1e-14, atol=1e-15)
        own_ir = next(iter(own.inspect_llvm().values()))
        numba_ir = next(iter(theirs.inspect_llvm().values()))
        assert "_ZGV" in own_ir and "v_sin(" in own_ir and "v_exp(" in own_ir
        assert "_ZGV" not in numba_ir
        print("ok", bool((mine != own.py_func(x)).any()))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
