"""Module globals frozen at compile time (NumPy scalars), numpy.iinfo and
numpy.finfo, and the attributes that describe an array's memory
(itemsize, nbytes, strides), each against the function's Python original
or NumPy."""
import numpy as np
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float32, np.float64]

# NumPy scalars as globals: each keeps its own type in arithmetic
G_F32 = np.float32(1e-7)
G_F64 = np.float64(0.1)
G_I8 = np.int8(-7)
G_U8 = np.uint8(200)
G_I32 = np.int32(123456)
G_U64 = np.uint64(2**64 - 3)
G_BOOL = np.bool_(True)


def test_numpy_scalar_globals_keep_their_type_with_arrays():
    @njit
    def f(a):
        return a + G_F32

    a = np.linspace(0, 1, 7).astype(np.float32)
    r = f(a)
    assert r.dtype == f.py_func(a).dtype == np.float32
    np.testing.assert_array_equal(r, f.py_func(a))


def read_f64():
    return G_F64


def read_i8():
    return G_I8


def read_u8():
    return G_U8


def read_i32():
    return G_I32


def read_u64():
    return G_U64


def read_bool():
    return G_BOOL


@pytest.mark.parametrize("read", [read_f64, read_i8, read_u8, read_i32, read_u64, read_bool])
def test_numpy_scalar_global_values(read):
    assert njit(read)() == read()


def test_numpy_scalar_global_in_array_expression_keeps_uint8():
    @njit
    def f(a):
        return a + G_U8

    a = np.arange(10, dtype=np.uint8)
    r = f(a)
    np.testing.assert_array_equal(r, f.py_func(a))
    assert r.dtype == np.uint8


def test_numpy_int_global_in_scalar_arithmetic():
    @njit
    def f(x):
        return x * G_I32 + G_I8

    for x in [0, 1, -5, 1000]:  # int64 arithmetic, as Numba's (NumPy's would wrap in int32 past 2**31)
        assert f(x) == f.py_func(x)


@pytest.mark.parametrize("t", INTS)
def test_iinfo_of_every_int_type(t):
    @njit
    def f(a):
        info = np.iinfo(a.dtype)
        return info.min, info.max, info.bits

    a = np.zeros(2, t)
    lo, hi, bits = f(a)
    assert (lo, hi, bits) == (np.iinfo(t).min, np.iinfo(t).max, np.iinfo(t).bits)


@pytest.mark.parametrize("t", FLOATS)
def test_finfo_of_every_float_type(t):
    @njit
    def f(a):
        fi = np.finfo(a.dtype)
        return fi.eps, fi.epsneg, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.bits, fi.precision

    got = f(np.zeros(1, t))
    fi = np.finfo(t)
    want = (fi.eps, fi.epsneg, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.bits, fi.precision)
    assert got == want


@pytest.mark.parametrize("t", FLOATS + [np.complex64, np.complex128])
def test_finfo_counts_of_bits_and_exponents(t):
    """csr's unit_rows reads finfo(dtype).maxexp: the format's counts, ints as NumPy's."""
    @njit
    def f(a):
        fi = np.finfo(a.dtype)
        return fi.nmant, fi.nexp, fi.iexp, fi.machep, fi.negep, fi.maxexp, fi.minexp

    got = f(np.zeros(1, t))
    assert got == f.py_func(np.zeros(1, t))
    assert all(type(g) is int for g in got)


def test_iinfo_and_finfo_of_scalar_types_and_values():
    @njit
    def f(x):
        return np.iinfo(np.int16).max, np.iinfo(x).max, np.finfo(np.float32).eps, np.finfo(ruchey.float64).max

    assert f(3) == (2**15 - 1, 2**63 - 1, np.finfo(np.float32).eps, np.finfo(np.float64).max)


def test_finfo_of_complex_types_and_values_is_their_parts():
    @njit
    def f(x):
        fi = np.finfo(x)
        return fi.eps, fi.max, fi.tiny, fi.resolution, fi.bits, fi.precision, np.finfo(np.complex64).eps

    for x in (np.complex64(1), 2j, np.complex128(1 - 1j)):
        assert f(x) == f.py_func(x), x


def test_iinfo_and_finfo_returned_are_numpys():
    @njit
    def f(x):
        return np.finfo(np.float32), np.iinfo(np.uint16), np.finfo(x), np.iinfo(np.int8)

    for x in (1.5, np.float32(2), np.complex64(1j), 1j):
        got, want = f(x), f.py_func(x)
        assert [type(g) for g in got] == [type(w) for w in want], x
        for g, w in zip(got, want):
            assert (g.dtype, g.min, g.max, g.bits) == (w.dtype, w.min, w.max, w.bits), x
            if isinstance(w, np.finfo):
                assert (g.eps, g.tiny, g.resolution, g.precision) == (w.eps, w.tiny, w.resolution, w.precision)


def test_limits_as_loop_sentinels():
    @njit
    def argmin_by_hand(a):
        best, at = np.finfo(np.float64).max, -1
        for i in range(a.size):
            if a[i] < best:
                best, at = a[i], i
        return at, best

    rng = np.random.default_rng(3)
    for n in [0, 1, 5, 100]:
        a = rng.normal(size=n)
        assert argmin_by_hand(a) == argmin_by_hand.py_func(a)


def test_iinfo_of_uint64_max_is_exact():
    @njit
    def f():
        return np.iinfo(np.uint64).max

    assert f() == 2**64 - 1


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_limits_of_the_wrong_kind_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="integer"):
        njit(lambda: np.iinfo(np.float64).max)()
    with pytest.raises(ruchey.TypingError, match="inexact"):
        njit(lambda: np.finfo(np.int32).eps)()
    with pytest.raises(ruchey.TypingError, match="no attribute 'eps'"):
        njit(lambda: np.iinfo(np.int32).eps)()
    with pytest.raises(ruchey.TypingError, match="no attribute 'maxexp'"):
        njit(lambda: np.iinfo(np.int32).maxexp)()
    with pytest.raises(ruchey.TypingError, match="dtype or a number"):
        njit(lambda a: np.iinfo(a).max)(np.zeros(2, np.int64))


@pytest.mark.parametrize("shape,index", [((3, 4), ()), ((3, 4), (slice(None), slice(None, None, 2))), ((5,), (slice(None, None, -1),)),
                                         ((2, 3, 4), (slice(None), 1)), ((0, 3), ())])
@pytest.mark.parametrize("t", [np.int8, np.float32, np.float64, np.bool_])
def test_itemsize_nbytes_strides(shape, index, t):
    @njit
    def f(a):
        return a.itemsize, a.nbytes, a.strides, a.dtype.itemsize

    a = np.zeros(shape, t)[index]
    assert f(a) == f.py_func(a)
    if a.ndim == 2:
        assert f(a.T) == f.py_func(a.T)


# ---------------------------------------------------------------- fields of global named tuples

from collections import namedtuple  # noqa: E402

Catalogue = namedtuple("Catalogue", [f"c{i}" for i in range(300)] + ["scale", "offset"])
CATALOGUE = Catalogue(*[float(i) * 0.5 for i in range(300)], 2.5, -1)


@njit
def from_catalogue(x):
    return x * CATALOGUE.scale + CATALOGUE.offset + CATALOGUE.c299


@njit
def twice(x):
    return 2.0 * x


def make_formulae_user(formulae):
    @njit
    def use(x):
        return formulae.double(x) + formulae.const.scale
    return use


def test_field_of_a_global_named_tuple_of_more_fields_than_a_tuple_holds():
    """A named tuple read as a global (PySDM's catalogue of hundreds of
    physical constants): each field read is frozen as Numba freezes the
    tuple, however many fields it has."""
    for x in np.random.default_rng(3).uniform(-5, 5, 6):
        assert from_catalogue(x) == from_catalogue.py_func(x)


def test_compiled_function_in_a_closure_named_tuple_is_called():
    Formulae = namedtuple("Formulae", ["double", "const"] + [f"f{i}" for i in range(80)])
    formulae = Formulae(twice, CATALOGUE, *range(80))
    f = make_formulae_user(formulae)
    for x in np.random.default_rng(4).uniform(-5, 5, 6):
        assert f(x) == f.py_func(x)
# ---------------------------------------------------------------- global declarations

SCALE = 2.5
TABLE = np.arange(6.0)


def declared_global_reads(i):
    global SCALE
    global TABLE
    return TABLE[i] * SCALE


def declared_global_store(x):
    global SCALE
    SCALE = x
    return x


def test_a_global_declaration_reads_the_global():
    f = njit(declared_global_reads)
    for i in range(6):
        assert f(i) == declared_global_reads(i)


def test_assigning_a_declared_global_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="global variable 'SCALE'"):
        njit(declared_global_store)(1.0)


# a global structured array: frozen with its record type (its fields' offsets and types)
G_RECORDS = np.zeros(9, dtype=np.dtype([("n", np.int16), ("x", np.float64), ("flag", np.bool_)]))
G_RECORDS["n"] = np.arange(9) * 7 - 20
G_RECORDS["x"] = np.random.default_rng(3).normal(size=9)
G_RECORDS["flag"] = G_RECORDS["n"] % 3 == 0


def test_global_structured_array_fields_are_read():
    @njit
    def f(out_n, out_x):
        total = 0
        for i in range(G_RECORDS.shape[0]):
            out_n[i] = G_RECORDS[i]["n"]
            out_x[i] = G_RECORDS[i]["x"]
            if G_RECORDS[i]["flag"]:
                total += 1
        return total

    got = np.zeros(9, np.int64), np.zeros(9)
    want = np.zeros(9, np.int64), np.zeros(9)
    assert f(*got) == f.py_func(*want)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_global_structured_array_record_is_copied_into_an_array():
    @njit
    def f(out):
        for i in range(out.shape[0]):
            out[i] = G_RECORDS[G_RECORDS.shape[0] - 1 - i]

    got, want = np.zeros(9, G_RECORDS.dtype), np.zeros(9, G_RECORDS.dtype)
    f(got)
    f.py_func(want)
    np.testing.assert_array_equal(got, want)



# a global structured scalar (a recarray's record, an array's numpy.void): frozen as a record
G_POINT_DTYPE = np.dtype([("k", np.int32), ("w", np.float32)])
G_RECORD = np.recarray(1, dtype=G_POINT_DTYPE)[0]
G_RECORD.k, G_RECORD.w = 5, 0.25
G_VOID = np.zeros(1, G_POINT_DTYPE)[0]
G_VOID["k"], G_VOID["w"] = -3, 1.75


def test_global_structured_scalars_are_frozen_records():
    @njit
    def f(x):
        return x == G_RECORD.k, x * G_RECORD["w"] + G_VOID["w"], G_VOID["k"] + x

    for x in (5, 2, -3):
        assert f(x) == f.py_func(x)
