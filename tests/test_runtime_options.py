"""Options of NumPy functions given as values known only when the call
runs (a parameter, a variable), as Numba takes them: convolve's and
correlate's mode, trim_zeros' trim (searchsorted's side, which Numba
needs constant, stays one). A str that is
none of the options raises NumPy's ValueError when the call runs; a
constant one stays a TypingError when compiling.

Each compiled function is checked against its own Python original on
generated inputs.
"""
import numpy as np
import pytest

import ruchey

from arraygen import check, compiled
from conftest import AS_NUMBA, NUMPY1, make_rng

MODES = ["valid", "same", "full"]


@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", MODES)
def test_correlation_mode_known_when_it_runs(name, mode):
    by_position = compiled(f"np.{name}(a, b, c)", "a, b, c")
    by_keyword = compiled(f"np.{name}(a, b, mode=c)", "a, b, c")
    rng = make_rng(31)
    for n1, n2 in [(7, 3), (3, 7), (4, 4), (1, 5), (6, 1)]:
        a, v = rng.integers(-4, 5, n1) / 2, rng.integers(-3, 4, n2)  # exact sums, in any order
        check(by_position, a, v, mode)
        check(by_keyword, v, a, mode)


def test_correlation_mode_chosen_in_the_function():
    @ruchey.njit
    def f(a, v, wide):
        mode = "full" if wide else "valid"
        return np.convolve(a, v, mode)

    rng = make_rng(32)
    a, v = rng.integers(-4, 5, 9) / 4, rng.integers(-4, 5, 4) / 4
    check(f, a, v, True)
    check(f, a, v, False)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_correlation_unknown_mode_raises_valueerror(name):
    f = compiled(f"np.{name}(a, b, c)", "a, b, c")
    with pytest.raises(ValueError, match="mode must be one of"):
        f(np.ones(4), np.ones(2), "middle")
    g = compiled(f"np.{name}(a, b, 'middle')", "a, b")
    with pytest.raises(ruchey.TypingError, match="mode must be one of"):
        g(np.ones(4), np.ones(2))
    h = compiled(f"np.{name}(a, b, c)", "a, b, c")
    with pytest.raises(ruchey.TypingError, match="mode must be one of"):
        h(np.ones(4), np.ones(2), 3)


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_side_is_a_constant(side):
    f = compiled(f"np.searchsorted(a, b, side='{side}')", "a, b")
    g = compiled(f"np.searchsorted(a, b, '{side}')", "a, b")
    rng = make_rng(33)
    for dtype in (np.int64, np.float64, np.float32):
        a = np.sort(rng.integers(0, 6, 25)).astype(dtype)
        needles = rng.integers(-1, 8, 12).astype(dtype)
        check(f, a, needles)
        check(g, a, needles.reshape(3, 4))
        check(f, a, 3)
        check(g, a, 2.5)
    check(f, np.array([1.0, 2.0, np.nan, np.nan]), np.array([np.nan, 2.0, 0.0]))
    check(f, np.arange(0.0), np.arange(3.0))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_searchsorted_side_known_when_it_compiles_must_be_left_or_right():
    # (a side known only when the call runs is read then: test_searching)
    with pytest.raises(ruchey.TypingError, match="side must be"):
        compiled("np.searchsorted(a, b, side='middle')", "a, b")(np.arange(4.0), 1.0)


@pytest.mark.parametrize("trim", ["f", "b", "fb", "bf", "F", "B", "FB", "Bf"])
def test_trim_zeros_trim_known_when_it_runs(trim):
    f = compiled("np.trim_zeros(a, b)", "a, b")
    g = compiled("np.trim_zeros(a, trim=b)", "a, b")
    rng = make_rng(34)
    for n in (0, 1, 5, 12):
        x = rng.integers(0, 3, n) * (rng.random(n) < 0.5)
        check(f, x, trim)
        check(g, x.astype(np.float64), trim)
    check(f, np.zeros(4), trim)
    check(g, np.array([0, 0, 1, 0, 2, 0, 0])[::-1], trim)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_trim_zeros_unknown_trim_raises_valueerror():
    f = compiled("np.trim_zeros(a, b)", "a, b")
    with pytest.raises(ValueError, match="unexpected character"):
        f(np.array([0, 1, 0]), "x")
    with pytest.raises(ruchey.TypingError, match="trim must be a str"):
        f(np.array([0, 1, 0]), 1)


# ---------------------------------------------------------------- flags known when the call runs

def complexes(rng, n):
    return rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)


@pytest.mark.parametrize("deg", [True, False, 1, 0])
def test_angle_deg_known_when_it_runs(deg):
    f = compiled("np.angle(a, b)", "a, b")
    g = compiled("np.angle(a, deg=b)", "a, b")
    rng = make_rng(35)
    z = complexes(rng, 12)
    for x in (z, z.real.copy(), rng.integers(-3, 4, 5), z.reshape(3, 4)[:, ::2]):
        for h in (f, g):  # (NumPy 1.26's arctan2 and degrees differ from libm's in the last bit)
            got, expected = h(x, deg), h.py_func(x, deg)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=4 * np.finfo(np.float64).eps, atol=0)
    # float32's arctan2: libm's and NumPy's SIMD loop differ in the last bits
    small = z.astype(np.complex64)
    got, expected = f(small, deg), f.py_func(small, deg)
    assert got.dtype == expected.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=4 * np.finfo(np.float32).eps, atol=0)
    check(f, complex(-1, 1), deg)
    check(g, -2.0, deg)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_angle_deg_of_another_type_is_refused():
    with pytest.raises(ruchey.TypingError, match="deg must be True or False"):
        compiled("np.angle(a, b)", "a, b")(1j, 0.5)


# ---------------------------------------------------------------- out by position

@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
def test_infinity_tests_take_out_by_position(name):
    f = compiled(f"np.{name}(a, b)", "a, b")
    g = compiled(f"np.{name}(a, out=b)", "a, b")
    x = np.array([-np.inf, 0.0, np.inf, np.nan, -1.5])
    for out in (None, np.zeros(5, np.bool_), np.zeros(5), np.zeros((2, 5), np.int64)):
        check(f, x, out)
        check(g, x, out)
    for v in (-np.inf, np.inf, 2.0):
        check(f, v, None)
        check(f, v, np.zeros(1, np.bool_))
        check(g, v, np.zeros(3))


# ---------------------------------------------------------------- the set functions' assume_unique

def distinct(rng, n, hi=12):
    return rng.permutation(hi)[:n]


@pytest.mark.parametrize("name", ["intersect1d", "setdiff1d", "setxor1d"])
@pytest.mark.parametrize("unique", [True, False, 1, 0])
def test_set_functions_assume_unique_known_when_it_runs(name, unique):
    by_position = compiled(f"np.{name}(a, b, c)", "a, b, c")
    by_keyword = compiled(f"np.{name}(a, b, assume_unique=c)", "a, b, c")
    rng = make_rng(36)
    for n1, n2 in [(0, 0), (1, 0), (0, 3), (5, 4), (8, 8), (3, 9)]:
        a, b = distinct(rng, n1), distinct(rng, n2).astype(np.float64)
        check(by_position, a, b, unique)
        if not (NUMPY1 and unique and name == "setxor1d"):  # (NumPy 1.x's setxor1d does not flatten then)
            check(by_keyword, b, a.reshape(-1, 1), unique)
            check(by_keyword, a, 3, unique)


@pytest.mark.parametrize("unique", [True, False])
def test_setxor1d_of_repeated_values_is_numpys(unique):
    # (NumPy's answer where the arrays break the promise: its algorithm's, which ruchey's follows)
    f = compiled("np.setxor1d(a, b, c)", "a, b, c")
    rng = make_rng(37)
    for _ in range(10):
        check(f, rng.integers(0, 5, 7), rng.integers(0, 5, 4), unique)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
@pytest.mark.parametrize("name", ["intersect1d", "setdiff1d", "setxor1d"])
def test_set_functions_assume_unique_of_another_type_is_refused(name):
    f = compiled(f"np.{name}(a, b, c)", "a, b, c")
    with pytest.raises(ruchey.TypingError, match="assume_unique must be True or False"):
        f(np.arange(3), np.arange(2), "yes")


# ---------------------------------------------------------------- every argument by keyword, the optional ones

@pytest.mark.parametrize("expr", ["np.eye(N=a)", "np.eye(N=a, M=b)", "np.eye(N=a, M=b, k=c)", "np.eye(k=c, N=a)",
                                  "np.eye(a, k=c, dtype=np.int32)", "np.eye(M=b, N=a, dtype=np.float32)"])
def test_eye_takes_its_size_by_keyword(expr):
    f = compiled(expr, "a, b, c")
    for n, m, k in [(3, 3, 0), (2, 5, 1), (4, 2, -1), (0, 3, 0), (3, 0, 2)]:
        check(f, n, m, k)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_eye_without_its_size_is_refused():
    with pytest.raises(ruchey.TypingError, match="missing required argument 'N'"):
        compiled("np.eye(M=a)", "a")(3)


EDIFF_ENDS = [(None, None), (np.array([9, 8]), 7), (np.array([[1], [2]]), np.array([], dtype=np.int8)),
              (-1, None), (None, np.arange(3))]


@pytest.mark.parametrize("end, begin", EDIFF_ENDS)
def test_ediff1d_to_end_and_to_begin(end, begin):
    by_position = compiled("np.ediff1d(a, b, c)", "a, b, c")
    by_keyword = compiled("np.ediff1d(a, to_begin=c, to_end=b)", "a, b, c")
    rng = make_rng(38)
    for a in (rng.integers(-5, 5, 6), rng.normal(0, 1, 4), np.array([3]), np.arange(0), np.arange(6).reshape(2, 3)[:, ::2]):
        check(by_position, a, end, begin)
        check(by_keyword, a, end, begin)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_ediff1d_ends_of_a_wider_kind_are_refused():
    f = compiled("np.ediff1d(a, b, c)", "a, b, c")
    with pytest.raises(TypeError, match="compatible"):
        f.py_func(np.arange(4), 1.5, None)
    with pytest.raises(ruchey.TypingError, match="dtype of to_end must be compatible"):
        f(np.arange(4), 1.5, None)
    with pytest.raises(ruchey.TypingError, match="dtype of to_begin must be compatible"):
        f(np.arange(4), None, np.ones(2))


# ---------------------------------------------------------------- a 0-d q

@pytest.mark.parametrize("name, scale", [("percentile", 100), ("quantile", 1), ("nanpercentile", 100), ("nanquantile", 1)])
def test_quantiles_of_a_0d_q_are_numbers(name, scale):
    f = compiled(f"np.{name}(a, b)", "a, b")
    rng = make_rng(39)
    a = rng.normal(0, 1, 15)
    a[3] = np.nan if name.startswith("nan") else a[3]
    for q in (0.0, 0.3, 0.5, 1.0):
        check(f, a, np.array(q * scale))
        check(f, a.reshape(3, 5), np.array(q * scale))
    check(f, rng.integers(0, 9, 7), np.array(scale // 2))


# ---------------------------------------------------------------- take's axis

def test_take_along_an_axis_known_when_it_runs():
    f = compiled("np.take(a, b, c)", "a, b, c")
    g = compiled("a.take(b, axis=c)", "a, b, c")
    rng = make_rng(40)
    for shape in [(5,), (3, 4), (2, 3, 4)]:
        a = rng.normal(0, 1, shape)
        for axis in range(-len(shape), len(shape)):
            n = shape[axis]
            for ix in (rng.integers(-n, n, 4), rng.integers(0, n, (2, 2)), int(rng.integers(-n, n))):
                check(f, a, ix, axis)
                check(g, a[::-1], ix, axis)


def test_take_along_an_axis_out_of_bounds_raises():
    f = compiled("np.take(a, b, c)", "a, b, c")
    a = np.arange(12.0).reshape(3, 4)
    for axis, ix in ((2, 0), (-3, 0), (1, 4), (0, np.array([0, -4]))):
        with pytest.raises((ValueError, IndexError)):
            f.py_func(a, ix, axis)
        with pytest.raises((ValueError, IndexError)):
            f(a, ix, axis)
