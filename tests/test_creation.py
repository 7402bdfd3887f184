"""NumPy's array creation in compiled code: empty/zeros/ones/full and their
*_like forms, arange, linspace, eye, identity, array, asarray, copy,
ascontiguousarray -- shapes given as ints, tuples (made at run time too) or
a.shape, dtypes spelled every way NumPy allows; compared with NumPy (dtype,
shape, values, contiguity) on generated arguments."""
import numpy as np
import pytest

import ruchey
from arraygen import DTYPES, LAYOUTS, array, assert_same_array, check, define, layout_flags
from ruchey import njit
from conftest import AS_NUMBA, make_rng, numpy2_only

# Numba differs from NumPy in most of what is tested here (arange's and
# linspace's values, dtypes given by name, layouts of copies, asarray of
# lists, ...): the file checks ruchey against NumPy and is skipped with
# RUCHEY_TEST_AS_NUMBA=1 (256 of 417 tests in both files fail with Numba 0.68).
pytestmark = pytest.mark.skipif(AS_NUMBA, reason="checks NumPy's behaviour, which numba's differs from here")

# ---------------------------------------------------------------- dtypes

# How a dtype may be written: (source text, the dtype NumPy makes of it).
DTYPE_SPELLINGS = [
    ("np.float32", np.float32), ("np.float64", np.float64), ("np.int8", np.int8),
    ("np.uint16", np.uint16), ("np.int32", np.int32), ("np.uint64", np.uint64),
    ("np.bool_", np.bool_), ("bool", np.bool_), ("int", np.int64), ("float", np.float64),
    ('"f8"', np.float64), ('"float32"', np.float32), ('"i4"', np.int32), ('"int64"', np.int64),
    ('"bool"', np.bool_), ('"u1"', np.uint8), ('"uint32"', np.uint32), ('"i2"', np.int16),
    ('np.dtype("f4")', np.float32), ("np.dtype(np.int16)", np.int16), ("DT", np.uint8),
    ("np.longlong", np.longlong), ("np.ulonglong", np.ulonglong), ("np.intc", np.intc),
]
DT = np.dtype("u1")  # a dtype object held in a global


@pytest.mark.parametrize("spelling, dtype", DTYPE_SPELLINGS, ids=[s for s, _ in DTYPE_SPELLINGS])
def test_dtype_spellings_give_numpys_dtype(spelling, dtype):
    f = define(f"@ruchey.njit\ndef f(n, a):\n"
               f"    return (np.zeros(n, dtype={spelling}), np.ones((n, 2), {spelling}),\n"
               f"            np.full(n, 3, dtype={spelling}), np.empty_like(a, dtype={spelling}).shape,\n"
               f"            np.zeros_like(a, {spelling}), np.ones_like(a, dtype={spelling}),\n"
               f"            np.full_like(a, 1, dtype={spelling}), np.arange(n, dtype={spelling}))\n",
               env={"DT": DT})
    if np.dtype(dtype) == np.bool_:  # NumPy cannot arange bools
        f = define(f"@ruchey.njit\ndef f(n, a):\n"
                   f"    return (np.zeros(n, dtype={spelling}), np.ones((n, 2), {spelling}),\n"
                   f"            np.full(n, 3, dtype={spelling}), np.empty_like(a, dtype={spelling}).shape,\n"
                   f"            np.zeros_like(a, {spelling}), np.ones_like(a, dtype={spelling}),\n"
                   f"            np.full_like(a, 1, dtype={spelling}), np.zeros(2, {spelling}))\n",
                   env={"DT": DT})
    got = check(f, 4, np.arange(6.0).reshape(2, 3))
    assert got[0].dtype == np.dtype(dtype)


def test_dtype_of_an_array_and_its_dtype_object_are_dtypes():
    f = define("@ruchey.njit\ndef f(a):\n"
               "    return np.zeros(3, a.dtype), np.ones(2, dtype=np.dtype(a.dtype)), a.astype(a.dtype)\n")
    for dtype in DTYPES:
        check(f, np.ones(4, dtype))


# NumPy reads a NumPy scalar given as a dtype as its dtype (Numba's test_eye_n_dtype).
SCALAR_VALUE_TYPES = ["complex64", "complex128", "float32", "float64", "int8", "uint16", "int64", "uint64",
                      "bool_"]


@pytest.mark.parametrize("name", SCALAR_VALUE_TYPES)
def test_a_numpy_scalar_given_as_dtype_is_read_as_its_dtype(name):
    f = define(f"@ruchey.njit\ndef f(n, a):\n"
               f"    return (np.eye(n, dtype=np.{name}(1)), np.zeros((n, 2), np.{name}(0)),\n"
               f"            np.full(n, 3, dtype=np.{name}(2)), np.ones_like(a, np.{name}(1)),\n"
               f"            np.empty(0, dtype=np.{name}(1)), np.identity(n, np.{name}(1)))\n")
    rng = make_rng(7)
    for layout in LAYOUTS:
        got = check(f, 3, array(rng, np.float64, (2, 3), layout))
        assert got[0].dtype == np.dtype(getattr(np, name))


def test_a_numpy_scalar_variable_of_a_type_python_lacks_is_a_dtype():
    f = define("@ruchey.njit\ndef f(n, x):\n    return np.zeros(n, x), np.eye(n, dtype=x)\n")
    for x in (np.float32(1.5), np.int8(-3), np.uint32(7), np.complex64(1j)):
        got = check(f, 3, x)
        assert got[0].dtype == x.dtype


@pytest.mark.parametrize("value", ["1.5", "x", "True"])
def test_a_python_number_given_as_dtype_is_a_typing_error(value):
    """NumPy refuses a Python number as a dtype (it has no .dtype); one of
    int64/float64/complex128/bool is taken only written as np.float64(x)."""
    f = define(f"@ruchey.njit\ndef f(n, x):\n    return np.zeros(n, dtype={value})\n")
    with pytest.raises(ruchey.TypingError, match="numpy.zeros.*dtype"):
        f(3, 2.0)


# Structured dtypes written as NumPy's comma-separated strings (Numba's test_1d_dtype_str_structured_dtype).
RECORD_SPELLINGS = ["i4, (2,3)f8", "f8,i2", "u1, c16, (3,)i8", "f4,f4,b1"]
RECORD_NAME = "f8, (2,)i4"  # held in a global


@pytest.mark.parametrize("spelling", RECORD_SPELLINGS)
def test_structured_dtype_strings_make_record_arrays(spelling):
    f = define(f"@ruchey.njit\ndef f(n, a):\n"
               f"    return (np.zeros(n, '{spelling}'), np.zeros((n, 2), dtype='{spelling}'),\n"
               f"            np.zeros_like(a, '{spelling}'), np.empty(n, '{spelling}').shape,\n"
               f"            np.zeros(n, RECORD_NAME))\n", env={"RECORD_NAME": RECORD_NAME})
    rng = make_rng(11)
    for layout in ("C", "F", "strided"):
        for n in (0, 3):
            got = check(f, n, array(rng, np.float64, (2, 3), layout))
            assert got[0].dtype == np.dtype(spelling)


def test_a_structured_dtype_string_gives_records_whose_fields_are_written():
    f = define("@ruchey.njit\ndef f(n, v):\n"
               "    a = np.zeros(n, 'i4, (2,3)f8')\n"
               "    for i in range(n):\n"
               "        a[i]['f0'] = i * 3\n"
               "        a[i]['f1'][i % 2, 2] = v * i\n"
               "    return a\n")
    for n, v in ((4, 2.5), (1, -1.0), (0, 3.0)):
        check(f, n, v)


def test_unknown_dtype_name_is_a_typing_error():
    f = define('@ruchey.njit\ndef f(n):\n    return np.zeros(n, dtype="nonsense")\n')
    with pytest.raises(ruchey.TypingError, match="numpy.zeros.*dtype"):
        f(3)


def test_dtype_that_is_not_a_dtype_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(n):\n    return np.zeros(n, dtype=n)\n")
    with pytest.raises(ruchey.TypingError, match="numpy.zeros.*dtype"):
        f(3)


@pytest.mark.parametrize("call", ['np.zeros(n, order="A")', "np.ones(n, like=n)",
                                  "np.empty(n, np.float64, dtype=np.float64)",
                                  "np.linspace(0, 1, n, retstep=True)", "np.eye(n, order=1)"])
def test_unsupported_keyword_is_a_typing_error_naming_function_and_keyword(call):
    f = define(f"@ruchey.njit\ndef f(n):\n    return {call}\n")
    name = call.split("(")[0].replace("np.", "numpy.")
    keyword = call.split(", ")[-1].split("=")[0]
    with pytest.raises(ruchey.TypingError, match=rf"{name}.*'?{keyword}"):
        f(3)


# ---------------------------------------------------------------- empty, zeros, ones, full


@ruchey.njit
def made_with_shapes(n, m):
    shape = (n, m)
    a = np.zeros(shape)
    return (np.zeros(n), np.ones((n, m, 2), np.int16), np.full((m, n), 7.5), np.zeros(a.shape, np.uint8),
            np.ones((n, 3)), np.full(n, True), np.zeros(()), np.full((), 2, np.int8),
            np.ones((np.int32(n), np.uint8(m))), np.empty((n, m)).shape)


@pytest.mark.parametrize("n, m", [(0, 0), (1, 3), (4, 0), (5, 6)])
def test_shapes_as_ints_tuples_run_time_tuples_and_a_shape(n, m):
    check(made_with_shapes, n, m)


@ruchey.njit
def full_of(n, v):
    return np.full(n, v), np.full((n, 2), v, np.float32), np.full_like(np.zeros(n, np.int16), v)


@pytest.mark.parametrize("dtype", DTYPES)
def test_full_takes_the_fill_values_dtype(dtype):
    rng = make_rng(11)
    for v in np.asarray(array(rng, dtype, (4,))).tolist():
        check(full_of, 3, dtype(v))


@ruchey.njit
def full_literals(n):
    return np.full(n, 2), np.full(n, 2.5), np.full(n, False), np.full_like(np.ones(n, np.uint8), 200.7)


def test_full_of_python_literals():
    with np.errstate(all="ignore"):
        check(full_literals, 3)


@ruchey.njit
def likes(a):
    return (np.empty_like(a).shape, np.zeros_like(a), np.ones_like(a), np.full_like(a, 3),
            np.zeros_like(a, np.float32), np.empty_like(a))


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("shape", [(), (4,), (3, 5), (0, 3), (2, 3, 4)])
def test_like_forms_keep_shape_and_fortran_order(layout, shape):
    a = array(make_rng(3), np.float64, shape, layout)
    got = likes(a)
    expected = likes.py_func(a)
    for e, g in zip(expected[1:5], got[1:5]):
        assert_same_array(e, g, flags=True)
    assert got[0] == expected[0]
    assert layout_flags(got[5]) == layout_flags(expected[5]) and got[5].dtype == a.dtype


@pytest.mark.parametrize("value", [1.5, -3, True, np.float32(2.5), np.int16(7), 1 - 2j])
def test_like_forms_of_a_number_are_0d_arrays_of_its_type(value):
    """lenstronomy's np.zeros_like(phi, dtype=np.complex128) of a float phi."""
    got, expected = likes(value), likes.py_func(value)
    for e, g in zip(expected[1:5], got[1:5]):
        assert_same_array(e, g, flags=True)
    assert got[0] == expected[0] == () and got[5].dtype == expected[5].dtype


@ruchey.njit
def negative_shape(n):
    return np.zeros((3, n))


def test_negative_dimension_raises_numpys_value_error():
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        negative_shape(-1)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        negative_shape.py_func(-1)


def test_shape_of_floats_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(x):\n    return np.zeros((2, x))\n")
    with pytest.raises(ruchey.TypingError, match="shape"):
        f(1.5)


# ---------------------------------------------------------------- arange


@ruchey.njit
def arange3(start, stop, step):
    return np.arange(start, stop, step)


@ruchey.njit
def arange_typed(start, stop, step):
    return (np.arange(start, stop, step, dtype=np.float32), np.arange(start, stop, step, dtype=np.int64),
            np.arange(start, stop, step, np.int16))


@ruchey.njit
def arange_forms(a, b):
    return np.arange(a), np.arange(a, b), np.arange(b, dtype=np.float32)


@ruchey.njit
def arange_named(a, b):
    """start, stop and step given by name, as NumPy binds them (decoupler's
    np.arange(1, stop=n + 1))."""
    return (np.arange(a, stop=b), np.arange(stop=b), np.arange(start=a, stop=b), np.arange(b, step=2),
            np.arange(a, b, step=3), np.arange(start=a, stop=b, step=2, dtype=np.float64))


def test_arange_of_floats_matches_numpy_value_for_value():
    rng = make_rng(5)
    for _ in range(300):
        start = float(rng.normal() * 10)
        step = float(rng.normal() * rng.choice([0.01, 1, 10]))
        stop = start + step * float(rng.integers(0, 40)) + float(rng.normal())
        check(arange3, start, stop, step)
        check(arange_typed, start, stop, step)


def test_arange_of_ints_and_mixed_numbers():
    rng = make_rng(6)
    for _ in range(200):
        a, b = (int(v) for v in rng.integers(-50, 50, 2))
        step = int(rng.choice([-7, -3, -1, 1, 2, 5]))
        check(arange3, a, b, step)
        check(arange3, a, float(b) + 0.5, step)
        check(arange_typed, a, b, step)
        check(arange_forms, a, b)
        check(arange_named, a, b)


@ruchey.njit
def arange_nones(a, b, c):
    return np.arange(a, None), np.arange(a, b, None), np.arange(a, None, None), np.arange(a, b, c), np.arange(b, None, c)


def test_arange_takes_none_as_numpy_does():
    for a, b, c in [(5, 9, 2), (2.5, 7, 0.5), (-3, 4, 3), (6, 1, -1)]:
        for got, expected in zip(arange_nones(a, b, c), arange_nones.py_func(a, b, c)):
            assert got.dtype == expected.dtype and np.array_equal(got, expected)
    none_only = define("@ruchey.njit\ndef f(n):\n    return np.arange(None, None)\n")
    with pytest.raises(TypeError):
        none_only.py_func(1)
    with pytest.raises(ruchey.TypingError, match="needs a stop"):
        none_only(1)


def test_arange_step_zero_raises():
    for args in [(0, 5, 0), (0.0, 1.0, 0.0)]:
        with pytest.raises(ZeroDivisionError):
            arange3.py_func(*args)
        with pytest.raises(ZeroDivisionError):
            arange3(*args)


def test_arange_of_more_values_than_int64_holds_raises_numpys_value_error():
    for args in [(0.0, 1.0, 1e-300), (0.0, np.inf, 1.0), (np.float32(0), np.float32(1), np.float32(1e-30))]:
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            arange3.py_func(*args)
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            arange3(*args)


def test_arange_start_alone_by_name_is_refused_as_numpy_refuses_it():
    f = define("@ruchey.njit\ndef f(n):\n    return np.arange(start=n)\n")
    with pytest.raises(TypeError, match="stop"):
        f.py_func(3)
    with pytest.raises(ruchey.TypingError, match="arange"):
        f(3)


def test_arange_of_bools_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(n):\n    return np.arange(n, dtype=np.bool_)\n")
    with pytest.raises(ruchey.TypingError, match="arange"):
        f(2)


# ---------------------------------------------------------------- linspace


@ruchey.njit
def linspace_all(start, stop, num, endpoint):
    return (np.linspace(start, stop, num, endpoint), np.linspace(start, stop, num=num, endpoint=endpoint),
            np.linspace(start, stop, num, endpoint, dtype=np.int64), np.linspace(start, stop, num, dtype=np.float32),
            np.linspace(start, stop, num, endpoint=endpoint, dtype=np.int16))


@ruchey.njit
def linspace_default(start, stop):
    return np.linspace(start, stop)


def test_linspace_matches_numpy_exactly():
    rng = make_rng(8)
    cases = [(0.0, 1.0), (1.0, 1.0), (-3.0, 7.5), (5.0, -5.0), (0.0, 1e-320), (-1e4, 3e4), (0.0, 0.1)]
    cases += [(float(rng.normal() * 100), float(rng.normal() * 100)) for _ in range(40)]
    with np.errstate(all="ignore"):
        for start, stop in cases:
            for num in (0, 1, 2, 3, 7, 50):
                for endpoint in (True, False):
                    check(linspace_all, start, stop, num, endpoint)
            check(linspace_default, start, stop)
        check(linspace_default, 1e300, -1e300)
        check(linspace_default, -1e308, 1e308)


@numpy2_only  # NumPy 1.x's linspace of float32 bounds gives float64
def test_linspace_of_ints_and_float32():
    for start, stop in [(0, 10), (-3, 4), (7, -2)]:
        check(linspace_all, start, stop, 6, True)
        check(linspace_all, np.float32(start), np.float32(stop) / np.float32(3), 6, False)
    f = define("@ruchey.njit\ndef f(x, n):\n    return np.linspace(x, 2, n), np.linspace(x, 2.5, n)\n")
    check(f, np.float32(0.1), 9)


def test_linspace_negative_num_raises_numpys_value_error():
    with pytest.raises(ValueError, match=r"Number of samples, -1, must be non-negative\."):
        linspace_all(0.0, 1.0, -1, True)


# ---------------------------------------------------------------- eye, identity


@ruchey.njit
def eyes(n, m, k):
    return (np.eye(n), np.eye(n, m), np.eye(n, m, k), np.eye(n, M=m, k=k, dtype=np.int32),
            np.eye(n, m, k, bool), np.identity(n), np.identity(n, dtype="u2"))


@pytest.mark.parametrize("n, m", [(0, 0), (1, 1), (3, 3), (3, 5), (5, 2)])
def test_eye_and_identity(n, m):
    for k in range(-6, 7):
        check(eyes, n, m, k)


def test_eye_negative_size_raises():
    with pytest.raises(ValueError, match="negative dimensions"):
        eyes(-1, 2, 0)


# ---------------------------------------------------------------- array, asarray


@ruchey.njit
def literals(x, i):
    return (np.array([1, 2, 3]), np.array([[1, 2], [3, 4.5]]), np.array((True, False)),
            np.array([True, 2]), np.array([x, i]), np.array([[x], [x]], dtype=np.float32),
            np.array(x), np.array(3), np.array([]), np.array(((), ())), np.array([[[1], [2]], [[3], [4]]]),
            np.asarray([1.5, i]), np.asarray((i, i), dtype=np.uint8), np.array([i, np.int8(2)]))


@pytest.mark.parametrize("x, i", [(1.5, 2), (np.float32(0.25), np.int16(-3)), (-0.0, np.uint8(200)),
                                  (np.float32(2), np.int8(-1))])
def test_array_of_literal_sequences_has_numpys_dtype_and_shape(x, i):
    check(literals, x, i)


@ruchey.njit
def copies_and_views(a):
    b = np.array(a)
    c = np.asarray(a)
    d = np.asarray(a, dtype=np.float32)
    e = np.array(a, dtype=np.int64)
    return b, c, d, e


@pytest.mark.parametrize("layout", LAYOUTS)
def test_array_copies_asarray_does_not(layout):
    a = array(make_rng(9), np.float64, (3, 4), layout)
    a[np.isnan(a) | np.isinf(a)] = 1.0
    check(copies_and_views, a, flags=True)
    b, c, d, e = copies_and_views(a)
    assert np.shares_memory(c, a) and not np.shares_memory(b, a) and not np.shares_memory(d, a)
    c[0, 0] = 123.0
    assert a[0, 0] == 123.0 and b[0, 0] != 123.0


@ruchey.njit
def checked(a):
    return np.asarray_chkfinite(a), np.asarray_chkfinite(a, np.float32)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int16, np.bool_])
def test_asarray_chkfinite_as_numpys(dtype, layout):
    """The array itself where its dtype is kept (a copy for another dtype,
    or a list); NumPy's ValueError for a NaN or an infinity anywhere, a
    complex element's imaginary part too."""
    rng = make_rng(11)
    a = array(rng, dtype, (3, 4), layout)
    if a.dtype.kind in "fc":
        a[~np.isfinite(a)] = 1.0
    with np.errstate(all="ignore"):
        check(checked, a)
        assert np.shares_memory(checked(a)[0], a)
    assert_same_array(checked([1.5, 2.0])[0], np.asarray_chkfinite([1.5, 2.0]))
    if a.dtype.kind in "fc":
        for bad in (np.nan, np.inf, -np.inf) + ((complex(0, np.nan),) if a.dtype.kind == "c" else ()):
            b = a.copy()
            b[2, 1] = bad
            for f in (checked, checked.py_func):
                with pytest.raises(ValueError, match="must not contain infs or NaNs"):
                    f(b)


@ruchey.njit
def stacked(a, b):
    return np.array([a, b]), np.array((a, a, b)), np.array([[a], [b]])


@pytest.mark.parametrize("dtype", DTYPES)
def test_array_of_arrays_stacks_them(dtype):
    rng = make_rng(10)
    check(stacked, array(rng, dtype, (2, 3)), array(rng, dtype, (2, 3), "strided"))
    check(stacked, array(rng, dtype, (3,)), array(rng, np.float32, (3,)))


@pytest.mark.parametrize("shape", [(), (4,), (0, 2)])
def test_array_of_arrays_of_any_shape(shape):
    rng = make_rng(10)
    check(stacked, array(rng, np.int16, shape), array(rng, np.int16, shape))


@ruchey.njit
def rows_of_lists(n, m):
    """galois' np.array([roots, powers]) of two lists built in a loop."""
    roots, powers = [], []
    for i in range(n):
        roots.append(i * 3)
        powers.append(i / 2)
    extra = [7] * m
    return np.array([roots, powers]), np.array([roots, roots, extra]), np.array([roots, np.arange(n)]), np.array(((roots,),))


def test_array_of_lists_stacks_them_as_rows():
    for n in (1, 4):  # (empty lists: NumPy takes float64 from no values, compiled code the lists' item type)
        check(rows_of_lists, n, n)
    with pytest.raises(ValueError):
        rows_of_lists.py_func(3, 2)
    with pytest.raises(ValueError):
        rows_of_lists(3, 2)


@ruchey.njit
def array_of_list_of_arrays(n, shape, scale):
    """Results gathered in a loop, then made one array: np.array(pieces)."""
    pieces = []
    for i in range(n):
        pieces.append(np.full(shape, i * scale))
    return np.array(pieces), np.asarray(pieces), np.array(pieces, dtype=np.float32)


def test_array_of_a_list_of_arrays_stacks_them():
    for n in (1, 4):
        for shape in [(3,), (2, 3), (0, 2), ()]:
            check(array_of_list_of_arrays, n, shape, 1.5, flags=True)
    a, b, c = array_of_list_of_arrays(0, (2, 3), 1.5)  # NumPy: shape (0,), from no values
    assert a.shape == b.shape == c.shape == (0, 0, 0) and c.dtype == np.float32


@ruchey.njit
def array_of_ragged_arrays(n):
    pieces = []
    for i in range(n):
        pieces.append(np.zeros(i + 1))
    return np.array(pieces)


def test_array_of_a_list_of_arrays_of_different_shapes_raises():
    with pytest.raises(ValueError):
        array_of_ragged_arrays.py_func(3)
    with pytest.raises(ValueError, match="same shape"):
        array_of_ragged_arrays(3)


@ruchey.njit
def grid_of_lists(n, m, scale):
    """Rows appended in a loop: a list of lists, each [int, int, float] as
    matchms' matching pairs (unified to float64)."""
    rows = []
    for i in range(n):
        row = []
        for j in range(m):
            row.append(i * scale + j)
        rows.append(row)
    pairs = []
    for i in range(n):
        pairs.append([i, n - i, i * scale])
    return np.array(rows), np.array(pairs.copy()), np.array(rows, dtype=np.float32)


@ruchey.njit
def deeper_lists(n):
    """Three levels of lists, and lists of lists of tuples."""
    cube, rows = [], []
    for i in range(n):
        plane = []
        for j in range(2):
            plane.append([i + j, i - j, i * j])
        cube.append(plane)
        rows.append([(i, i * 0.5), (-i, 1.0)])
    return np.array(cube), np.array(rows)


def test_array_of_lists_of_lists_is_n_d():
    rng = make_rng(11)
    for n in (1, 3, 7):
        for m in (1, 4):
            check(grid_of_lists, n, m, float(rng.normal()))
        check(deeper_lists, n)


@ruchey.njit
def arrays_of_empty_tuples(rows):
    """numpy.array and NumPy's scalar types of a list of empty tuples: rows of
    no columns (float64 unless a dtype is given)."""
    return np.array(rows), np.float32(rows), np.complex128(rows), np.int8(rows)


def test_array_of_a_list_of_empty_tuples_has_no_columns():
    for n in range(1, 5):
        check(arrays_of_empty_tuples, [()] * n)
    f = define("@ruchey.njit\ndef f(n):\n    x = []\n    for i in range(n):\n        x.append([(), ()])\n"
               "    return np.array(x)\n")
    for n in (1, 3):
        assert_same_array(f(n), f.py_func(n))


def test_array_of_empty_lists_of_lists_has_zero_lengths():
    rows, pairs, _ = grid_of_lists(0, 3, 1.0)
    assert rows.shape == pairs.shape == (0, 0)  # the levels below no list are empty (NumPy: (0,))
    rows, _, _ = grid_of_lists(2, 0, 1.0)
    assert_same_array(rows, grid_of_lists.py_func(2, 0, 1.0)[0])


@ruchey.njit
def ragged_lists(n):
    rows = []
    for i in range(n):
        row = []
        for j in range(i + 1):
            row.append(j)
        rows.append(row)
    return np.array(rows)


def test_array_of_ragged_lists_raises_value_error():
    assert_same_array(ragged_lists(1), ragged_lists.py_func(1))
    with pytest.raises(ValueError):
        ragged_lists.py_func(3)
    with pytest.raises(ValueError, match="the lists have different lengths"):
        ragged_lists(3)


def test_array_of_lists_of_other_items_is_a_typing_error():
    f = define("@ruchey.njit\ndef f(a):\n    x = [[a]]\n    return np.array(x)\n")
    with pytest.raises(ruchey.TypingError, match="of lists of them"):
        f(np.zeros(2))


def test_array_of_arrays_of_different_shapes_raises():
    f = define("@ruchey.njit\ndef f(a, b):\n    return np.array([a, b])\n")
    with pytest.raises(ValueError):
        f(np.zeros(3), np.zeros(4))


@pytest.mark.parametrize("source", ["np.array([[1, 2], [3]])", "np.array([1, (2, 3)])",
                                    "np.array([a, 1.0])", "np.array([a, a[0]])"])
def test_ragged_sequence_is_a_typing_error(source):
    f = define(f"@ruchey.njit\ndef f(a):\n    return {source}\n")
    with pytest.raises(ruchey.TypingError, match="inhomogeneous"):
        f(np.zeros((2, 2)))


# ---------------------------------------------------------------- copy, ascontiguousarray


@ruchey.njit
def both_copies(a):
    return np.copy(a), a.copy()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_copies_are_new_memory_numpy_copy_keeps_fortran_order(dtype, layout):
    a = array(make_rng(12), dtype, (3, 4), layout)
    x, y = check(both_copies, a, flags=True)
    assert not np.shares_memory(x, a) and not np.shares_memory(y, a)


@ruchey.njit
def copy_of(x):
    return np.copy(x)


@pytest.mark.parametrize("x", [2.5, -3, True, 1 - 2j, np.float32(1.5), np.int8(-7), np.uint64(2**63), np.nan])
def test_copy_of_a_number_is_a_0d_array_of_it(x):
    got, expected = copy_of(x), copy_of.py_func(x)
    assert_same_array(expected, got, flags=True)
    assert got.flags.writeable


@ruchey.njit
def contiguous(a):
    return np.ascontiguousarray(a)


@ruchey.njit
def contiguous_as(a):
    return np.ascontiguousarray(a, dtype=np.float32), np.ascontiguousarray(2.5), np.ascontiguousarray(a[0])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (0, 3), (4, 1)])
def test_ascontiguousarray_is_a_itself_where_c_contiguous_else_a_copy(layout, shape):
    a = array(make_rng(13), np.int32, shape, layout)
    check(contiguous, a, flags=True)
    if a.ndim and a.size:
        check(contiguous_as, a, flags=True)
    assert np.shares_memory(contiguous(a), a) == np.shares_memory(contiguous.py_func(a), a)  # a 0-d a: a 1-d view


@njit
def both_orders(a):
    return np.ascontiguousarray(a), np.asfortranarray(a)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 2)])
def test_as_contiguous_of_a_read_only_array_is_writable_where_copied(layout, shape):
    # NumPy's copy is writable, the array itself stays read-only; an array whose type does not
    # say it is contiguous is always copied (a strided or reversed one here, as by Numba)
    a = array(make_rng(14), np.float64, shape, layout)
    a.flags.writeable = False
    for got, expected, order in zip(both_orders(a), both_orders.py_func(a), "CF"):
        assert_same_array(expected, got, flags=True)
        copied = not (a.ndim == 1 and layout in "CF" or layout == order)
        assert got.flags.writeable == copied and np.shares_memory(got, a) != copied


def allocations_in_order(n, k):
    """order= of the functions that make arrays, by keyword and by position."""
    return (np.zeros((n, k), order='F'), np.ones((n, k, 2), np.int8, 'F'), np.full((n, k), 2.5, order='F'),
            np.full((k, n), 7, np.int16, 'F'), np.zeros(n, order='F'), np.ones((n, k), order='C'),
            np.empty((n, k), order='F').shape, np.eye(n, k, 1, np.int8, 'F'), np.eye(k, order='F'), np.eye(n, order='C'))


@pytest.mark.parametrize("n, k", [(0, 2), (3, 1), (4, 5)])
def test_allocations_in_fortran_order(n, k):
    for g, w in zip(njit(allocations_in_order)(n, k), allocations_in_order(n, k)):
        if isinstance(w, tuple):
            assert g == w
        else:
            assert_same_array(w, g, flags=True)


RECORD = np.dtype([("a", np.int16), ("b", np.float32), ("c", np.complex128)])


@ruchey.njit
def record_likes(r):
    return np.zeros_like(r), np.empty_like(r).shape, np.zeros_like(r, np.int8), np.empty_like(r, dtype=np.float32).dtype


def test_like_forms_of_a_record_are_0d_record_arrays():
    """Numba's test_like_structured: a record taken as a 0-d array of its dtype."""
    rng = make_rng(5)
    records = np.zeros(4, RECORD)
    records["a"], records["b"] = rng.integers(-9, 9, 4), rng.standard_normal(4)
    records["c"] = 1j * rng.standard_normal(4)
    for r in (records[0], records[3], records[1:2].reshape(()), records[::2]):
        got, expected = record_likes(r), record_likes.py_func(r)
        assert_same_array(expected[0], got[0], flags=True)
        assert got[1] == expected[1] and got[3] == expected[3]
        assert_same_array(expected[2], got[2], flags=True)


def test_ones_and_full_like_of_a_record_are_typing_errors():
    for f in (lambda r: np.ones_like(r), lambda r: np.full_like(r, 1.5)):
        with pytest.raises(ruchey.TypingError, match="records"):
            njit(f)(np.zeros(2, RECORD)[0])


def like_in_order(a):
    return (np.zeros_like(a, order='C'), np.ones_like(a, np.int8, 'F'), np.full_like(a, 2, order='K'),
            np.full_like(a, 3, None, 'A'), np.empty_like(a, order='F').flags.f_contiguous, np.zeros_like(a, order='A'))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_like_allocations_in_order(layout):
    for shape in [(3, 4), (2, 3, 2), (5,), (0, 3)]:
        a = array(make_rng(16), np.float32, shape, layout)
        for g, w in zip(njit(like_in_order)(a), like_in_order(a)):
            if isinstance(w, bool):
                assert g == w
            else:
                assert_same_array(w, g, flags=True)


def allocations_by_keyword(n, k):
    """pyod's style: the shape (and fill value) named rather than placed."""
    a = np.zeros(shape=(n, k), dtype=np.uint32)
    b = np.empty(shape=n)
    b[:] = 1.5
    c = np.full(shape=(2,), fill_value=7.5)
    d = np.ones_like(a=b)
    e = np.full_like(b, fill_value=3)
    f = np.ones(shape=k, dtype=np.int16)
    return a, b, c, d, e, f


@pytest.mark.parametrize("n, k", [(0, 2), (3, 1), (4, 5)])
def test_allocations_with_their_shape_named(n, k):
    got, want = njit(allocations_by_keyword)(n, k), allocations_by_keyword(n, k)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


def made_and_shaped_by_keyword(a, n):
    """The leading parameters of the making and shaping functions named, as NumPy names them."""
    return (np.linspace(start=0.5, stop=a[0], num=n), np.logspace(start=0, stop=2, num=n),
            np.geomspace(start=1.0, stop=8.0, num=n), np.identity(n=n, dtype=np.int8), np.array(object=a),
            np.asarray(a=a, dtype=np.float32), np.ascontiguousarray(a=a[::2]), np.asfortranarray(a=a),
            np.copy(a=a), np.ravel(a=a), np.reshape(a, shape=(2, -1)), np.broadcast_to(array=a, shape=(n, a.size)),
            np.stack(arrays=(a, a), axis=1))


@numpy2_only  # (NumPy 1.x names reshape's shape newshape)
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_making_and_shaping_functions_take_their_leading_parameters_by_name(dtype, n):
    a = (make_rng(15).standard_normal(6) * 4).astype(dtype)
    got, want = njit(made_and_shaped_by_keyword)(a, n), made_and_shaped_by_keyword(a, n)
    for g, w in zip(got, want):
        assert_same_array(w, g, flags=True)


def test_a_misspelled_shape_keyword_is_a_typing_error():
    def spelled(n):
        return np.zeros(shap=n)
    with pytest.raises(ruchey.TypingError, match="numpy.zeros"):
        njit(spelled)(3)


def _long_display(values):
    return ", ".join(repr(v) for v in values)


@pytest.mark.parametrize("brackets", ["()", "[]"])
@pytest.mark.parametrize("dtype", ["", ", dtype=np.int32", ", dtype=np.float32"])
def test_a_display_of_more_numbers_than_a_tuple_holds_makes_an_array(brackets, dtype):
    """numpy.array of a list or tuple of 65+ numbers written in the source
    (lookup tables: sktime's MiniRocket writes 252 indices): a new array,
    written to freely, as NumPy's."""
    rng = make_rng(0)
    for values in (rng.integers(-9, 99, 65 + int(rng.integers(0, 200))).tolist(),
                   (rng.standard_normal(130) * 10).round(3).tolist()):
        display = brackets[0] + _long_display(values) + brackets[1]
        f = define(f"def f(i):\n    a = np.array({display}{dtype})\n    a[i] += 1\n    return a\n")
        got, want = njit(f)(3), f(3)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_long_list_display_is_a_list_and_a_long_tuple_display_a_sequence():
    ints = list(range(-40, 60))
    floats = [i * 0.25 for i in range(80)]
    f = define(f"""def f(x):
    table = [{_long_display(floats)}]
    table.append(x)
    s = 0
    for k in ({_long_display(ints)}):
        s += k
    return len(table), table[-1], sum(table), s, len(({_long_display(ints)})), 7 in ({_long_display(ints)})
""")
    assert njit(f)(2.5) == f(2.5)


def test_a_long_display_of_ints_and_floats_or_bools_is_numpys_array():
    for values in (list(range(64)) + [0.5], [True, False, True] * 30):
        f = define(f"def f():\n    return np.array(({_long_display(values)}))\n")
        got, want = njit(f)(), f()
        assert got.dtype == want.dtype and np.array_equal(got, want)


@ruchey.njit
def complex_ranges(n, start, step):
    return (np.arange(n, dtype=np.complex128), np.arange(start, n, step, dtype=np.complex64),
            np.arange(start, n, dtype=complex))


def test_arange_of_a_complex_dtype_fills_the_real_parts():
    for n, start, step in ((5, 1, 2), (0, 0, 1), (7, -2.5, 0.75), (3, 5, 1), (10, 9.5, -0.5)):
        check(complex_ranges, n, start, step)


def test_arange_of_complex_bounds_is_complex():
    f = define("@ruchey.njit\ndef f(n):\n    return np.arange(1j, n), np.arange(1j, n + 2j, 0.5 + 0.5j)\n")
    for n in (0, 3, 5.5):
        for e, g in zip(f.py_func(n), f(n)):
            assert g.dtype == e.dtype and np.allclose(g, e, rtol=1e-15)
    g = define("@ruchey.njit\ndef g(n):\n    return np.arange(1j, n, dtype=np.float64)\n", "g")
    with pytest.raises(ruchey.TypingError, match="complex bounds makes complex values"):
        g(3)


@ruchey.njit
def nested_lists(n, m):
    """thewalrus' np.asarray([[f(p, q) for q in ...] for p in ...]): lists
    of lists (and of tuples) built in loops, a dimension per level."""
    grid = [[np.exp(1j * p * q / 3) for q in range(m)] for p in range(n)]
    cube = [[[float(p + 2 * q + 3 * r) for r in range(2)] for q in range(m)] for p in range(n)]
    pairs = [[(p, q * 0.5) for q in range(m)] for p in range(n)]
    return np.asarray(grid), np.array(cube), np.array(pairs), np.array(grid, dtype=np.complex64)


def test_array_of_lists_of_lists_has_a_dimension_per_level():
    for n, m in ((1, 1), (3, 4), (4, 1)):
        check(nested_lists, n, m)
    assert [a.shape for a in nested_lists(0, 2)] == [(0, 0), (0, 0, 0), (0, 0, 2), (0, 0)]  # (NumPy: (0,) from no values)


@ruchey.njit
def ragged_lists(n):
    return np.array([[1.0] * (p % 2 + 1) for p in range(n)])


SCALAR_TYPES = [np.float64, np.float32, np.int32, np.int64, np.uint16, np.complex128, np.bool_]


@pytest.mark.parametrize("scalar_type", SCALAR_TYPES, ids=lambda t: t.__name__)
def test_scalar_type_of_a_sequence_or_an_array_is_numpys_array(scalar_type):
    # numpy.float32((1.0, 2.5)) is array([1., 2.5], dtype=float32), as numpy.array(seq, numpy.float32)
    f = define(f"@ruchey.njit\ndef f(x):\n    return np.{scalar_type.__name__}(x)\n")
    rng = np.random.default_rng(4)
    sequences = [(1.0, 2.5), (1, 2.5), [1.0, 2.5], (), ((1.0, 2.5), (3.5, 4)), [(1.0, 2.5), (3.5, 4.0)],
                 ([1.0, 2.5], [3.5, 4.0]), (True, False, True), tuple(rng.integers(0, 100, 5))]
    for seq in sequences:
        check(f, seq)
    for dtype in [np.float64, np.int16, np.uint8, np.bool_]:
        for shape in [(0,), (5,), (2, 3)]:
            check(f, array(rng, dtype, shape))
    assert f(np.float64(2.5)) == scalar_type(2.5)  # a number still converts as itself


@njit
def made_and_viewed(n):
    a = np.zeros((n, 2))
    return a, a[1:], np.empty(n)


def test_base_refcount_counts_the_arrays_holding_compiled_memory():
    # Numba's MemInfo.refcount: each returned array holds one reference to its memory
    for n in (0, 1, 5):
        a, v, e = made_and_viewed(n)
        assert a.base.refcount == v.base.refcount == 2 and e.base.refcount == 1
        del v
        assert a.base.refcount == 1
