"""Small NumPy array functions in compiled code: outer, cross, trace,
vander, meshgrid, trapezoid (along the last axis), convolve and correlate, checked against NumPy (values, dtypes, float
sums to the bit) on generated inputs of every dtype, empty and
one-element arrays and strided views, and their errors."""
import itertools
import re
import warnings

import numpy as np
import pytest

import ruchey

from arraygen import DTYPES, compiled, array, check
from conftest import AS_NUMBA, make_rng, numpy2_only

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's versions take other arguments")

NUMBERS = [d for d in DTYPES if d is not np.bool_]
LAYOUTS = ("C", "F", "strided", "reversed")

fn = compiled


def finite(rng, dtype, shape, layout="C"):
    a = array(rng, dtype, shape, layout)
    if a.dtype.kind == "f":
        a[~np.isfinite(a)] = 1.5
    elif a.dtype.kind in "iu":
        a[...] = array(rng, dtype, shape, "C") % 50
    return a


def test_outer_matches_numpy():
    rng = make_rng(1)
    f = fn("np.outer(a, b)", "a, b")
    for da, db in [(d, d) for d in DTYPES] + [(np.int8, np.float32), (np.uint16, np.int64), (np.bool_, np.float64)]:
        for sa, sb in (((0,), (3,)), ((1,), (1,)), ((4,), (5,)), ((2, 3), (4,))):
            for layout in LAYOUTS:
                check(f, finite(rng, da, sa, layout), finite(rng, db, sb, layout))
    check(f, np.arange(3, dtype=np.int8), 3)
    check(f, 2.5, np.arange(4))


def test_outer_of_complex_matches_numpy():
    # NumPy's complex products may round once (a fused multiply-add): within 2 ulps
    rng = make_rng(12)
    f = fn("np.outer(a, b)", "a, b")
    for da, db in [(np.complex128, np.complex128), (np.complex64, np.complex64), (np.complex128, np.float64),
                   (np.int32, np.complex64), (np.complex64, np.float32)]:
        for sa, sb in (((0,), (3,)), ((4,), (5,)), ((2, 3), (4,))):
            a, b = finite(rng, da, sa, "strided"), finite(rng, db, sb, "C")
            expected, got = f.py_func(a, b), f(a, b)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=2 * np.finfo(expected.dtype).eps, atol=0)
    special = np.array([np.inf + 0j, complex(np.nan, 1), 1j, -0.0 + 0j])
    np.testing.assert_array_equal(f(special, special[::-1]), f.py_func(special, special[::-1]))


def test_outer_into_out_matches_numpy():
    # out (any layout, a dtype the product casts to) gets the product and is the result
    rng = make_rng(11)
    by_position, by_name = fn("np.outer(a, b, out)", "a, b, out"), fn("np.outer(a, b, out=out)", "a, b, out")
    for da, db, dout in [(np.float64, np.float64, np.float64), (np.int8, np.float32, np.float64),
                         (np.int64, np.int64, np.int32), (np.bool_, np.uint8, np.int16)]:
        for sa, sb in (((0,), (3,)), ((4,), (5,)), ((2, 3), (4,))):
            for layout in LAYOUTS:
                a, b = finite(rng, da, sa, layout), finite(rng, db, sb, layout)
                out = array(rng, dout, (a.size, b.size), layout)
                for f in (by_position, by_name):
                    check(f, a, b, out)
                    got = out.copy()
                    assert f(a, b, got) is got or got.size == 0  # (an empty array returned is boxed anew)


def test_outer_into_out_errors():
    f = fn("np.outer(a, b, out)", "a, b, out")
    a, b = np.arange(3.0), np.arange(4.0)
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(4,3\)"):
        f(a, b, np.empty((4, 3)))
    with pytest.raises(ruchey.TypingError, match="same_kind"):
        f(a, b, np.empty((3, 4), np.int64))
    with pytest.raises(ruchey.TypingError, match="2 dimensions"):
        f(a, b, np.empty(12))


def test_cross_matches_numpy():
    rng = make_rng(2)
    f = fn("np.cross(a, b)", "a, b")
    for da, db in [(d, d) for d in NUMBERS] + [(np.int8, np.float32), (np.float64, np.int64)]:
        for shape in ((3,), (5, 3), (2, 4, 3), (0, 3)):
            for layout in ("C", "strided", "reversed"):
                check(f, finite(rng, da, shape, layout), finite(rng, db, shape, layout))


# NumPy 2.5 takes 3-vectors alone in cross (2-vectors were deprecated in 2.0): ruchey follows the installed NumPy
NUMPY25 = np.lib.NumpyVersion(np.__version__) >= "2.5.0"
THREE_ONLY = "must be \\(arrays of\\) 3-dimensional vectors"


def check_or_same_error(f, a, b):
    """check(f, a, b), or NumPy's ValueError where it raises one."""
    try:
        f.py_func(a, b)
    except ValueError as e:
        with pytest.raises(ValueError, match=re.escape(str(e))):
            f(a, b)
        return
    check(f, a, b)


def test_cross_broadcasts_and_reads_2_vectors_without_z_as_numpy():
    rng = make_rng(12)
    f = fn("np.cross(a, b)", "a, b")
    shapes = [((3,), (4, 3)), ((2, 1, 3), (5, 3)), ((4, 3), (3,)), ((2,), (3,)), ((3,), (2,)), ((6, 2, 3), (2, 2)),
              ((2, 3), (1, 2)), ((0, 3), (3,)), ((1, 2), (4, 1, 3))]
    for da, db in [(np.float64, np.float64), (np.int8, np.float32)]:
        for sa, sb in shapes:
            a, b = finite(rng, da, sa, "reversed"), finite(rng, db, sb, "C")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2's of 2-vectors
                check_or_same_error(f, a, b)
    special = np.array([np.inf, -0.0, np.nan, 0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pairs = [(x, y) for x in itertools.product(special, repeat=2) for y in itertools.product(special, repeat=3)]
        x, y = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        check_or_same_error(f, x, y)
        check_or_same_error(f, y, x)


@numpy2_only  # (NumPy 1 casts a 0-d z by value: cross2d's Python form gives float32 where np.cross float64)
def test_cross2d_is_the_z_of_2_vectors_cross_products():
    from ruchey.np_extensions import cross2d
    rng = make_rng(13)

    @ruchey.njit
    def f(a, b):
        return cross2d(a, b)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for da, db in [(np.float64, np.float64), (np.int32, np.int32), (np.int64, np.float32)]:
            for sa, sb in [((2,), (2,)), ((4, 2), (4, 2)), ((2,), (3, 2)), ((6, 3, 2), (3, 2)), ((0, 2), (2,))]:
                a, b = finite(rng, da, sa, "strided"), finite(rng, db, sb, "C")
                expected = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]  # NumPy's cross of 2-vectors, before 2.5
                got, plain = f(a, b), cross2d(a, b)
                assert type(got) is np.ndarray and got.dtype == expected.dtype and got.shape == expected.shape
                np.testing.assert_array_equal(got, expected)
                np.testing.assert_array_equal(plain, expected)
        assert f((1, 2), (4.0, 5)) == 1 * 5 - 2 * 4.0
    for a, b in [(np.zeros(3), np.zeros(3)), (np.zeros((2, 2)), np.zeros((2, 3)))]:
        for g in (f, cross2d):
            with pytest.raises(ValueError, match="Incompatible dimensions for 2D cross product"):
                g(a, b)


def test_cross_and_vander_of_complex_numbers_match_numpy():
    # NumPy's complex products may round once (a fused multiply-add): within a few
    # ulps of the largest product (cross subtracts two of them)
    rng = make_rng(14)
    cross, vander = fn("np.cross(a, b)", "a, b"), fn("np.vander(a, n, True)", "a, n")

    def close(f, *args):
        expected, got = f.py_func(*args), f(*args)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        eps = np.finfo(expected.dtype).eps
        finite_ones = np.abs(expected[np.isfinite(expected)])  # (overflowed products are inf or NaN in both)
        np.testing.assert_allclose(got, expected, rtol=8 * eps, atol=8 * eps * np.max(finite_ones, initial=0))

    for da, db in [(np.complex128, np.complex128), (np.complex64, np.complex64), (np.complex64, np.float64),
                   (np.int32, np.complex128)]:
        for sa, sb in [((3,), (3,)), ((5, 3), (3,)), ((0, 3), (0, 3))]:
            close(cross, finite(rng, da, sa, "reversed"), finite(rng, db, sb, "strided"))
        for n in (0, 1, 4):
            close(vander, finite(rng, db, (n,), "strided"), 5)


def test_cross_errors():
    f = fn("np.cross(a, b)", "a, b")
    with pytest.raises(ValueError, match=THREE_ONLY if NUMPY25 else "(?s)Dimensions for both inputs is 2.*cross2d"):
        f(np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match=THREE_ONLY if NUMPY25 else "Incompatible dimensions for cross product"):
        f(np.zeros(4), np.zeros(3))
    with pytest.raises(ValueError, match="objects cannot be broadcast"):
        f(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ruchey.TypingError, match="needs arrays of numbers"):
        f(np.zeros(3, dtype=bool), np.zeros(3, dtype=bool))


def test_trace_matches_numpy():
    rng = make_rng(3)
    fs = [fn("np.trace(a)"), fn("np.trace(a, k)", "a, k"), fn("a.trace(offset=k)", "a, k")]
    for dtype in DTYPES:
        for shape in ((0, 3), (1, 1), (3, 4), (30, 40), (200, 150)):
            for layout in LAYOUTS:
                a = array(rng, dtype, shape, layout)
                if a.dtype.kind == "f":
                    a[~np.isfinite(a)] = 0.25
                check(fs[0], a)
                for k in (-5, -1, 0, 2, 100):
                    check(fs[1], a, k)
                    check(fs[2], a, k)


def test_trace_needs_a_2d_array():
    with pytest.raises(ruchey.TypingError, match="takes a 2-d array"):
        fn("np.trace(a)")(np.zeros(3))


def test_vander_matches_numpy():
    rng = make_rng(4)
    fs = [fn("np.vander(a)"), fn("np.vander(a, n)", "a, n"), fn("np.vander(a, N=n, increasing=True)", "a, n")]
    for dtype in DTYPES:
        for n in (0, 1, 4):
            for layout in ("C", "strided", "reversed"):
                x = finite(rng, dtype, (n,), layout)
                if x.dtype.kind == "f":
                    x = x / 8
                check(fs[0], x)
                for cols in (0, 1, 5):
                    check(fs[1], x, cols)
                    check(fs[2], x, cols)


def test_vander_of_n_none_and_increasing_known_at_run_time_matches_numpy():
    rng = make_rng(47)
    f, g = fn("np.vander(a, n, up)", "a, n, up"), fn("np.vander(a, None, up)", "a, up")
    for dtype in (np.float64, np.int32, np.uint8):
        for size in (0, 1, 4):
            x = finite(rng, dtype, (size,), "strided")
            for up in (True, False):
                for cols in (None, 0, 3):
                    check(f, x, cols, up)
                check(g, x, up)
    with pytest.raises(ruchey.TypingError, match="increasing must be a bool"):
        f(np.ones(3), 2, 1)


def test_vander_errors():
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        fn("np.vander(a, n)", "a, n")(np.zeros(3), -1)
    with pytest.raises(ruchey.TypingError, match="x must be a one-dimensional array"):
        fn("np.vander(a)")(np.zeros((2, 2)))


@numpy2_only  # NumPy 1: meshgrid gives a list, trapezoid is trapz
def test_meshgrid_matches_numpy():
    rng = make_rng(5)
    fs = [fn("np.meshgrid(a, b)", "a, b"), fn("np.meshgrid(a, b, indexing='ij')", "a, b"),
          fn("np.meshgrid(a, b, indexing='xy')", "a, b")]
    for da, db in ((np.float64, np.int32), (np.bool_, np.uint8), (np.float32, np.float32)):
        for sa, sb in (((0,), (3,)), ((1,), (4,)), ((5,), (2,)), ((2, 2), (3,))):
            for f in fs:
                check(f, array(rng, da, sa, "strided"), array(rng, db, sb, "reversed"))
    check(fs[0], 1.5, np.arange(3))


def test_meshgrid_bad_indexing():
    with pytest.raises(ruchey.TypingError, match="Valid values for `indexing` are 'xy' and 'ij'"):
        fn("np.meshgrid(a, a, indexing='xx')")(np.zeros(2))


@numpy2_only  # NumPy 1: meshgrid gives a list, trapezoid is trapz
def test_trapezoid_matches_numpy():
    rng = make_rng(6)
    fs = [fn("np.trapezoid(a)"), fn("np.trapezoid(a, dx=0.25)"), fn("np.trapezoid(a, x)", "a, x"), fn("np.trapezoid(a, x=x)", "a, x")]
    for dtype in NUMBERS:
        for n in (0, 1, 2, 9, 100, 1000):
            for layout in ("C", "strided", "reversed"):
                y = finite(rng, dtype, (n,), layout)
                check(fs[0], y)
                check(fs[1], y)
                for x in (np.cumsum(rng.random(n)), np.arange(n, dtype=np.int16), np.linspace(0, 1, n).astype(np.float32)):
                    check(fs[2], y, x)
                    check(fs[3], y, x[::-1])


@numpy2_only  # NumPy 1: trapezoid is trapz
def test_trapezoid_of_more_dimensions_integrates_each_line_as_numpy():
    rng = make_rng(7)
    fs = [fn("np.trapezoid(a)"), fn("np.trapezoid(a, dx=0.25)"), fn("np.trapezoid(a, x)", "a, x")]
    for dtype in (np.float64, np.float32, np.int64, np.int8):
        for shape in ((3, 9), (2, 3, 5), (4, 1), (0, 4), (3, 0), (2, 0, 3)):
            for layout in LAYOUTS:
                y = finite(rng, dtype, shape, layout)
                check(fs[0], y)
                check(fs[1], y)
                check(fs[2], y, np.cumsum(rng.random(shape[-1])))
                check(fs[2], y, np.arange(shape[-1], dtype=np.int16)[::-1])


@numpy2_only  # NumPy 1: meshgrid gives a list, trapezoid is trapz
def test_trapezoid_errors():
    with pytest.raises(ValueError, match="x and y must have the same length"):
        fn("np.trapezoid(a, x)", "a, x")(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="x and y must have the same length"):
        fn("np.trapezoid(a, x)", "a, x")(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="takes an array of numbers of at least one dimension"):
        fn("np.trapezoid(a)")(np.zeros((), dtype=bool))
    with pytest.raises(ruchey.TypingError, match="x must be a 1-d array"):
        fn("np.trapezoid(a, x)", "a, x")(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ruchey.TypingError, match="give x or dx, not both"):
        fn("np.trapezoid(a, a, 1.0)")(np.zeros(3))


def test_convolve_and_correlate_match_numpy():
    """Ints and bools exactly; floats to rounding (NumPy's products are summed
    by its dot function, BLAS's for float64, in an order of its own)."""
    rng = make_rng(7)
    fs = [fn(f"np.{name}(a, v{mode})", "a, v") for name in ("convolve", "correlate")
          for mode in ("", ", 'full'", ", 'same'", ", mode='valid'")]
    for da, dv in [(d, d) for d in DTYPES] + [(np.int8, np.float64), (np.uint8, np.int16)]:
        for na, nv in ((1, 1), (5, 3), (3, 5), (4, 4), (40, 7), (2, 30)):
            a, v = finite(rng, da, (na,), "strided"), finite(rng, dv, (nv,), "reversed")
            for f in fs:
                expected, got = f.py_func(a, v), f(a, v)
                assert got.dtype == expected.dtype and got.shape == expected.shape
                if got.dtype.kind == "f":
                    np.testing.assert_allclose(got, expected, rtol=1e-12 if got.dtype == np.float64 else 1e-5, atol=0)
                else:
                    np.testing.assert_array_equal(got, expected)
    check(fs[0], np.arange(3), 2)


def test_convolve_and_correlate_of_complex_match_numpy():
    """correlate takes v's conjugate, convolve not; v longer than a too."""
    rng = make_rng(8)
    fs = [fn(f"np.{name}(a, v, m)", "a, v, m") for name in ("convolve", "correlate")]
    for da, dv in [(np.complex128, np.complex128), (np.complex64, np.complex64), (np.complex128, np.float64),
                   (np.int32, np.complex64), (np.float32, np.complex128)]:
        for na, nv in ((1, 1), (5, 3), (3, 5), (4, 4), (2, 9)):
            a, v = (rng.standard_normal((na, 2)) * 3) @ [1, 1j], (rng.standard_normal((nv, 2)) * 3) @ [1, 1j]
            a, v = (a if np.dtype(da).kind == "c" else a.real).astype(da), (v if np.dtype(dv).kind == "c" else v.real).astype(dv)
            for f in fs:
                for m in ("full", "same", "valid"):
                    expected, got = f.py_func(a, v, m), f(a, v, m)
                    assert got.dtype == expected.dtype and got.shape == expected.shape
                    rtol = 1e-12 if got.dtype == np.complex128 else 1e-5
                    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * 10)
    check(fs[0], 2j, np.array([1 + 2j, 3j]), "full")


def test_convolve_of_more_than_one_dimension_is_refused():
    for name in ("convolve", "correlate"):
        with pytest.raises(ruchey.TypingError, match="must be a number or a 1-d array"):
            fn(f"np.{name}(a, v)", "a, v")(np.zeros((2, 2)), np.zeros(3))


def test_convolve_errors():
    with pytest.raises(ValueError, match="v cannot be empty"):
        fn("np.convolve(a, v)", "a, v")(np.zeros(3), np.zeros(0))
    with pytest.raises(ValueError, match="first array argument cannot be empty"):
        fn("np.correlate(a, v)", "a, v")(np.zeros(0), np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="mode must be one of 'valid', 'same', or 'full'"):
        fn("np.convolve(a, a, 'middle')")(np.zeros(3))


def test_trace_of_complex_arrays_adds_their_diagonal():
    rng = make_rng(4)
    fs = [fn("np.trace(a)"), fn("np.trace(a, k)", "a, k"), fn("a.trace(offset=k)", "a, k")]
    for dtype in (np.complex128, np.complex64):
        for shape in ((0, 3), (1, 1), (3, 4), (6, 5)):
            a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
            for a in (a, a.T, a[::-1]):
                assert fs[0](a) == fs[0].py_func(a)  # (in order: NumPy's pairwise sum is too below 8 items)
                for k in (-2, 0, 1, 9):
                    np.testing.assert_allclose(fs[1](a, k), fs[1].py_func(a, k), rtol=1e-6)
                    np.testing.assert_allclose(fs[2](a, k), fs[2].py_func(a, k), rtol=1e-6)
