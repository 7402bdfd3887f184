"""An array to a power given as one scalar known only at run time
(`a ** p`, `numpy.power(a, p)`): NumPy's loop takes 1 / x, sqrt(x) and
x * x for an exponent of -1, 0.5 and 2 (NumPy 1's ** operator too), pow
otherwise, and so does ruchey's own code, to the bit. Other exponents are
the C library's pow, which NumPy's pow equals where NumPy has no AVX-512
loop of its own (its SIMD pow is within 1 ulp)."""
import math

import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, NUMPY1, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own semantics")

SPECIAL = [-0.0, 0.0, -numpy.inf, numpy.inf, numpy.nan, -1.0, 1e-310, 1e300]


def bases(seed, dtype):
    rng = make_rng(seed)
    return numpy.concatenate([rng.uniform(1e-3, 1e3, 3000), rng.uniform(-5, 5, 1000), SPECIAL]).astype(dtype)


def same(got, want):
    return bool(numpy.all((got == want) | (numpy.isnan(got) & numpy.isnan(want))))


@ruchey.njit
def powers(a, p):
    return a ** p, numpy.power(a, p), (a - 1) ** p, numpy.sqrt(numpy.abs(a)) * a ** p


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("p", [2.0, 0.5, -1.0, 2, -1, 0.0, 1.0])
def test_shortcut_exponents_equal_numpys_to_the_bit(dtype, p):
    a = bases(2500, dtype)
    with numpy.errstate(all="ignore"):
        want = powers.py_func(a, p)
    numpy_power_shortcut = numpy.lib.NumpyVersion(numpy.__version__) >= "2.0.0"
    for i, (g, w) in enumerate(zip(powers(a, p), want)):
        assert g.dtype == w.dtype
        if i == 1 and not numpy_power_shortcut:  # (NumPy 1's numpy.power is pow's throughout)
            numpy.testing.assert_allclose(g, w, rtol=2 * numpy.finfo(dtype).eps)
            continue
        assert same(g, w), (p, i)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_other_exponents_are_pow_within_an_ulp_of_numpys(dtype):
    a = bases(2501, dtype)[:4000]
    a = numpy.abs(a) + dtype(0.5)
    for p in make_rng(2502).uniform(-4, 4, 20):
        p = float(p)  # (a Python float: NumPy keeps a float32 array's type)
        g, w = powers(a, p)[0], powers.py_func(a, p)[0]
        assert g.dtype == w.dtype
        assert numpy.all(numpy.abs(g - w) <= numpy.spacing(numpy.abs(w))), p
        if dtype == numpy.float64:
            assert same(g, numpy.array([math.pow(x, p) for x in a.tolist()])), p


def test_literal_exponents_keep_their_forms():
    @ruchey.njit
    def literal(a):
        return a ** 2.0, a ** 0.5, a ** -1.0, numpy.power(a, 2.0), numpy.power(a, 0.5)

    a = bases(2503, numpy.float64)
    with numpy.errstate(all="ignore"):
        want = literal.py_func(a)
    got = literal(a)
    # NumPy 1's numpy.power loop is pow's throughout (its ** operator takes
    # the shortcuts): ruchey's literal forms are NumPy 2's there
    for g, w in zip(got[:3] if NUMPY1 else got, want):
        assert same(g, w)
