"""numpy.nanmedian, nanpercentile and nanquantile in compiled code: the
median and quantiles of the elements that are not NaN, against NumPy on
generated arrays with NaNs among them (all NaN, none, empty), of every
layout, floats and ints, with q a number or an array."""
import warnings

import numpy as np
import pytest

from arraygen import compiled

from conftest import AS_NUMBA, NUMPY1, make_rng
from test_reductions import check, layouts, with_nans

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="compared against NumPy's dtypes and errors")

QS = [0, 0.5, 25, 33.3, 50, 99.9, 100]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(1,), (2,), (7,), (100,), (5, 6)], ids=str)
def test_nan_quantiles_match_numpy(dtype, shape):
    if NUMPY1 and dtype == np.float32:
        pytest.skip("NumPy 1.x computes float32 quantiles in float64: ruchey gives NumPy 2's results")
    rng = make_rng(sum(shape) + 3)
    for a in layouts(rng, dtype, shape):
        for b in [a, with_nans(rng, a)] if a.dtype.kind == "f" else [a]:
            check("np.nanmedian(a)", b)
            for q in QS:
                check("np.nanpercentile(a, q)", b, q, params="a, q")
                check("np.nanquantile(a, q)", b, q / 100, params="a, q")
            check("np.nanpercentile(a, q)", b, np.array(QS), params="a, q")
            check("np.nanquantile(a, q)", b, np.array([[0.1, 0.9], [0.5, 1.0]]), params="a, q")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_nan_quantiles_of_nothing_but_nans_are_nan(dtype):
    for a in [np.full(4, np.nan, dtype), np.full((2, 3), np.nan, dtype), np.zeros(0, dtype)]:
        check("np.nanmedian(a)", a)
        check("np.nanpercentile(a, 40.0)", a)
        check("np.nanquantile(a, 0.4)", a)
    if dtype == np.float64:  # NumPy's all-NaN float32 array of quantiles is float32, its others float64
        check("np.nanquantile(a, q)", np.full(3, np.nan, dtype), np.array([0.2, 0.8]), params="a, q")


def test_nan_quantiles_check_q_as_numpy():
    a = np.array([1.0, np.nan, 3.0])
    check("np.nanpercentile(a, q)", a, 101.0, params="a, q")
    check("np.nanquantile(a, q)", a, -0.5, params="a, q")
    check("np.nanquantile(a, q)", a, np.array([0.5, 2.0]), params="a, q")
    check("np.nanmedian(a)", np.array([np.inf, np.nan, -np.inf, 1.0]))


def complex_values(rng, dtype, shape):
    """Small integer parts, so that ties in either part come often."""
    return (rng.integers(-3, 3, shape) + 1j * rng.integers(-3, 3, shape)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=lambda d: np.dtype(d).name)
def test_median_and_nanmedian_of_complex_match_numpy(dtype):
    rng = make_rng(45)
    fs = [compiled("np.median(a)"), compiled("np.nanmedian(a)")]
    nans = [complex(np.nan, 1), complex(2, np.nan), complex(np.nan, np.nan), complex(np.nan, -1)]
    for shape in [(0,), (1,), (2,), (7,), (8,), (3, 4)]:
        for trial in range(6):
            a = complex_values(rng, dtype, shape)
            if a.size and trial:  # NaNs among them, of every kind, or all of them
                k = a.size if trial == 5 else min(trial, a.size)
                a.flat[rng.permutation(a.size)[:k]] = [nans[(trial + i) % 4] for i in range(k)]
            for b in [a, a.T, a[..., ::-1]]:
                for f in fs:
                    with np.errstate(all="ignore"), warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        expected = f.py_func(b)
                    got = f(b)
                    assert isinstance(got, complex) and np.array_equal(got, expected, equal_nan=True), (f.py_func, b)
                    assert np.isnan(got.real) == np.isnan(expected.real) and np.isnan(got.imag) == np.isnan(expected.imag)
