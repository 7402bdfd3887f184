"""float(x) of a float32 in code written for Numba is the float32 itself, as
Numba types it (ruchey's own code makes it a float64, as CPython's float()):
a float32 array divided by float(hi - lo) of float32s stays float32, as
Numba's, NumPy's (a Python float is weak) and a signature of float32 say."""
import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="compiles ruchey's functions in numba mode")


def for_numba(f, *sig):
    ruchey._core._numba_semantics(True)
    try:
        return ruchey.njit(*sig)(f)
    finally:
        ruchey._core._numba_semantics(False)


def rescale(pattern, lo, hi):
    return (pattern - lo) / float(hi - lo) * 2 - 1


def test_float_of_a_float32_stays_float32_for_numba():
    f = for_numba(lambda x: float(x))
    g = for_numba(rescale)
    rng = make_rng(2300)
    p = rng.uniform(0, 255, (16, 16)).astype(numpy.float32)
    lo, hi = numpy.float32(p.min()), numpy.float32(p.max())
    got, want = g(p, lo, hi), g.py_func(p, lo, hi)
    assert got.dtype == want.dtype == numpy.float32
    assert numpy.allclose(got, want, rtol=1e-6)
    for v in rng.uniform(-1e30, 1e30, 50).astype(numpy.float32):
        assert f(v) == float(v)
    assert f.nopython_signatures[0].return_type == ruchey.types.float32


def test_a_float32_signature_takes_the_rescaled_array():
    # kikuchipy's _rescale_without_min_max: a float32[:, :] signature
    f = for_numba(lambda p: (p - numpy.min(p)) / float(numpy.max(p) - numpy.min(p)), "float32[:, :](float32[:, :])")
    p = make_rng(2301).uniform(0, 255, (8, 8)).astype(numpy.float32)
    assert f(p).dtype == numpy.float32


def test_ruchey_functions_keep_float_a_float64():
    f = ruchey.njit(lambda x: float(x) / 3)
    for v in make_rng(2302).uniform(-10, 10, 50).astype(numpy.float32):
        assert f(v) == f.py_func(v)
