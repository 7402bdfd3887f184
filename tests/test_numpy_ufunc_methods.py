"""The methods of NumPy's own ufuncs in compiled code: numpy.add.reduce,
numpy.maximum.reduceat, numpy.multiply.accumulate, numpy.add.at, numpy.add.outer ..., each against NumPy on generated
arrays of several dtypes and shapes; and the scalar ufuncs whose result
keeps NumPy's loop dtype (numpy.maximum of two uint8 is a uint8, as Numba's)."""
import numpy as np
import pytest

import ruchey
from ruchey import njit

from arraygen import LAYOUTS, array
from conftest import NUMPY1, assert_same_value, make_rng

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int8, np.uint8, np.bool_]
REDUCING = ["add", "multiply", "maximum", "minimum", "subtract", "logical_and", "logical_or", "fmax", "fmin"]


def reductions(name):
    """A function of the reductions and accumulations of numpy.<name> along each axis and all."""
    namespace = {"np": np}
    exec(f"def f(a):\n    u = np.{name}\n"
         f"    return np.array([u.reduce(a.ravel())]), u.reduce(a), u.reduce(a, axis=1), u.reduce(a, axis=-1), "
         f"u.reduceat(a.ravel(), np.array([0, 3, 2])), u.accumulate(a), u.accumulate(a, axis=-1), "
         f"u.accumulate(a.ravel())\n", namespace)
    return namespace["f"]


def inputs(dt):
    rng = make_rng(11)
    ints = rng.integers(-3, 12, (3, 5))
    yield ints.astype(dt) if dt is not np.uint8 else np.abs(ints).astype(dt)
    yield np.full((2, 4), 100).astype(dt)  # add and multiply of narrow ints count in 64 bits, as NumPy's
    if np.dtype(dt).kind == "f":
        a = rng.standard_normal((3, 4)).astype(dt)
        a[1, 2] = np.nan
        yield a
        yield np.asfortranarray(rng.standard_normal((4, 3)).astype(dt))


@pytest.mark.parametrize("name", REDUCING)
def test_reduce_and_reduceat_of_numpy_ufuncs_are_numpys(name):
    f = reductions(name)
    compiled = njit(f)
    for dt in DTYPES:
        if name == "subtract" and dt is np.bool_:
            continue  # (NumPy has no boolean subtract)
        for a in inputs(dt):
            with np.errstate(all="ignore"):
                want = f(a)
            got = compiled(a)
            for w, g in zip(want, got):
                assert g.dtype == w.dtype, (name, dt, g.dtype, w.dtype)
                if w.dtype.kind == "f":
                    np.testing.assert_allclose(g, w, rtol=1e-5 if w.dtype == np.float32 else 1e-12, equal_nan=True)
                else:
                    np.testing.assert_array_equal(g, w)


def test_add_reduce_of_floats_is_numpys_sum_to_the_bit():
    """numpy.add.reduce of floats along an axis or all of them is NumPy's
    pairwise summation, as numpy.sum's (a fold in order differs in the last bits)."""
    @njit
    def sums(a):
        return np.add.reduce(a), np.add.reduce(a, axis=None), np.add.reduce(a, -1)

    rng = make_rng(12)
    for dt in (np.float64, np.float32):
        for a in (rng.random((3, 2001)).astype(dt), np.asfortranarray(rng.random((700, 3))).astype(dt),
                  rng.standard_normal((2, 3001)).astype(dt)[:, ::3], np.zeros((0, 4), dt), rng.random(5001).astype(dt)):
            for got, want in zip(sums(a), sums.py_func(a)):
                assert not isinstance(want, np.ndarray) or got.dtype == want.dtype  # (a scalar is a Python float)
                np.testing.assert_array_equal(got, want)


def test_add_reduce_of_floats_with_initial_or_two_axes_is_numpys_to_the_bit():
    """initial= over all the elements: NumPy's accumulator starts at it and
    the pairwise sum is added to it; two axes of a 2-d array: the pairwise
    summation of all of them, as numpy.sum's."""
    @njit
    def sums(a, start):
        return (np.add.reduce(a.ravel(), initial=start), np.add.reduce(a, axis=None, initial=start),
                np.add.reduce(a, axis=(0, 1)), np.add.reduce(a, axis=(-1, 0)))

    rng = make_rng(13)
    for dt in (np.float64, np.float32):
        for a in (rng.random((3, 2001)).astype(dt), np.asfortranarray(rng.random((700, 3))).astype(dt),
                  rng.standard_normal((2, 3001)).astype(dt)[:, ::3], np.zeros((0, 4), dt),
                  np.array([[np.nan, -0.0], [1e30, 2.5]], dt)):
            for start in (1.5, 0, -3):
                for got, want in zip(sums(a, start), sums.py_func(a, start)):
                    assert np.asarray(got, dtype=want.dtype).tobytes() == np.asarray(want).tobytes()
    with pytest.raises(ValueError, match="axis"):
        njit(lambda a: np.add.reduce(a, axis=(0, 0)))(np.ones((2, 2)))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_add_reduce_of_floats_with_initial_along_one_axis_is_numpys_to_the_bit(dt, layout):
    """initial= along one axis: along the axis NumPy walks innermost (the
    smallest step in memory) initial plus each lane's pairwise sum, along
    another the elements added to initial one by one, on every layout."""
    @njit
    def along(a, axis, start):
        return np.add.reduce(a, axis=axis, initial=start)

    rng = make_rng(17)
    for shape in ((5, 7, 3), (9, 40), (3, 1, 17), (2, 300, 2), (4, 0, 3), (2, 9000)):
        a = array(rng, dt, shape, layout)
        for axis in range(-a.ndim, a.ndim):
            for start in (1.5, -0.0, 3):
                with np.errstate(all="ignore"):
                    want, got = along.py_func(a, axis, start), along(a, axis, start)
                assert got.dtype == want.dtype and got.shape == want.shape
                if NUMPY1:  # (NumPy 1.x adds initial otherwise: the same sum within its rounding)
                    np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.float32 else 1e-12)
                else:
                    assert got.tobytes() == want.tobytes(), (shape, axis, start)


def test_reduce_keywords_and_empty_arrays():
    @njit
    def f(a, start):
        return np.add.reduce(a, axis=None), np.add.reduce(a, axis=(0, 1)), np.multiply.reduce(a, 0, initial=start)

    for a in (np.arange(12.0).reshape(3, 4), np.zeros((0, 3)), np.arange(6).reshape(2, 3)):
        want, got = f.py_func(a, 2), f(a, 2)
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g, w)

    @njit
    def no_identity(a):
        return np.maximum.reduce(a)

    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum which has no identity"):
        no_identity(np.zeros(0))

    @njit
    def running(a, axis):
        return np.add.accumulate(a, axis)

    for a in (np.zeros((0, 3)), np.zeros((2, 0)), np.arange(24.0).reshape(2, 3, 4)):
        for axis in range(a.ndim):
            want, got = running.py_func(a, axis), running(a, axis)
            assert got.shape == want.shape and got.flags.c_contiguous
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError):
        running(np.zeros(3), 1)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or", "fmax"])
def test_reduce_along_several_axes_folds_initial_once_as_numpy(name):
    """initial= with a tuple of axes: NumPy folds it into each result once
    (not once per axis), also where an axis reduced is empty (the result
    is initial then, with no identity too)."""
    namespace = {"np": np}
    exec(f"def f(a, start):\n    u = np.{name}\n"
         f"    return (u.reduce(a, axis=(0, 1), initial=start), u.reduce(a, axis=(0, 2), initial=start), "
         f"u.reduce(a, axis=(-1, 0), initial=start), u.reduce(a, axis=(0, 1, 2), initial=start))\n", namespace)
    f = namespace["f"]
    compiled = njit(f)
    rng = make_rng(5)
    for dt in (np.int64, np.int32, np.int8, np.float64, np.bool_):
        for shape in ((2, 3, 4), (3, 1, 2), (0, 3, 2), (2, 0, 3), (2, 3, 0)):
            for layout in LAYOUTS:
                a = array(rng, np.int8, shape, layout) % 4 - 1
                a = a.astype(dt) if dt is not np.bool_ else a > 0
                for start in (2, -1):
                    with np.errstate(all="ignore"):
                        want = f(a, start)
                    got = compiled(a, start)
                    what = f"{name} {dt} {shape} {layout} {start}"
                    for w, g in zip(want[:3], got[:3]):
                        assert g.dtype == w.dtype and g.shape == w.shape, (what, g.dtype, w.dtype)
                        np.testing.assert_array_equal(g, w, err_msg=what)
                    assert_same_value(want[3], got[3], what=what)  # (all the axes: a number)


def test_reduce_and_reduceat_compute_in_the_dtype_given():
    @njit
    def f(a, idx):
        return (np.add.reduce(a, dtype=np.float32), np.add.reduce(a, axis=1, dtype=np.int64),
                np.multiply.reduce(a, axis=None, dtype=np.float64), np.maximum.reduce(a, 1, np.int16),
                np.add.reduceat(a, idx, 1, np.float64), np.add.reduce(a, axis=(), dtype=np.int32))

    rng = make_rng(5)
    for dt in (np.int8, np.uint8, np.int32, np.float32, np.float64, np.bool_):
        for shape in ((3, 4), (0, 2)):
            a = rng.integers(0, 100, shape).astype(dt)  # int8's wrap in the sum, int64's do not
            for w, g in zip(f.py_func(a, np.array([0, 1, 0])), f(a, np.array([0, 1, 0]))):
                assert np.asarray(g).dtype == np.asarray(w).dtype, (dt, shape, g, w)  # (axis=None: a scalar)
                np.testing.assert_array_equal(g, w)


def test_at_of_numpy_ufuncs_applies_repeated_indices_each_time():
    @njit
    def f(a, idx, b):
        x = a.copy()
        np.add.at(x, idx, b)
        y = a.copy()
        np.maximum.at(y, idx, b)
        z = a.copy()
        np.negative.at(z, idx)
        w = a.copy()
        np.multiply.at(w, idx, 2)
        return x, y, z, w

    rng = make_rng(11)
    for dt in (np.float64, np.int32, np.int8):
        a = rng.integers(-5, 5, 9).astype(dt)
        for idx in (np.array([0, 0, 3, 8, -1, 3]), np.array([], np.int64), np.array([2])):
            b = rng.integers(-9, 9, idx.size).astype(dt) if idx.size != 1 else dt(7)
            for w, g in zip(f.py_func(a, idx, b), f(a, idx, b)):
                assert g.dtype == w.dtype
                np.testing.assert_array_equal(g, w)
    with pytest.raises(IndexError):
        f(np.zeros(3), np.array([3]), np.zeros(1))


def test_methods_of_ufuncs_compiled_code_lacks_are_typing_errors():
    @njit
    def f(a):
        return np.frexp.reduce(a)

    with pytest.raises(ruchey.TypingError):
        f(np.ones(3))



OUTER = ["add", "multiply", "subtract", "equal", "less", "maximum", "logical_and", "arctan2", "power"]


def outers(name, scalar="{}"):
    """A function of numpy.<name>.outer of its two operands, of a transpose and of a Python scalar
    (each scalar written as scalar.format(it))."""
    namespace = {"np": np}
    exec(f"def f(a, b):\n    u = np.{name}\n"
         f"    return u.outer(a, b), u.outer(b, a.T), u.outer(a[::-1], {scalar.format(2)}), "
         f"u.outer({scalar.format(3.5)}, b)\n", namespace)
    return namespace["f"]


def nep50_outers(name, a, b, want):
    """outers(name)'s results as NumPy 2 makes them (NEP 50: a Python scalar operand of outer is an int64 or
    float64 array), where NumPy 1.x casts by a scalar's value (int8 with 2 stays int8, and wraps): its scalars
    as 1-item arrays, the results shaped as want's."""
    with np.errstate(all="ignore"):
        return [r.reshape(np.shape(w)) for r, w in zip(outers(name, "np.array([{}])")(a, b), want)]


def assert_outers_are_numpys(name, f, compiled, a, b):
    with np.errstate(all="ignore"):
        want = f(a, b)
        got = compiled(a, b)
    if NUMPY1:
        want = nep50_outers(name, a, b, want)
    for w, g in zip(want, got):
        # NumPy's half-precision loop of narrow ints (arctan2 of int8) is Numba's float32 one, as its ufuncs choose
        dtype = np.float32 if w.dtype == np.float16 else w.dtype
        assert np.shape(g) == np.shape(w) and np.asarray(g).dtype == dtype, (a.dtype, np.asarray(b).dtype)
        rtol = {np.float16: 1e-3, np.float32: 1e-6}.get(w.dtype.type, 1e-15)
        np.testing.assert_allclose(g, w, rtol=rtol, equal_nan=True)


@pytest.mark.parametrize("name", OUTER)
def test_outer_of_numpy_ufuncs_is_numpys(name):
    """u.outer(a, b) has shape a.shape + b.shape and NumPy's dtype: a Python
    scalar is an int64 or float64 array there, not a weak scalar."""
    f = outers(name)
    compiled = njit(f)
    rng = make_rng(5)
    for da, db in ((np.float64, np.float64), (np.int8, np.int8), (np.uint8, np.float32)):
        for sa, sb in (((3, 2), (4,)), ((0, 2), (3,))):
            assert_outers_are_numpys(name, f, compiled, rng.integers(0, 4, sa).astype(da), rng.integers(0, 3, sb).astype(db))


def test_outer_of_any_dimensions_and_scalars_is_numpys():
    f = outers("add")
    compiled = njit(f)
    rng = make_rng(6)
    for a, b in ((rng.normal(size=(2, 3)), rng.normal(size=(2, 0, 2))), (rng.integers(0, 9, (1, 5)), np.int16(2)),
                 (rng.integers(0, 2, (2, 2)).astype(np.bool_), rng.integers(0, 2, (3, 1)).astype(np.bool_)),
                 (np.asfortranarray(rng.normal(size=(3, 2))), rng.normal(size=3)[::-1])):
        assert_outers_are_numpys("add", f, compiled, a, b)


def test_outer_of_a_unary_ufunc_is_a_typing_error():
    @njit
    def f(a):
        return np.negative.outer(a, a)

    with pytest.raises(ruchey.TypingError, match="outer only supported for binary functions"):
        f(np.ones(3))


def scalar_ufuncs(a, b):
    x, y = a[0], b[0]
    return (np.array([np.maximum(x, x)]), np.array([np.minimum(x, y)]), np.array([np.fmax(x, x)]),
            np.array([np.fmod(x, x)]), np.array([np.power(x, x)]), np.array([np.maximum(x, 3)]))


@pytest.mark.parametrize("dt", [np.uint8, np.int8, np.int16, np.int32, np.uint32, np.uint64, np.int64])
def test_numpy_ufuncs_of_int_scalars_keep_numpys_loop_dtype(dt):
    """numpy.maximum of two uint8 is a uint8 (NumPy's loop, Numba's type),
    not Python's int promotion; a Python int beside one is an int64, as Numba's."""
    a, b = np.array([3, 2], dt), np.array([2], np.int16)
    got = njit(scalar_ufuncs)(a, b)
    with np.errstate(all="ignore"):
        want = [np.array([v]) for v in (np.maximum(a[0], a[0]), np.minimum(a[0], b[0]), np.fmax(a[0], a[0]),
                                        np.fmod(a[0], a[0]), np.power(a[0], a[0]),
                                        np.maximum(a[0], np.int64(3)))]
    for w, g in zip(want, got):
        assert g.dtype == w.dtype and g[0] == w[0], (g, w)


def test_attributes_of_numpy_ufuncs_are_constants():
    def f():
        return (np.add.nin, np.add.nout, np.add.nargs, np.add.identity, np.multiply.identity, np.maximum.identity is None,
                np.multiply.__name__, np.sin.nin, np.add.ntypes)

    assert njit(f)() == f()
