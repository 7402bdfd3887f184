"""NumPy's shape functions in compiled code, compared with NumPy on
generated arrays of every dtype and layout (C, Fortran, strided, reversed,
empty, 0-d): results' dtype, shape, values and contiguity, views writing
through to their base where NumPy's do, NumPy's errors.

Deviations (see lib/builtins/shape.c): reshape and ravel of an array that is
not C-contiguous copy it; squeeze needs axis= (the dimensions of length 1
are known only at run time); axes that decide a result's type are
constants."""
import itertools
import platform
import warnings

import numpy as np
import pytest

import ruchey
from arraygen import DTYPES, LAYOUTS, array, assert_same_array, check, define, shapes
from conftest import AS_NUMBA, assert_same_value, make_rng, numpy2_only

# Numba lacks many of these functions or differs from NumPy in them (squeeze,
# layouts, where's dtypes, errors): the file checks ruchey against NumPy and
# is skipped with RUCHEY_TEST_AS_NUMBA=1 (see test_creation.py).
pytestmark = pytest.mark.skipif(AS_NUMBA, reason="checks NumPy's behaviour, which numba's differs from here")

RNG = make_rng(2024)


def arrays(dtypes=(np.float64,), layouts=LAYOUTS, shape_list=None, seed=0):
    """An array of each dtype, layout and shape (shapes(): every ndim to 3, empty ones)."""
    rng = make_rng(seed)
    out = []
    for dtype in dtypes:
        for layout in layouts:
            for shape in shape_list or shapes():
                out.append(array(rng, dtype, shape, layout))
    return out


# ---------------------------------------------------------------- reshape, ravel, flatten


@ruchey.njit
def reshape_forms(a, n):
    return a.reshape(n, -1), a.reshape((-1, n)), np.reshape(a, (n, a.size // n)), a.reshape(a.size), a.reshape(-1)


@ruchey.njit
def reshape_3d(a):
    return a.reshape(2, 3, -1), a.reshape((1, -1, 2, 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape_every_dtype(dtype):
    for a in arrays([dtype], ("C", "strided"), [(4, 6)], seed=1):
        check(reshape_forms, a, 4, flags=a.flags.c_contiguous)  # others: NumPy's views where it can, ruchey's copies
    check(reshape_3d, array(RNG, dtype, (24,)), flags=True)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_reshape_every_layout(layout):
    for a in arrays([np.int32], (layout,), [(4, 6), (2, 3, 4), (24,), (0, 4)], seed=2):
        check(reshape_forms, a, 4, flags=a.flags.c_contiguous)
        check(reshape_3d, a if a.size == 24 else np.zeros(24, np.int32), flags=a.flags.c_contiguous)


@ruchey.njit
def reshape_and_write(a):
    b = a.reshape(-1)
    b[0] = 99
    return b


def test_reshape_of_c_contiguous_array_is_a_view():
    a = np.arange(12.0).reshape(3, 4)
    b = reshape_and_write(a)
    assert a[0, 0] == 99 and np.shares_memory(a, b)
    f = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    c = reshape_and_write(f)  # a copy (NumPy too: a Fortran array is not C-contiguous)
    assert f[0, 0] == 0 and c[0] == 99


@ruchey.njit
def reshape_to(a, s0, s1):
    return a.reshape(s0, s1)


@ruchey.njit
def reshape_to1(a, s0):
    return a.reshape(s0)


@ruchey.njit
def reshape_to0(a):
    return a.reshape(())


@pytest.mark.parametrize("size, shape", [(6, (4, 2)), (6, (4, -1)), (6, (-1, -1)), (6, (0, -1)), (0, (-1, 0)),
                                         (6, (5,)), (6, ()), (0, (3, -2)), (6, (-2, 3)), (6, (2, -3))])
def test_reshape_errors_and_unknown_dimension_as_numpy(size, shape):
    a = np.arange(size, dtype=np.float64)
    f = {0: reshape_to0, 1: reshape_to1, 2: reshape_to}[len(shape)]
    try:
        expected = f.py_func(a, *shape)
    except ValueError as e:
        with pytest.raises(ValueError) as info:
            f(a, *shape)
        assert str(info.value) == str(e)
    else:
        assert_same_array(expected, f(a, *shape))


@ruchey.njit
def ravels(a):
    return a.ravel(), np.ravel(a), a.flatten()


@pytest.mark.parametrize("dtype", DTYPES)
def test_ravel_and_flatten_every_dtype(dtype):
    check(ravels, array(RNG, dtype, (3, 4), "F"), flags=True)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ravel_and_flatten_every_layout(layout):
    for a in arrays([np.uint16], (layout,), [(), (5,), (3, 4), (0, 3), (2, 3, 2)], seed=3):
        check(ravels, a, flags=True)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ravel_is_a_view_where_c_contiguous_flatten_never(layout):
    a = array(RNG, np.int64, (3, 4), layout)
    r, _, fl = ravels(a)
    assert np.shares_memory(r, a) == a.flags.c_contiguous
    assert not np.shares_memory(fl, a)


@ruchey.njit
def ravels_in_order(a):
    return a.ravel('F'), np.ravel(a, order='F'), a.flatten('F'), a.ravel(order='C'), a.flatten(order='C')


@ruchey.njit
def ravels_as_laid_out(a):
    return a.ravel('A'), a.ravel(order='K'), a.flatten('A'), np.ravel(a, 'K'), a.flatten('K')


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ravel_and_flatten_in_fortran_order(layout):
    for dtype in (np.float64, np.int8, np.complex64):
        for a in arrays([dtype], (layout,), [(), (5,), (3, 4), (0, 3), (2, 3, 2)], seed=4):
            check(ravels_in_order, a, flags=True)
            assert np.shares_memory(ravels_in_order(a)[0], a) == np.shares_memory(a.ravel('F'), a)
            if layout in "CF":
                check(ravels_as_laid_out, a, flags=True)
    a = array(RNG, np.int32, (3, 4), "F")
    a.flags.writeable = False
    r, n, fl, rc, _ = ravels_in_order(a)
    assert not r.flags.writeable and not n.flags.writeable and fl.flags.writeable and rc.flags.writeable


def test_ravel_order_a_or_k_of_a_strided_array_and_an_unknown_order_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="of an array of layout A is not supported"):
        ravels_as_laid_out(array(RNG, np.float64, (3, 4), "strided"))
    f = define("@ruchey.njit\ndef f(a):\n    return a.ravel('Q')\n")
    with pytest.raises(ruchey.TypingError, match="order must be 'C', 'F', 'A' or 'K' written out"):
        f(np.ones((2, 2)))


@ruchey.njit
def reshapes_in_order(a):
    return (a.reshape(2, -1, order='F'), np.reshape(a, (-1,), order='F'), a.reshape((1, -1, 1), order='F'),
            a.reshape(-1, 2, order='C'))


@ruchey.njit
def reshapes_as_laid_out(a):
    return a.reshape(-1, order='A'), a.reshape((2, -1), order='A')


@pytest.mark.parametrize("layout", LAYOUTS)
def test_reshape_in_fortran_order(layout):
    for dtype in (np.float64, np.uint8):
        for a in arrays([dtype], (layout,), [(6,), (3, 4), (0, 4), (2, 3, 2)], seed=5):
            check(reshapes_in_order, a, flags=layout in "CF")  # others: NumPy's views where it can, ruchey's copies
            if layout in "CF":
                assert np.shares_memory(reshapes_in_order(a)[1], a) == np.shares_memory(a.reshape(-1, order='F'), a)
                check(reshapes_as_laid_out, a, flags=True)
    a = array(RNG, np.int32, (3, 4), "F")
    b = a.copy(order="F")
    reshapes_in_order(b)[0][0, 1] = 99  # a view of a Fortran array writes through
    a.reshape(2, -1, order='F')[0, 1] = 99
    np.testing.assert_array_equal(a, b)


@ruchey.njit
def reshapes(a):
    return a.reshape(-1), np.reshape(a, (2, -1)), a.reshape(a.size, 1)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ravel_and_reshape_of_a_read_only_array_are_writable_where_copied(layout):
    # a read-only array whose type is not C-contiguous is always copied (as Numba's ravel does),
    # and the copy is writable as NumPy's is; a C-contiguous one stays a read-only view
    for dtype in (np.float64, np.int16, np.bool_):
        a = array(RNG, dtype, (3, 4), layout)
        a.flags.writeable = False
        r, n, fl = ravels(a)
        for got in (r, n, fl):
            np.testing.assert_array_equal(got, a.ravel())
        assert r.flags.writeable == n.flags.writeable == (layout != "C")
        assert fl.flags.writeable
        for got, expected in zip(reshapes(a), reshapes.py_func(a)):
            np.testing.assert_array_equal(got, expected)
            assert got.flags.writeable == expected.flags.writeable == (layout != "C")
            assert np.shares_memory(got, a) == (layout == "C")


@ruchey.njit
def unfold_ravel(x, y):
    r, c = x.shape
    b = np.swapaxes(np.broadcast_to(x, (y, r, c)), 0, 1).ravel()
    d = np.reshape(b, (-1, c))
    d[y - 1:, :] = d[: 1 - y]
    return d


def test_ravel_of_a_broadcast_view_can_be_written():
    for x, y in [(np.arange(9).reshape(3, 3), 2), (np.arange(8.0).reshape(2, 4), 3)]:
        np.testing.assert_array_equal(unfold_ravel(x, y), unfold_ravel.py_func(x, y))


def test_reshape_without_shape_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(a):\n    return a.reshape()\n")
    with pytest.raises(ruchey.TypingError, match="reshape"):
        f(np.zeros(3))
    g = define("@ruchey.njit\ndef f(a):\n    return a.reshape(2, 1.5)\n")
    with pytest.raises(ruchey.TypingError, match="reshape"):
        g(np.zeros(3))
    h = define("@ruchey.njit\ndef f(a):\n    return a.reshape(3, order='K')\n")
    with pytest.raises(ruchey.TypingError, match="reshape.*order must be 'C', 'F' or 'A'"):
        h(np.zeros(3))


# ---------------------------------------------------------------- transpose


@ruchey.njit
def transposes(a):
    return a.T, a.transpose(), np.transpose(a)


@ruchey.njit
def transposes_3d(a):
    return (a.transpose(1, 0, 2), a.transpose((2, 0, 1)), np.transpose(a, (0, 2, 1)),
            np.transpose(a, axes=(-1, -2, -3)), a.transpose(0, 1, 2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose_every_dtype(dtype):
    check(transposes, array(RNG, dtype, (3, 4)), flags=True)
    check(transposes_3d, array(RNG, dtype, (2, 3, 4), "F"), flags=True)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_transpose_every_layout_is_a_view(layout):
    for a in arrays([np.float32], (layout,), [(), (5,), (3, 4), (2, 3, 4), (4, 0)], seed=5):
        for t in transposes(a):
            assert np.shares_memory(t, a) or not a.size
        check(transposes, a, flags=True)
        if a.ndim == 3:
            check(transposes_3d, a, flags=True)
    a = array(RNG, np.float32, (3, 4), layout)
    t = transposes(a)[0]
    t[1, 2] = 42.0
    assert a[2, 1] == 42.0


@ruchey.njit
def transposes_by(a, axes):
    return np.transpose(a, axes), a.transpose(axes), np.transpose(a, axes=axes).copy()


def test_transpose_by_axes_known_at_run_time_matches_numpy():
    for layout in LAYOUTS:
        for a in arrays([np.float64, np.int16], (layout,), [(2, 3, 4), (0, 3, 2), (5,)], seed=46):
            for axes in itertools.permutations(range(-a.ndim, a.ndim), a.ndim):
                if len({x % a.ndim for x in axes}) == a.ndim:
                    check(transposes_by, a, axes)
                    assert np.shares_memory(transposes_by(a, axes)[0], a) or not a.size
    f = define("@ruchey.njit\ndef f(a, i, j):\n    return a.transpose(i, j)\n")
    check(f, np.ones((2, 3)), 1, 0)
    with pytest.raises(ValueError, match="repeated axis in transpose"):
        transposes_by(np.ones((2, 3)), (1, -1))
    with pytest.raises(ValueError, match="out of bounds"):
        transposes_by(np.ones((2, 3)), (0, 2))
    with pytest.raises(ruchey.TypingError, match="axes don't match"):
        transposes_by(np.ones((2, 3)), (0, 1, 2))
    with pytest.raises(ruchey.TypingError, match="must be ints"):
        transposes_by(np.ones((2, 3)), (0, 1.0))


@pytest.mark.parametrize("axes", ["(0, 0)", "(0,)", "(0, 2)", "(0, 1, 2)", "ax, 0"])
def test_transpose_with_wrong_axes_is_a_typing_error(axes):
    f = define(f"@ruchey.njit\ndef f(a):\n    ax = (1, 0)\n    return a.transpose({axes})\n")
    with pytest.raises(ruchey.TypingError, match="transpose"):
        f(np.zeros((2, 3)))


# ---------------------------------------------------------------- squeeze, expand_dims


@ruchey.njit
def squeezes(a):
    return a.squeeze(axis=1), np.squeeze(a, 3), np.squeeze(a, axis=(1, -1)), a.squeeze((1, 3))


@pytest.mark.parametrize("dtype", DTYPES)
def test_squeeze_named_axes(dtype):
    for layout in ("C", "F", "strided") if dtype is np.float64 else ("strided",):
        a = array(RNG, dtype, (3, 1, 2, 1), layout)
        check(squeezes, a, flags=True)
        assert all(np.shares_memory(s, a) for s in squeezes(a))


@ruchey.njit
def squeeze0(a):
    return a.squeeze(), np.squeeze(a)


def test_squeeze_of_0d_without_axis_and_its_errors():
    check(squeeze0, np.array(2.5))
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has size not equal to one"):
        squeezes(np.zeros((3, 2, 2, 1)))
    f = define("@ruchey.njit\ndef f(a):\n    return a.squeeze()\n")
    with pytest.raises(ruchey.TypingError, match="squeeze.*axis"):
        f(np.zeros((3, 1)))
    g = define("@ruchey.njit\ndef f(a):\n    return a.squeeze(axis=2)\n")
    with pytest.raises(ruchey.TypingError, match="out of bounds"):
        g(np.zeros((3, 1)))


@ruchey.njit
def expands(a):
    return (np.expand_dims(a, 0), np.expand_dims(a, -1), np.expand_dims(a, axis=1),
            np.expand_dims(a, (0, 2)), np.expand_dims(a, axis=(-1, 0)))


@ruchey.njit
def expand_0d(a):
    return np.expand_dims(a, 0), np.expand_dims(a, (-1, 0))


@pytest.mark.parametrize("dtype", DTYPES)
def test_expand_dims(dtype):
    for a in arrays([dtype], ("F", "strided") if dtype is np.float64 else ("C",), [(3, 2)], seed=6):
        check(expands, a, flags=True)
    check(expands, array(RNG, dtype, (4,)), flags=True)
    check(expand_0d, array(RNG, dtype, ()), flags=True)
    a = array(RNG, dtype, (3, 2))
    e = expands(a)[1]
    e[2, 1, 0] = e[0, 1, 0]
    assert a[2, 1].tobytes() == a[0, 1].tobytes()


@ruchey.njit
def expand_at(a, axis):
    return np.expand_dims(a, axis)


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("shape", [(), (4,), (3, 2), (2, 3, 4)])
def test_expand_dims_at_an_axis_known_at_run_time(shape, layout):
    a = array(RNG, np.float64, shape, layout if shape else "C")
    for axis in range(-a.ndim - 1, a.ndim + 1):
        check(expand_at, a, axis, flags=True)


@pytest.mark.parametrize("axis", [-5, 4, 7])
def test_expand_dims_at_a_run_time_axis_out_of_bounds_raises_value_error(axis):
    a = np.zeros((2, 3, 4))[0]
    with pytest.raises(ValueError) as expected:
        expand_at.py_func(a, axis)
    with pytest.raises(ValueError) as got:
        expand_at(a, axis)
    assert str(got.value) == str(expected.value)


def test_expand_dims_at_a_run_time_axis_is_a_view():
    a = np.zeros((2, 3))
    expand_at(a, 1)[1, 0, 2] = 5.0
    assert a[1, 2] == 5.0


def test_expand_dims_repeated_axis_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(a):\n    return np.expand_dims(a, (0, 0))\n")
    with pytest.raises(ruchey.TypingError, match="repeated axis"):
        f(np.zeros(3))


# ---------------------------------------------------------------- astype, view, fill


def castable(a, to):
    """a with values every dtype holds (NumPy's casts of floats beyond an
    integer type's range, and of NaN, are C's undefined behaviour and differ
    by platform: test_float_beyond_an_int_range_converts_as_numpy_on_x86)."""
    if np.dtype(to).kind in "iub" and a.dtype.kind == "f":
        a = np.where(np.isfinite(a), a, 1).clip(0, 100)
    return a


@pytest.mark.parametrize("to", DTYPES)
def test_astype_every_pair_of_dtypes(to):
    f = define(f"@ruchey.njit\ndef f(a):\n    return a.astype(dtype='{np.dtype(to).str}')\n")
    for dtype in DTYPES:
        a = castable(array(RNG, dtype, (7,)), to)
        got = check(f, a, flags=True)
        assert not np.shares_memory(got, a)
    for layout in ("F", "strided"):
        check(f, castable(array(RNG, np.float64, (3, 4), layout), to), flags=True)


BEYOND = [np.nan, np.inf, -np.inf, 1e300, -1e300, 2.0**63, -2.0**63, 2.0**64, 1e19, -1e19, 3e9, -3e9, 2.0**31,
          70000.5, -70000.5, 300.7, -300.7, 255.9, -1.0, -0.5, 128.0, -129.0, 65536.0, 2.0**32, -2.0**32, 2.5]


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="the CPU's conversion decides")
@pytest.mark.parametrize("to", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_beyond_an_int_range_converts_as_numpy_on_x86(dtype, to):
    """NaN, infinities and floats beyond the type's range give NumPy's values
    on x86 (INT_MIN cut to the type, through the CPU's signed conversion), in
    astype, stores into an array (as Numba's; NumPy's item assignment raises
    for NaN) and NumPy's scalar types, whether or not the loop is vectorised.
    NumPy's uint32 differs between its own loops there (2**31 or 0 for NaN):
    its element-by-element one is the reference."""
    astype = define(f"@ruchey.njit\ndef f(a):\n    return a.astype(np.{to.__name__})\n")
    store = define("@ruchey.njit\ndef f(a, out):\n    for i in range(a.size):\n        out[i] = a[i]\n    return out\n")
    scalar = define(f"@ruchey.njit\ndef f(x):\n    return np.{to.__name__}(x)\n")
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for n in (1, 7, 200):  # scalar code, a short loop, vectorised
            a = np.resize(np.array(BEYOND, dtype), n)
            want = np.repeat(a, 2)[::2].astype(to)
            assert_same_array(astype(a), want)
            assert_same_array(store(a, np.zeros(n, to)), want)
        for x in BEYOND:
            assert scalar(dtype(x)) == scalar.py_func(dtype(x))


SAME_SIZE = [(np.int64, np.float64), (np.float64, np.uint64), (np.int32, np.float32),
             (np.uint32, np.int32), (np.int16, np.uint16), (np.int8, np.uint8), (np.uint8, np.bool_)]


@pytest.mark.parametrize("dtype, to", SAME_SIZE)
def test_view_as_another_dtype_of_the_same_size_shares_memory(dtype, to):
    f = define(f"@ruchey.njit\ndef f(a):\n    v = a.view(np.{to.__name__})\n    return v\n")  # np.bool_ on NumPy 1
    for layout in ("C", "F", "strided"):
        a = array(RNG, dtype, (3, 4), layout)
        if to is np.bool_:
            a = (a % 2).astype(dtype)
        v = check(f, a, flags=True)
        v = f(a)
        assert np.shares_memory(v, a) and v.dtype == np.dtype(to)


def outcome(f, a):
    try:
        return f(a), None
    except ValueError as e:
        return None, str(e)


@pytest.mark.parametrize("dtype, to", [(np.int32, np.uint8), (np.int32, np.float64), (np.float64, np.int16),
                                       (np.uint8, np.complex128), (np.bool_, np.uint16), (np.complex64, np.float32)])
def test_view_as_a_dtype_of_another_size_regroups_the_last_axis_as_numpy(dtype, to):
    f = define(f"@ruchey.njit\ndef f(a):\n    return a.view(np.{to.__name__})\n")
    base = (np.arange(48) % 7).astype(dtype)  # (exact in every dtype, no NaN from the bytes of another)
    for a in (base, base.reshape(4, 12), base.reshape(4, 12)[::2], base.reshape(4, 12)[:, ::2], base.reshape(4, 12).T,
              base[:0], base.reshape(12, 4)[:, :1], base.reshape(4, 12)[:, 1:7], base.reshape(2, 4, 6),
              np.asfortranarray(base.reshape(4, 12)), base[:5]):
        (expected, expected_error), (got, error) = outcome(f.py_func, a), outcome(f, a)
        assert error == expected_error, f"{a.shape} {a.strides}"
        if expected is not None:
            assert got.strides == expected.strides and np.shares_memory(got, a) == np.shares_memory(expected, a)
            assert_same_array(expected, got, f"{a.shape} {a.strides}", flags=True)


def test_a_view_of_another_size_writes_through():
    f = define("@ruchey.njit\ndef f(a):\n    b = a.view(np.uint8)\n    b[:8] = 255\n    return b\n")
    a = np.zeros(3)
    b = f(a)
    assert np.isnan(a[0]) and a[1] == 0 and b.base is not None and b.shape == (24,)


@pytest.mark.parametrize("dtype, to", [(np.float64, np.int32), (np.int8, np.float64), (np.bool_, np.uint16),
                                       (np.float32, np.float32), (np.int64, np.float64), (np.uint8, np.bool_)])
def test_view_of_a_0d_array_as_another_size_is_numpys_value_error_when_it_runs(dtype, to):
    """as Numba's: the call compiles (a line that does not run costs nothing)"""
    f = define(f"@ruchey.njit\ndef f(a):\n    return a.view(np.{to.__name__})\n")
    g = define(f"@ruchey.njit\ndef g(a, go):\n    s = a.sum()\n    if go:\n        a.view(np.{to.__name__})\n"
               f"    return s\n", "g")
    for a in (np.array(3, dtype), np.arange(6).astype(dtype).reshape(2, 3)[1, 2:].reshape(())):
        assert_same_value(g.py_func(a, False), g(a, False))
        (expected, expected_error), (got, error) = outcome(f.py_func, a), outcome(f, a)
        assert error == expected_error
        if expected is not None:
            assert_same_array(expected, got)


TEXT_ARRAYS = [np.array(["abcdef", "xy", ""]), np.array([b"abcd", b"ef"]), np.array(["ab", "cd", "ef", "gh"]).reshape(2, 2),
               np.array(["ab", "cd", "ef", "gh"])[::2], np.array([b"abcd"]).reshape(()), np.array([b"abcdefgh"] * 3)[:, None],
               np.array(["abc", "de"] * 3).reshape(2, 3).T]


@pytest.mark.parametrize("to", ["np.uint8", "np.int32", "np.float32", "np.complex128", "np.int16", "np.uint64"])
def test_view_of_str_and_bytes_arrays_is_numpys(to):
    """their bytes read as another dtype's, NumPy's ValueError where its rules for another itemsize refuse,
    as Numba's"""
    f = define(f"@ruchey.njit\ndef f(a):\n    return a.view({to})\n")
    for a in TEXT_ARRAYS:
        (expected, expected_error), (got, error) = outcome(f.py_func, a), outcome(f, a)
        assert error == expected_error, f"{a!r} as {to}"
        if expected is not None:
            assert_same_array(expected, got, f"{a!r} as {to}")
            assert np.shares_memory(got, a)


@ruchey.njit
def filled(a, v):
    a.fill(v)
    return a


@pytest.mark.parametrize("dtype", DTYPES)
def test_fill_every_dtype_and_layout(dtype):
    for a in arrays([dtype], LAYOUTS if dtype is np.int16 else ("strided",), [(), (5,), (3, 4), (0, 2)], seed=7):
        check(filled, a, a.dtype.type(1))
    check(filled, array(RNG, dtype, (3, 4)), 2.5)
    base = np.zeros((4, 6), dtype)
    filled(base[::2, 1::2], 1)
    expected = np.zeros((4, 6), dtype)
    expected[::2, 1::2] = 1
    assert_same_array(expected, base)


# ---------------------------------------------------------------- concatenate and the stacks


@ruchey.njit
def joins_1d(a, b):
    return (np.concatenate((a, b)), np.concatenate([a, b, a]), np.stack((a, b)), np.stack([a, b], axis=1),
            np.stack((a, b), -1), np.hstack((a, b)), np.vstack([a, b]), np.column_stack((a, b)))


@ruchey.njit
def joins_2d(a, b, axis):
    return (np.concatenate((a, b)), np.concatenate((a, b), axis=1), np.concatenate((a, b), axis),
            np.stack((a, b), axis), np.stack((a, b), axis=2), np.hstack((a, b)), np.vstack((a, b)),
            np.column_stack([a, b]), np.concatenate((a, b), -1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_joins_every_dtype(dtype):
    rng = make_rng(8)
    check(joins_1d, array(rng, dtype, (4,)), array(rng, dtype, (4,), "strided"), flags=True)
    for axis in (0, 1, -1, -2):
        check(joins_2d, array(rng, dtype, (3, 4)), array(rng, dtype, (3, 4), "F"), axis, flags=True)


@pytest.mark.parametrize("ta, tb", [(np.int8, np.uint8), (np.int32, np.float32), (np.bool_, np.int16),
                                    (np.uint64, np.int64), (np.float32, np.float64), (np.int64, np.complex128),
                                    (np.float32, np.complex64), (np.bool_, np.complex128)])
def test_joins_promote_dtypes(ta, tb):
    rng = make_rng(9)
    check(concat_stack, array(rng, ta, (3,)), array(rng, tb, (3,)))
    check(concat_stack, array(rng, ta, (2, 2)), array(rng, tb, (2, 2), "reversed"))


@ruchey.njit
def concat_stack(a, b):
    return np.concatenate((a, b)), np.stack((b, a), -1)


@ruchey.njit
def joins_0d_and_empty(a, b):
    return np.hstack((a, b)), np.vstack((a, b)), np.column_stack((a, b)), np.stack((a, b))


def test_joins_of_0d_and_empty_arrays():
    check(joins_0d_and_empty, np.array(1.5), np.array(2.5))
    check(joins_1d, np.zeros(0), np.zeros(0))
    check(joins_2d, np.zeros((0, 3)), np.ones((0, 3)), 0)


@ruchey.njit
def joins_mixed(a, b):
    return np.column_stack((a, b)), np.vstack((a, b.T)), np.hstack((b, b)), np.concatenate((b, b), 1)


@ruchey.njit
def stack_fortran(a):
    return np.stack((a, a)), np.stack((a, a), axis=-1)


def test_joins_of_fortran_arrays_are_fortran_and_of_mixed_dimensions():
    f = array(RNG, np.float64, (3, 2), "F")
    check(joins_mixed, array(RNG, np.float64, (3,)), f, flags=True)
    check(joins_mixed, array(RNG, np.float64, (3,)), np.ascontiguousarray(f), flags=True)
    check(joins_0d_and_empty, np.array(3.0), np.array(4))
    check(stack_fortran, f)  # NumPy orders the result neither way, ruchey C


@ruchey.njit
def concat_dtype(a, b):
    return np.concatenate((a, b), dtype=np.float32), np.stack((a, b), dtype="i8"), np.hstack((a, b), dtype=np.int16)


def test_join_with_dtype_casts_within_kinds():
    check(concat_dtype, np.arange(3), np.arange(3, dtype=np.uint8))
    with pytest.raises(TypeError, match="same_kind"):
        concat_dtype.py_func(np.arange(3), np.arange(3.0))
    with pytest.raises(ruchey.TypingError, match="same_kind"):
        concat_dtype(np.arange(3), np.arange(3.0))


@ruchey.njit
def concat_axis(a, b, axis):
    return np.concatenate((a, b), axis=axis)


@ruchey.njit
def stack_axis(a, b, axis):
    return np.stack((a, b), axis=axis)


def test_join_shape_and_axis_errors_as_numpy():
    a, b = np.zeros((2, 3)), np.zeros((2, 4))
    for f, args in [(concat_axis, (a, b, 0)), (concat_axis, (a, a, 2)), (concat_axis, (a, a, -3)),
                    (stack_axis, (a, b, 0)), (stack_axis, (a, a, 3)), (stack_axis, (a, a, -4))]:
        with pytest.raises(ValueError) as expected:
            f.py_func(*args)
        with pytest.raises(ValueError) as got:
            f(*args)
        assert str(got.value) == str(expected.value)
    check(concat_axis, a, b, 1)
    check(stack_axis, a, a, -3)


@ruchey.njit
def joins_of_a_list(arrays, axis):
    # a list built at run time, as code gathering pieces in a loop has one
    pieces = [arrays[0]]
    for k in range(1, len(arrays)):
        pieces.append(arrays[k])
    return (np.concatenate(pieces), np.concatenate(pieces, axis=axis), np.stack(pieces), np.stack(pieces, axis),
            np.hstack(pieces), np.vstack(pieces), np.column_stack(pieces), np.dstack(pieces))


@ruchey.njit
def joins_of_a_typed_list(arrays):
    pieces = ruchey.typed.List()
    for a in arrays:
        pieces.append(a)
    return np.concatenate(pieces, axis=-1), np.stack(pieces, axis=-1), np.vstack(pieces)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex128])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_joins_of_lists_of_arrays_as_numpy(dtype, layout):
    rng = make_rng(10)
    for shape, count in [((4,), 1), ((4,), 3), ((2, 3), 2), ((2, 3), 4), ((0, 3), 2), ((2, 1, 3), 3)]:
        arrays = tuple(array(rng, dtype, shape, layout) for _ in range(count))
        for axis in range(-len(shape), len(shape)):  # (NumPy's stack of Fortran arrays is neither C nor F)
            check(joins_of_a_list, arrays, axis, flags=layout != "F")
        check(joins_of_a_typed_list, arrays, flags=layout != "F")


@ruchey.njit
def concat_pieces(n, m, axis):
    pieces = []
    for k in range(n):
        pieces.append(np.full((2, m + k), k * 1.5))  # joined along axis 1 only
    return np.concatenate(pieces, axis=axis)


@ruchey.njit
def stack_pieces(n):
    pieces = []
    for k in range(n):
        pieces.append(np.arange(k + 2))
    return np.stack(pieces)


def test_joins_of_lists_of_arrays_errors_as_numpy():
    check(concat_pieces, 3, 2, 1)
    for f, args in [(concat_pieces, (0, 2, 0)), (concat_pieces, (3, 2, 0)), (stack_pieces, (0,)), (stack_pieces, (2,))]:
        with pytest.raises(ValueError) as expected:
            f.py_func(*args)
        with pytest.raises(ValueError) as got:
            f(*args)
        assert str(got.value) == str(expected.value)
    with pytest.raises(ruchey.TypingError, match="numpy.concatenate"):
        define("@ruchey.njit\ndef f(n):\n    return np.concatenate([k * 1.0 for k in range(n)])\n")(3)


@pytest.mark.parametrize("call", ["np.concatenate((a, a[0]))", "np.concatenate((a, 1.0))",
                                  "np.concatenate(a)", "np.concatenate(())", "np.vstack((a, a[0][0]))",
                                  "np.concatenate((a, a), axis=1.5)", "np.concatenate((a, a), out=a)"])
def test_join_of_wrong_arguments_is_a_typing_error(call):
    f = define(f"@ruchey.njit\ndef f(a):\n    return {call}\n")
    with pytest.raises(ruchey.TypingError, match="numpy.(concatenate|vstack)"):
        f(np.zeros((2, 2)))


# ---------------------------------------------------------------- roll, tile, repeat


@ruchey.njit
def rolls(a, shift):
    return np.roll(a, shift), np.roll(a, shift, axis=0), np.roll(a, shift, -1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_roll_every_dtype(dtype):
    a = array(RNG, dtype, (3, 4), "strided")
    for shift in (0, 1, -1, 5, -13, 100):
        check(rolls, a, shift)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_roll_every_layout(layout):
    for a in arrays([np.int16], (layout,), [(7,), (2, 3, 4), (0, 3)], seed=10):
        for shift in (2, -3, 7):
            check(rolls, a, shift, flags=True)


@ruchey.njit
def rolls_over_axes(a, shift):
    return (np.roll(a, (shift, 1), (0, -1)), np.roll(a, shift, (0, 0)), np.roll(a, (shift, -2)),
            np.roll(a, (shift, 3), 0), np.roll(a, (shift,), (-1, 0)))


# several axes (rocket-fft's numpy.roll): NumPy's broadcast of shift and axis; the result is
# C-ordered (rt_roll), where NumPy's keeps a Fortran array's order
@pytest.mark.parametrize("layout", LAYOUTS)
def test_roll_over_several_axes(layout):
    for dtype in (np.int16, np.complex128, np.bool_):
        for a in arrays([dtype], (layout,), [(7,), (2, 3, 4), (0, 3)], seed=11):
            for shift in (2, -3, 7):
                check(rolls_over_axes, a, shift)


def test_roll_shift_and_axis_that_do_not_broadcast_raise_numpys_errors():
    f = define("@ruchey.njit\ndef f(a):\n    return np.roll(a, (1, 2, 3), (0, 1))\n")
    g = define("@ruchey.njit\ndef f(a):\n    return np.roll(a, (1, 2), (0, 5))\n")
    a = np.ones((2, 3))
    with pytest.raises(ValueError) as expected:
        f.py_func(a)
    with pytest.raises(ValueError) as got:
        f(a)
    assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError, match="axis 5 is out of bounds for array of dimension 2"):
        g(a)


@ruchey.njit
def tiles(a, n):
    return np.tile(a, n), np.tile(a, (n, 2)), np.tile(a, (2, 1, n))


# tile's result is C-ordered; NumPy's is a copy of A in A's order where every rep is 1
@pytest.mark.parametrize("dtype", DTYPES)
def test_tile_every_dtype(dtype):
    shape_list = [(), (3,), (2, 3), (0, 2)] if dtype is np.int32 else [(2, 3)]
    for a in arrays([dtype], ("C", "F"), shape_list, seed=11):
        for n in (0, 1, 3):
            check(tiles, a, n)


def test_tile_negative_reps_raise():
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        tiles(np.zeros(3), -1)


@ruchey.njit
def repeats(a, n):
    return np.repeat(a, n), a.repeat(n), np.repeat(a, n, axis=0), a.repeat(n, axis=-1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_every_dtype(dtype):
    shape_list = [(4,), (2, 3), (0, 3)] if dtype is np.uint8 else [(2, 3)]
    for a in arrays([dtype], ("strided",), shape_list, seed=12):
        for n in (0, 1, 3):
            check(repeats, a, n)


@ruchey.njit
def repeat_number(x, n):
    return np.repeat(x, n), np.cumprod(np.repeat(x, n))


@pytest.mark.parametrize("x", [2.5, -3, True, np.float32(0.5)])
def test_repeat_of_a_number_repeats_its_0d_array(x):
    for n in (0, 1, 4):
        check(repeat_number, x, n)


def test_repeat_every_layout_and_errors():
    for layout in LAYOUTS:
        check(repeats, array(RNG, np.float32, (2, 3, 2), layout), 2)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        repeats(np.zeros(3), -1)
    f = define("@ruchey.njit\ndef f(a):\n    return np.repeat(a, a)\n")
    with pytest.raises(ruchey.TypingError, match="repeats"):
        f(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="repeats"):
        define("@ruchey.njit\ndef f(a):\n    return np.repeat(a, a, axis=0)\n")(np.zeros((3, 3), np.int64))


@ruchey.njit
def repeat_counts(a, counts):
    return np.repeat(a, counts), a.repeat(counts)


def test_repeat_by_an_array_of_counts_matches_numpy():
    rng = make_rng(44)
    for dtype in (np.float64, np.int16, np.bool_, np.complex64):
        for shape in [(5,), (2, 3), (0,), (3, 0)]:
            for layout in LAYOUTS:
                a = array(rng, dtype, shape, layout)
                for cdtype in (np.int64, np.int32, np.uint8):
                    counts = rng.integers(0, 4, a.size).astype(cdtype)
                    check(repeat_counts, a, counts)
                    check(repeat_counts, a, counts[:1])  # one count for all
                    check(repeat_counts, a, np.repeat(counts, 2)[::2])  # strided
    assert np.array_equal(repeat_counts(np.arange(3), [2, 0, 1])[0], [0, 0, 2])
    assert np.array_equal(repeat_counts(np.arange(3), (1, 1, 3))[1], [0, 1, 2, 2, 2])
    with pytest.raises(ValueError, match="could not be broadcast"):
        repeat_counts(np.arange(3), np.array([1, 2]))
    with pytest.raises(ValueError, match="negative values"):
        repeat_counts(np.arange(3), np.array([1, -1, 2]))


@ruchey.njit
def repeat_counts_along(a, counts, axis):
    return np.repeat(a, counts, axis=axis), a.repeat(counts, axis)


def test_repeat_by_an_array_of_counts_along_an_axis_matches_numpy():
    rng = make_rng(45)
    for dtype in (np.float64, np.int16, np.bool_, np.complex64):
        for shape in [(5,), (2, 3), (3, 0, 2)]:
            for layout in LAYOUTS:
                a = array(rng, dtype, shape, layout)
                for axis in range(-a.ndim, a.ndim):
                    counts = rng.integers(0, 4, a.shape[axis])
                    check(repeat_counts_along, a, counts, axis)
                    check(repeat_counts_along, a, counts.astype(np.uint8)[::-1], axis)
                    check(repeat_counts_along, a, np.array([2]), axis)  # one count for all
    check(repeat_counts_along, np.arange(6).reshape(2, 3), [2, 0, 1], 1)
    with pytest.raises(ValueError, match="could not be broadcast together with shape \\(3,\\) \\(2,\\)"):
        repeat_counts_along(np.ones((2, 3)), np.array([1, 2]), 1)
    with pytest.raises(ValueError, match="negative values"):
        repeat_counts_along(np.ones((2, 3)), np.array([1, -1]), 0)
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):  # (NumPy's AxisError)
        repeat_counts_along(np.ones((2, 3)), np.array([1, 2]), 2)


# ---------------------------------------------------------------- flip


@ruchey.njit
def flips(a):
    return np.flip(a), np.flip(a, 0), np.flip(a, axis=-1), np.flipud(a)


@ruchey.njit
def flips_2d(a, axis):
    return np.fliplr(a), np.flip(a, axis), np.flip(a, (0, 1)), np.flip(a, axis=(axis,))


@pytest.mark.parametrize("dtype", DTYPES)
def test_flips_are_views(dtype):
    layouts = LAYOUTS if dtype is np.float32 else ("C",)
    shape_list = [(5,), (3, 4), (0, 2), (2, 3, 2)] if dtype is np.float32 else [(3, 4)]
    for a in arrays([dtype], layouts, shape_list, seed=13):
        check(flips, a, flags=True)
        if a.ndim >= 2:
            check(flips_2d, a, 1, flags=True)
            check(flips_2d, a, -2, flags=True)
        if a.size:
            v = flips(a)[0]
            assert np.shares_memory(v, a)


@ruchey.njit
def flip_0d(a):
    return np.flip(a), np.flip(a)


def test_flip_of_0d_is_its_element_as_numpy():
    for dtype in (np.bool_, np.int8, np.float32):
        check(flip_0d, np.array(1, dtype))


def test_flip_writes_through_and_checks_dimensions():
    a = np.arange(6.0).reshape(2, 3)
    flips(a)[0][0, 0] = 42.0
    assert a[1, 2] == 42.0
    for name in ("fliplr", "flipud"):
        f = define(f"@ruchey.njit\ndef f(a):\n    return np.{name}(a)\n")
        with pytest.raises(ruchey.TypingError, match="Input must be"):
            f(np.array(1.0) if name == "flipud" else np.zeros(3))
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        flips_2d(a, 2)


# ---------------------------------------------------------------- nonzero


@ruchey.njit
def nonzeros(a):
    return np.nonzero(a), a.nonzero(), np.where(a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero_every_dtype(dtype):
    layouts = ("C", "F", "strided") if dtype is np.int8 else ("C",)
    shape_list = [(7,), (3, 4), (0, 3), (2, 3, 2)] if dtype is np.int8 else [(3, 4)]
    for a in arrays([dtype], layouts, shape_list, seed=14):
        if a.dtype.kind in "iu":
            a = a % 3
        check(nonzeros, a)


@ruchey.njit
def nonzeros_and_argwhere(a):
    return np.nonzero(a), a.nonzero(), np.where(a), np.argwhere(a)


def text_arrays(rng, kind):
    """str ('<Un') or bytes ('|Sn') arrays of every layout, a third of their
    items empty (false, as NumPy reads a str), some with inner NUL bytes."""
    words = ["", "", "a", "\x00b", "xyz", "\u00e9\u65e5"] if kind == "U" else [b"", b"", b"a", b"\x00b", b"xyz"]
    a = np.array(words, dtype=kind)[rng.integers(0, len(words), size=(4, 6))]
    return [a, np.asfortranarray(a), a[::2, 1::2], a[::-1, ::-1], a[0], a[:0]]


@pytest.mark.parametrize("kind", ["U", "S"])
def test_nonzero_of_str_and_bytes_arrays_finds_items_not_empty(kind):
    for a in text_arrays(make_rng(15), kind):
        check(nonzeros_and_argwhere, a)


def test_nonzero_of_0d_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="0d arrays"):
        nonzeros(np.array(1.0))


# ---------------------------------------------------------------- where


@ruchey.njit
def where3(c, x, y):
    return np.where(c, x, y)


@ruchey.njit
def where_fused(c, x, y):
    return np.where(c > 0, x * 2, y) + 1


@ruchey.njit
def where_scalars(c, x):
    return np.where(c, x, 0), np.where(c, 1.5, x), np.where(c, 2, 3), np.where(c, x, np.float32(1))


# each dtype with itself and the next, and pairs of kinds that promote to a third dtype
WHERE_PAIRS = ([(t, t) for t in DTYPES] + list(zip(DTYPES, DTYPES[1:] + DTYPES[:1]))
               + [(np.int8, np.uint8), (np.int64, np.uint64), (np.uint32, np.int16), (np.float32, np.int32),
                  (np.float32, np.int16), (np.bool_, np.uint16)])


@pytest.mark.parametrize("tx, ty", WHERE_PAIRS, ids=[f"{np.dtype(x)}-{np.dtype(y)}" for x, y in WHERE_PAIRS])
def test_where_promotes_like_numpy(tx, ty):
    rng = make_rng(15)
    c = rng.random(5) < 0.5
    check(where3, c, array(rng, tx, (5,)), array(rng, ty, (5,)))
    if tx is ty:
        check(where_scalars, c, array(rng, tx, (5,)))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_where_broadcasts_any_layouts(layout):
    rng = make_rng(16)
    for cs, xs, ys in [((3, 4), (3, 4), (3, 4)), ((3, 1), (4,), (3, 4)), ((), (2, 3), ()), ((4,), (3, 4), (1,)),
                       ((0, 4), (4,), ()), ((2, 3, 4), (3, 4), (2, 1, 4))]:
        c = array(rng, np.float64, cs, layout) > 0
        x = array(rng, np.float32, xs, layout)
        y = array(rng, np.int16, ys, layout)
        check(where3, c, x, y, flags=layout != "F")  # array expressions are C (NumPy's keep Fortran order)
        check(where_fused, array(rng, np.int8, cs, layout), x, y)
    with pytest.raises(ValueError, match="could not be broadcast"):
        where3(np.zeros(3, bool), np.zeros(4), 1.0)


def test_where_of_numbers_is_a_0d_array_and_two_arguments_an_error():
    check(where3, True, 1.5, 2)
    f = define("@ruchey.njit\ndef f(a):\n    return np.where(a, a)\n")
    with pytest.raises(ruchey.TypingError, match="both or neither"):
        f(np.zeros(3))


@ruchey.njit
def where_none(x, y):
    return np.where(None, x, y)


@pytest.mark.parametrize("tx, ty", WHERE_PAIRS[:6], ids=[f"{np.dtype(x)}-{np.dtype(y)}" for x, y in WHERE_PAIRS[:6]])
def test_where_of_none_is_false_everywhere(tx, ty):
    """where(None, x, y): NumPy's 0-d array of None is false, so y broadcast with x"""
    rng = make_rng(17)
    for xs, ys in [((5,), (5,)), ((3, 4), (4,)), ((), (2, 1)), ((), ())]:
        check(where_none, array(rng, tx, xs), array(rng, ty, ys))
    check(where_none, 1, 2.5)
    with pytest.raises(ruchey.TypingError, match="does not take None"):
        define("@ruchey.njit\ndef f():\n    return np.where(None)\n")()


# ---------------------------------------------------------------- clip


@ruchey.njit
def clip3(a, lo, hi):
    return np.clip(a, lo, hi)


@ruchey.njit
def clip_literals(a):
    return np.clip(a, 0, 100), np.clip(a, -200, 300), np.clip(a, 0.5, 2), a.clip(-1, 1), np.clip(a, 3, 1)


@numpy2_only  # NumPy 1.x's clip promotes with Python ints' values
@pytest.mark.parametrize("dtype", DTYPES)
def test_clip_every_dtype(dtype):
    rng = make_rng(17)
    for layout in ("C", "F", "strided") if dtype is np.float64 else ("strided",):
        a = array(rng, dtype, (3, 4), layout)
        check(clip_literals, a, flags=layout != "F")
        lo, hi = array(rng, dtype, (4,)), array(rng, dtype, (3, 1))
        check(clip3, a, lo, hi, flags=layout != "F")
        check(clip3, a, lo[0], hi[1, 0])


@numpy2_only
def test_clip_nans_and_mixed_bounds():
    a = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, 1.5, -2.5])
    for lo, hi in [(0.0, 1.0), (np.nan, 1.0), (0.0, np.nan), (-0.0, 0.0), (0.0, -0.0), (2.0, -2.0)]:
        check(clip3, a, lo, hi)
        # a float argument is a float64 in compiled code (NumPy's Python floats are weak)
        check(clip3, a.astype(np.float32), np.float32(lo), np.float32(hi))
    check(clip3, np.arange(5, dtype=np.int8), np.int16(1), np.int16(3))
    check(clip3, 3, 0, 2)
    check(clip3, np.float32(1.5), np.float32(0), np.float32(1))
    check(clip_numbers, np.float32(1.5), np.int8(-7))


@ruchey.njit
def clip_numbers(x, i):
    return np.clip(x, 0, 1), np.clip(i, -3, 300), np.clip(i, 0.5, x), np.clip(3, 0, 2)


@ruchey.njit
def clip_fused(a, b):
    return np.clip(a * 2, -1, b) - np.where(a > b, a, b)


def test_clip_and_where_fuse_into_array_expressions():
    rng = make_rng(18)
    check(clip_fused, rng.standard_normal((5, 3)), rng.standard_normal(3))


def test_unsupported_keywords_of_shape_functions_name_function_and_keyword():
    for call, name, kw in [("np.clip(a, 0, 1, where=a)", "numpy.clip", "where"),
                           ("np.where(a, a, a, out=a)", "numpy.where", "out"),
                           ("np.roll(a, 1, shift=1)", "numpy.roll", "shift"),
                           ("a.astype(np.int8, copy=False)", "array.astype", "copy"),
                           ("np.transpose(a, foo=1)", "numpy.transpose", "foo"),
                           ("np.reshape(a, 3, copy=True)", "numpy.reshape", "copy")]:
        f = define(f"@ruchey.njit\ndef f(a):\n    return {call}\n")
        with pytest.raises(ruchey.TypingError, match=rf"{name}.*'{kw}'"):
            f(np.zeros(3))


# ---------------------------------------------------------------- ownership


@ruchey.njit
def nonzero_in_a_loop(a, n):
    s = 0
    for _ in range(n):
        g = np.nonzero(a > 0)
        i, j = np.nonzero(a)
        s += g[0].size + np.nonzero(a)[1].size + i.size + j[0]
    return s


def test_nonzero_results_indexed_and_unpacked_in_a_loop():
    check(nonzero_in_a_loop, array(RNG, np.float64, (6, 7)), 5)


@ruchey.njit
def shape_functions_in_a_loop(a, n):
    s = 0.0
    for _ in range(n):
        b = a.reshape(-1)
        c = a.T.reshape(a.size)
        d = np.concatenate((a, np.where(a > 0, a, -a)), axis=1)
        e = np.stack([np.flip(a), np.roll(a, 3)])
        f = np.array([np.tile(a, 2)[:, :a.shape[1]], np.repeat(a, 2, axis=0)[::2]])
        g = np.ascontiguousarray(np.expand_dims(a, 0).squeeze(0).T)
        s += b[0] + c[1] + d[0, -1] + e[1, 0, 0] + f[1, -1, -1] + g[0, 1]
    return s


def test_shape_functions_run_in_constant_memory():
    from conftest import rss_bytes
    a = array(RNG, np.float64, (100, 120))
    check(shape_functions_in_a_loop, a, 3)
    before = rss_bytes()
    shape_functions_in_a_loop(a, 300)  # 400 MB in total if nothing were freed
    after = rss_bytes()
    if before is not None:
        assert after - before < 100 * 2**20, f"RSS grew by {(after - before) / 2**20:.0f} MiB"


@ruchey.njit
def reshape_fails_after_making_arrays(a, n):
    b = np.concatenate((a, a))
    return b.reshape(n, -1) + np.ones(1)


def test_errors_release_the_arrays_made_before():
    from conftest import rss_bytes
    a = np.zeros(100_000)
    before = rss_bytes()
    for _ in range(300):  # 480 MB if the concatenation leaked
        with pytest.raises(ValueError, match="cannot reshape array of size 200000 into shape"):
            reshape_fails_after_making_arrays(a, 7)
    after = rss_bytes()
    if before is not None:
        assert after - before < 100 * 2**20, f"RSS grew by {(after - before) / 2**20:.0f} MiB"


@pytest.mark.cpu_backend
@pytest.mark.parametrize("call", ["a[::2].reshape(2)", "a[::2].ravel()", "a.flatten()", "np.roll(a, 1)",
                                  "np.ascontiguousarray(a)", "np.asarray((1, 2))", "np.expand_dims(1.5, 0)"])
def test_shape_functions_are_refused_in_kernels(call):
    """(Views are not: reshape and ravel of an array contiguous in their order, transpose, flip...:
    tests/test_kernels_reshape.py)"""
    f = define(f"from ruchey import cuda\n\n@cuda.jit\ndef f(a):\n    b = {call}\n")
    with pytest.raises(ruchey.TypingError, match="kernel"):
        f[1, 1](np.zeros(4))


# ---------------------------------------------------------------- numpy.round

@ruchey.njit
def rounded(a, d):
    return np.round(a, d), np.around(a, decimals=d), a.round(d), np.round(a), np.round(a[::-2] * 2 + 1, d)


@ruchey.njit
def rounded_scalar(x, d):
    return np.round(x, d)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "int8", "uint8", "uint64"])
@pytest.mark.parametrize("seed", range(3))
def test_round_matches_numpy(dtype, seed):
    rng = make_rng(seed)
    info = np.iinfo(dtype) if dtype[0] in "iu" else None
    shape = (int(rng.integers(0, 5)), int(rng.integers(1, 7)))
    if info:
        a = rng.integers(max(info.min, -10**6), min(info.max, 10**6), size=shape).astype(dtype)
    else:
        a = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 6)).astype(dtype)
        a.flat[:3] = [2.675, -0.5, 1.5][:a.size] if a.size else []
    for d in (-3, -1, 0, 1, 2, 6):
        for got, want in zip(rounded(a, d), rounded.py_func(a, d)):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
    for x in list(a.flat[:4]) + [2.675, 0.125, -2.5, 1e300]:
        for d in (-2, 0, 2):
            assert rounded_scalar(x, d) == rounded_scalar.py_func(x, d)


@ruchey.njit
def round_float_decimals(a):
    return np.round(a, 1.5)


def test_round_refuses_what_it_cannot_do():
    with pytest.raises(ruchey.TypingError, match="decimals must be an int"):
        round_float_decimals(np.ones(3))


def test_round_of_a_complex_number_rounds_each_part_as_numpy():
    rng = make_rng(884)
    for _ in range(20):
        z = complex(*rng.normal(scale=50, size=2))
        for d in (-1, 0, 2):
            assert rounded_scalar(z, d) == rounded_scalar.py_func(z, d)


@ruchey.njit
def rounded_into(a, d, o, p, q):
    r = np.round(a, d, o)
    s = np.around(a, decimals=d, out=p)
    t = a.round(d, out=q)
    return r, s, t


OUT_DTYPES = {"float64": ["float64", "float32"], "float32": ["float32", "float64"],
              "int64": ["int64", "float64", "float32"], "int32": ["int32", "int64", "float64"],
              "uint8": ["uint8", "int16", "float64"]}


@pytest.mark.parametrize("dtype", list(OUT_DTYPES))
@pytest.mark.parametrize("seed", range(3))
def test_round_into_out_matches_numpy(dtype, seed):
    rng = make_rng(100 + seed)
    shape = (int(rng.integers(0, 5)), int(rng.integers(1, 7)))
    if dtype[0] in "iu":
        a = rng.integers(0 if dtype[0] == "u" else -10**4, 250 if dtype[0] == "u" else 10**4, size=shape).astype(dtype)
    else:
        a = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 6)).astype(dtype)
    a = a.T if seed == 1 else a  # a Fortran-ordered input
    for out_dtype in OUT_DTYPES[dtype]:
        for d in (-2, 0, 1, 3):
            if d < 0 and dtype[0] in "iu" and out_dtype[0] in "iu":
                continue  # NumPy's TypeError: test_round_into_int_out_with_negative_decimals_is_numpys_error
            outs = [np.full(a.shape, 7, out_dtype) for _ in range(6)]
            got = rounded_into(a, d, *outs[:3])
            rounded_into.py_func(a, d, *outs[3:])
            for r, g, w in zip(got, outs[:3], outs[3:]):
                assert r.shape == g.shape and (r.size == 0 or np.shares_memory(r, g))  # out returned
                np.testing.assert_array_equal(g, w, strict=True)


@ruchey.njit
def rounded_scalar_into(x, d, o):
    return np.round(x, d, o)


def test_round_of_a_number_into_a_0d_array():
    for x in make_rng(7).standard_normal(5) * 100:
        o, p = np.empty(()), np.empty(())
        rounded_scalar_into(x, 1, o)
        rounded_scalar_into.py_func(x, 1, p)
        np.testing.assert_array_equal(o, p, strict=True)


def test_round_into_out_of_another_shape_is_numpys_error():
    a = np.arange(6.0)
    for o in (np.empty(5), np.empty(7)):
        with pytest.raises(ValueError, match="invalid output shape"):
            rounded_scalar_into(a, 1, o)
        with pytest.raises(ValueError, match="invalid output shape"):
            rounded_scalar_into.py_func(a, 1, o)
    with pytest.raises(ruchey.TypingError, match="invalid output shape"):
        rounded_scalar_into(a, 1, np.empty((2, 6)))


def test_round_into_int_out_with_negative_decimals_is_numpys_error():
    a = np.arange(10)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'divide' output"):
        rounded_scalar_into(a, -1, np.empty(10, np.int64))
    rounded_scalar_into(a, 1, np.empty(10, np.int64))  # decimals >= 0: a copy

    @ruchey.njit
    def to_tens(a, o):
        return np.round(a, -1, o)
    with pytest.raises(ruchey.TypingError, match="Cannot cast ufunc 'divide' output"):
        to_tens(a, np.empty(10, np.int64))


def test_round_into_an_int_out_from_floats_is_refused():
    with pytest.raises(ruchey.TypingError, match="same_kind"):
        rounded_scalar_into(np.ones(3), 1, np.empty(3, np.int64))


# ---------------------------------------------------------------- a.flat[i] = v of any layout

@ruchey.njit
def flat_store(a, i, v):
    a.flat[i] = v
    return a.flat[i]


@ruchey.njit("void(int64, boolean[:, :])")
def flat_mark(ix, marks):
    marks.flat[ix] = True


@pytest.mark.parametrize("seed", range(4))
def test_flat_store_writes_an_array_of_any_layout_in_c_order(seed):
    """NumPy's flatiter writes the array itself, also where it is not
    C-contiguous (a transpose, a strided view, an 'A' signature's array:
    pysheds' catchment): the element at the C-order position."""
    rng = make_rng(seed)
    base = rng.standard_normal((4, 6, 5))
    for view in (lambda b: b[:, 1], lambda b: b[:, ::2, 1].T, lambda b: b[::2, 1:, ::3],
                 lambda b: np.asfortranarray(b[0])):
        got, expected = view(base.copy()), view(base.copy())
        for i in [int(k) for k in rng.integers(-got.size, got.size, size=4)]:
            v = float(rng.normal())
            assert flat_store(got, i, v) == flat_store.py_func(expected, i, v)
            np.testing.assert_array_equal(got, expected)
    marks = np.zeros((3, 4), bool)[:, ::2]
    flat_mark(3, marks)
    assert marks.tolist() == [[False, False], [False, True], [False, False]]


def test_flat_store_out_of_range_and_of_read_only_arrays():
    a = np.zeros((4, 3)).T
    with pytest.raises(IndexError):
        flat_store(a, a.size, 1.0)
    a.flags.writeable = False
    with pytest.raises(ruchey.TypingError, match="read-only"):
        flat_store(a, 0, 1.0)


def shaped_by_keyword(a, v):
    """The leading parameters of the shaping functions named, as NumPy names them."""
    return (np.squeeze(a=a[None], axis=0), np.expand_dims(a=a, axis=1), np.transpose(a=a),
            np.swapaxes(a=a, axis1=0, axis2=1), np.moveaxis(a=a, source=0, destination=-1),
            np.split(ary=a, indices_or_sections=2, axis=1), np.array_split(ary=a, indices_or_sections=3),
            np.flip(m=a, axis=0), np.roll(a, shift=1), np.roll(a=a, shift=-1, axis=1), np.tile(A=a, reps=2),
            np.repeat(a, repeats=2, axis=1), np.diag(v=a, k=1), np.hstack(tup=(a, a)), np.vstack(tup=(a, a)),
            np.column_stack(tup=(v, v)), np.dstack(tup=(v, v)), np.append(arr=v, values=v),
            np.resize(a=v, new_shape=(5,)), np.trim_zeros(filt=v))


@pytest.mark.parametrize("a", arrays(dtypes=(np.float64, np.int16), shape_list=[(3, 4), (2, 0)]), ids=repr)
def test_shaping_functions_take_their_leading_parameters_by_name(a):
    v = np.array([0, 2, 0, 3, 0], dtype=a.dtype)
    got, want = ruchey.njit(shaped_by_keyword)(a, v), shaped_by_keyword(a, v)
    for g, w in zip(got, want):
        for gi, wi in (zip(g, w) if isinstance(w, list) else [(g, w)]):
            np.testing.assert_array_equal(gi, wi)
            assert gi.dtype == wi.dtype and gi.shape == wi.shape
