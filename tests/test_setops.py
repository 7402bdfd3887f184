"""NumPy's membership and set functions in compiled code: isin (invert=),
union1d, intersect1d and setdiff1d, checked against NumPy on generated
inputs of every dtype pair, empty and one-element arrays, views, and NaN
(never equal to itself, once in a union, as NumPy 2's unique)."""
import numpy as np
import pytest

import ruchey

from arraygen import DTYPES, compiled, array, check
from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's set functions take other arguments")

def fn(expr, params="a, b"):
    return compiled(expr, params)


def small(rng, dtype, shape, layout="C"):
    a = array(rng, dtype, shape, layout)
    kind = np.dtype(dtype).kind
    if kind in "iu":
        a[...] = array(rng, dtype, shape, "C") % 7
    elif kind == "f":
        a[...] = np.round(a / 300)
    return a


FUNCTIONS = ["np.isin(a, b)", "np.isin(a, b, invert=True)", "np.union1d(a, b)", "np.intersect1d(a, b)", "np.setdiff1d(a, b)"]


def test_set_functions_match_numpy():
    rng = make_rng(1)
    pairs = [(d, d) for d in DTYPES] + [(np.int8, np.float64), (np.uint8, np.int16), (np.float32, np.int64),
                                       (np.bool_, np.int32), (np.uint64, np.int64), (np.float64, np.float32)]
    for da, db in pairs:
        for sa, sb in (((0,), (3,)), ((1,), (0,)), ((9,), (4,)), ((3, 4), (5,)), ((40,), (2, 6))):
            for layout in ("C", "strided", "reversed"):
                a, b = small(rng, da, sa, layout), small(rng, db, sb, layout)
                for expr in FUNCTIONS:
                    check(fn(expr), a, b)


def test_numbers_and_nan():
    a, b = np.array([1.0, np.nan, 2.0, 2.0, -0.0]), np.array([np.nan, 2.0, 0.0])
    for expr in FUNCTIONS:
        check(fn(expr), a, b)
    check(fn("(np.isin(x, b), np.isin(x, b, invert=True))", "x, b"), 2.0, b)
    check(fn("np.union1d(a, x)", "a, x"), a, 7)


def test_isin_of_complex_numbers_matches_numpy():
    """equal where both parts are (NumPy's sort order of complex numbers finds them); NaN never"""
    rng = make_rng(2)
    isin, out = fn("np.isin(a, b)"), fn("np.isin(a, b, invert=True)")
    for dtype in (np.complex128, np.complex64):
        for sa, sb in (((0,), (3,)), ((9,), (4,)), ((3, 4), (5,)), ((40,), (2, 6))):
            for layout in ("C", "reversed"):
                a = (small(rng, np.float64, sa, layout) + 1j * small(rng, np.float64, sa, layout)).astype(dtype)
                b = small(rng, np.float64, sb, layout) + 1j * small(rng, np.float64, sb, layout)
                if a.size and b.size:
                    a.flat[0], b.flat[0] = complex(np.nan, 1), complex(np.nan, 1)
                for x, y in [(a, b), (a, b.real.copy()), (a.real.copy(), b), (a, 1j), (1 + 0j, b)]:
                    check(isin, x, y)
                    check(out, x, y)


def test_set_function_errors():
    with pytest.raises(ruchey.TypingError, match="invert must be True or False"):
        fn("np.isin(a, b, invert=c)", "a, b, c")(np.zeros(2), np.zeros(2), 1.5)
    with pytest.raises(ruchey.TypingError, match="unsupported keyword argument 'assume_unique'"):
        fn("np.union1d(a, b, assume_unique=True)")(np.zeros(2), np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="ar2 must be an array or a number"):
        fn("np.union1d(a, s)", "a, s")(np.zeros(2), "12")


def test_tuples_are_array_likes():
    for expr in FUNCTIONS:
        check(fn(expr.replace("b", "(1, 2.5)"), "a"), np.array([2.5, 3.0, 1.0]))
