"""More of NumPy in compiled code: the triangles (tri, tril, triu, their
indices), diag and diagflat, kron, dstack, the method a.dot(b) and
numpy.sinc, checked against NumPy (values, dtypes, shapes) on generated
inputs of every dtype and layout, empty and 0-d ones where NumPy takes
them, and their errors."""
import inspect
import itertools

import numpy as np
import pytest

import ruchey

from arraygen import DTYPES, compiled, LAYOUTS, array, check, define
from conftest import AS_NUMBA, NUMPY1, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's versions take fewer arguments")

COMPLEX = [np.complex64, np.complex128]

fn = compiled


def small(rng, dtype, shape, layout="C"):
    """Values that multiply without overflow, in the layout."""
    a = array(rng, dtype, shape, layout)
    if a.dtype.kind == "c":
        a[...] = rng.integers(-9, 9, shape) + 1j * rng.integers(-9, 9, shape)
    elif a.dtype.kind != "b":
        a[...] = (array(rng, np.int64, shape, "C") % 7).astype(dtype)
    return a


# ---------------------------------------------------------------- tri, tril, triu

def test_tri_matches_numpy():
    fs = [fn("np.tri(n)", "n"), fn("np.tri(n, m)", "n, m"), fn("np.tri(n, m, k)", "n, m, k"),
          fn("np.tri(n, M=m, k=k, dtype=np.int32)", "n, m, k"), fn("np.tri(n, k=k, dtype=np.bool_)", "n, k")]
    for n, m, k in itertools.product([-1, 0, 1, 3, 4], [-2, 0, 2, 5], [-5, -1, 0, 2, 7]):
        check(fs[0], n)
        check(fs[1], n, m)
        check(fs[2], n, m, k)
        check(fs[3], n, m, k)
        check(fs[4], n, k)


def test_tril_triu_match_numpy():
    rng = make_rng(1)
    fs = [fn("np.tril(a)"), fn("np.triu(a)"), fn("np.tril(a, k)", "a, k"), fn("np.triu(a, k=k)", "a, k")]
    for dtype in DTYPES + COMPLEX:
        for shape in [(0,), (3,), (0, 2), (3, 4), (4, 3), (2, 3, 4), (2, 1, 2, 3)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                check(fs[0], a)
                check(fs[1], a)
                for k in (-7, -1, 0, 2, 9):
                    check(fs[2], a, k)
                    check(fs[3], a, k)


def test_tril_of_a_number_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="at least one dimension"):
        fn("np.tril(a)")(2.0)
    with pytest.raises(ruchey.TypingError, match="k must be an integer"):
        fn("np.triu(a, 1.5)")(np.ones((2, 2)))


def test_tri_indices_match_numpy():
    fs = [fn("np.tril_indices(n)", "n"), fn("np.triu_indices(n)", "n"), fn("np.tril_indices(n, k, m)", "n, k, m"),
          fn("np.triu_indices(n, k=k, m=m)", "n, k, m")]
    for n, k, m in itertools.product([-1, 0, 1, 3, 5], [-6, -1, 0, 1, 4], [-1, 0, 2, 6]):
        check(fs[0], n)
        check(fs[1], n)
        check(fs[2], n, k, m)
        check(fs[3], n, k, m)


def test_tri_indices_from_match_numpy():
    rng = make_rng(2)
    fs = [fn("np.tril_indices_from(a)"), fn("np.triu_indices_from(a)"), fn("np.tril_indices_from(a, k)", "a, k"),
          fn("np.triu_indices_from(a, k=k)", "a, k")]
    for shape in [(0, 0), (1, 1), (3, 3), (2, 5), (5, 2)]:
        for dtype in (np.float64, np.int8, np.bool_, np.complex128):
            a = small(rng, dtype, shape, "F")
            check(fs[0], a)
            check(fs[1], a)
            for k in (-3, 0, 2):
                check(fs[2], a, k)
                check(fs[3], a, k)
    with pytest.raises(ruchey.TypingError, match="input array must be 2-d"):
        fs[0](np.ones(3))


def test_tri_indices_index_their_triangle():
    f = define("@ruchey.njit\ndef f(a):\n    r, c = np.triu_indices_from(a, 1)\n    for i in range(r.size):\n"
               "        a[r[i], c[i]] = 0.0\n    return a\n")
    check(f, np.arange(1.0, 17.0).reshape(4, 4))


# ---------------------------------------------------------------- diag, diagflat

def test_diag_matches_numpy():
    rng = make_rng(3)
    fs = [fn("np.diag(a)"), fn("np.diag(a, k)", "a, k"), fn("np.diagflat(a)"), fn("np.diagflat(a, k=k)", "a, k")]
    for dtype in DTYPES + COMPLEX:
        for shape in [(0,), (1,), (4,), (0, 3), (3, 4), (5, 2), (2, 2, 2)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                if len(shape) <= 2:
                    check(fs[0], a)
                check(fs[2], a)
                for k in (-6, -1, 0, 1, 3):
                    if len(shape) <= 2:
                        check(fs[1], a, k)
                    check(fs[3], a, k)
    check(fs[2], 2.5)
    check(fs[3], 7, -2)


def test_diag_of_other_dimensions_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="Input must be 1- or 2-d"):
        fn("np.diag(a)")(np.ones((2, 2, 2)))
    with pytest.raises(ruchey.TypingError, match="Input must be 1- or 2-d"):
        fn("np.diag(a)")(1.0)


# ---------------------------------------------------------------- kron

def test_kron_matches_numpy():
    rng = make_rng(4)
    f = fn("np.kron(a, b)", "a, b")
    pairs = [(d, d) for d in DTYPES + COMPLEX] + [(np.int8, np.uint8), (np.int16, np.float32), (np.bool_, np.int64),
                                                  (np.float64, np.complex64)]
    shapes = [(0,), (3,), (2, 3), (0, 2), (2, 1, 2)]
    for da, db in pairs:
        for sa, sb in itertools.product(shapes, repeat=2):
            check(f, small(rng, da, sa, "C"), small(rng, db, sb, "strided"))
        check(f, small(rng, da, (2, 3), "F"), small(rng, db, (2, 2), "reversed"))
    check(f, np.arange(3.0), 2)
    check(f, 2.5, np.arange(4, dtype=np.int32))
    check(f, np.array(3), np.arange(4))


# ---------------------------------------------------------------- dstack

def test_dstack_matches_numpy():
    rng = make_rng(5)
    f = fn("np.dstack((a, b))", "a, b")
    g = fn("np.dstack((a, b, a))", "a, b")
    for da, db in [(d, d) for d in DTYPES + COMPLEX] + [(np.int8, np.float32), (np.bool_, np.uint16)]:
        for shape, other in [((0,), (0,)), ((3,), (3,)), ((2, 3), (2, 3)), ((2, 3, 2), (2, 3, 1)), ((), ())]:
            for layout in LAYOUTS:
                check(f, small(rng, da, shape, layout), small(rng, db, other, "C"))
                check(g, small(rng, da, shape, "C"), small(rng, db, other, layout))


def test_dstack_of_unequal_shapes_raises_numpys_value_error():
    f = fn("np.dstack((a, b))", "a, b")
    with pytest.raises(ValueError, match="except for the concatenation axis must match exactly"):
        f(np.ones((2, 3)), np.ones((3, 3)))
    with pytest.raises(ruchey.TypingError, match="same number of dimensions"):
        f(np.ones((2, 3, 4, 1)), np.ones((2, 3)))


# ---------------------------------------------------------------- a.dot(b)

def test_dot_method_matches_numpy_dot():
    rng = make_rng(6)
    f = fn("a.dot(b)", "a, b")
    g = fn("a.dot(b, out=o)", "a, b, o")
    for dtype in (np.float64, np.float32, np.int64, np.int32, np.complex128):
        for sa, sb in [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((0, 3), (3, 2)), ((2, 0), (0, 2))]:
            if dtype is np.complex128 and len(sa) == len(sb) == 1:
                x, y = small(rng, dtype, (3,)), small(rng, dtype, (3,))
                assert f(x, y) == f.py_func(x, y)
                continue
            for layout in ("C", "F", "strided"):
                check(f, small(rng, dtype, sa, layout), small(rng, dtype, sb, "C"))
        check(g, small(rng, dtype, (2, 3), "C"), small(rng, dtype, (3, 4), "C"), np.zeros((2, 4), dtype))
    with pytest.raises(ValueError, match="not aligned"):
        f(np.ones((2, 3)), np.ones((2, 3)))


# ---------------------------------------------------------------- sinc

def test_sinc_matches_numpy():
    rng = make_rng(7)
    f = fn("np.sinc(a)")
    for dtype in DTYPES:
        for shape in [(0,), (7,), (3, 4)]:
            for layout in ("C", "reversed"):
                a = array(rng, dtype, shape, layout)
                if a.dtype.kind == "f":
                    a.flat[:3] = [0.0, np.inf, np.nan][: a.size]
                got, expected = f(a), f.py_func(a)
                assert got.dtype == expected.dtype and got.shape == expected.shape
                np.testing.assert_allclose(got, expected, rtol=4e-7 if a.dtype == np.float32 else 1e-15, atol=1e-300)
    for x in (0.0, 0.5, -1.5, 1e-30, 3, 0, np.float32(0.25), np.inf):
        got, expected = f(x), f.py_func(x)
        assert type(got) is type(expected.item()) or got.dtype == expected.dtype
        # a float32 computes in float32 (NumPy 1.x's value-based casting takes it to float64 there)
        np.testing.assert_allclose(got, expected, rtol=4e-7 if isinstance(x, np.float32) else 1e-15)


def test_sinc_of_complex_matches_numpy():
    """sin(pi z) / (pi z), 1 at zero; complex64 computed in complex128 (as
    Numba's), so it is NumPy's of complex128 rounded to complex64"""
    rng = make_rng(8)
    f = fn("np.sinc(a)")
    special = [0j, -0.0 + 0j, 1 + 0j, -1 + 0j, 1j, 5e-21 + 0j, 5e-21j, complex(np.inf, 0), complex(np.nan, 1), 300 + 2j]
    for dtype in (np.complex128, np.complex64):
        for layout in ("C", "reversed"):
            a = array(rng, dtype, (3, 5), layout)
            a.flat[:len(special)] = special
            with np.errstate(invalid="ignore"):
                expected = f.py_func(a.astype(np.complex128)).astype(dtype)
                assert f.py_func(a).dtype == dtype
            got = f(a)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=4e-7 if dtype == np.complex64 else 1e-14)
    for z in special[:7] + [0.5 + 0.5j, -5 - 5j]:
        np.testing.assert_allclose(f(z), f.py_func(z), rtol=1e-14)


def test_sinc_fuses_into_array_expressions():
    f, a = fn("np.sinc(a * 0.5) + 1.0"), np.linspace(-3.0, 3.0, 13)
    np.testing.assert_allclose(f(a), f.py_func(a), rtol=1e-15)  # sin's last bit is libm's


# ---------------------------------------------------------------- append

def test_append_matches_numpy():
    rng = make_rng(8)
    f = fn("np.append(a, b)", "a, b")
    for da, db in [(d, d) for d in DTYPES + COMPLEX] + [(np.int8, np.float32), (np.bool_, np.uint8), (np.int64, np.complex64)]:
        for sa, sb in [((0,), (0,)), ((3,), (2,)), ((2, 3), (4,)), ((2, 2), (0, 3)), ((), (3,))]:
            for layout in LAYOUTS:
                check(f, small(rng, da, sa, layout), small(rng, db, sb, "C"))
    check(f, np.arange(3.0), 7)
    check(f, 2, np.arange(3, dtype=np.int16))


# ---------------------------------------------------------------- isposinf, isneginf, nan_to_num

def test_isposinf_isneginf_nan_to_num_match_numpy():
    rng = make_rng(9)
    fs = [fn("np.isposinf(a)"), fn("np.isneginf(a)"), fn("np.nan_to_num(a)"), fn("np.nan_to_num(a) * 2 + (a > 0)")]
    specials = [np.inf, -np.inf, np.nan, 0.0, -0.0]
    for dtype in DTYPES:
        for shape in [(0,), (7,), (3, 4)]:
            for layout in ("C", "F", "reversed"):
                a = array(rng, dtype, shape, layout)
                if a.dtype.kind == "f" and a.size:
                    a.flat[: len(specials)] = specials[: a.size]
                for f in fs[:3]:
                    check(f, a)
                if a.dtype.kind == "f":
                    check(fs[3], a)
    for x in (np.inf, -np.inf, np.nan, 1.5, 3, True):
        for f in fs[:3]:
            assert f(x) == f.py_func(x)


def with_specials(rng, dtype, shape, layout):
    a = array(rng, dtype, shape, layout)
    if a.dtype.kind in "fc" and a.size:
        specials = [np.inf, -np.inf, np.nan, 0.0, -0.0, complex(np.nan, -np.inf), complex(np.inf, 2)]
        k = min(a.size, len(specials) if a.dtype.kind == "c" else 5)
        a.flat[:k] = specials[:k]
    return a


def test_nan_to_num_replacements_and_copy_match_numpy():
    rng = make_rng(31)
    fs = [fn("np.nan_to_num(a, nan=n)", "a, n"), fn("np.nan_to_num(a, posinf=n, neginf=-n)", "a, n"),
          fn("np.nan_to_num(a, True, n, None, n)", "a, n"), fn("np.nan_to_num(a, nan=n, posinf=None) + 1", "a, n")]
    in_place = fn("(np.nan_to_num(a, copy=False, nan=n), a)", "a, n")
    for dtype in DTYPES + COMPLEX:
        for shape in [(0,), (9,), (3, 4)]:
            for layout in ("C", "F", "reversed"):
                a = with_specials(rng, dtype, shape, layout)
                for n in (-1.5, 7, 1e300):
                    for f in fs + [in_place]:
                        check(f, a, n)
    for x in (np.inf, -np.inf, np.nan, 2.5, 3, True, complex(np.nan, np.inf), np.float32(np.inf)):
        for f in fs:
            assert np.array_equal(f(x, 4.0), f.py_func(x, 4.0), equal_nan=True), (f.py_func, x)


def test_nan_to_num_copy_known_at_run_time_matches_numpy():
    rng = make_rng(43)
    fs = [fn("(np.nan_to_num(a, copy=c), a)", "a, c"), fn("(np.nan_to_num(a, c, 2.5, n, -n), a)", "a, c, n")]
    for dtype in (np.float64, np.float32, np.int16, np.bool_, np.complex128):
        for shape in [(0,), (9,), (3, 4)]:
            for layout in ("C", "F", "reversed"):
                a = with_specials(rng, dtype, shape, layout)
                for c in (True, False):
                    check(fs[0], a, c)
                    check(fs[1], a, c, 1e30)
    for x in (np.nan, 3, complex(np.inf, np.nan)):  # (NumPy 2 refuses a number with copy=False)
        assert np.array_equal(fs[0](x, True), fs[0].py_func(x, True), equal_nan=True)


def test_nan_to_num_bad_arguments_are_typing_errors():
    for expr, params in [("np.nan_to_num(a[1:], copy=False)", "a"), ("np.nan_to_num(a[1:], copy=c)", "a, c"),
                         ("np.nan_to_num(a, nan=a)", "a"), ("np.nan_to_num(a, copy=1.0)", "a"), ("np.nan_to_num('x')", "a")]:
        f = fn(expr, params)
        with pytest.raises(ruchey.TypingError):
            f(np.array([np.nan, 1.0]), True) if "c" in params else f(np.array([np.nan, 1.0]))


# ---------------------------------------------------------------- spacing, ldexp

def test_spacing_matches_numpy():
    rng = make_rng(32)
    f, g = fn("np.spacing(a)"), fn("np.spacing(a) * 2")
    for dtype in (np.float32, np.float64):
        for shape in [(0,), (11,), (3, 4)]:
            for layout in LAYOUTS:
                a = with_specials(rng, dtype, shape, layout)
                check(f, a)
                check(g, a)
        info = np.finfo(dtype)
        edges = np.array([info.max, -info.max, info.tiny, info.smallest_subnormal, -info.smallest_subnormal, 1, -1], dtype)
        check(f, edges)
    for x in (0.0, -0.0, 1.0, -3.5, np.inf, np.nan, 1e308, np.float32(2.5)):
        with np.errstate(all="ignore"):
            assert np.array_equal(f(x), f.py_func(x), equal_nan=True), x


def test_ldexp_matches_numpy():
    rng = make_rng(33)
    f = fn("np.ldexp(a, i)", "a, i")
    out = fn("np.ldexp(a, i, out=o)", "a, i, o")
    for dtype in (np.float32, np.float64, np.int32, np.int64, np.uint16):
        for idtype in (np.int8, np.int32, np.int64, np.uint32):
            for shape in [(0,), (9,), (3, 4)]:
                a = with_specials(rng, dtype, shape, "C")
                i = rng.integers(-1100, 1100, shape).astype(idtype) if np.dtype(idtype).kind == "i" else \
                    rng.integers(0, 1100, shape).astype(idtype)
                if a.dtype.kind == "f":
                    check(f, a, i)
                    check(f, a, 3)
                    check(out, a, i, np.zeros(shape, a.dtype))
                else:  # NumPy's int loops: float16 for narrow ints, where ruchey's math gives float32
                    with np.errstate(all="ignore"):
                        expected = f.py_func(a.astype(np.float64), i).astype(f(a, i).dtype)
                    assert np.array_equal(f(a, i), expected, equal_nan=True)
    for x, i in [(1.5, 3), (1.0, 2000), (1.0, -2000), (np.float32(1.5), 200), (-0.0, 5), (np.nan, 2)]:
        with np.errstate(all="ignore"):
            assert np.array_equal(f(x, i), f.py_func(x, i), equal_nan=True), (x, i)
    for bad in (2.0, np.uint64(3), np.array([1.0])):
        with pytest.raises(ruchey.TypingError):
            f(1.0, bad)


# ---------------------------------------------------------------- shape, isscalar, iscomplexobj, isrealobj

def test_shape_and_type_questions_match_numpy():
    fs = [fn("np.shape(a)"), fn("np.isscalar(a)"), fn("np.iscomplexobj(a)"), fn("np.isrealobj(a)")]
    for x in (np.zeros((2, 3, 4)), np.zeros(0, np.int8), np.zeros((), np.complex64), np.ones((3, 1), bool), 2, 2.5, 1j,
              True, np.float32(2)):
        for f in fs:
            assert f(x) == f.py_func(x), (f.py_func, x)
    for x in (np.timedelta64(10, "Y"), np.datetime64("nat"), np.datetime64(1, "s"), np.array([1, 2], "M8[s]"),
              np.array([3], "m8[D]")):
        for f in fs[1:]:
            assert f(x) == f.py_func(x), (f.py_func, x)


def test_size_and_ndim_match_numpy():
    fs = [fn("np.size(a)"), fn("np.ndim(a)"), fn("np.size(a, 0)"), fn("np.size(a, axis=-1)"), fn("np.size(a, None)")]
    for x in (np.zeros((2, 3, 4)), np.zeros(0, np.int8), np.ones((3, 1), bool)[::2], np.zeros((5,), np.complex64).T):
        for f in fs:
            assert f(x) == f.py_func(x), (f.py_func, x)
    for x in (2, 2.5, 1j, True, np.zeros((), np.float32)):
        for f in fs[:2] + fs[4:]:
            assert f(x) == f.py_func(x), (f.py_func, x)
    with pytest.raises(ValueError, match="axis 3 is out of bounds"):
        fn("np.size(a, 3)")(np.zeros((2, 2)))
    with pytest.raises(ruchey.TypingError):
        fn("np.size(a, 1.0)")(np.zeros((2, 2)))
    with pytest.raises(ruchey.TypingError):
        fn("np.ndim(a)")("text")


# ---------------------------------------------------------------- nancumsum, nancumprod, ediff1d

def test_nancumsum_nancumprod_match_numpy():
    rng = make_rng(10)
    fs = [fn("np.nancumsum(a)"), fn("np.nancumprod(a)"), fn("np.nancumsum(a, axis=1)"), fn("np.nancumprod(a, 0)"),
          fn("np.nancumsum(a, dtype=np.float32)")]
    for dtype in DTYPES:
        for shape in [(0, 3), (1, 1), (3, 4), (2, 5)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                if a.dtype.kind == "f" and a.size:
                    a[0, ::2] = np.nan
                    a = a / 3
                for f in fs:
                    check(f, a)
    check(fs[0], np.array([np.nan, np.nan]))
    check(fs[1], 2.5)


def test_ediff1d_matches_numpy():
    rng = make_rng(11)
    f = fn("np.ediff1d(a)")
    for dtype in [d for d in DTYPES if d is not np.bool_] + COMPLEX:
        for shape in [(0,), (1,), (6,), (2, 3), (2, 0), (2, 2, 2)]:
            for layout in LAYOUTS:
                check(f, small(rng, dtype, shape, layout))
    check(f, 3.5)
    with pytest.raises(ruchey.TypingError, match="boolean subtract"):
        f(np.ones(3, bool))


# ---------------------------------------------------------------- swapaxes, moveaxis

def test_swapaxes_moveaxis_match_numpy_as_views():
    rng = make_rng(12)
    cases = ["np.swapaxes(a, 0, 1)", "np.swapaxes(a, -1, 0)", "a.swapaxes(1, 1)", "np.moveaxis(a, 0, -1)",
             "np.moveaxis(a, -1, 0)", "np.moveaxis(a, (0, 1), (-1, 0))", "np.moveaxis(a, source=(2, 0), destination=(0, 1))"]
    for expr in cases:
        f = fn(expr)
        g = fn(f"{expr}.copy()")
        w = define(f"@ruchey.njit\ndef f(a):\n    v = {expr}\n    v[0, 1, 0] = 7\n    return a\n")
        for dtype in (np.float64, np.int8, np.bool_, np.complex64):
            for shape in [(2, 3, 4), (0, 2, 3), (3, 1, 2)]:
                for layout in LAYOUTS:
                    a = small(rng, dtype, shape, layout)
                    check(g, a)
                    got, expected = f(a), f.py_func(a)
                    assert got.shape == expected.shape and np.array_equal(got, expected)
                    assert np.shares_memory(got, a) or not a.size
                    if shape == (2, 3, 4):  # every axis long enough for v[0, 1, 0]
                        check(w, a)


def test_moveaxis_errors_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="same number of elements"):
        fn("np.moveaxis(a, (0, 1), 2)")(np.ones((2, 3, 4)))
    # a constant axis out of bounds: NumPy's AxisError when the call runs, as Numba checks it
    with pytest.raises(ValueError, match="axis2: axis 3 is out of bounds for array of dimension 3"):
        fn("np.swapaxes(a, 0, 3)")(np.ones((2, 3, 4)))
    with pytest.raises(ruchey.TypingError, match="repeated axis"):
        fn("np.moveaxis(a, (0, 0), (1, 2))")(np.ones((2, 3, 4)))


def test_swapaxes_moveaxis_with_axes_known_at_run_time_match_numpy():
    rng = make_rng(42)
    fs = [fn("np.swapaxes(a, i, j)", "a, i, j"), fn("a.swapaxes(i, j)", "a, i, j"), fn("np.moveaxis(a, i, j)", "a, i, j")]
    for shape in [(2, 3, 4), (0, 2, 3), (2, 1, 3, 2), (3,)]:
        for layout in LAYOUTS:
            a = small(rng, np.float64, shape, layout)
            nd = a.ndim
            for i, j in itertools.product(range(-nd, nd), repeat=2):
                for f in fs:
                    got, expected = f(a, i, j), f.py_func(a, i, j)
                    assert got.shape == expected.shape and (got.strides == expected.strides or not a.size)
                    assert np.array_equal(got, expected) and (np.shares_memory(got, a) or not a.size)
            for k in (1, 2):
                for src in itertools.permutations(range(nd), k):
                    for dst in itertools.permutations(range(-nd, nd), k):
                        if len({d % nd for d in dst}) == k:
                            got, expected = fs[2](a, src, dst), fs[2].py_func(a, src, dst)
                            assert got.shape == expected.shape and (got.strides == expected.strides or not a.size)
    a = np.ones((2, 3, 4))
    for f, i, j in [(fs[0], 0, 3), (fs[2], -4, 0), (fs[2], (0, 5), (1, 2))]:
        with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else ValueError, match="out of bounds"):
            f(a, i, j)
    for i, j, which in [((0, 0), (1, 2), "source"), ((0, 1), (2, -1), "destination")]:
        with pytest.raises(ValueError, match=f"repeated axis in `{which}`"):
            fs[2](a, i, j)
    with pytest.raises(ruchey.TypingError, match="same number of elements"):
        fs[2](a, (0, 1), 2)
    with pytest.raises(ruchey.TypingError, match="must be an int"):
        fs[0](a, (0, 1), (1, 0))
    with pytest.raises(ruchey.TypingError, match="must be an int"):
        fs[2](a, 0.5, 1)


# ---------------------------------------------------------------- take, extract, flatnonzero

def test_take_matches_numpy():
    rng = make_rng(13)
    fs = [fn("np.take(a, i)", "a, i"), fn("a.take(i)", "a, i")]
    for dtype in DTYPES + COMPLEX:
        for shape in [(5,), (2, 3), (2, 2, 2)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                size = a.size
                for i in (np.array([0, size - 1, -1, -size]), np.array([[1, 0], [2, 2]], np.int32), np.zeros(0, np.int64),
                          np.array([3], np.uint8), 2, -1):
                    for f in fs:
                        if isinstance(i, int) and dtype in COMPLEX:
                            assert f(a, i) == f.py_func(a, i)
                        else:
                            check(f, a, i)


def test_take_of_a_list_or_tuple_of_indices_matches_numpy():
    a = np.arange(12.0).reshape(3, 4)
    f, g = fn("np.take(a, i)", "a, i"), fn("a.take(i)", "a, i")
    for i in ([0, 5, -1], (2, 3), [7]):
        for h in (f, g):
            check(h, a, ruchey.typed.List(i) if isinstance(i, list) else i)
    literal = fn("np.take(a, [0, -1]), a.take((1, 2))", "a")
    for got, expected in zip(literal(a), literal.py_func(a)):
        assert np.array_equal(got, expected)


def test_take_along_an_axis_matches_numpy():
    rng = make_rng(17)
    for dtype in (np.float64, np.int16, np.complex128):
        for shape in [(5,), (3, 4), (2, 3, 4)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                for axis in range(-a.ndim, a.ndim):
                    f, g = fn(f"np.take(a, i, axis={axis})", "a, i"), fn(f"a.take(i, {axis})", "a, i")
                    n = a.shape[axis]
                    for i in (rng.integers(-n, n, 3), rng.integers(-n, n, (2, 2)).astype(np.int32), int(rng.integers(-n, n))):
                        for h in (f, g):
                            if a.ndim == 1 and isinstance(i, int):  # an element
                                assert h(a, i) == h.py_func(a, i)
                            else:
                                check(h, a, i)
    assert fn("np.take(a, i, axis=None)", "a, i")(np.arange(6.0).reshape(2, 3), 4) == 4.0


def test_take_along_an_axis_errors():
    f = fn("np.take(a, i, axis=1)", "a, i")
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 4"):
        f(np.ones((3, 4)), np.array([0, 5]))
    with pytest.raises(ruchey.TypingError, match="axis must be an integer"):
        fn("np.take(a, i, axis=k)", "a, i, k")(np.ones((3, 4)), 1, 0.5)
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):  # (as Numba: when it runs)
        fn("np.take(a, i, axis=2)", "a, i")(np.ones((3, 4)), 1)


def test_take_out_of_bounds_raises_numpys_index_error():
    f = fn("np.take(a, i)", "a, i")
    for i in (np.array([0, 6]), np.array([-7]), 6, -7):
        with pytest.raises(IndexError, match="out of bounds for axis 0 with size 6"):
            f(np.arange(6.0).reshape(2, 3), i)


# NumPy 2.3 gave take_along_axis's axis its default, -1 (ruchey's on every NumPy)
AXIS_DEFAULTS = inspect.signature(np.take_along_axis).parameters["axis"].default is not inspect.Parameter.empty


def test_take_along_axis_matches_numpy():
    """Along each axis (a runtime one too, and the default -1), indices from
    argsort and random ones (negative too), either array of length 1 in
    the other dimensions (broadcast), and axis=None (flattened)."""
    rng = make_rng(31)
    by_axis = fn("np.take_along_axis(a, i, axis)", "a, i, axis")
    by_default = fn("np.take_along_axis(a, i)", "a, i")
    flat = fn("np.take_along_axis(a, i, axis=None)", "a, i")
    for dtype in (np.float64, np.int8, np.bool_, np.complex64):  # elements moved, whatever they hold
        for shape in [(5,), (3, 4), (2, 3, 4)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                for axis in range(-a.ndim, a.ndim):
                    n = a.shape[axis]
                    check(by_axis, a, np.argsort(a.real if a.dtype.kind == "c" else a, axis=axis), axis)
                    ishape = list(a.shape)
                    ishape[axis] = 3
                    check(by_axis, a, rng.integers(-n, n, ishape), axis)
                    other = (axis + 1) % a.ndim  # the axis itself in 1-d
                    ishape[other] = 1  # indices broadcast there
                    check(by_axis, a, rng.integers(-n, n, ishape).astype(np.int32), axis)
                    if a.ndim > 1:  # arr broadcast there
                        one = a[(slice(None),) * other + (slice(0, 1),)]
                        ishape = list(one.shape)
                        ishape[other], ishape[axis] = 5, 4
                        check(by_axis, one, rng.integers(-n, n, ishape), axis)
                if AXIS_DEFAULTS:
                    check(by_default, a, rng.integers(0, a.shape[-1], a.shape))
                check(flat, a, rng.integers(-a.size, a.size, 7))


def test_take_along_axis_errors_match_numpy():
    f = fn("np.take_along_axis(a, i, axis)", "a, i, axis")
    m = np.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 4"):
        f(m, np.array([[9]]), 1)
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 0 with size 3"):
        f(m, np.array([[-5]]), 0)
    with pytest.raises(IndexError, match="could not be broadcast"):
        f(m, np.zeros((2, 4), np.int64), 1)
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):
        f(m, np.zeros((1, 1), np.int64), 2)
    with pytest.raises(ruchey.TypingError, match="same number of dimensions"):
        f(m, np.zeros(3, np.int64), 1)
    with pytest.raises(ruchey.TypingError, match="integer array"):
        f(m, np.zeros((3, 1)), 1)
    with pytest.raises(ruchey.TypingError, match="single dimension"):
        fn("np.take_along_axis(a, i, None)", "a, i")(m, np.zeros((3, 1), np.int64))


def test_extract_flatnonzero_match_numpy():
    rng = make_rng(14)
    fs = [fn("np.extract(c, a)", "c, a"), fn("np.extract(a > 2, a)", "c, a"), fn("np.flatnonzero(c)", "c, a")]
    for dtype in DTYPES + COMPLEX:
        for shape in [(0,), (6,), (2, 3), (3, 1, 2)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                c = small(rng, dtype, shape, "C") if dtype is not np.bool_ else a.copy()
                for f in fs:
                    if f is fs[1] and dtype in COMPLEX:
                        continue
                    check(f, c, a)
    check(fs[0], np.array([0, 1, 1]), np.arange(5.0))  # a shorter condition: the first elements
    check(fs[2], 3.0, 1)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        fs[0](np.array([0, 1, 0, 1]), np.arange(3.0))


# ---------------------------------------------------------------- select

def test_select_matches_numpy():
    rng = make_rng(15)
    fs = [fn("np.select([a > 2, a < 1], [a, a * 2])"), fn("np.select((a > 2, a < 1, a == 1), (a, b, 7), default=-1)", "a, b"),
          fn("np.select([a > 3], [b], 1.5)", "a, b"), fn("np.select([a > 2, a > 1], [a, a + 1], b)", "a, b")]
    for dtype in [d for d in DTYPES if d is not np.bool_]:
        for shape in [(0,), (6,), (2, 3)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                b = small(rng, np.int32, shape[-1:], "C")  # broadcast against a
                check(fs[0], a)
                for f in fs[1:]:
                    check(f, a, b)


SELECT_HELD = define("""
@ruchey.njit
def held(a, b):
    conds = [a > 2, a < 1]
    choices = [a, a * 2]
    return np.select(conds, choices), np.select(conds, choices, b)

@ruchey.njit
def held_tuples(a, b):
    conds = (a > 2, a < 1)
    choices = (a, b)
    return np.select(conds, choices, -1)
""", "held")
SELECT_HELD_TUPLES = SELECT_HELD.py_func.__globals__["held_tuples"]


def test_select_of_lists_and_tuples_held_in_variables_matches_numpy():
    rng = make_rng(17)
    passed = fn("np.select(c, x, d)", "c, x, d")
    for dtype in [np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex128]:  # (each compiles five times)
        for shape in [(0,), (6,), (2, 3)]:
            a = small(rng, dtype, shape, "C")  # (a list's arrays are of one layout)
            b = small(rng, np.int32, shape[-1:], "C")  # broadcast against a
            check(SELECT_HELD, a, b)
            check(SELECT_HELD_TUPLES, a, b)
            conds = [rng.random(shape) < 0.5 for _ in range(3)]
            zero = a.dtype.type(0)  # (a Python int passed is int64, as Numba types it: see the README)
            check(passed, conds, [a, a + 1, a * 2], zero)
            check(passed, conds, (a, a, a), b.astype(dtype))
            check(passed, tuple(conds), [a, a, a], zero)
            if not NUMPY1 or dtype != np.float32:  # (NumPy 1.x casts by the scalar default's value: float32 stays)
                check(passed, [c[..., :1] for c in conds], [a] * 3, np.float64(1.5))  # conditions broadcast
    x = np.arange(4)
    check(passed, [x > 1] * 100, [x] * 100, 0)


def test_select_of_sequences_errors_are_numpys():
    passed = fn("np.select(c, x, d)", "c, x, d")
    x = np.arange(4)
    with pytest.raises(ValueError, match="list of cases must be same length as list of conditions"):
        passed.py_func([x > 1, x > 2], [x], 0)
    with pytest.raises(ValueError, match="list of cases must be same length as list of conditions"):
        passed([x > 1, x > 2], [x], 0)
    with pytest.raises(ruchey.TypingError, match="empty condition list"):
        passed((), (), 0)
    with pytest.raises(ValueError, match="shape mismatch"):
        passed([x[:3] > 0], [x], 0)
    with pytest.raises(ruchey.TypingError, match="should be boolean ndarray"):
        passed([x], [x], 0)
    with pytest.raises(ruchey.TypingError, match="lists or tuples of arrays"):
        passed(x > 1, x, 0)


def test_select_errors_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="same length"):
        fn("np.select([a > 2, a < 1], [a])")(np.ones(3))
    with pytest.raises(ruchey.TypingError, match="should be boolean ndarray"):
        fn("np.select([a], [a])")(np.ones(3))


# ---------------------------------------------------------------- resize, broadcast_to

def test_resize_matches_numpy():
    rng = make_rng(16)
    fs = [fn("np.resize(a, (n, 3))", "a, n"), fn("np.resize(a, n)", "a, n"), fn("np.resize(a, (2, n, 2))", "a, n")]
    for dtype in DTYPES + COMPLEX:
        for shape in [(0,), (1,), (5,), (2, 3)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                for n in (0, 1, 4):
                    for f in fs:
                        check(f, a, n)
    check(fs[1], 2.5, 3)
    with pytest.raises(ValueError, match="must be non-negative"):
        fs[1](np.ones(3), -1)


def test_broadcast_to_is_a_read_only_view_matching_numpy():
    rng = make_rng(17)
    fs = [fn("np.broadcast_to(a, (2, 3, 4))"), fn("np.broadcast_to(a, (n, 4)).copy()", "a, n")]
    for dtype in (np.float64, np.int16, np.bool_, np.complex128):
        for shape in [(4,), (1,), (3, 1), (3, 4), (1, 1)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                got, expected = fs[0](a), fs[0].py_func(a)
                assert got.shape == expected.shape and np.array_equal(got, expected) and not got.flags.writeable
                assert np.shares_memory(got, a)
                if len(shape) == 1 or shape[0] == 1:
                    for n in (0, 2):
                        check(fs[1], a, n)
    with pytest.raises(ValueError, match="could not be broadcast"):
        fs[0](np.ones(3))
    with pytest.raises(ruchey.TypingError, match="more dimensions"):
        fn("np.broadcast_to(a, (3,))")(np.ones((3, 3)))
    with pytest.raises(ruchey.TypingError, match="read-only"):
        define("@ruchey.njit\ndef f(a):\n    b = np.broadcast_to(a, (2, 3))\n    b[0, 0] = 1.0\n    return b\n")(np.ones(3))


def test_broadcast_to_its_own_shape_is_a_new_read_only_view():
    rng = make_rng(41)
    f = fn("np.broadcast_to(a, a.shape)")
    for dtype in (np.float64, np.int32, np.complex64):
        for shape in [(), (1,), (3,), (2, 3), (0, 2)]:
            a = small(rng, dtype, shape)
            got, expected = f(a), f.py_func(a)
            assert got is not a and np.shares_memory(got, a) or a.size == 0
            assert got.shape == expected.shape and np.array_equal(got, expected)
            assert not got.flags.writeable and a.flags.writeable
            a.flags.writeable = False  # a read-only argument: as it is, as NumPy's
            assert not f(a).flags.writeable


def test_broadcast_to_of_a_number_matches_numpy():
    fs = [fn("np.broadcast_to(a, n)", "a, n"), fn("np.broadcast_to(a, (2, n))", "a, n"),
          fn("np.broadcast_to(a, ())", "a, n")]
    for a in (2.5, -3, True, np.float32(1.5), np.int16(7)):
        for n in (0, 1, 4):
            for f in fs:
                got, expected = f(a, n), f.py_func(a, n)
                assert got.shape == expected.shape and got.dtype == expected.dtype
                assert np.array_equal(got, expected) and not got.flags.writeable
    with pytest.raises(ValueError, match="non-negative"):
        fs[0](1.0, -1)


def test_broadcast_to_of_a_tuple_or_list_reads_it_as_numpy_asarray():
    fs = [fn("np.broadcast_to(a, (n, 2))", "a, n"), fn("np.broadcast_to([1.5, a[0]], (2, n, 2))", "a, n")]
    for a in ((1, 2), (1.5, -2.5), (True, False), (1j, 2 - 1j)):
        for n in (0, 1, 3):
            for f in fs:
                got, expected = f(a, n), f.py_func(a, n)
                assert got.shape == expected.shape and got.dtype == expected.dtype
                assert np.array_equal(got, expected) and not got.flags.writeable
    with pytest.raises(ValueError):
        fs[0]((1, 2, 3), 2)
    with pytest.raises(ruchey.TypingError, match="broadcast_to"):
        fs[0]("ab", 2)


# ---------------------------------------------------------------- rot90

def test_rot90_matches_numpy_as_a_view():
    rng = make_rng(18)
    fs = [fn("np.rot90(a)"), fn("np.rot90(a, k)", "a, k"), fn("np.rot90(a, k=k).copy()", "a, k")]
    for dtype in (np.float64, np.int8, np.bool_, np.complex128):
        for shape in [(2, 3), (0, 3), (3, 0), (1, 1), (2, 3, 2)]:
            for layout in LAYOUTS:
                a = small(rng, dtype, shape, layout)
                for k in (-5, -1, 0, 1, 2, 3, 4, 7):
                    got, expected = fs[1](a, k), fs[1].py_func(a, k)
                    assert got.shape == expected.shape and np.array_equal(got, expected), (shape, layout, k)
                    assert np.shares_memory(got, a) or not a.size
                    check(fs[2], a, k)
                check(fs[0], a)
    with pytest.raises(ruchey.TypingError, match="out of range for array of ndim=1"):
        fs[0](np.ones(3))


# ---------------------------------------------------------------- logspace

@pytest.mark.filterwarnings("ignore:invalid value encountered in power")  # NumPy's, of a negative base
def test_logspace_matches_numpy():
    fs = [fn("np.logspace(a, b)", "a, b"), fn("np.logspace(a, b, 7)", "a, b"), fn("np.logspace(a, b, 6, False, 2.0)", "a, b"),
          fn("np.logspace(a, b, num=4, base=b)", "a, b"), fn("np.logspace(a, b, 0)", "a, b"), fn("np.logspace(a, b, 1)", "a, b")]
    for a, b in [(0.0, 1.0), (-3.0, 2.5), (2, 5), (1.0, 1.0), (np.float32(0.5), np.float32(2.0)), (3.0, -1.0)]:
        for f in fs:
            got, expected = f(a, b), f.py_func(a, b)
            if NUMPY1 and isinstance(a, np.float32):  # NumPy 1.x's value-based casting: float64 (NumPy 2, ruchey: float32)
                expected = expected.astype(np.float32)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=4e-7 if got.dtype == np.float32 else 4e-16)  # pow's last bit
    with pytest.raises(ValueError, match="must be non-negative"):
        fn("np.logspace(a, b, -1)", "a, b")(1.0, 2.0)


# ---------------------------------------------------------------- gcd, lcm

def test_gcd_lcm_match_numpy():
    rng = make_rng(19)
    fs = [fn("np.gcd(a, b)", "a, b"), fn("np.lcm(a, b)", "a, b"), fn("np.gcd(a, b) + np.lcm(b, a)", "a, b")]
    for dtype in [d for d in DTYPES if np.dtype(d).kind in "iu"]:
        for shape in [(0,), (9,), (3, 4)]:
            for layout in ("C", "reversed"):
                a = small(rng, dtype, shape, layout) * 3
                b = small(rng, dtype, shape, "C") * 2
                for f in fs:
                    check(f, a, b)
    for x, y in [(12, 18), (-12, 18), (0, 0), (0, 5), (7, -3)]:
        for f in fs[:2]:
            assert f(x, y) == f.py_func(x, y)
    with pytest.raises(ruchey.TypingError, match="not defined for arrays of float64"):
        fs[0](np.ones(3), np.ones(3))
