"""NumPy dtypes as values passed to compiled functions: np.dtype objects
and scalar types (np.float32) from Python, a.dtype and globals between
compiled functions (pandas' numba engine passes its result dtype so);
each compiled function against its py_func."""
import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import numba_deviation

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int16, np.uint8, np.bool_, np.complex128]
RESULT = np.dtype(np.float32)


def filled(n, dt):
    out = np.empty(n, dtype=dt)
    for i in range(n):
        out[i] = i % 3
    return out, np.zeros((2, n), dt)


_filled = njit(filled)


def doubled_as(values, like):
    return _doubled(values, like.dtype), _doubled(values, RESULT)


def doubled(values, dt):
    out = np.empty(values.shape[0], dtype=dt)
    for i in range(values.shape[0]):
        out[i] = values[i] * 2
    return out


_doubled = njit(doubled)


def same_arrays(expected, got):
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype and e.shape == g.shape
        np.testing.assert_array_equal(e, g)


@pytest.mark.parametrize("dt", DTYPES)
def test_dtypes_and_scalar_types_from_python(dt):
    for n in (0, 1, 5):
        same_arrays(filled(n, dt), _filled(n, dt))
        same_arrays(filled(n, np.dtype(dt)), _filled(n, np.dtype(dt)))


def test_dtypes_passed_between_compiled_functions():
    f = njit(doubled_as)
    rng = np.random.default_rng(3)
    for like in (np.zeros(1, np.int32), np.zeros(1, np.complex64), np.zeros(1)):
        values = rng.standard_normal(int(rng.integers(0, 9))).astype(np.float32)
        same_arrays(doubled_as(values, like), f(values, like))


def test_a_dtype_numpy_cannot_hold_or_another_byte_order_is_refused():
    with pytest.raises(TypeError, match="argument 2"):
        _filled(3, np.dtype(">f8"))
    with pytest.raises(TypeError, match="argument 2"):
        _filled(3, object)


def counted_as(values, out_dtype):
    """numpy_groupies' style: a driver takes the dtype its caller chose,
    object for a result made in Python, and passes it on unused."""
    return _total(values, out_dtype) + out_dtype.itemsize, out_dtype


def _total_py(values, out_dtype):
    s = 0.0
    for v in values:
        s += v
    return s


_total = njit(_total_py)


def test_object_dtype_taken_and_passed_on_as_numba_types_it():
    f = njit(counted_as)
    values = np.random.default_rng(5).standard_normal(7)
    for dt in (np.dtype(object), np.dtype(np.float64)):
        got, want = f(values, dt), counted_as(values, dt)
        assert got[0] == pytest.approx(want[0], rel=1e-15) and got[1] == want[1]
    assert _total(values, np.object_) == pytest.approx(_total_py(values, np.object_), rel=1e-15)
    assert "dtype(pyobject)" in str(f.signatures)


def test_arrays_of_the_object_dtype_are_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="dtype\\(pyobject\\)"):
        _filled(3, np.dtype(object))


def dtype_in_a_variable(n):
    """pymatting's style: the dtype named once, used for every array, and
    called to convert."""
    dtype = np.float32
    a = np.zeros(n, dtype=dtype) + 1.5
    b = np.empty((2, n), dtype)
    b[:] = 2
    return a, a.astype(dtype), dtype(2.5), b.dtype, (a * b).sum()


def test_a_dtype_kept_in_a_variable():
    for n in (0, 1, 5):
        got, want = njit(dtype_in_a_variable)(n), dtype_in_a_variable(n)
        for g, w in zip(got, want):
            if isinstance(w, np.ndarray):  # (scalars come back as Python floats, as Numba's)
                assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


def test_dtypes_of_two_kinds_in_one_variable_are_a_typing_error():
    def either(flag):
        d = np.float32 if flag else np.float64
        return np.zeros(2, d)
    with pytest.raises(ruchey.TypingError, match="dtype\\(float32\\) and dtype\\(float64\\)"):
        njit(either)(True)


@njit
def queue_of(item_type, key_type, n):
    """Typed containers made from types passed in (Numba's number classes
    and type references)."""
    q = ruchey.typed.List.empty_list(item_type)
    d = ruchey.typed.Dict.empty(key_type, ruchey.int64)
    for i in range(n):
        q.append(q_item(i))
        d[key_type(i)] = i
    return len(q), len(d)


@njit
def q_item(i):
    return (i * 0.5, i)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_ruchey_types_as_arguments_make_typed_containers(n):
    """types.int64, Tuple([...]) passed as values (pysheds passes its
    priority queue's item type): dtype(type) values, no data at run time."""
    from ruchey.types import Tuple, float64, int64
    item = Tuple([float64, int64])
    assert queue_of(item, int64, n) == (n, n)
    assert queue_of(item, np.int32, n) == (n, n)


def test_ruchey_scalar_and_tuple_types_pass_array_types_are_refused():
    from ruchey.types import Tuple, float32, float64, int64

    @njit
    def empty(t):
        return len(ruchey.typed.List.empty_list(t))

    assert empty(float32) == 0 and empty(Tuple([float64, int64])) == 0
    with pytest.raises(TypeError, match="not supported"):
        empty(float64[:])


def cast_by_dtype_type(a, x):
    kind = a.dtype.type  # the scalar type (numpy.float32), kept and called
    first = kind(x)
    return first, a.dtype.type(x) * 2, a.dtype.type(0) == a[0] * 0, np.zeros(2, a.dtype.type)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int32, np.int8, np.uint16, np.bool_])
def test_dtype_type_is_the_scalar_type(dt):
    compiled = njit(cast_by_dtype_type)
    a = np.arange(1, 4).astype(dt)
    for x in (2.75, 3, -1.5, True):
        if dt in (np.uint16,) and x == -1.5:
            continue  # (a negative float to an unsigned int: undefined in C, platform-dependent in NumPy)
        got, want = compiled(a, x), cast_by_dtype_type(a, x)
        assert got[0] == want[0] and got[1] == want[1] and got[2] == want[2]
        assert got[3].dtype == want[3].dtype


def test_dtype_type_of_complex_arrays():
    compiled = njit(cast_by_dtype_type)
    a = np.arange(1, 4).astype(np.complex128)
    for x in (2.5, 1 + 2j):
        got, want = compiled(a, x), cast_by_dtype_type(a, x)
        assert got[:3] == want[:3]


def summed_by_kind(a, dt):
    """dtype.kind read from an array's dtype and a dtype argument, and chosen on."""
    total = a.sum() if a.dtype.kind in "fc" else a.sum() * 2
    return a.dtype.kind, dt.kind, a.dtype.kind == dt.kind, total


@pytest.mark.parametrize("dt", DTYPES + [np.float16, np.uint64, np.int8])
def test_dtype_kind_is_numpys_letter(dt):
    compiled = njit(summed_by_kind)
    for a in (np.arange(4).astype(dt), np.zeros(0, dt)):
        for other in (np.dtype(np.float64), np.dtype(np.uint8), a.dtype):
            assert compiled(a, other) == summed_by_kind(a, other)


@pytest.mark.parametrize("dt", ["M8[D]", "m8[s]", "U3", "S2", [("a", "i4"), ("b", "f8")]])
def test_dtype_kind_of_datetimes_text_and_records(dt):
    @njit
    def kind(a):
        return a.dtype.kind

    a = np.zeros(2, dt)
    assert kind(a) == kind.py_func(a)


def test_dtype_type_refuses_what_numpy_would_not_convert():
    @njit
    def complex_to_float(a):
        return a.dtype.type(1 + 2j)
    with pytest.raises(ruchey.TypingError, match="cannot convert complex128 to float64"):
        complex_to_float(np.ones(2))

    @njit
    def datetime_cast(dt):
        return dt.type(3)
    with pytest.raises(ruchey.TypingError, match="datetime64"):
        datetime_cast(np.dtype("M8[ns]"))


def counted(values, limit, dtype=np.int64, fill=np.float32):
    """A helper whose dtype parameters have scalar types as defaults."""
    out = np.zeros(values.shape[0], dtype=dtype)
    for i in range(values.shape[0]):
        if values[i] < limit:
            out[i] += 1
    return out, np.ones(2, fill)


_counted = njit(counted)


def counts_by_default_and_given(values):
    return (_counted(values, 0.5), _counted(values, 0.0, np.uint8), _counted(values, 0.2, dtype=np.float64),
            _counted(values, 0.1, fill=np.int16))


def test_scalar_type_defaults_of_a_compiled_callee():
    compiled = njit(counts_by_default_and_given)
    rng = np.random.default_rng(11)
    for n in (0, 1, 7):
        values = rng.standard_normal(n)
        for got, want in zip(compiled(values), counts_by_default_and_given(values)):
            same_arrays(want, got)
    same_arrays(counted(np.ones(3), 2.0), _counted(np.ones(3), 2.0))  # from Python, the default too


def made_with(n, dtype):
    """dtype, given None from Python, is NumPy's default where a keyword passes it on."""
    return (np.zeros(n, dtype=dtype), np.full_like(np.empty(n, dtype=dtype), 0), np.ones((2, n), dtype=dtype),
            np.full(n, 7, dtype=dtype), np.arange(n, dtype=dtype), np.zeros_like(np.ones(n, np.int8), dtype=dtype))


@pytest.mark.parametrize("dt", [None, np.int32, np.float32])
def test_a_keyword_dtype_known_to_be_none_is_the_default(dt):
    for n in (0, 3):
        same_arrays(made_with(n, dt), njit(made_with)(n, dt))


def test_a_default_compiled_code_cannot_hold_is_a_typing_error():
    def listed(x, scale=[1, 2]):
        return x
    callee = njit(listed)

    @njit
    def caller(x):
        return callee(x)
    with pytest.raises(ruchey.TypingError, match="the default of parameter 'scale' must be"):
        caller(1.0)


# A dtype given by position as None is the default (NumPy's and Numba's
# reading); a dtype's name held in a global or in a variable assigned it
# once is that dtype, as Numba takes a literal str.
DT_NAME = "float32"
INT_NAME = "int16"
UNKNOWN_NAME = "floaty"


def none_dtypes(n):
    return (np.zeros(n, None), np.empty((n, 2), None).shape, np.ones(n, None), np.full(n, 3, None),
            np.full(n, 2.5, None), np.zeros_like(np.ones(n, np.int32), None), np.full_like(np.ones(n), 4, None),
            np.arange(0, n, 1, None), np.asarray(np.ones(n, np.int8), None))


def named_dtypes(n):
    dt = "float32"
    short = "i2"
    return (np.zeros(n, dt), np.ones(n, dtype=short), np.zeros(n, DT_NAME), np.ones(n, dtype=INT_NAME),
            np.full(n, 2, DT_NAME), np.arange(n, dtype=dt), np.empty_like(np.zeros(n), INT_NAME).shape,
            np.ones(n).astype(DT_NAME), np.eye(n, dtype=dt), np.full_like(np.ones(n), 3, short))


def known_none_dtype(n):
    dt = None
    return np.ones(n, dt)


@pytest.mark.parametrize("f", [none_dtypes, known_none_dtype, pytest.param(
    named_dtypes, marks=numba_deviation("numba's arange and eye take no dtype's name"))])
def test_dtypes_none_by_position_and_names_held_in_variables(f):
    c = njit(f)
    for n in (0, 1, 4):
        expected, got = f(n), c(n)
        for e, g in zip(expected if isinstance(expected, tuple) else (expected,),
                        got if isinstance(got, tuple) else (got,)):
            if isinstance(e, tuple):
                assert e == g
            else:
                assert e.dtype == g.dtype and e.shape == g.shape
                np.testing.assert_array_equal(e, g)


def unknown_global_name(n):
    return np.zeros(n, dtype=UNKNOWN_NAME)


def unknown_local_name(n):
    dt = "floaty"
    return np.zeros(n, dt)


def name_from_an_argument(n, dt):
    return np.zeros(n, dt)


def name_from_either_branch(n):
    dt = "float32" if n > 2 else "int64"
    return np.zeros(n, dt)


def none_where_no_dtype_goes(n):
    return np.full(n, None)


def astype_none(n):
    return np.zeros(n).astype(None)


@numba_deviation("numba's messages differ")
@pytest.mark.parametrize("f, words", [
    (unknown_global_name, "data type 'floaty' not understood"),
    (unknown_local_name, "data type 'floaty' not understood"),
    (name_from_either_branch, "must be known when the function is compiled"),
    (none_where_no_dtype_goes, "numpy.full()"),
    (astype_none, "needs a dtype"),
])
def test_dtype_names_numpy_lacks_or_unknown_when_compiling_are_typing_errors(f, words):
    with pytest.raises(TypeError, match="not understood"):
        np.zeros(1, UNKNOWN_NAME)  # NumPy's words, which the compiled one gives
    with pytest.raises(ruchey.TypingError) as e:
        njit(f)(3)
    assert words in str(e.value)


@numba_deviation("numba's messages differ")
def test_a_dtype_name_given_as_an_argument_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="must be known when the function is compiled"):
        njit(name_from_an_argument)(3, "float32")


def reductions_given_none_by_position(a):
    return (a.sum(None), np.sum(a, 0, None), a.sum(None, np.float32), np.cumsum(a, 0, None), a.mean(0, None),
            np.prod(a, None), np.std(a, None))


@numba_deviation("numba's mean, cumsum, prod and std take no None by position")
def test_reductions_given_none_by_position_take_their_defaults():
    rng = np.random.default_rng(11)
    c = njit(reductions_given_none_by_position)
    for shape in ((3, 4), (1, 5)):
        a = rng.standard_normal(shape)
        for g, w in zip(c(a), reductions_given_none_by_position(a)):
            np.testing.assert_allclose(g, w, rtol=1e-6)
            if isinstance(w, np.ndarray):  # (numbers come back as Python's, as Numba's)
                assert g.dtype == w.dtype


def maximum_given_none(a):
    return np.maximum(a, None)


@numba_deviation("numba's messages differ")
def test_none_where_a_row_reads_no_none_is_still_refused():
    # (a None for an optional parameter is its default: a.max(None), test_numpy_arguments.py)
    with pytest.raises(ruchey.TypingError, match="does not take None here"):
        njit(maximum_given_none)(np.ones(3))


def dtype_tests(a, b, dt):
    return (a.dtype == b.dtype, a.dtype != b.dtype, a.dtype == np.dtype("int64"), a.dtype == np.float32,
            np.float64 == a.dtype, a.dtype == dt, dt != b.dtype, a.dtype == b.dtype == dt)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_compare_equal_as_numpys(dtype):
    f = njit(dtype_tests)
    for other in DTYPES:
        a, b = np.zeros(2, dtype), np.ones((2, 2), other)
        for dt in (np.dtype(other), other):
            assert f(a, b, dt) == f.py_func(a, b, dt)


def test_a_dtype_compared_with_a_number_is_a_typing_error():
    f = njit(lambda a: a.dtype == 3)
    with pytest.raises(ruchey.TypingError, match="dtypes are compared"):
        f(np.zeros(2))
    g = njit(lambda a, b: a.dtype < b.dtype)
    with pytest.raises(ruchey.TypingError, match="dtypes are compared"):
        g(np.zeros(2), np.zeros(2))
