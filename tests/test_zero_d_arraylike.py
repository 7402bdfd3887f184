"""0-d arrays read as numbers, and tuples (list literals) read as arrays.

Operators, comparisons, truth and ufuncs whose array operands are all 0-d
give a number, as NumPy's and Numba's do (numpy.cos(numpy.asarray(x)) is a
float64), so that code written for arrays of any dimension (hapsira's
rotation_matrix, loops over numpy.nditer) runs on scalars too. NumPy
functions that take array-likes (numpy.cross, isclose, interp, where, the
set functions...) read a tuple or a list literal as numpy.asarray of it.
Each is checked against the function's own Python on generated inputs.
"""
import numpy as np
import pytest

import ruchey

from arraygen import check, define
from conftest import make_rng, numpy2_only

ZERO_D_EXPRS = [
    "a * 2.0", "a + a", "a - 1", "a / 3", "a // 2", "a % 3", "a ** 2", "-a", "abs(a)", "a + 1j",
    "np.cos(a)", "np.sqrt(np.abs(a))", "np.add(a, 1)", "np.maximum(a, 0.5)", "np.exp(a) + np.log1p(np.abs(a))",
    "a > 0.25", "a == a", "0 < a <= 1", "1 if a else 2", "not a",
]


@pytest.mark.parametrize("expr", ZERO_D_EXPRS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_operations_on_0d_arrays_give_numbers(expr, dtype):
    f = define(f"@ruchey.njit\ndef f(x):\n    a = np.asarray(x)\n    return {expr}\n")
    rng = make_rng(len(expr))
    for x in [dtype(v) for v in (rng.integers(-5, 6), rng.integers(1, 6), 0)]:
        got = f(x)
        with np.errstate(all="ignore"):
            want = f.py_func(x)
        assert not isinstance(got, np.ndarray), f"{expr}: {got!r}"
        # float32: libm's math functions are within 4 ulps of NumPy's own loops, and NumPy 1.x
        # computes a float32 0-d array with a Python number in float64 (NumPy 2 and ruchey: float32)
        rel = 4 * float(np.finfo(np.float32).eps) if dtype is np.float32 else 0
        assert got == pytest.approx(want, rel=rel, abs=0, nan_ok=True), f"{expr} of {x!r}: {got!r} != {want!r}"


def test_0d_element_in_a_scalar_sum():
    f = define("@ruchey.njit\ndef f(a):\n    s = 0.0\n    for x in np.nditer(a):\n        s += x * 2\n"
               "        if x > 0.5:\n            s -= np.sqrt(x)\n    return s\n")
    rng = make_rng(3)
    for shape in ((1,), (7,), (3, 4)):
        a = rng.random(shape)
        assert f(a) == pytest.approx(f.py_func(a), rel=1e-15, abs=0)
    for g in (f, f.py_func):  # NumPy's nditer refuses an empty array
        with pytest.raises(ValueError, match="zero-sized"):
            g(np.zeros(0))


def test_array_of_shape_from_a_0d_array():
    """hapsira's rotation_matrix: the angle made an array, its shape
    extended, the matrix written through an ellipsis."""
    f = define("""
@ruchey.njit
def f(angle, axis):
    angle = np.asarray(angle)
    c = np.cos(angle)
    s = np.sin(angle)
    a1 = (axis + 1) % 3
    a2 = (axis + 2) % 3
    R = np.zeros(angle.shape + (3, 3))
    R[..., axis, axis] = 1.0
    R[..., a1, a1] = c
    R[..., a1, a2] = -s
    R[..., a2, a1] = s
    R[..., a2, a2] = c
    return R
""")
    rng = make_rng(4)
    for axis in range(3):
        check(f, float(rng.uniform(-3, 3)), axis)


def test_0d_array_mixed_with_arrays_broadcasts():
    f = define("@ruchey.njit\ndef f(x, b):\n    return np.asarray(x) + b, b * np.asarray(x)\n")
    check(f, 0.5, np.arange(4.0))


def test_0d_array_updated_in_place_stays_an_array():
    f = define("@ruchey.njit\ndef f(x):\n    a = np.zeros(())\n    a += x\n    a *= 2\n    return a\n")
    check(f, 1.25)


def test_narrow_integer_0d_arrays_keep_their_width():
    """An int8 0-d array plus itself wraps as NumPy's (the result stays a
    0-d array of int8: the scalar rule would widen it)."""
    f = define("@ruchey.njit\ndef f(x):\n    a = np.asarray(x)\n    return (a + a)[()]\n")
    assert f(np.int8(100)) == -56


NARROW_0D_EXPRS = [
    "a + a", "a * 3", "a - b", "a // 3", "a % 3", "a & b", "a << 1", "-a", "~a", "+a", "a / 2",
    "np.sin(a)", "np.add(a, b)", "np.maximum(a, b)", "a + 2.5", "int(min(round(x) + a, 9))",
]


@numpy2_only  # NumPy 1 casts 0-d operands by value (an int8 0-d array times 3 is an int64 there)
@pytest.mark.parametrize("expr", NARROW_0D_EXPRS)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32])
def test_operations_on_narrow_integer_0d_arrays_give_numbers_of_their_dtype(expr, dtype):
    """As NumPy's (an int8 0-d array times 3 is a wrapped int8) and Numba's
    (a number where every operand is a number or 0-d): ssqueezepy's
    int(min(round(w) + idx, omax)) with idx a 0-d int32 array."""
    f = define(f"@ruchey.njit\ndef f(a, b, x):\n    return {expr}\n")
    rng = make_rng(len(expr) + np.dtype(dtype).itemsize)
    info = np.iinfo(dtype)
    for v, w in [(info.max, 1), (info.min, 3), (rng.integers(0, 100), rng.integers(1, 7))]:
        a, b = np.array(v, dtype), np.array(w, dtype)
        got = f(a, b, 2.4)
        with np.errstate(all="ignore"):
            want = f.py_func(a, b, 2.4)
        assert not isinstance(got, np.ndarray), f"{expr}: {got!r}"
        assert got == pytest.approx(want, rel=4 * float(np.finfo(np.float32).eps), abs=0), f"{expr} of {v}: {got!r} != {want!r}"


@pytest.mark.parametrize("expr", ["a + a", "a & b", "a | b", "a ^ b", "~a", "a * 3", "a + 2.5", "np.logical_not(a)",
                                  "np.add(a, b)"])
def test_operations_on_bool_0d_arrays_give_numbers_of_their_dtype(expr):
    f = define(f"@ruchey.njit\ndef f(a, b):\n    return {expr}\n")
    for v, w in [(True, False), (True, True), (False, False)]:
        a, b = np.array(v), np.array(w)
        got, want = f(a, b), f.py_func(a, b)
        assert not isinstance(got, np.ndarray) and got == want and type(got) is type(want.item()), (expr, v, w, got)


def test_narrow_integer_0d_array_added_into_a_number():
    f = define("@ruchey.njit\ndef f(a, n):\n    s = 0\n    for i in range(n):\n        s += a\n    return s\n")
    check(f, np.array(7, np.int16), 5)


def test_number_indexed_with_an_empty_tuple_is_itself():
    f = define("@ruchey.njit\ndef f(x):\n    return np.float64(x)[()] + np.int64(3)[()]\n")
    check(f, 1.5)


ARRAYLIKE_EXPRS = [
    ("np.cross([0, 0, 1], h)", "h"),
    ("np.cross(h, (1.0, 0.5, 0.0))", "h"),
    ("np.isclose(h, [1.0, 2.0, 3.0])", "h"),
    ("np.allclose((1.0, 2.0, 3.0), h)", "h"),
    ("np.array_equal(h, [1.0, 2.0, 3.0])", "h"),
    ("np.interp(h, [0.0, 1.0, 4.0], [0.0, 10.0, 20.0])", "h"),
    ("np.where(h > 1.5, h, [0.0, -1.0, -2.0])", "h"),
    ("np.isin(h, [1.0, 3.0])", "h"),
    ("np.union1d(h, [7.0, 1.0])", "h"),
    ("np.intersect1d([3.0, 1.0, 9.0], h)", "h"),
    ("np.setdiff1d(h, (2.0,))", "h"),
    ("np.convolve(h, [1.0, -1.0])", "h"),
    ("np.outer([1, 2], h)", "h"),
    ("np.trapezoid([1.0, 2.0, 4.0], h)", "h"),
    ("np.vander((1.0, 2.0, 3.0), 3)", "h"),
    ("np.broadcast_to((1.0, 2.0, 0.0), (2, 3)) * h", "h"),
    ("np.broadcast_to(((1.0,), (2.0,)), (2, 3)) + h", "h"),
    ("np.argwhere((h[0], 0.0, h[2]))", "h"),
    ("np.argwhere([[h[1], 1.0], [0.0, h[0]]])", "h"),
    ("np.flatnonzero((h[0] > 1.5, True, h[2] > 1.5))", "h"),
    ("np.extract((True, h[1] > 1.5, False), h)", "h"),
    ("np.resize((h[0], h[1]), (2, 3))", "h"),
]


def test_fill_diagonal_of_a_tuple_or_list_of_values():
    def fd(h):
        a = np.outer(h, h)
        np.fill_diagonal(a, (h[1], -1.0))
        b = np.zeros((4, 3), np.int32)
        np.fill_diagonal(b, [7, 8])
        return a, b

    check(ruchey.njit(fd), np.array([1.0, 2.0, 3.0]))



@pytest.mark.parametrize("expr,params", ARRAYLIKE_EXPRS)
def test_tuples_and_list_literals_are_array_likes(expr, params):
    if "trapezoid" in expr and not hasattr(np, "trapezoid"):
        pytest.skip("numpy.trapezoid is NumPy 2's")
    f = define(f"@ruchey.njit\ndef f({params}):\n    return {expr}\n")
    rng = make_rng(len(expr))
    for h in (np.array([1.0, 2.0, 3.0]), rng.integers(0, 4, 3).astype(np.float64), rng.random(3) * 4):
        check(f, h)


def test_tuple_variable_is_an_array_like():
    f = define("@ruchey.njit\ndef f(h):\n    t = (0.0, 1.0, 0.0)\n    return np.cross(t, h), np.isclose(t, h)\n")
    check(f, np.array([0.0, 1.0, 2.0]))


def test_ragged_array_like_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(h):\n    return np.cross(((1.0, 2.0), (3.0,)), h)\n")
    with pytest.raises(ruchey.TypingError, match="inhomogeneous"):
        f(np.ones(3))


def test_array_like_where_numpy_wants_an_array_still_refused():
    """numpy.dot and numpy.sum of a list literal: refused, as Numba does."""
    f = define("@ruchey.njit\ndef f(h):\n    return np.dot([1.0, 2.0, 3.0], h)\n")
    with pytest.raises(ruchey.TypingError, match="arrays"):
        f(np.ones(3))


def test_a_0d_array_converts_as_its_element():
    @ruchey.njit
    def converted(a):
        return float(a), int(a), np.float32(a), np.int16(a), np.complex128(a), np.bool_(a), a.dtype.type(a)

    rng = make_rng(12)
    for dtype in (np.float64, np.float32, np.int64, np.int8, np.uint32, np.bool_):
        for v in rng.uniform(-50, 50, 4):
            a = np.array(v).astype(dtype)
            assert converted(a) == converted.py_func(a), (dtype, v)
    with pytest.raises(ruchey.TypingError):
        ruchey.njit(lambda a: float(a))(np.ones(3))  # an array of more than one element is not a number
    with pytest.raises(ruchey.TypingError, match="abs"):
        ruchey.njit(lambda a: float(a))(np.array(1 + 2j))  # as float(complex): take .real or abs()
