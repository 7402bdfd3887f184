"""@cfunc: compiled functions as C callbacks.

Each callback is called through its ctypes function pointer (C code
calling machine code) and compared with the function's Python original on
generated inputs; SciPy integrates through it as a LowLevelCallable; bad
signatures are TypingErrors; an exception inside a callback is written out
as unraisable and the callback returns zero, as in Numba."""
import ctypes
import math
import sys
import threading
import time

import numpy as np
import pytest
import ruchey
from ruchey import carray, cfunc, farray, njit, types

from conftest import AS_NUMBA, make_rng, numba_deviation, random_floats, random_ints


def gauss(x):
    return math.exp(-x * x)


def poly(x):
    return 3.0 * x * x - 2.0 * x + 0.5


def mixed(a, b):
    if a > b:
        return a - b
    return a * 2 + b


def floordiv(a, b):
    return a // b


def positive(x):
    return x > 0


FLOAT_CASES = [
    ("float64(float64)", gauss),
    ("float64(float64)", poly),
    ("float32(float32)", poly),
]


@pytest.mark.parametrize("sig, func", FLOAT_CASES, ids=lambda c: getattr(c, "__name__", c))
def test_float_callback_matches_py_func(sig, func):
    cb = cfunc(sig)(func)
    single = sig.startswith("float32")
    rng = make_rng(1)
    for x in [v for v in random_floats(rng, 30) if abs(v) < 1e10]:
        got = cb.ctypes(x)
        want = func(np.float32(x)) if single else func(x)
        if single:
            assert got == pytest.approx(float(np.float32(want)), rel=1e-6, nan_ok=True)
        else:
            assert got == pytest.approx(want, rel=1e-15, nan_ok=True)


@pytest.mark.parametrize("sig", ["int64(int64, int64)", "int32(int32, int32)", "float64(float64, int64)"])
def test_two_argument_callback_matches_py_func(sig):
    cb = cfunc(sig)(mixed)
    rng = make_rng(2)
    xs = random_ints(rng, 20, -(2**20), 2**20)
    for a, b in zip(xs, reversed(xs)):
        assert cb.ctypes(a, b) == mixed(a, b)


def test_integer_division_matches_py_func():
    cb = cfunc("int32(int32, int32)")(floordiv)
    rng = make_rng(3)
    xs = [v for v in random_ints(rng, 30, -1000, 1000) if v]
    for a, b in zip(xs, xs[1:]):
        assert cb.ctypes(a, b) == floordiv(a, b)


def test_bool_and_small_int_types():
    cb = cfunc("boolean(float64)")(positive)
    assert [cb.ctypes(x) for x in (-1.0, 0.0, 2.5)] == [False, False, True]
    inc = cfunc("uint8(uint8)")(lambda x: x + 1)
    assert inc.ctypes(7) == 8


def test_void_callback_returns_nothing():
    @cfunc("void(int64)")
    def nothing(n):
        pass
    assert nothing.ctypes(3) is None


def test_callback_calls_other_compiled_functions():
    @njit
    def square(x):
        return x * x

    @cfunc("float64(float64)")
    def twice_square(x):
        return 2.0 * square(x)
    assert twice_square.ctypes(3.0) == 18.0


def test_address_is_the_ctypes_pointer():
    cb = cfunc("float64(float64)")(gauss)
    assert isinstance(cb.address, int) and cb.address
    assert ctypes.cast(cb.ctypes, ctypes.c_void_p).value == cb.address
    assert isinstance(cb.native_name, str) and cb.native_name
    again = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(cb.address)
    assert again(0.5) == gauss(0.5)


def test_calling_from_python_runs_the_python_function():
    cb = cfunc("float64(float64)")(gauss)
    assert cb(0.25) == gauss(0.25)
    assert cb.__wrapped__ is gauss and cb.__name__ == "gauss"


def test_inspect_llvm_names_no_python():
    cb = cfunc("float64(float64)")(gauss)
    ir = cb.inspect_llvm()
    assert "define" in ir and "Py" not in ir


def test_quad_through_low_level_callable():
    scipy = pytest.importorskip("scipy")
    from scipy import integrate
    for func in (gauss, poly):
        cb = cfunc("float64(float64)")(func)
        got, _ = integrate.quad(scipy.LowLevelCallable(cb.ctypes), 0, 1)
        want, _ = integrate.quad(func, 0, 1)
        assert got == pytest.approx(want, rel=1e-12)
    cb = cfunc("float64(float64)")(gauss)
    got, _ = integrate.quad(scipy.LowLevelCallable(cb.ctypes), -np.inf, np.inf)
    assert got == pytest.approx(math.sqrt(math.pi), rel=1e-10)


def window_mean(values_ptr, len_values, result, data):
    """SciPy's generic_filter callback, as its LowLevelCallable examples write it (carray with the dtype)."""
    values = carray(values_ptr, (len_values,), dtype=types.float64)
    s = 0.0
    for v in values:
        s += v
    result[0] = s / len_values
    return 1


def test_generic_filter_through_low_level_callable():
    scipy = pytest.importorskip("scipy")
    from scipy import ndimage
    cb = cfunc(types.intc(types.CPointer(types.float64), types.intp, types.CPointer(types.float64),
                          types.voidptr))(window_mean)
    image = make_rng(71).standard_normal((9, 7))
    got = ndimage.generic_filter(image, scipy.LowLevelCallable(cb.ctypes), size=3)
    np.testing.assert_allclose(got, ndimage.generic_filter(image, np.mean, size=3), rtol=1e-13)


def test_callback_runs_without_the_gil():
    @cfunc("float64(int64)")
    def spin(n):
        s = 0.0
        for i in range(n):
            s += math.sqrt(i + s * 1e-9)
        return s

    start = time.perf_counter()
    spin.ctypes(1000)
    n = 1000
    while time.perf_counter() - start < 0.05 and n < 1 << 40:  # about 0.3 s of work
        n *= 4
        start = time.perf_counter()
        spin.ctypes(n)
    done = []
    worker = threading.Thread(target=lambda: done.append(spin.ctypes(n * 4)))
    ticks = 0
    worker.start()
    while worker.is_alive():  # runs only while the callback has let go of the GIL
        ticks += 1
        time.sleep(0.001)
    worker.join()
    # holding the GIL, the callback would let this loop tick once or twice at
    # most; a loaded machine's sleeps take far longer than 1 ms, so count few
    assert done and ticks > 5


def test_exception_inside_is_unraisable_and_returns_zero(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_type))
    cb = cfunc("int64(int64, int64)")(floordiv)
    assert cb.ctypes(7, 0) == 0
    assert seen == [ZeroDivisionError]
    assert cb.ctypes(7, 2) == 3


def test_index_error_inside_is_unraisable(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_type))
    table = np.arange(4.0)

    @cfunc("float64(int64)", boundscheck=True)
    def lookup(i):
        return table[i]
    assert lookup.ctypes(2) == 2.0
    assert lookup.ctypes(10) == 0.0
    assert seen == [IndexError]


@pytest.mark.parametrize("sig", ["float64(float64[:])", "float64[:](float64)"])
def test_non_scalar_signature_is_a_typing_error(sig):
    with pytest.raises(ruchey.TypingError):
        cfunc(sig)(lambda x: x)


@numba_deviation("complex callbacks are compiled")
def test_complex_signature_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        cfunc("complex128(complex128)")(lambda x: x)


def test_signature_without_return_type_is_a_typing_error():
    with pytest.raises((ruchey.TypingError, TypeError)):
        cfunc("(float64,)")(gauss)


@numba_deviation("a TypeError")
def test_wrong_argument_count_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        cfunc("float64(float64, float64)")(gauss)


def test_untypable_body_is_a_typing_error():
    def bad(x):
        return x.nonexistent
    with pytest.raises(ruchey.TypingError):
        cfunc("float64(float64)")(bad)


def test_object_mode_is_not_implemented():
    with pytest.raises(NotImplementedError):
        cfunc("float64(float64)", forceobj=True)(poly)


def test_options_are_accepted():
    cb = cfunc("float64(float64)", nopython=True, cache=True, fastmath=True)(poly)
    assert cb.ctypes(2.0) == poly(2.0)


# ---------------------------------------------------------------- pointers

def test_pointer_argument_read_with_carray_in_quad():
    scipy = pytest.importorskip("scipy")
    from scipy import integrate

    @cfunc(types.float64(types.intc, types.CPointer(types.float64)))
    def integrand(n, xx):
        x = carray(xx, n)
        return x[0] * math.exp(-x[1] * x[0])
    for k in (0.5, 2.0):
        got, _ = integrate.quad(scipy.LowLevelCallable(integrand.ctypes), 0, 1, args=(k,))
        want, _ = integrate.quad(lambda x, kk: x * math.exp(-kk * x), 0, 1, args=(k,))
        assert got == pytest.approx(want, rel=1e-12)


def shaped_sum(p, rows, cols):
    a = carray(p, (rows, cols))
    b = farray(p, (rows, cols))
    s = 0.0
    for i in range(rows):
        s += a[i, cols - 1] * (i + 1) - b[i, 0] * 0.5
    return s + p[rows * cols - 1]


def test_carray_and_farray_shape_the_pointer_as_numpy_would():
    cb = cfunc("float64(CPointer(float64), int64, int64)")(shaped_sum)
    rng = make_rng(5)
    for rows, cols in ((1, 1), (3, 4), (5, 2)):
        buf = rng.standard_normal(rows * cols)
        ptr = buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        # py_func with the Python carray/farray over the same ctypes pointer
        assert cb.ctypes(ptr, rows, cols) == pytest.approx(shaped_sum(ptr, rows, cols), rel=1e-14)


def constant_shapes(p):
    a = carray(p, (2, 3))  # shapes written as constants: an overload sees their tuple's type
    b = farray(p, (3, 2), np.float64)
    return a[1, 2] * 10 + b[2, 1] - b[1, 0]


def test_carray_and_farray_of_constant_shapes():
    cb = cfunc("float64(CPointer(float64))")(constant_shapes)
    buf = make_rng(6).standard_normal(6)
    ptr = buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    assert cb.ctypes(ptr) == constant_shapes(ptr)


@pytest.mark.parametrize("rows_type, cols_type", [("int32", "uint32"), ("intc", "uintp"), ("uint16", "int64")])
def test_carray_and_farray_sizes_of_mixed_int_types(rows_type, cols_type):
    cb = cfunc(f"float64(CPointer(float64), {rows_type}, {cols_type})")(shaped_sum)
    rng = make_rng(15)
    for rows, cols in ((1, 1), (2, 3)):
        buf = rng.standard_normal(rows * cols)
        ptr = buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        assert cb.ctypes(ptr, rows, cols) == pytest.approx(shaped_sum(ptr, rows, cols), rel=1e-14)


def test_carray_with_a_dtype_not_the_pointers_is_a_typing_error():
    def as_float32(p, n):
        return carray(p, (n,), np.float32)[0]

    with pytest.raises(ruchey.TypingError, match=r"mismatching dtype 'float32' for pointer type 'float64\*'"):
        cfunc("float32(CPointer(float64), int64)")(as_float32)


def test_pointer_writes_reach_the_caller():
    @cfunc("void(CPointer(int32), int64)")
    def squares(p, n):
        out = carray(p, n)
        for i in range(n):
            out[i] = i * i
    buf = np.zeros(7, np.int32)
    squares.ctypes(buf.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), 7)
    np.testing.assert_array_equal(buf, np.arange(7) ** 2)


@numba_deviation("a void pointer's carray needs a dtype")
def test_void_pointer_reads_as_bytes():
    @cfunc("int64(voidptr, int64)")
    def byte_total(p, n):
        s = 0
        for v in carray(p, n):
            s += v
        return s
    data = make_rng(6).integers(0, 256, 50).astype(np.uint8)
    assert byte_total.ctypes(data.ctypes.data, 50) == int(data.sum())


def test_carray_in_python_reads_a_ctypes_pointer():
    buf = np.arange(6.0)
    ptr = buf.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    np.testing.assert_array_equal(carray(ptr, (2, 3)), buf.reshape(2, 3))
    np.testing.assert_array_equal(farray(ptr, (2, 3)), buf.reshape(2, 3, order="F"))


def test_carray_in_python_refuses_a_dtype_not_the_pointers():
    ptr = np.arange(6.0).ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    for shaped in (carray, farray):
        with pytest.raises(TypeError, match="mismatching dtype 'int32' for pointer"):
            shaped(ptr, (2, 3), np.int32)


RECORD = np.dtype([("count", np.int32), ("weight", np.float32), ("value", np.float64), ("parts", np.float32, (3,))],
                  align=True)


def _weigh_records(p, n):
    s = 0.0
    for i in range(n):
        s += p[i].count * p[i].weight / p[i].value + p[i].parts.sum()
    return s


@numba_deviation("reading a record's fields through the pointer itself (p[i].x) fails in Numba's lowering")
def test_a_pointer_to_records_reads_a_c_structs_fields():
    cb = cfunc(types.float64(types.CPointer(ruchey.from_dtype(RECORD)), types.intp))(_weigh_records)
    rng = make_rng(12)
    for n in (0, 1, 4):
        data = np.zeros(n, RECORD)
        data["count"] = rng.integers(-50, 50, n)
        data["weight"], data["value"] = rng.normal(size=n), rng.uniform(1, 2, n)
        data["parts"] = rng.normal(size=(n, 3))
        assert cb.ctypes(data.ctypes.data, n) == _weigh_records(data.view(np.recarray), n)


def test_cffi_takes_the_callback_as_a_function_pointer():
    cffi = pytest.importorskip("cffi")
    ffi = cffi.FFI()
    def scaled(x, k):
        return x * k - 0.5

    as_c = ffi.cast("double(*)(double, int)", cfunc("float64(float64, int32)")(scaled).cffi)
    for x, k in [(1.5, 2), (-3.25, -7), (0.0, 0)]:
        assert as_c(x, k) == scaled(x, k)


def _weighted(p, n, data):
    """A callback reading its user data (a void pointer) as the float64 array it is, as Numba's carray casts it."""
    w = carray(data, (2, n), dtype=np.float64)
    x = carray(p, n)
    s = 0.0
    for i in range(n):
        s += w[0, i] * x[i] + w[1, i]
    return s


def test_void_pointer_user_data_reads_as_a_dtype():
    cb = cfunc(types.float64(types.CPointer(types.float64), types.int64, types.voidptr))(_weighted)
    rng = make_rng(72)
    for n in (1, 5, 17):
        x, w = rng.normal(size=n), rng.normal(size=(2, n))
        got = cb.ctypes(x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), n, w.ctypes.data)
        want = _weighted(ctypes.cast(x.ctypes.data, ctypes.POINTER(ctypes.c_double)), n, w.ctypes.data)  # the original
        assert got == want


def test_void_pointer_as_fortran_array_of_a_dtype():
    @cfunc(types.int64(types.voidptr, types.int64))
    def corner(p, n):
        a = farray(p, (n, 2), dtype=np.int32)
        return a[n - 1, 0] * 1000 + a[0, 1]

    a = np.asfortranarray(make_rng(73).integers(0, 999, (6, 2)).astype(np.int32))
    assert corner.ctypes(a.ctypes.data, 6) == a[5, 0] * 1000 + a[0, 1]


# ---------------------------------------------------------------- a cfunc called from compiled code as a global

@cfunc("float64(float64, int64)")
def damped(x, k):
    return x * 0.5 ** k


def through_global_cfunc(xs, k):
    total = 0.0
    for x in xs:
        total += damped(x, k)
    return total


def test_compiled_code_calls_a_global_cfunc_through_its_address():
    f = njit(through_global_cfunc)
    rng = make_rng(1526)
    for n in (0, 1, 9):
        xs, k = rng.normal(size=n), int(rng.integers(0, 6))
        assert f(xs, k) == through_global_cfunc(xs, k)


@cfunc("float64(float64, int64)")
def lifted(x, k):
    return x + k


def sum_of_calls(fs, x, k):
    total = 0.0
    for f in fs:
        total += f(x, k)
    return total


def test_a_tuple_of_cfuncs_is_passed_and_each_called():
    f = njit(sum_of_calls)
    rng = make_rng(1527)
    for fs in [(damped, lifted), (lifted,), (damped, damped, lifted)]:
        for x in (*rng.normal(size=3), 0.0, -np.inf, np.nan):
            k = int(rng.integers(0, 6))
            np.testing.assert_equal(f(fs, x, k), sum_of_calls(fs, x, k))


# ---------------------------------------------------------------- native functions passed as values

LIBM = ctypes.CDLL(None if sys.platform != "linux" else "libm.so.6")
ctypes_cos = LIBM.cos
ctypes_cos.restype, ctypes_cos.argtypes = ctypes.c_double, [ctypes.c_double]


class NativeSin(types.WrapperAddressProtocol):
    """Numba's protocol of a native function: libm's sin by its address."""

    def __wrapper_address__(self):
        return ctypes.cast(LIBM.sin, ctypes.c_void_p).value

    def signature(self):
        return types.float64(types.float64)


class CFuncByAddress(types.WrapperAddressProtocol):
    """The protocol over a cfunc, as Numba's examples write it."""

    def __wrapper_address__(self):
        return lifted._wrapper_address

    def signature(self):
        return lifted._sig


@njit
def call_each(fs, x):
    return [f(x) for f in fs]


@njit
def call_with_step(f, x, k):
    return f(x, k)


def test_native_functions_are_passed_as_first_class_functions():
    """A WrapperAddressProtocol object and a ctypes function pointer with
    argtypes, passed as an argument (alone or in a tuple), are called
    through their addresses, as Numba calls them."""
    xs = [0.0, 0.5, -2.25, np.pi, np.inf, np.nan]
    for x in xs:
        sin, cos = (math.sin(x), math.cos(x)) if np.isfinite(x) else (np.nan, np.nan)
        np.testing.assert_equal(call_each((NativeSin(), NativeSin()), x), [sin, sin])
        np.testing.assert_equal(call_each((ctypes_cos, ctypes_cos), x), [cos, cos])
    stepped = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_int64)(lifted.address)
    for f in (CFuncByAddress(), stepped, lifted):
        for x, k in [(1.5, 2), (-3.0, 0), (0.0, -7)]:
            assert call_with_step(f, x, k) == lifted._pyfunc(x, k)


def test_a_native_function_without_argtypes_is_refused_as_an_argument():
    bare = LIBM.tan  # (no argtypes: what it takes is unknown)
    assert bare.argtypes is None
    with pytest.raises(TypeError, match="argument 1|argtypes"):
        call_with_step(bare, 1.0, 2)


def test_the_wrapper_address_of_a_compiled_function_is_a_c_function_of_the_signature():
    # numba.experimental.function_type._get_wrapper_address: packages keep such addresses in tables
    if AS_NUMBA:
        from numba.experimental.function_type import _get_wrapper_address
    else:
        from ruchey.ccallback import _get_wrapper_address
    rng = make_rng(11)
    jitted, as_cfunc = njit(poly), cfunc("float64(float64)")(gauss)
    sig = types.float64(types.float64)
    poly_address = _get_wrapper_address(jitted, sig)
    assert poly_address == _get_wrapper_address(jitted, sig)  # made once per signature
    called = {f: ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(_get_wrapper_address(f, sig))
              for f in (jitted, as_cfunc)}
    for x in random_floats(rng, 20, special=False):
        assert called[jitted](x) == pytest.approx(poly(x), rel=1e-15)
        assert called[as_cfunc](x) == pytest.approx(gauss(x), rel=1e-15)
    added = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(
        _get_wrapper_address(njit(lambda a, b: a * 3 + b), types.int64(types.int64, types.int64)))
    for a, b in zip(random_ints(rng, 10, -1000, 1000), random_ints(rng, 10, -1000, 1000)):
        assert added(a, b) == a * 3 + b
    with pytest.raises(NotImplementedError, match="wrapper address"):
        _get_wrapper_address(poly, sig)  # a Python function: no compiled code
