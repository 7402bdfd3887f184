"""Native functions called from compiled code, as Numba calls them: ctypes
function pointers with restype and argtypes, and objects of Numba's
WrapperAddressProtocol, such as SciPy's special functions reached through
get_cython_function_address."""
import ctypes
import ctypes.util
import math

import numpy as np
import pytest
import scipy.special
import scipy.special.cython_special

import ruchey
from conftest import AS_NUMBA
from ruchey import types
from ruchey.extending import get_cython_function_address

libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
c_cos = libm.cos
c_cos.restype, c_cos.argtypes = ctypes.c_double, (ctypes.c_double,)
c_pow = libm.pow
c_pow.restype, c_pow.argtypes = ctypes.c_double, (ctypes.c_double, ctypes.c_double)
c_cosf = libm.cosf
c_cosf.restype, c_cosf.argtypes = ctypes.c_float, (ctypes.c_float,)
c_untyped = libm.sin  # no argtypes


def scipy_function(name, signature):
    """A WrapperAddressProtocol object for a function of
    scipy.special.cython_special, as packages make them."""
    capi = scipy.special.cython_special.__pyx_capi__
    fused = f"__pyx_fuse_1{name}"
    address = get_cython_function_address("scipy.special.cython_special", fused if fused in capi else name)
    cls = type(name, (types.WrapperAddressProtocol,),
               {"__wrapper_address__": lambda self: address, "signature": lambda self: signature})
    return cls()


ndtri = scipy_function("ndtri", types.float64(types.float64))
gammainc = scipy_function("gammainc", types.float64(types.float64, types.float64))


# C functions with narrow arguments: ruchey's own C callbacks, called back through ctypes
@ruchey.cfunc(types.int64(types.int8, types.uint16, types.boolean))
def _mixed(a, b, flag):
    return a * 100000 + b if flag else -1


mixed = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int8, ctypes.c_uint16, ctypes.c_bool)(_mixed.address)


@ruchey.njit
def cos_sum(a):
    s = 0.0
    for x in a:
        s += c_cos(x)
    return s


@ruchey.njit
def powers(x, y):
    return c_pow(x, y), c_pow(x, 2)  # an int argument converts to the parameter's double


@ruchey.njit
def cos32(x):
    return c_cosf(x)


@ruchey.njit
def quantiles(p):
    out = np.empty_like(p)
    for i in range(p.size):
        out[i] = ndtri(p[i])
    return out


@ruchey.njit
def regularized(a, x):
    return gammainc(a, x)


@ruchey.njit
def narrow(a, b, flag):
    return mixed(a, b, flag)


@ruchey.njit(parallel=True)
def cos_parallel(a):
    out = np.empty_like(a)
    for i in ruchey.prange(a.size):
        out[i] = c_cos(a[i])
    return out


def test_a_ctypes_function_is_called_with_its_argtypes():
    a = np.random.default_rng(0).uniform(-10, 10, 200)
    assert cos_sum(a) == cos_sum.py_func(a)
    assert powers(1.5, 2.5) == powers.py_func(1.5, 2.5)
    assert cos32(0.5) == np.float32(c_cosf(0.5))


def test_scipy_special_functions_through_their_addresses():
    p = np.random.default_rng(1).uniform(0, 1, 100)
    np.testing.assert_array_equal(quantiles(p), scipy.special.ndtri(p))
    for a, x in ((0.5, 0.2), (3.0, 2.5), (10.0, 1.0)):
        assert regularized(a, x) == scipy.special.gammainc(a, x)


@pytest.mark.parametrize("a,b,flag", [(-128, 65535, True), (127, 0, True), (-1, 300, True), (5, 7, False)])
def test_narrow_ints_and_bools_are_widened_as_c_does(a, b, flag):
    assert narrow(a, b, flag) == narrow.py_func(a, b, flag) == mixed(a, b, flag)


def test_calls_run_on_every_thread():
    a = np.linspace(-3, 3, 10001)
    np.testing.assert_array_equal(cos_parallel(a), np.array([math.cos(x) for x in a]))


def test_wrong_argument_count_is_a_typing_error():
    @ruchey.njit
    def too_many(x):
        return c_cos(x, x)

    with pytest.raises(ruchey.TypingError, match="takes 1 argument, got 2"):
        too_many(1.0)


def test_a_ctypes_function_without_argtypes_is_a_clear_typing_error():
    @ruchey.njit
    def untyped(x):
        return c_untyped(x)

    with pytest.raises(ruchey.TypingError, match="has no argtypes"):
        untyped(1.0)


def test_pointer_arguments_are_refused_clearly():
    strlen = ctypes.CDLL(None).strlen
    strlen.restype, strlen.argtypes = ctypes.c_size_t, (ctypes.c_char_p,)

    @ruchey.njit
    def length(x):
        return strlen(x)

    with pytest.raises(ruchey.TypingError, match="argument 1 of ctypes type c_char_p is not supported"):
        length(1)


def test_complex_and_array_arguments_are_refused():
    @ruchey.njit
    def of_complex(z):
        return c_cos(z)

    @ruchey.njit
    def of_array(a):
        return c_cos(a)

    with pytest.raises(ruchey.TypingError, match="complex number"):
        of_complex(1j)
    with pytest.raises(ruchey.TypingError, match="needs a number"):
        of_array(np.zeros(2))


def test_a_wrapper_with_an_unsupported_signature_is_refused():
    bad = scipy_function("ndtri", types.float64(types.float64[:]))

    @ruchey.njit
    def call_bad(a):
        return bad(a)

    with pytest.raises(ruchey.TypingError, match="not supported in compiled code"):
        call_bad(np.zeros(2))


def test_get_cython_function_address_names_missing_functions():
    with pytest.raises(ValueError, match="no function 'nope'"):
        get_cython_function_address("scipy.special.cython_special", "nope")


def test_code_calling_a_native_function_is_never_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("RUCHEY_CACHE_DIR", str(tmp_path))

    @ruchey.njit(cache=True)
    def cached_cos(x):
        return c_cos(x)

    @ruchey.njit(cache=True)
    def cached_plain(x):
        return math.cos(x)

    assert cached_cos(0.25) == math.cos(0.25)
    assert not list(tmp_path.rglob("*.rbc"))
    assert cached_plain(0.25) == math.cos(0.25)
    assert len(list(tmp_path.rglob("*.rbc"))) == 1  # the same function without the call is kept


# C functions of addresses (c_void_p), reached the way packages hand arrays to a C library
libc = ctypes.CDLL(None)
c_memset = libc.memset
c_memset.restype, c_memset.argtypes = ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t)
c_memcpy = libc.memcpy
c_memcpy.restype, c_memcpy.argtypes = ctypes.c_void_p, (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


@ruchey.njit
def fill_bytes(a, value):
    back = c_memset(a.ctypes.data, value, a.nbytes)
    return back == a.ctypes.data, back - a.ctypes.data


@ruchey.njit
def copy_into(dst, src, n):
    c_memcpy(dst.ctypes, src.ctypes, n * src.itemsize)  # a.ctypes itself converts to the void*, as Numba's
    return dst


@ruchey.njit
def copy_rows(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        c_memcpy(out[i:].ctypes.data, a[i:].ctypes.data, a.shape[1] * a.itemsize)
    return out


@ruchey.njit
def address_of(a):
    return a.ctypes.data


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float64, np.complex128])
def test_void_pointer_arguments_take_an_arrays_ctypes_address(dtype):
    a, b = np.arange(12, dtype=dtype), np.arange(12, dtype=dtype)
    assert fill_bytes(a, 7) == fill_bytes.py_func(b, 7) == (True, 0)
    np.testing.assert_array_equal(a, b)
    src = np.random.default_rng(2).integers(0, 100, 12).astype(dtype)
    np.testing.assert_array_equal(copy_into(np.zeros(12, dtype), src, 5), copy_into.py_func(np.zeros(12, dtype), src, 5))


def test_an_arrays_ctypes_data_is_its_first_elements_address():
    a = np.random.default_rng(3).normal(size=(5, 4))
    np.testing.assert_array_equal(copy_rows(a), copy_rows.py_func(a))
    view = a[2:, 1:]
    assert address_of(view) == address_of.py_func(view) == view.ctypes.data
    assert isinstance(address_of(view), int)


def test_void_pointer_arguments_take_integers():
    @ruchey.njit
    def fill_at(address, n):
        return c_memset(address, 255, n) == address

    a, b = np.zeros(8, np.uint8), np.zeros(8, np.uint8)
    assert fill_at(a.ctypes.data + 2, 3) and fill_at.py_func(b.ctypes.data + 2, 3)
    np.testing.assert_array_equal(a, b)


# a C function of typed pointers: qsort's comparison of two doubles, called here directly
@ruchey.cfunc(types.int32(types.CPointer(types.float64), types.CPointer(types.float64)))
def _dcmp(a, b):
    return (a[0] > b[0]) - (a[0] < b[0])


c_dcmp = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double))(_dcmp.address)


@ruchey.njit
def compare_all(a, b):
    out = np.empty(a.size, np.int64)
    for i in range(a.size):
        out[i] = c_dcmp(a[i:].ctypes, b[i:].ctypes)  # POINTER(c_double) takes a.ctypes, as Numba's CPointer
    return out


def test_typed_pointer_arguments_take_an_arrays_ctypes():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 3, 20).astype(float), rng.integers(0, 3, 20).astype(float)
    # (in Python ctypes itself refuses a.ctypes for a POINTER(c_double): the original cannot run)
    want = np.array([c_dcmp(a[i:].ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                            b[i:].ctypes.data_as(ctypes.POINTER(ctypes.c_double))) for i in range(a.size)])
    np.testing.assert_array_equal(compare_all(a, b), want)
    np.testing.assert_array_equal(want, np.sign(a - b))


def test_typed_pointer_arguments_refuse_arrays_of_other_items():
    @ruchey.njit
    def first_two(a, b):
        return c_dcmp(a.ctypes, b.ctypes)

    @ruchey.njit
    def by_address(a, b):  # (a plain address carries no item type: taken, where Numba refuses ints)
        return c_dcmp(a.ctypes.data, b.ctypes.data)

    for dtype in (np.float32, np.int64, np.complex128):
        with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else
                           f"argument 1 is a pointer to float64, not to the {np.dtype(dtype).name} items given"):
            first_two(np.zeros(1, dtype), np.zeros(1))
    assert first_two(np.ones(1), np.zeros(1)) == 1
    if not AS_NUMBA:
        assert by_address(np.ones(1), np.zeros(1)) == 1


def _memmove_giving(restype):
    """libc's memmove (which returns its destination) typed to return restype."""
    address = ctypes.cast(libc.memmove, ctypes.c_void_p).value
    return ctypes.CFUNCTYPE(restype, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)(address)


moved_doubles = _memmove_giving(ctypes.POINTER(ctypes.c_double))
moved_bytes = _memmove_giving(ctypes.POINTER(ctypes.c_uint8))


@ruchey.njit
def copied_doubles(dst, src):
    p = moved_doubles(dst.ctypes.data, src.ctypes.data, src.nbytes)
    view = ruchey.carray(p, dst.shape)  # the items' type is the pointer's, as Numba's CPointer
    view[0] += 1.0
    return view.sum(), p[src.size - 1]


@ruchey.njit
def copied_bytes(dst, src):
    return ruchey.carray(moved_bytes(dst.ctypes.data, src.ctypes.data, src.size), (src.size,)).copy()


def test_a_typed_pointer_result_is_a_pointer_carray_and_indexing_read():
    rng = np.random.default_rng(17)
    for n in rng.integers(1, 40, 5):
        src = rng.standard_normal(n)
        dst = np.zeros(n)
        total, last = copied_doubles(dst, src)
        np.testing.assert_allclose(total, src.sum() + 1.0)
        assert last == src[-1] and dst[0] == src[0] + 1.0
        raw = rng.integers(0, 256, n).astype(np.uint8)
        np.testing.assert_array_equal(copied_bytes(np.zeros(n, np.uint8), raw), raw)


def test_ctypes_types_convert_to_types_and_back():
    import importlib
    utils = importlib.import_module("numba.core.typing.ctypes_utils" if AS_NUMBA else "ruchey.native")
    pairs = [(ctypes.c_double, types.float64), (ctypes.c_float, types.float32), (ctypes.c_int, types.intc),
             (ctypes.c_uint16, types.uint16), (ctypes.c_size_t, types.size_t), (ctypes.c_ssize_t, types.ssize_t),
             (ctypes.c_bool, types.boolean), (ctypes.c_int8, types.int8), (ctypes.c_void_p, types.voidptr),
             (ctypes.POINTER(ctypes.c_float), types.CPointer(types.float32)), (None, types.void)]
    for ctype, t in pairs:
        assert utils.from_ctypes(ctype) == t
        assert utils.to_ctypes(t) == ctype
    with pytest.raises(TypeError, match="Unsupported ctypes type"):
        utils.from_ctypes(ctypes.c_wchar_p)
    with pytest.raises(TypeError, match="Cannot convert Numba type"):
        utils.to_ctypes(types.complex128)


def test_pointer_to_pointers_converts_to_ctypes_and_back():
    import importlib
    utils = importlib.import_module("numba.core.typing.ctypes_utils" if AS_NUMBA else "ruchey.native")
    P = ctypes.POINTER
    for ctype, t in [(P(P(ctypes.c_float)), types.CPointer(types.CPointer(types.float32))),
                     (P(P(P(ctypes.c_int64))), types.CPointer(types.CPointer(types.CPointer(types.int64))))]:
        assert utils.from_ctypes(ctype) == t and utils.to_ctypes(t) == ctype
    assert repr(types.CPointer(types.CPointer(types.float32))) == "float32**"


# a native function taking double ** (rows of a table, each an address): a ctypes callback
@ctypes.CFUNCTYPE(ctypes.c_double, ctypes.POINTER(ctypes.POINTER(ctypes.c_double)), ctypes.c_int64, ctypes.c_int64)
def _row_total(rows, i, n):
    return sum(rows[i][j] for j in range(n))


def row_totals(table, n):
    out = np.empty(table.size)
    for i in range(table.size):
        out[i] = _row_total(table.ctypes, i, n)  # a POINTER(POINTER(c_double)) takes an address
    return out


def test_native_function_takes_a_pointer_to_pointers():
    rng = np.random.default_rng(11)
    compiled = ruchey.njit(row_totals)
    for rows, n in [(1, 1), (3, 4), (6, 9)]:
        m = rng.standard_normal((rows, n))
        table = np.array([row.ctypes.data for row in m], np.uint64)
        # (the original cannot run: ctypes refuses a.ctypes for a pointer parameter in Python)
        want = np.array([_row_total(ctypes.cast(table.ctypes.data, ctypes.POINTER(ctypes.POINTER(ctypes.c_double))),
                                    i, n) for i in range(rows)])
        np.testing.assert_allclose(compiled(table, n), want, rtol=0, atol=1e-12)
        np.testing.assert_allclose(want, m.sum(axis=1), rtol=1e-12)


@pytest.mark.skipif(AS_NUMBA, reason="Numba's @cfunc indexes a float64** argument")
def test_cfunc_refuses_a_pointer_to_pointers_argument_clearly():
    with pytest.raises(TypeError, match=r"a pointer to pointers \(float64\*\*\) is taken by a native function"):
        ruchey.cfunc(types.float64(types.CPointer(types.CPointer(types.float64)), types.int64))(lambda p, n: 0.0)


def copy_through_kept_ctypes(n):
    src = np.arange(n) * 1.5
    out = np.empty(n)
    inct = src.ctypes  # (Numba's ArrayCTypes: it keeps src's memory while it lives)
    outct = out.ctypes
    c_memcpy(outct, inct, n * 8)
    return out, inct.data == src.ctypes.data, outct.data - out.ctypes.data


def data_of_a_kept_ctypes(a):
    c = a.ctypes
    return c.data


def copy_from_a_temporary(n):
    c = (np.arange(n) + 0.25).ctypes  # the array exists only as c's
    out = np.zeros(n)
    c_memcpy(out.ctypes.data, c.data, n * 8)
    return out


def test_a_ctypes_object_in_a_variable_gives_its_data_and_passes_as_a_pointer():
    f = ruchey.njit(copy_through_kept_ctypes)
    for n in np.random.default_rng(11).integers(1, 300, 6):
        got, want = f(int(n)), f.py_func(int(n))
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1:] == want[1:] == (True, 0)
    g = ruchey.njit(data_of_a_kept_ctypes)
    for a in (np.arange(7.0), np.arange(12).reshape(3, 4)[:, 1:], np.zeros(0, np.int8)):
        assert g(a) == g.py_func(a) == a.ctypes.data


def test_a_ctypes_object_keeps_its_array_alive_and_frees_it_after():
    import tracemalloc
    f = ruchey.njit(copy_from_a_temporary)
    f(2)
    for n in (5, 40_000, 300_000):
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot()
            got = f(n)
            left = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "lineno"))
        finally:
            tracemalloc.stop()
        np.testing.assert_array_equal(got, f.py_func(n))
        assert left < 8 * n + 4096  # the result alone: the temporary went with its ctypes object


def test_a_ctypes_object_is_refused_where_no_pointer_is_taken():
    @ruchey.njit
    def returned(a):
        return a.ctypes

    @ruchey.njit
    def as_a_byte(a):
        return c_memset(a.ctypes.data, a.ctypes, 0)

    with pytest.raises(TypeError, match=r"cannot convert native ArrayCTypes\(dtype=float64, ndim=1\)"):
        returned(np.ones(3))
    with pytest.raises(ruchey.TypingError, match="only a pointer parameter takes"):
        as_a_byte(np.ones(3))


def test_typeof_a_ctypes_or_cffi_function_is_an_external_function_pointer_as_numba():
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    ffi.cdef("double cos(double); double pow(double, double);")
    lib = ffi.dlopen(ctypes.util.find_library("m") or "libm.so.6")
    t, u = ruchey.typeof(c_cos), ruchey.typeof(lib.cos)
    assert isinstance(t, types.ExternalFunctionPointer) and isinstance(u, types.ExternalFunctionPointer)
    assert t.sig.args == (types.float64,) and t.sig.return_type == types.float64
    assert ruchey.typeof(c_pow).sig.args == (types.float64, types.float64) and ruchey.typeof(c_pow) != t
    assert ruchey.typeof(libm.cos) == t and ruchey.typeof(lib.pow) != u
    assert u.sig == t.sig and u != t  # (a cffi function's address is read otherwise)
    assert u.get_pointer(lib.cos) == t.get_pointer(c_cos) != t.get_pointer(c_pow)

    call = ruchey.njit(types.float64(t, types.float64))(lambda f, x: f(x))
    for x in np.random.default_rng(12).normal(size=8):
        assert call(c_cos, x) == call.py_func(c_cos, x) == call(lib.cos, x)
