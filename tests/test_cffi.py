"""cffi functions called from compiled code, as Numba calls them: the
functions of an in-line library (ffi.dlopen) and of an out-of-line
module's lib (found through its module's ffi, no registration needed),
called directly, through their library (lib.f) or passed as first-class
function values, with numbers,
bools and pointers; ffi.from_buffer(a) passing an array's (or a buffer's)
memory to a pointer parameter. Results are compared with the Python
original (which calls the same C functions through cffi) or with NumPy."""
import array
import ctypes.util
import importlib
import math
import sys

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, numba_deviation
from ruchey import njit

cffi = pytest.importorskip("cffi")

ffi = cffi.FFI()
ffi.cdef("""
    double cos(double x);
    float cosf(float x);
    double pow(double x, double y);
    double frexp(double x, int *e);
    double modf(double x, double *whole);
    long double cosl(long double x);
    int abs(int x);
    long long llabs(long long x);
    int printf(const char *format, ...);
""")
libm = ffi.dlopen(ctypes.util.find_library("m") or "libm.so.6")
libc = ffi.dlopen(None)
c_cos, c_cosf, c_pow, c_frexp, c_modf, c_cosl = libm.cos, libm.cosf, libm.pow, libm.frexp, libm.modf, libm.cosl
c_abs, c_llabs, c_printf = libc.abs, libc.llabs, libc.printf

FLOATS = [0.0, -0.0, 1.0, -2.5, 3.14159, 1e-300, 1e300, math.inf, -math.inf, math.nan] + \
    list(np.random.default_rng(7).normal(scale=10, size=20))

OOL_SOURCE = """
    static int weigh(int a, short b, _Bool c) { return c ? a * 3 + b : -a; }
    static void scale(int n, const double *x, double *y, double by) {
        for (int i = 0; i < n; i++) y[i] = x[i] * by;
    }
    static float total(const float *x, long n) {
        float s = 0;
        for (long i = 0; i < n; i++) s += x[i];
        return s;
    }
    static _Bool is_positive(double x) { return x > 0; }
"""
OOL_CDEF = """
    int weigh(int a, short b, _Bool c);
    void scale(int n, const double *x, double *y, double by);
    float total(const float *x, long n);
    _Bool is_positive(double x);
"""


@pytest.fixture(scope="module")
def ool(tmp_path_factory):
    """An out-of-line module compiled for the tests: its ffi and lib."""
    builder = cffi.FFI()
    builder.cdef(OOL_CDEF)
    builder.set_source("ruchey_test_cffi_ool", OOL_SOURCE)
    folder = tmp_path_factory.mktemp("cffi_ool")
    try:
        builder.compile(tmpdir=str(folder))
    except Exception as e:  # (no C compiler here)
        pytest.skip(f"cannot compile an out-of-line cffi module: {e}")
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("ruchey_test_cffi_ool")
    finally:
        sys.path.remove(str(folder))
    if AS_NUMBA:  # (Numba finds an out-of-line module's functions once registered; ruchey by their module)
        import numba.core.typing.cffi_utils
        numba.core.typing.cffi_utils.register_module(module)
    return module


@njit
def use_inline(x, n):
    return c_cos(x) * 2 + c_pow(x, 2.0) - c_cosf(np.float32(x)), c_abs(n), c_llabs(n)


def test_inline_library_functions_are_called():
    for x in FLOATS:
        for n in (0, 1, -7, 2**31 - 1, -2**31 + 1):
            with np.errstate(over="ignore"):  # (float32 of the largest: inf, as compiled code gives it)
                got, expected = use_inline(x, n), use_inline.py_func(x, n)
            np.testing.assert_array_equal(np.array(got), np.array(expected))


def test_out_of_line_module_functions_are_called(ool):
    weigh, is_positive = ool.lib.weigh, ool.lib.is_positive

    @njit
    def use_ool(a, b, c, x):
        return weigh(a, b, c), is_positive(x)

    for a in (0, 5, -9, 100000):
        for b in (-32768, -1, 0, 32767):
            for c in (True, False):
                for x in (-1.5, 0.0, 2.0, math.nan):
                    assert use_ool(a, b, c, x) == use_ool.py_func(a, b, c, x)


@njit
def through_library(x, n):
    return libm.cos(x) + libm.pow(x, 2.0), libc.abs(n)


@numba_deviation("an in-line library (ffi.dlopen's) is not a value Numba's compiled code reads")
def test_functions_are_called_through_their_library():
    for x in FLOATS:
        for n in (0, -7, 12):
            np.testing.assert_array_equal(np.array(through_library(x, n)), np.array(through_library.py_func(x, n)))


def test_out_of_line_functions_are_called_through_their_lib(ool):
    lib, module = ool.lib, ool

    @njit
    def weigh_both(a):
        return lib.weigh(a, 2, True), module.lib.weigh(a, 2, False)

    for a in (0, 7, -100):
        assert weigh_both(a) == weigh_both.py_func(a)


@njit
def either(f, g, x):
    return f(x) if x > 0 else g(x)


def test_functions_pass_as_first_class_values(ool):
    for f, g in [(c_cos, libm.cos), (libm.cos, c_cos)]:
        for x in FLOATS:
            np.testing.assert_array_equal(either(f, g, x), either.py_func(f, g, x))
    assert len(either.signatures) == 1  # one function type for the one C signature


@njit
def split_float(x, e):
    m = c_frexp(x, ffi.from_buffer(e))
    whole = np.zeros(1)
    frac = c_modf(x, ffi.from_buffer(whole))
    return m, frac, whole[0]


def test_from_buffer_passes_an_arrays_memory():
    e = np.zeros(1, dtype=np.int32)
    for x in FLOATS:
        if not math.isfinite(x):
            continue
        m, frac, whole = split_float(x, e)
        assert (m, int(e[0])) == math.frexp(x)
        assert (frac, whole) == math.modf(x)


def test_from_buffer_of_arrays_and_buffers(ool):
    scale, total = ool.lib.scale, ool.lib.total

    @njit
    def scaled(x, y, by):
        scale(x.size, ffi.from_buffer(x), ool.ffi.from_buffer(y), by)

    @njit
    def summed(x):
        return total(ffi.from_buffer(x), len(x))

    rng = np.random.default_rng(3)
    for shape in [(0,), (1,), (7,), (3, 4), (2, 3, 2)]:
        x = rng.normal(size=shape)
        y = np.full_like(x, np.nan)
        scaled(x, y, -1.5)
        np.testing.assert_array_equal(y, x * -1.5)
    y = np.zeros((3, 4))
    scaled(np.asfortranarray(rng.normal(size=3)), y[0], 2.0)  # (1-d: either order)
    for values in ([], [1.5], [1.0, -2.0, 4.25]):
        expected = np.float32(sum(np.float32(v) for v in values))
        assert summed(np.array(values, dtype=np.float32)) == expected
        assert summed(array.array("f", values)) == expected
        assert summed(memoryview(np.array(values, dtype=np.float32))) == expected


def test_pointers_to_other_items_are_refused():
    @njit
    def whole_into(x, z):
        return c_modf(x, ffi.from_buffer(z))

    for items in (np.zeros(1, np.complex128), np.zeros(1, np.float32), np.zeros(2, np.int32)):
        with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else "is a pointer to float64, not to the"):
            whole_into(1.5, items)
    whole = np.zeros(1)
    assert whole_into(3.75, whole) == 0.75 and whole[0] == 3.0


def test_from_buffer_refuses_strided_and_fortran_arrays():
    @njit
    def first(x):
        return c_frexp(1.0, ffi.from_buffer(x))

    with pytest.raises(ruchey.TypingError, match="from_buffer\\(\\) unsupported on non-contiguous buffers"):
        first(np.zeros(6, np.int32)[::2])
    with pytest.raises(ruchey.TypingError, match="only supports multidimensional arrays with C layout"):
        first(np.zeros((2, 2), np.int32, order="F"))
    with pytest.raises(ruchey.TypingError):
        first(3)


def test_unsupported_c_types_are_typing_errors():
    @njit
    def long_double():
        return c_cosl(1.0)

    @njit
    def varargs():
        return c_printf(b"x")

    @njit
    def wrong_count(x):
        return c_cos(x, x)

    with pytest.raises((ruchey.TypingError, TypeError), match="long double"):
        long_double()
    with pytest.raises((ruchey.TypingError, TypeError), match="vararg"):
        varargs()
    with pytest.raises(ruchey.TypingError):  # (ruchey: "this native function takes 1 argument, got 2")
        wrong_count(1.0)


def cffi_utils():
    """Numba's numba.core.typing.cffi_utils, which ruchey's shim gives from ruchey.native."""
    return importlib.import_module("numba.core.typing.cffi_utils" if AS_NUMBA else "ruchey.native")


def test_map_type_gives_signatures_and_pointers():
    from ruchey import types
    map_type = cffi_utils().map_type
    assert map_type(ffi.typeof(c_frexp)) == types.float64(types.float64, types.CPointer(types.int32))
    assert map_type(ffi.typeof(c_cosf)) == types.float32(types.float32)
    assert map_type(ffi.typeof("void *")) == types.voidptr
    for cdecl, name in [("_Bool", "boolean"), ("char", "int8"), ("unsigned short", "uint16"), ("long long", "int64"),
                        ("size_t", "uint64"), ("double", "float64")]:
        assert map_type(ffi.typeof(cdecl)) == getattr(types, name)
    with pytest.raises(TypeError, match="vararg"):
        map_type(ffi.typeof(c_printf))


def test_a_registered_module_is_found_out_of_sys_modules(ool, monkeypatch):
    monkeypatch.delitem(sys.modules, ool.__name__)  # its functions' module name no longer finds it
    weigh = ool.lib.weigh

    @njit
    def use(a):
        return weigh(a, 1, True)

    if not AS_NUMBA:
        with pytest.raises(ruchey.TypingError, match="register_module"):
            use(4)
    cffi_utils().register_module(ool)
    use = njit(use.py_func)
    assert use(4) == use.py_func(4) == 13


def test_map_type_gives_structs_as_records():
    from ruchey import types
    structs = cffi.FFI()
    structs.cdef("""
        typedef struct { int count; float weight; double value; float parts[3]; } item;
        typedef double (*weigh)(item *, size_t);
        typedef struct { int bits: 4; } packed;
    """)
    map_type = cffi_utils().map_type
    record = map_type(structs.typeof("item"), use_record_dtype=True)
    fields = record.dtype.fields if AS_NUMBA else record.np_dtype.fields
    assert [(name, fields[name][1]) for name in ("count", "weight", "value", "parts")] == [
        (name, structs.offsetof("item", name)) for name in ("count", "weight", "value", "parts")]
    assert record.size == structs.sizeof("item")
    assert map_type(structs.typeof("weigh"), use_record_dtype=True) == \
        types.float64(types.CPointer(record), types.uintp)
    with pytest.raises(ValueError, match="field 'bits' has bitshift, this is not supported"):
        map_type(structs.typeof("packed"), use_record_dtype=True)
