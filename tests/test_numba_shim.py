"""ruchey registered as numba (ruchey.install_as_numba(), python -m
ruchey.numba_shim), and what running real Numba-based packages needed:
gufuncs whose layout has no outputs, readonly array types in signatures.
The shim's checks run in fresh interpreters, which they change."""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import ruchey
from ruchey import guvectorize, njit, types

from conftest import AS_NUMBA, make_rng, numba_deviation

def assert_printed_ok(done):
    """A fresh interpreter's script ran to its end, printing "ok"."""
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


shim_only = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")


def numba_itself():
    """Whether Numba itself is installed where a fresh interpreter finds it
    (sys.path only: install_as_numba() in this process puts ruchey in
    sys.modules as numba, which importlib.util.find_spec would report)."""
    return importlib.machinery.PathFinder.find_spec("numba") is not None


def run_fresh(code, tmp_path, *args):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(code))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, *args, str(script)], capture_output=True, text=True, timeout=300,
                          env=env, cwd=str(tmp_path))


def run_under_both(code, tmp_path):
    """Runs code in a fresh interpreter under Numba itself (argument
    "numba"), then under ruchey installed as numba ("ruchey"); the first
    that fails is returned, else the second."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    for mode in ("numba", "ruchey"):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), mode], capture_output=True, text=True,
                              timeout=300, env=env, cwd=str(tmp_path))
        if done.returncode or done.stdout.strip() != "ok":
            break
    return done


@shim_only
def test_install_as_numba_resolves_numba_and_its_submodules(tmp_path):
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba import njit, prange, types, vectorize
        from numba.core import types as core_types
        from numba.core.errors import NumbaPerformanceWarning, TypingError
        from numba.extending import overload, register_jitable
        from numba.np.numpy_support import as_dtype, from_dtype
        from numba.typed import List
        import numba.core.config
        import struct
        assert numba.core.config.MACHINE_BITS == 8 * struct.calcsize("P")
        assert numba.core.config.IS_32BITS is (struct.calcsize("P") == 4)
        assert numba.njit is ruchey.njit and core_types.float64 == ruchey.float64
        assert issubclass(NumbaPerformanceWarning, Warning) and TypingError is ruchey.TypingError
        from numba.core.errors import NumbaValueError, NumbaNotImplementedError
        assert issubclass(NumbaValueError, TypingError) and issubclass(NumbaNotImplementedError, TypingError)
        assert as_dtype(types.float32) == np.float32 and from_dtype(np.int16) == ruchey.int16
        rec = np.dtype([("x", "f8"), ("n", "i4")])
        assert as_dtype(from_dtype(rec)) == rec and from_dtype(rec).offset("n") == 8
        for text in ("<U5", "S3"):  # a text field's type (UnicodeCharSeq, CharSeq) and back
            assert as_dtype(from_dtype(np.dtype(text))) == np.dtype(text)
        assert from_dtype(np.dtype("<U5")) == types.UnicodeCharSeq(5) and from_dtype(np.dtype("S3")) == types.CharSeq(3)
        for no_type in (np.dtype(">f8"), np.dtype(object), np.longdouble if np.dtype(np.longdouble).itemsize > 8 else ">i4"):
            try:  # Numba's error for a dtype it has no type for, which code for it catches
                from_dtype(no_type)
            except NumbaNotImplementedError as e:
                assert isinstance(e, TypeError), e  # (ruchey's own from_dtype raises TypeError)
            else:
                raise AssertionError(no_type)
        from numba.np.ufunc import Vectorize, GUVectorize
        from numba.np.ufunc.decorators import GUVectorize as defined_there
        assert GUVectorize is defined_there and Vectorize(lambda x: x + 1).build_ufunc()(np.arange(3)).tolist() == [1, 2, 3]
        from numba.np.numpy_support import numpy_version
        assert numpy_version == tuple(int(p) for p in np.__version__.split(".")[:2])
        from numba.np.extensions import cross2d
        assert njit(lambda a, b: cross2d(a, b))(np.array([[1.0, 2.0]]), np.array([3.0, 5.0])).tolist() == [-1.0]
        assert types.int16 in types.signed_domain and types.uint8 in types.integer_domain
        assert types.complex64 in types.number_domain and types.float32 not in core_types.integer_domain
        assert core_types.np_real_domain == {types.float32, types.float64}
        assert overload is ruchey.extending.overload
        assert numba.__version__ and numba.version_info.major == 0
        # (numba.types is numba.core.types in Numba: its submodules under either name)
        assert numba.types.npytypes.Array is core_types.npytypes.Array is core_types.Array
        assert numba.types.misc.NoneType is core_types.NoneType
        assert {"jit", "njit", "vectorize", "guvectorize", "NumbaError", "TypingError", "int32"} <= set(numba.__all__)
        star = {}
        exec("from numba import *", star)
        assert star["njit"] is numba.njit and star["float64"] == core_types.float64 and "version_info" not in star
        assert numba.config.NUMBA_NUM_THREADS >= 1

        @njit
        def total(a):
            s = 0.0
            for i in prange(a.shape[0]):
                s += a[i]
            return s
        a = np.arange(10.0)
        assert total(a) == total.py_func(a)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_a_submodule_imported_keeps_its_parents_function_of_the_same_name(tmp_path):
    # numba.experimental.jitclass is a package and, on numba.experimental, the decorator
    done = run_fresh("""
        import ruchey
        ruchey.install_as_numba()
        import numba.experimental.jitclass
        from numba.experimental.jitclass import base
        from numba.experimental import jitclass
        from numba import int64

        @jitclass([("n", int64)])
        class Counter:
            def __init__(self, n):
                self.n = n

            def bump(self):
                self.n += 1
                return self.n

        assert jitclass is ruchey.experimental.jitclass, jitclass
        assert Counter(4).bump() == 5
        # every jitclass is an instance of Numba's metaclass (hftbacktest annotates with it)
        assert isinstance(Counter, base.JitClassType) and not isinstance(int, base.JitClassType)
        from ruchey import numba_shim
        assert not [name for name in numba_shim.missing() if "jitclass" in name], numba_shim.missing()
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_lowering_error_and_pyversion_are_numbas(tmp_path):
    # code for Numba catches LoweringError among others, and compares utils.PYVERSION
    done = run_fresh("""
        import sys
        import ruchey
        ruchey.install_as_numba()
        from numba.core import errors, utils
        from numba import njit
        assert issubclass(errors.LoweringError, errors.NumbaError)
        assert utils.PYVERSION == sys.version_info[:2] and utils.PYVERSION >= (3, 10)

        @njit
        def half(x):
            return x.nosuch

        try:
            half(1)
        except (errors.LoweringError, errors.TypingError):
            print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_functions_passed_as_arguments_are_cpu_dispatchers(tmp_path):
    # packages check a callback with isinstance(f, CPUDispatcher) before
    # handing it to compiled code (vectorbt's checks.is_numba_func)
    done = run_fresh("""
        import warnings
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        from numba import njit
        from numba.core.registry import CPUDispatcher
        from numba.core.dispatcher import Dispatcher
        from numba.core.errors import NumbaExperimentalFeatureWarning
        warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

        @njit
        def double(x):
            return 2 * x

        @njit
        def apply(f, a):
            return f(a)
        assert isinstance(double, CPUDispatcher) and not isinstance(double.py_func, CPUDispatcher)
        assert isinstance(double, Dispatcher) and not isinstance(double.py_func, Dispatcher)
        a = np.arange(4.0)
        assert (apply(double, a) == apply.py_func(double.py_func, a)).all()
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_an_overload_asking_for_omitted_sees_the_default_bound(tmp_path):
    # Numba types a parameter left out as Omitted(default); ruchey binds
    # the default's value, so isinstance(t, Omitted) is false and the
    # overload types the default as any value
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        from numba import njit
        from numba.core.types import Omitted, Type
        from numba.extending import overload
        from numba.np.numpy_support import as_dtype

        def _shifted(a, fill):
            if isinstance(a, Type):
                fill_dtype = np.asarray(fill.value).dtype if isinstance(fill, Omitted) else as_dtype(fill)
                dtype = np.promote_types(as_dtype(a.dtype), fill_dtype)
            else:
                dtype = np.promote_types(a.dtype, np.asarray(fill).dtype)

            def impl(a, fill):
                out = np.empty(a.shape[0], dtype=dtype)
                out[0] = fill
                out[1:] = a[:-1]
                return out
            return impl if isinstance(a, Type) else impl(a, fill)
        overload(_shifted)(_shifted)

        @njit
        def shifted(a, fill=np.nan):
            return _shifted(a, fill)
        a = np.arange(5.0)
        for args in [(a,), (a, 0), (a, -1.5)]:
            got, want = shifted(*args), shifted.py_func(*args)
            assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True), (got, want)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_unassigned_reads_after_install_are_numbas(tmp_path):
    """scanpy's _normalize_csr returns a variable assigned under a flag only:
    under Numba (and ruchey installed as numba) the read gives the type's
    zero; ruchey's own functions, decorated before, keep Python's error."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def before(n, flag):
            if flag:
                b = np.ones(n)
            return b

        numba = ruchey.install_as_numba()

        @numba.njit
        def counts(n, flag):
            a = np.zeros(n)
            if flag:
                b = np.ones((n, 2), dtype=np.int32)
                y = 2.5
                k = 3
            return a, b, y, k

        a, b, y, k = counts(3, False)
        assert b.shape == (0, 0) and b.dtype == np.int32 and y == 0.0 and k == 0, (b, y, k)

        @numba.njit
        def named(flag):
            if flag:
                s = "abc"
            return s

        try:  # a str's zero is no str: still Python's error, never a crash
            named(False)
        except UnboundLocalError:
            pass
        else:
            raise AssertionError("a str read unassigned")
        a, b, y, k = counts(3, True)
        assert b.shape == (3, 2) and y == 2.5 and k == 3
        assert before(2, True).shape == (2,)
        try:
            before(2, False)
        except UnboundLocalError as e:
            print("ok", e)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok cannot access local variable 'b'")


@shim_only
def test_float_power_overflow_after_install_is_numbas_inf(tmp_path):
    """vectorbt's annualized alpha, (np.nanmean(a) + 1) ** ann_factor: the
    Python original's NumPy scalar overflows to inf, as Numba's code does;
    functions decorated after install_as_numba() give inf too (an int
    exponent by Numba's products), ruchey's own (decorated before) keep
    CPython's OverflowError of floats."""
    done = run_fresh("""
        import warnings
        import numpy as np
        import ruchey

        @ruchey.njit
        def before(x, k):
            return (np.nanmean(x) + 1) ** k

        numba = ruchey.install_as_numba()

        @numba.njit
        def alpha(x, k):
            return (np.nanmean(x) + 1) ** k

        @numba.njit
        def alpha_int(x, n):
            return (np.nanmean(x) + 1) ** n

        def numba_power(b, n):  # Numba's float ** int: square-and-multiply, each product rounded
            r = 1.0
            while n:
                if n & 1:
                    r *= b
                n >>= 1
                b *= b
            return r

        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's scalar overflow
        rng = np.random.default_rng(0)
        for x, k in [(rng.uniform(0.5, 1.0, 20), 1000.0), (rng.uniform(-0.1, 0.1, 20), 252.0)]:
            assert alpha(x, k) == alpha.py_func(x, k), (alpha(x, k), alpha.py_func(x, k))
            # an int exponent multiplies, as Numba's (within a few ulps of NumPy's pow)
            r = numba_power(float(np.nanmean(x) + 1), int(k))
            assert alpha_int(x, int(k)) == r and np.isclose(r, alpha_int.py_func(x, int(k)), rtol=1e-13)
        assert alpha(np.ones(3), 2000.0) == np.inf
        assert alpha_int(np.ones(3), 2000) == np.inf
        try:
            before(np.ones(3), 2000.0)
        except OverflowError as e:
            print("ok", e)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok (34, 'Numerical result out of range')")


@shim_only
def test_sums_after_install_add_in_numbas_order(tmp_path):
    """Numba's np.sum, a.sum(), mean and nansum add one element after another
    as its nditer walks the array (memory order for a Fortran array, else C
    order) and a sum along an axis adds one slice after another: code written
    for Numba gives those bits, not NumPy's pairwise sum (ruchey's own code
    keeps NumPy's)."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def own(a):
            return a.sum()

        numba = ruchey.install_as_numba()

        @numba.njit
        def sums(a):
            return a.sum(), np.sum(a), np.mean(a), np.nansum(a)

        @numba.njit
        def along(a):
            return np.sum(a, axis=0), np.sum(a, axis=1)

        def in_order(a):  # Numba's loop, in Python
            flat = a.ravel("F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C")
            total = a.dtype.type(0)
            for v in flat:
                total += v
            return total

        rng = np.random.default_rng(9)
        pairwise_differs = 0
        for shape in [(1000,), (37, 53), (5, 6, 7), (300, 15)]:
            for dtype in (np.float64, np.float32):
                a = (rng.random(shape) * 10.0 ** rng.integers(-5, 5, shape)).astype(dtype)
                for x in (a, np.asfortranarray(a), a.T, a[..., ::2]):
                    want = in_order(x)
                    got = sums(x)
                    assert got[0] == want and got[1] == want, (shape, dtype, got, want)
                    assert got[3] == want, (shape, dtype)
                    if dtype == np.float64:
                        assert got[2] == want / x.size, (shape, got[2], want / x.size)
                    assert own(x) == np.sum(x), (shape, dtype)  # ruchey's own: NumPy's bits
                    pairwise_differs += bool(np.sum(x) != want)
                    if x.ndim == 2:
                        by_rows, by_columns = np.zeros(x.shape[1], dtype), np.zeros(x.shape[0], dtype)
                        for i in range(x.shape[0]):
                            by_rows += x[i]
                        for j in range(x.shape[1]):
                            by_columns += x[:, j]
                        s0, s1 = along(x)
                        assert np.array_equal(s0, by_rows) and np.array_equal(s1, by_columns), shape
        assert pairwise_differs > 10, pairwise_differs  # the two orders do differ on these inputs
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_float32_variances_after_install_accumulate_as_numbas(tmp_path):
    """Numba's var starts from a.mean() (a float32 of a float32 array) and
    adds the squared deviations into a float64 (its loop starts from 0);
    nanmean and nanvar add into a float64 (from 0.0): code written for Numba
    gives those float64 bits, ruchey's own code NumPy's float32 ones."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def own(a):
            return np.var(a), np.nanmean(a)

        numba = ruchey.install_as_numba()

        @numba.njit
        def spreads(a):
            return np.var(a), a.std(), np.nanmean(a), np.nanvar(a), np.nanstd(a)

        def numbas(a):  # Numba's loops, in Python, in its nditer's order
            flat = a.ravel("F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C")
            c = np.float32(0)
            for v in flat:
                c = np.float32(c + v)
            m = np.float32(float(c) / flat.size)
            ssd = 0.0
            for v in flat:
                d = np.float32(v - m)
                ssd += float(np.float32(d * d))
            var = ssd / flat.size
            total, count = 0.0, 0
            for v in flat:
                if not np.isnan(v):
                    total += float(v)
                    count += 1
            nanmean = total / count
            ssd = 0.0
            for v in flat:
                if not np.isnan(v):
                    d = float(v) - nanmean
                    ssd += d * d
            return var, var ** 0.5, nanmean, ssd / count, (ssd / count) ** 0.5

        rng = np.random.default_rng(11)
        for shape in [(1000,), (37, 53), (5, 6, 7)]:
            a = (rng.random(shape) * 10.0 ** rng.integers(-3, 3, shape)).astype(np.float32)
            if a.ndim == 1:
                a[::17] = np.nan
            for x in (a, np.asfortranarray(a), a.T, a[..., ::2]):
                got, want = spreads(x), numbas(x)
                if np.isnan(x).any():
                    got, want = got[2:], want[2:]
                assert all(type(g) is float for g in got), got
                assert got == want, (shape, got, want)
                v, m = own(x)  # ruchey's own: NumPy's float32 ones
                assert np.array_equal(v, np.var(x), equal_nan=True) and np.float32(m) == m, (v, m)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_array_expressions_after_install_take_numbas_loop_dtypes_and_order(tmp_path):
    """Numba picks an array expression's loop by the operands' own types (a
    literal is an int64 or a float64), except that an integer yields to a
    float beside it: int8_array + 1 is an int64 array, float32_array * 2.0 a
    float64 one, int64_array + float32_array a float32 one. The sum of an
    expression of Fortran-ordered arrays adds its Fortran-ordered result in
    memory order. ruchey's own code keeps NumPy 2's dtypes (NEP 50)."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def own(a, b, i8):
            return (a * 2.0).dtype, (i8 + 1).dtype, (b + a).dtype

        numba = ruchey.install_as_numba()

        @numba.njit
        def dtypes(a, b, i8):
            return (a * 2.0).dtype, (a * 2).dtype, (i8 + 1).dtype, (b + a).dtype, (b + np.float32(1)).dtype, \
                   (a * 1j).dtype, np.power(i8, 2).dtype, (a < 0.1).dtype

        @numba.njit
        def expression_sum(x):
            return (x * 2.0 + 1.0).sum()

        rng = np.random.default_rng(12)
        a = rng.random(50).astype(np.float32)
        b = rng.integers(-9, 9, 50)
        i8 = rng.integers(-9, 9, 50).astype(np.int8)
        assert dtypes(a, b, i8) == (np.float64, np.float32, np.int64, np.float32, np.float32, np.complex128,
                                    np.int64, np.bool_), dtypes(a, b, i8)
        assert own(a, b, i8) == (np.float32, np.int8, np.float64)
        assert np.array_equal(numba.njit(lambda i8: i8 + 100)(i8), i8.astype(np.int64) + 100)  # no int8 wrap
        for shape in [(37, 53), (300, 15), (5, 6, 7)]:
            for dtype in (np.float64, np.float32):
                x = (rng.random(shape) * 10.0 ** rng.integers(-5, 5, shape)).astype(dtype)
                for y in (x, np.asfortranarray(x), x.T, x[..., ::2]):
                    e = y.astype(np.float64) * 2.0 + 1.0  # Numba's float64 loop
                    total = 0.0
                    for v in e.ravel("K" if e.flags.f_contiguous else "C"):
                        total += v
                    assert expression_sum(y) == total, (shape, dtype)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_complex_reductions_logs_and_quotients_after_install_are_numbas(tmp_path):
    """Numba's complex sum, mean and var add one element after another (its
    nditer's order), its mean divides by the count as Python's complex
    division does, its var adds squared deviations into a float64 (a
    complex64 array's var is a float64), its nanmean into a complex128; its
    np.log of complex is log(hypot(x, y)) + atan2(y, x)j in the parts' type,
    and an array expression's complex `/` is Python's, raising
    ZeroDivisionError at a zero divisor (np.divide keeps NumPy's inf)."""
    done = run_fresh("""
        import ctypes
        import numpy as np
        import ruchey
        numba = ruchey.install_as_numba()
        libm = ctypes.CDLL("libm.so.6")
        for name in ("log", "hypot", "atan2", "logf", "hypotf", "atan2f"):
            getattr(libm, name).restype = ctypes.c_float if name.endswith("f") else ctypes.c_double
            getattr(libm, name).argtypes = [getattr(libm, name).restype] * (1 if name.startswith("log") else 2)

        @numba.njit
        def reductions(a):
            return a.sum(), np.mean(a), np.var(a), a.std(), np.nansum(a), np.nanmean(a)

        @numba.njit
        def logs(a):
            return np.log(a)

        @numba.njit
        def quotient(a, b):
            return a / b

        @numba.njit
        def divide(a, b):
            return np.divide(a, b)

        def python_quotient(c, n, part):  # CPython's algorithm, by n + 0j
            ratio = part(0.0) / part(n)
            denom = part(n) + part(0.0) * ratio
            return (part(c.real) + part(c.imag) * ratio) / denom, (part(c.imag) - part(c.real) * ratio) / denom

        def numbas(a):  # Numba's loops, in Python, in its nditer's order
            flat = a.ravel("F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C")
            c = a.dtype.type(0)
            for v in flat:
                c = a.dtype.type(c + v)
            re, im = python_quotient(complex(c), flat.size, np.float64)
            m = a.dtype.type(complex(re, im))
            ssd = 0.0
            for v in flat:
                d = a.dtype.type(v - m)
                ssd += float((d * d.conjugate()).real)
            total = np.complex128(0)  # nanmean: into a complex128, then NumPy's np.divide
            for v in flat:
                total += v
            return c, m, ssd / flat.size, (ssd / flat.size) ** 0.5, c, np.divide(total, np.complex128(flat.size))

        rng = np.random.default_rng(13)
        for dtype in (np.complex128, np.complex64):
            part = np.float32 if dtype == np.complex64 else np.float64
            f = "f" if dtype == np.complex64 else ""
            a = (rng.random((37, 53)) * 10.0 ** rng.integers(-5, 5, (37, 53)) + 1j * rng.random((37, 53))).astype(dtype)
            for x in (a, np.asfortranarray(a), a.T, a[:, ::2], a[3]):
                got, want = reductions(x), numbas(x)
                assert [type(g) for g in got[2:4]] == [float, float], got
                for g, w in zip(got, want):
                    assert g == w, (dtype, got, want)
            z = a[:3].ravel()
            want = np.array([complex(getattr(libm, "log" + f)(getattr(libm, "hypot" + f)(v.real, v.imag)),
                                     getattr(libm, "atan2" + f)(v.imag, v.real)) for v in z], dtype)
            assert np.array_equal(logs(z), want), dtype
            b = (rng.random(z.size) + 1j * rng.random(z.size)).astype(dtype)
            q = quotient(z, b)
            for i in range(z.size):
                ratio = part(b[i].imag) / part(b[i].real) if abs(b[i].real) >= abs(b[i].imag) else None
                if ratio is not None:
                    denom = part(b[i].real) + part(b[i].imag) * ratio
                    assert q[i].real == (part(z[i].real) + part(z[i].imag) * ratio) / denom, (dtype, i)
            b[5] = 0
            try:
                quotient(z, b)
                raise AssertionError("no ZeroDivisionError")
            except ZeroDivisionError as e:
                assert str(e) == "complex division by zero"
            assert np.isinf(divide(z, b)[5].real)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_views_and_products_after_install_follow_numbas_fortran_order(tmp_path):
    """Numba types a[..., :k] of a Fortran-ordered a as Fortran-ordered (a
    slice of the innermost dimension in memory), so an expression of it is
    a Fortran-ordered array and np.prod multiplies it in memory order."""
    done = run_fresh("""
        import numpy as np
        import ruchey
        numba = ruchey.install_as_numba()

        @numba.njit
        def product(a):
            return np.prod(a[..., :7] * 0.9 + 0.6)

        rng = np.random.default_rng(14)
        for shape in [(37, 53), (5, 6, 7), (300, 15)]:
            for dtype in (np.float64, np.float32):
                a = (rng.random(shape) * 10.0 ** rng.integers(-2, 2, shape)).astype(dtype)
                for x in (a, np.asfortranarray(a), a.T):
                    e = x[..., :7].astype(np.float64) * 0.9 + 0.6  # Numba's float64 loop
                    total = np.float64(1)
                    for v in e.ravel("K" if e.flags.f_contiguous else "C"):
                        total *= v
                    assert product(x) == total, (shape, dtype)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


def test_fortran_views_keep_values_and_memory_order():
    """Views of a Fortran-ordered array that stay Fortran-contiguous (a
    slice of the last dimension, whole leading ones, an int on the last)
    are typed so; their values and sums are NumPy's."""
    def views(x):
        return x[..., 2:5], x[:, 1], x[1:3], x[..., 1:4].sum(), x[:, :, 0] if x.ndim == 3 else x[:, ::2]

    f = njit(views)
    rng = make_rng(15)
    for shape in [(4, 6), (4, 5, 6), (30, 17)]:
        x = np.asfortranarray(rng.random(shape))
        for got, want in zip(f(x), f.py_func(x)):
            assert np.array_equal(got, want) and np.asarray(got).shape == np.asarray(want).shape


@shim_only
def test_zero_to_a_negative_float_power_after_install_is_numbas_inf(tmp_path):
    """0.0 ** -2.0 is pow's inf under Numba (as NumPy's float64 and float32
    give it), not CPython's ZeroDivisionError, which ruchey's own code keeps."""
    done = run_fresh("""
        import warnings
        import numpy as np
        import ruchey

        @ruchey.njit
        def before(x, y):
            return x ** y

        numba = ruchey.install_as_numba()

        @numba.njit
        def powers(x, y):
            out = np.empty_like(x)
            for i in range(x.size):
                out[i] = x[i] ** y[i]
            return out

        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's scalar division by zero
        rng = np.random.default_rng(8)
        for dtype in (np.float64, np.float32):
            x = rng.choice([0.0, -0.0, 0.5, 2.0, 7.25, np.inf, np.nan], 300).astype(dtype)
            y = rng.choice([-3.0, -2.0, -0.5, -np.inf, 0.0, 1.5, 3.0, np.nan], 300).astype(dtype)
            got, expected = powers(x, y), powers.py_func(x, y)
            assert np.array_equal(got, expected, equal_nan=True), (dtype, x[got != expected], y[got != expected])
            assert np.isinf(got[(x == 0) & (y < 0)]).all()
        try:
            before(0.0, -2.0)
        except ZeroDivisionError:
            print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
@pytest.mark.skipif(not os.path.exists("/proc/cpuinfo") or " fma " not in open("/proc/cpuinfo").read(),
                    reason="Numba's sum of three squares fuses two multiply-adds on CPUs with FMA")
def test_fastmath_sum_of_squares_after_install_is_numbas(tmp_path):
    """acoular's distances, sqrt((g0 - m0) ** 2 + (g1 - m1) ** 2 + (g2 - m2) ** 2)
    with fastmath and a float TWO as the exponent: Numba's code adds the
    squares in their order, fma(dz, dz, fma(dy, dy, dx * dx)), to the bit
    (checked here with exact fractions; the Python original rounds each
    square and sum)."""
    done = run_fresh("""
        from fractions import Fraction
        import math
        import numpy as np
        import ruchey
        numba = ruchey.install_as_numba()

        @numba.njit(fastmath=True)
        def dist_mat(gpos, mpos):
            _, M = mpos.shape
            _, N = gpos.shape
            rm = np.empty((N, M), dtype=gpos.dtype)
            TWO = rm.dtype.type(2.0)
            m0 = mpos[0]
            m1 = mpos[1]
            m2 = mpos[2]
            for n in range(N):
                g0 = gpos[0, n]
                g1 = gpos[1, n]
                g2 = gpos[2, n]
                for m in range(M):
                    rm[n, m] = np.sqrt((g0 - m0[m]) ** TWO + (g1 - m1[m]) ** TWO + (g2 - m2[m]) ** TWO)
            return rm

        def fma(a, b, c, dtype):
            # a * b + c rounded once to dtype; None where a float32's could round twice through float64
            exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
            near = float(exact)
            return dtype(near) if dtype is np.float64 or Fraction(near) == exact else None

        rng = np.random.default_rng(2)
        for dtype in (np.float64, np.float32):
            g = rng.uniform(-1, 1, (3, 40)).astype(dtype)
            m = rng.uniform(-1, 1, (3, 37)).astype(dtype)
            got = dist_mat(g, m)
            np.testing.assert_allclose(got, dist_mat.py_func(g, m), rtol=4 * np.finfo(dtype).eps)
            checked = 0
            for n in range(g.shape[1]):
                for k in range(m.shape[1]):
                    dx, dy, dz = (g[:, n] - m[:, k])
                    xy = fma(dy, dy, dx * dx, dtype)
                    s = None if xy is None else fma(dz, dz, xy, dtype)
                    if s is not None:
                        assert got[n, k] == np.sqrt(s), (dtype, n, k, got[n, k], np.sqrt(s))
                        checked += 1
            assert checked > 0.9 * got.size, checked
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_literal_float_powers_overflowing_after_install_are_numbas_inf(tmp_path):
    """sxs's transition derivative divides by cosh(...)**2, which overflows
    near its ends: x**2, x**3 and x**2.0 of a float give inf under Numba
    (as NumPy's float64 does), not CPython's OverflowError."""
    done = run_fresh("""
        import warnings
        import numpy as np
        import ruchey
        numba = ruchey.install_as_numba()

        @numba.njit
        def powers(x):
            out = np.empty((x.size, 4))
            for i in range(x.size):
                out[i, 0] = x[i] ** 2
                out[i, 1] = x[i] ** 3
                out[i, 2] = x[i] ** 2.0
                out[i, 3] = 1.0 / np.cosh(x[i]) ** 2
            return out

        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's scalar overflow
        rng = np.random.default_rng(5)
        x = np.concatenate([rng.normal(0.0, 400.0, 50), [1e200, -1e160, 1e103, np.inf, -np.inf, np.nan, 0.0]])
        np.testing.assert_allclose(powers(x), powers.py_func(x), rtol=1e-15)  # (x*x*x: within an ulp of pow)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_int_powers_with_negative_exponents_after_install_are_numbas(tmp_path):
    """Numba's int ** negative int is an int, Python's float truncated (0
    but for 1 and -1), for exponents known only at run time and for literal
    ones; 0 ** -n raises ZeroDivisionError, as Python (in a ufunc's loop it
    is the smallest int64, as Numba's). ruchey's own functions (decorated
    before) keep their float and ValueError."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def before(a, e):
            return a ** e

        numba = ruchey.install_as_numba()

        @numba.njit
        def power(a, e):
            return a ** e

        @numba.njit
        def literal_powers(a):
            return a ** -1, a ** -2, a ** -3

        rng = np.random.default_rng(0)
        bases = [0, 1, -1, 2, -2, 3, 7, -9, 2**62] + [int(v) for v in rng.integers(-1000, 1000, 40)]
        for a in bases:
            for e in [-1, -2, -3, -7, -64, 0, 1] + [2, 5] * (abs(a) < 2**12):
                try:
                    expected = int(power.py_func(a, e))
                except ZeroDivisionError:
                    try:
                        power(a, e)
                    except ZeroDivisionError:
                        continue
                    raise AssertionError((a, e))
                got = power(a, e)
                assert type(got) is int and got == expected, (a, e, got, expected)
            for a_ in (a, np.int8(a % 100), np.uint16(abs(a) % 1000)):
                if a_ == 0:
                    continue
                expected = tuple(int(v) for v in literal_powers.py_func(int(a_)))
                assert literal_powers(a_) == expected, (a_, literal_powers(a_), expected)
        # in a ufunc's loop (NumPy's error model) 0 ** -n is the smallest int64, as Numba's
        ufunc_power = numba.vectorize(["int64(int64, int64)"])(power.py_func)
        a = np.array([b for b in bases if abs(b) < 2**12] * 2, np.int64)
        e = rng.integers(-5, 6, a.size)
        expected = [np.iinfo(np.int64).min if x == 0 and y < 0 else int(power.py_func(int(x), int(y)))
                    for x, y in zip(a, e)]
        assert ufunc_power(a, e).tolist() == expected
        try:
            before(2, -1)
        except ValueError as e:
            print("ok", e)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok integer power with a negative exponent")


@shim_only
def test_math_functions_after_install_give_nan_and_inf_as_numbas(tmp_path):
    """Numba's math functions follow C: nan outside the domain, inf on
    overflow (ldexp saturates), where CPython raises; the values are NumPy's
    for the same functions. ruchey's own functions keep CPython's errors."""
    done = run_fresh("""
        import math
        import warnings
        import numpy as np
        import ruchey

        @ruchey.njit
        def before(x):
            return math.sqrt(x)

        numba = ruchey.install_as_numba()

        @numba.njit
        def unary(x):
            return (math.sqrt(x), math.log(x), math.log10(x), math.log2(x), math.log1p(x), math.exp(x),
                    math.expm1(x), math.cosh(x), math.sinh(x), math.acos(x), math.asin(x), math.acosh(x),
                    math.atanh(x))

        @numba.njit
        def ldexp(x, n):
            return math.ldexp(x, n)

        warnings.simplefilter("ignore", RuntimeWarning)
        rng = np.random.default_rng(0)
        xs = [0.0, -0.0, -1.0, 1.0, 1.5, -2.5, 710.0, 1000.0, -1000.0, np.inf, -np.inf, np.nan] + list(rng.normal(0, 300, 20))
        for x in xs:
            expected = (np.sqrt(x), np.log(x), np.log10(x), np.log2(x), np.log1p(x), np.exp(x), np.expm1(x),
                        np.cosh(x), np.sinh(x), np.arccos(x), np.arcsin(x), np.arccosh(x), np.arctanh(x))
            np.testing.assert_allclose(unary(x), expected, rtol=1e-15, atol=0, err_msg=str(x))
        for x in [1.0, -1.0, 1e308, -1e308, 5e-324, 0.0, 123.25]:
            for n in [1200, 2000, 2**31 - 1, -1200, -(2**31), 3, 0]:
                assert ldexp(x, n) == np.ldexp(x, n), (x, n)
        try:
            before(-1.0)
        except ValueError as e:
            print("ok", e)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok math domain error")


def test_math_functions_of_float32s_after_install_are_float32_as_numbas(tmp_path):
    """Numba types math.f of float32s (and atan2, hypot, pow... of two) as
    float32, computed in float32: swiftsimio's float32 kernels take
    sqrt(dx * dx + dy * dy) * inv, which NumPy 2 keeps in float32 in Python
    too (math.sqrt's float is a weak scalar). ruchey's own code keeps
    Python's float64 result."""
    done = run_fresh("""
        import math
        import numpy as np
        import ruchey

        @ruchey.njit
        def own(x):
            return math.sqrt(x)

        numba = ruchey.install_as_numba()

        @numba.njit
        def kernel(dx, dy, inv):
            ratio = math.sqrt(dx * dx + dy * dy) * inv
            return ratio, (np.float32(1.0) - ratio) * math.exp(-dx) + math.hypot(dx, dy) * math.atan2(dy, dx)

        @numba.njit
        def unary(x):
            return (math.sqrt(x), math.exp(x), math.log1p(x), math.sin(x), math.tanh(x), math.erf(x),
                    math.fabs(x), math.pow(x, x), math.copysign(x, -x))

        @numba.njit
        def mixed(x, y):
            return math.sqrt(x) * y

        rng = np.random.default_rng(3)
        xs = np.concatenate([rng.uniform(0.0, 5.0, 50), [0.0, 1e-30, 3e38, np.inf, np.nan]]).astype(np.float32)
        for a, b in zip(xs, xs[::-1]):
            inv = np.float32(1.0) / np.float32(b + 1)
            got = kernel(a, b, inv)
            assert all(isinstance(v, float) for v in got)
            # float32 throughout, to the bit: NumPy 2's py_func too (NumPy 1 makes Python's float64 win)
            np.testing.assert_array_equal(np.float32(got[0]), np.sqrt(a * a + b * b) * inv)
            if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
                np.testing.assert_array_equal(np.float32(got[0]), kernel.py_func(a, b, inv)[0])
            with np.errstate(all="ignore"):
                want_unary = tuple(float(np.float32(f(a))) for f in (np.sqrt, np.exp, np.log1p, np.sin, np.tanh))
            np.testing.assert_allclose(unary(a)[:5], want_unary, rtol=2e-7)
        assert [t.name for t in kernel.nopython_signatures[0].return_type] == ["float32", "float32"]
        assert all(t.name == "float32" for t in unary.nopython_signatures[0].return_type)
        assert mixed(np.float32(2.0), 1.5) == float(np.sqrt(np.float32(2.0))) * 1.5  # a float32 sqrt, then float64
        assert mixed.nopython_signatures[0].return_type.name == "float64"  # a float64 makes it float64
        print("ok", own(np.float32(2.0)) == math.sqrt(2.0))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok True")


@shim_only
def test_array_subclasses_after_install_are_plain_arrays_as_numbas(tmp_path):
    """galois passes its field arrays (an ndarray subclass with its own
    indexing) to compiled functions: Numba takes them as plain arrays, and so
    does ruchey once installed as numba; masked arrays and matrices stay
    refused."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        class Field(np.ndarray):
            def __getitem__(self, i):
                return np.asarray(self)[i] % 7

        @ruchey.njit
        def total(a):
            s = 0
            for i in range(a.size):
                s += a[i]
            return s

        field = np.arange(10).view(Field)
        try:
            total(field)
        except TypeError as e:
            assert "own indexing" in str(e)
        ruchey.install_as_numba()
        assert total(field) == 45  # the data, as Numba reads it
        for refused in (np.ma.array([1, 2], mask=[True, False]), np.matrix([[1, 2]])):
            try:
                total(refused)
            except TypeError as e:
                assert "own indexing" in str(e)
            else:
                raise AssertionError(type(refused))
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_names_ruchey_lacks_are_placeholders(tmp_path):
    done = run_fresh("""
        import ruchey
        ruchey.install_as_numba()
        from numba.extending import lower_builtin, intrinsic
        from numba.core import cgutils, imputils
        import numba.experimental.structref as structref

        @lower_builtin
        def popcount(context, builder, sig, args):
            return None

        class Model(imputils.Registry):
            pass
        cgutils.pack_array
        try:
            popcount(3)
        except NotImplementedError as exc:
            assert "numba.extending.lower_builtin" in str(exc)
        else:
            raise AssertionError("a placeholder ran")
        assert callable(cgutils.get_or_insert_function) and structref.StructRefProxy.__module__ == "ruchey.structref"
        from ruchey import numba_shim
        print(sorted(numba_shim.missing()))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    listed = done.stdout
    for name in ("numba.extending.lower_builtin", "numba.core.imputils", "numba.core.cgutils.pack_array"):
        assert name in listed
    for name in ("numba.extending.intrinsic", "numba.experimental.structref", "'numba.core.cgutils'"):
        assert name not in listed


@shim_only
def test_registrations_for_a_packages_own_types_wait_for_compiled_code(tmp_path):
    # a package defining a Numba type of its own registers its data model, boxing and attributes at
    # import (clifford's MultiVector): with ruchey the import goes on, the functions registered stay
    # themselves (as Numba's decorators leave them), and compiled code given an object whose model
    # ruchey cannot make (a StructModel without members) is a TypeError naming the argument and why
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba.core import types
        from numba.extending import register_model, models, box, unbox, make_attribute_wrapper, typeof_impl

        class Vector:
            def __init__(self, value):
                self.value = value

        class VectorType(types.Type):
            pass

        @register_model(VectorType)
        class VectorModel(models.StructModel):
            pass

        @box(VectorType)
        def box_vector(typ, val, c):
            return None

        @unbox(VectorType)
        def unbox_vector(typ, obj, c):
            return None

        @typeof_impl.register(Vector)
        def typeof_vector(val, c):
            return VectorType("Vector")

        make_attribute_wrapper(VectorType, "value", "value")
        from numba.core import cgutils
        try:  # a helper given NumPy's class is no registration
            cgutils.sizeof_of_dtype(np.float64)
        except NotImplementedError as exc:
            assert "numba.core.cgutils.sizeof_of_dtype" in str(exc)
        else:
            raise AssertionError("a placeholder ran")
        assert box_vector(None, None, None) is None and unbox_vector.__name__ == "unbox_vector"

        @numba.njit
        def first(v):
            return v[0]

        assert first(np.arange(3.0)) == first.py_func(np.arange(3.0))
        try:
            first(Vector(np.arange(3.0)))
        except TypeError as exc:
            assert "argument 1 of type 'Vector' cannot be passed" in str(exc) and "members" in str(exc), str(exc)
        else:
            raise AssertionError("compiled code took a Vector")
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_registrations_keyed_by_a_function_let_the_package_import(tmp_path):
    # a package typing and lowering a function of its own against Numba's internals (numba_progress's
    # atomic_add, imported by harmonica where it is installed) makes the registrations at import:
    # with ruchey they keep what they decorate and the import goes on; the function stays Python's,
    # and compiled code calling it is a TypingError naming the registry ruchey lacks
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba import types
        from numba.extending import type_callable, lower_builtin

        def bump(a, i, v):
            a[i] += v

        def typer(context):
            return None

        def lowering(context, builder, sig, args):
            return None

        assert type_callable(bump)(typer) is typer
        assert lower_builtin(bump, types.Buffer, types.Any, types.Any)(lowering) is lowering

        class CounterType(types.Type):
            def __init__(self):
                super().__init__(name="Counter")

        assert CounterType().name == "Counter" and repr(types.float64.name) == "'float64'"
        a = np.zeros(2)
        bump(a, 1, 2.0)
        assert a[1] == 2.0

        @numba.njit
        def calls_it(a):
            bump(a, 0, 1.0)

        try:
            calls_it(a)
        except numba.core.errors.TypingError as exc:
            assert "is registered by numba.extending.lower_builtin, which ruchey lacks" in str(exc), str(exc)
        else:
            raise AssertionError("compiled code called a function typed by a registration ruchey lacks")
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_a_module_defining_its_types_at_import_imports(tmp_path):
    # what a module using Numba's extension API runs as it loads (Numba's own test_extending and
    # test_struct_ref): typing templates' signature(), a types.Callable subclass, a typing registered
    # under a name (type_callable("__array_wrap__")), a structref type holding Optional of itself
    done = run_fresh("""
        import ruchey
        ruchey.install_as_numba()
        from numba.core import types
        from numba.core.typing import Context, signature as typing_signature
        from numba.core.typing.templates import signature
        from numba.experimental import structref
        from numba.extending import type_callable

        sig = signature(types.float64, types.int64, types.float64[:])
        assert sig == types.float64(types.int64, types.float64[:]) == typing_signature(*[types.float64, types.int64, types.float64[:]])
        assert sig.return_type == types.float64 and sig.args == (types.int64, types.float64[:])
        assert Context().resolve_value_type(2) == types.int64  # (what an @intrinsic's typing function is given)

        class ClassRefType(types.Callable):
            def __init__(self, cls):
                self.cls = cls
                super().__init__("classref[{}]".format(cls.__name__))

        assert ClassRefType(int).name == "classref[int]" and isinstance(ClassRefType(int), types.Type)

        def typer(context):
            return None

        assert type_callable("__array_wrap__")(typer) is typer

        @structref.register
        class NodeType(types.StructRef):
            def preprocess_fields(self, fields):
                self.name = "NodeType#{}".format(id(self))  # (Numba's way: a name before Optional(self) shows it)
                return tuple(fields) + (("parent", types.Optional(self)),)

        node = NodeType(fields=(("value", types.int64),))
        assert node.field_dict["parent"] == types.Optional(node)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_a_lowering_updating_one_element_atomically_is_run_as_ruchey_atomic(tmp_path):
    # a function lowered (lower_builtin) as one atomicrmw on the element an index names, returning
    # the value it held (PySDM's atomic_add, katana's numpy_atomic): ruchey reads the lowering and
    # runs its own atomic update, in serial and parallel code; the element kinds the lowering
    # refuses stay refused, and a lowering building anything else stays a TypingError
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba import types
        from numba.core import cgutils
        from numba.extending import lower_builtin, type_callable
        from numba.np.arrayobj import basic_indexing, make_array, normalize_indices

        def updated_by(signed_op, unsigned_op, float_op):
            def register(func):
                def lowering(context, builder, sig, args):
                    aryty, idxty, valty = sig.args
                    ary, idx, val = args
                    if isinstance(idxty, types.BaseTuple):
                        index_types, indices = idxty.types, cgutils.unpack_tuple(builder, idx, count=len(idxty))
                    else:
                        index_types, indices = (idxty,), (idx,)
                    view = make_array(aryty)(context, builder, ary)
                    index_types, indices = normalize_indices(context, builder, index_types, indices)
                    ptr, shapes, _ = basic_indexing(context, builder, aryty, view, index_types, indices,
                                                    boundscheck=context.enable_boundscheck)
                    assert not shapes
                    val = context.cast(builder, val, valty, aryty.dtype)
                    dtype = aryty.dtype
                    op = float_op if isinstance(dtype, types.Float) else signed_op if dtype.signed else unsigned_op
                    if op is None:
                        raise TypeError(f"no update of {dtype}")
                    return builder.atomic_rmw(op, ptr, context.get_value_as_data(builder, dtype, val), "monotonic")
                type_callable(func)(lambda context: None)
                lower_builtin(func, types.Buffer, types.Any, types.Any)(lowering)
                return func
            return register

        @updated_by("add", "add", "fadd")
        def fetch_add(a, i, v):
            old = a[i]
            a[i] += v
            return old

        @updated_by("max", "umax", None)
        def fetch_max(a, i, v):
            old = a[i]
            a[i] = max(a[i], v)
            return old

        def not_an_update(a, i, v):
            return a[i] + v
        lower_builtin(not_an_update, types.Buffer, types.Any, types.Any)(
            lambda context, builder, sig, args: builder.fadd(args[2], args[2]))

        @numba.njit(parallel=True)
        def histogram(counts, bins, weights):
            for k in numba.prange(bins.shape[0]):
                fetch_add(counts, bins[k], weights[k])

        @numba.njit
        def olds(a, idx, values):
            out = np.empty_like(values)
            for k in range(values.shape[0]):
                out[k] = fetch_add(a, idx[k], values[k])
            return out

        @numba.njit
        def in_grid(g, i, j, v):
            return fetch_add(g, (i, j), v), fetch_max(g, (j, i), v)

        rng = np.random.default_rng(5)
        bins, weights = rng.integers(0, 7, 200_000), rng.integers(1, 4, 200_000)
        counts = np.zeros(7, np.int64)
        histogram(counts, bins, weights)
        assert (counts == np.bincount(bins, weights).astype(np.int64)).all(), counts
        for dtype in (np.int64, np.uint64, np.float64, np.float32, np.int32):
            a, b = np.zeros(4, dtype), np.zeros(4, dtype)
            idx, values = rng.integers(0, 4, 30), (rng.integers(1, 9, 30)).astype(dtype)
            got, expected = olds(a, idx, values), olds.py_func(b, idx, values)
            assert got.dtype == expected.dtype and (got == expected).all() and (a == b).all(), dtype
        g, h = np.arange(12, dtype=np.int64).reshape(3, 4), np.arange(12, dtype=np.int64).reshape(3, 4)
        assert in_grid(g, 1, 2, 20) == in_grid.py_func(h, 1, 2, 20) and (g == h).all()

        @numba.njit
        def float_max(a):
            return fetch_max(a, 0, 1.0)

        @numba.njit
        def other(a):
            return not_an_update(a, 0, 1.0)

        for f, says in ((float_max, "does not take arrays of float64"),
                        (other, "is registered by numba.extending.lower_builtin, which ruchey lacks")):
            try:
                f(np.zeros(2))
            except numba.core.errors.TypingError as exc:
                assert says in str(exc), str(exc)
            else:
                raise AssertionError(f"{f} compiled")
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_an_option_ruchey_lacks_fails_where_the_function_is_called(tmp_path):
    """As Numba's: decorating with njit(device=True) (CUDA device functions
    a module defines) works; calling the function raises. ruchey's own jit
    refuses the option at once."""
    done = run_fresh("""
        import ruchey
        try:
            ruchey.njit(device=True)(lambda x: x)
        except TypeError as exc:
            assert "device" in str(exc)
        else:
            raise AssertionError("accepted")
        ruchey.install_as_numba()
        import numba

        @numba.njit(device=True)
        def on_device(x):
            return x + 1

        @numba.njit("float64(float64)", device=True)
        def typed_on_device(x):
            return x + 1

        for f in (on_device, typed_on_device):
            try:
                f(1.0)
            except TypeError as exc:
                assert "unsupported jit option(s): device" in str(exc), str(exc)
            else:
                raise AssertionError("ran")
        assert numba.njit(lambda x: x * 2)(3) == 6
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_kernels_call_functions_jitted_with_device_true(tmp_path):
    """As Numba's CUDA target (clifford.tools.g3c.cuda's kernels): a kernel
    calls functions decorated with njit(device=True) or jit(device=True),
    which may take cuda.local arrays, as device functions; called from
    Python they still raise."""
    done = run_fresh("""
        import math
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        import numba.cuda

        @numba.njit
        def norm(v):
            squares = numba.cuda.local.array(4, dtype=numba.float64)
            for i in range(4):
                squares[i] = v[i] * v[i]
            return math.sqrt(squares[0] + squares[1] + squares[2] + squares[3])

        @numba.njit(device=True)
        def normalise(v):
            n = norm(v)
            for i in range(4):
                v[i] /= n

        @numba.jit("float64(float64[:])", device=True)
        def first(v):
            return v[0]

        @numba.cuda.jit
        def kernel(a, out):
            i = numba.cuda.grid(1)
            if i < a.shape[0]:
                out[i] = norm(a[i])
                normalise(a[i])
                out[i] += first(a[i])

        for n in (0, 1, 50, 1000):
            a = np.random.default_rng(n).standard_normal((n, 4))
            norms = np.sqrt((a * a).sum(axis=1))
            expected = a / norms[:, None]
            out = np.zeros(n)
            kernel[max(1, (n + 63) // 64), 64](a, out)
            np.testing.assert_allclose(a, expected, rtol=1e-14)
            np.testing.assert_allclose(out, norms + expected[:, 0], rtol=1e-14)
        for f in (normalise, first):
            try:
                f(np.ones(4))
            except TypeError as exc:
                assert "unsupported jit option(s): device" in str(exc), str(exc)
            else:
                raise AssertionError("ran")
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_parallel_support_is_always_there(tmp_path):
    done = run_fresh("""
        import ruchey
        ruchey.install_as_numba()
        import numba
        try:
            numba.parfors.parfor.ensure_parallel_support()
        except numba.core.errors.UnsupportedParforsError:
            raise AssertionError("no parallel support")
        assert issubclass(numba.core.errors.UnsupportedParforsError, Exception)
        from ruchey import numba_shim
        assert not [m for m in numba_shim.missing() if "parfor" in m], numba_shim.missing()
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_lowering_error_is_an_exception_class_code_may_catch_with_typing_error(tmp_path):
    done = run_fresh("""
        import ruchey
        ruchey.install_as_numba()
        from numba import njit
        from numba.core.errors import LoweringError, NumbaError, TypingError
        assert issubclass(LoweringError, NumbaError)
        try:
            njit(lambda x: x.no_such_attribute)(1.5)
        except (LoweringError, TypingError) as exc:
            assert isinstance(exc, TypingError)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_every_numba_error_class_is_a_real_exception_under_its_numba_base(tmp_path):
    # code for Numba raises them from typing functions, catches them and
    # writes pytest.raises(CompilerError): none may be a placeholder
    done = run_fresh("""
        import warnings
        import pytest
        import ruchey
        ruchey.install_as_numba()
        from numba import njit, types
        from numba.core import errors
        from numba.extending import overload
        bases = {"CompilerError": "NumbaError", "InternalError": "NumbaError", "RequireLiteralValue": "TypingError",
                 "ConstantInferenceError": "NumbaError", "VerificationError": "IRError", "RedefinedError": "IRError",
                 "NumbaRuntimeError": "NumbaError", "UnsupportedBytecodeError": "Exception",
                 "NonexistentTargetError": "InternalError", "ForceLiteralArg": "NumbaError",
                 "UntypedAttributeError": "TypingError", "TypingError": "NumbaError", "LoweringError": "NumbaError"}
        for name, base in bases.items():
            cls = getattr(errors, name)
            assert issubclass(cls, Exception if base == "Exception" else getattr(errors, base)), name
            with pytest.raises(cls, match="given"):
                raise cls("given")
        for name in ("NumbaSystemWarning", "NumbaInvalidConfigWarning", "NumbaPedanticWarning", "NumbaIRAssumptionWarning"):
            assert issubclass(getattr(errors, name), errors.NumbaWarning)
        assert errors.TypingError is ruchey.TypingError and issubclass(ruchey.ArgumentTypeError, errors.NumbaError)

        def fussy(x):
            pass

        @overload(fussy)
        def ol_fussy(x):
            if isinstance(x, types.Float):
                raise errors.CompilerError("no floats here")
            return lambda x: x

        @njit
        def f(x):
            return fussy(x)

        assert f(3) == 3
        with pytest.raises(errors.NumbaError, match="no floats here"):
            f(2.5)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_a_cached_functions_key_asks_numba_for_nothing(tmp_path):
    # the on-disk cache's key reads the attributes the code names of each module it reads;
    # numba.frombuffer (numpy's name, read from numba) is no name the code asked numba for
    (tmp_path / "kernels_nb.py").write_text(textwrap.dedent('''
        import numpy as np
        import numba as nb

        @nb.njit(cache=True)
        def first(a):
            with nb.objmode(v="float64"):
                v = float(np.frombuffer(a.tobytes(), dtype=np.float64)[0])
            return v
    '''))
    done = run_fresh("""
        import ruchey
        ruchey.install_as_numba()
        import numpy as np
        import kernels_nb
        assert kernels_nb.first(np.array([2.5])) == 2.5
        from ruchey import numba_shim
        print(sorted(numba_shim.missing()))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@shim_only
def test_null_cache_turns_a_functions_cache_off(tmp_path):
    # numpy_groupies sets numba.core.caching.NullCache() as a dispatcher's _cache where it cannot
    # give the cache a stable identity: the function compiles in each process, nothing is written
    (tmp_path / "kernels_nc.py").write_text(textwrap.dedent('''
        import numba as nb
        from numba.core import caching

        def total(a):
            s = 0.0
            for x in a:
                s += x
            return s
        total_jit = nb.njit(total, cache=True)
        total_jit._cache = caching.NullCache()
    '''))
    done = run_fresh("""
        import os
        import ruchey
        ruchey.install_as_numba()
        import numpy as np
        import kernels_nc
        a = np.arange(5.0)
        assert kernels_nc.total_jit(a) == kernels_nc.total(a) == 10.0
        assert not os.path.exists("__pycache__") or not [n for n in os.listdir("__pycache__") if "total" in n]
        from ruchey import numba_shim
        print(sorted(numba_shim.missing()))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@shim_only
def test_numba_extensions_entry_points_are_registered_by_install(tmp_path):
    """A package registering itself through the numba_extensions entry point
    (vector, rocket-fft) has its init called by install_as_numba(), as Numba
    calls it before compiling: its overloads work in compiled code without
    the package imported first. One that fails is a warning naming it."""
    for name, body in (("tripler", "def init():\n    import tripler_impl\n"),
                       ("broken", "def init():\n    raise RuntimeError('no such target')\n")):
        (tmp_path / f"{name}.py").write_text(body)
        info = tmp_path / f"{name}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[numba_extensions]\ninit = {name}:init\n")
    (tmp_path / "tripler_impl.py").write_text(textwrap.dedent("""
        from numba.extending import overload
        import tripled

        @overload(tripled.triple)
        def ol_triple(x):
            return lambda x: 3 * x
    """))
    (tmp_path / "tripled.py").write_text("def triple(x):\n    raise AssertionError('compiled code calls the overload')\n")
    done = run_fresh("""
        import warnings
        import numpy as np
        import ruchey
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            numba = ruchey.install_as_numba()
        assert [str(w.message) for w in caught] == [
            "Numba extension module 'broken' failed to load due to 'RuntimeError(no such target)'."], caught
        import numba.core.entrypoints
        numba.core.entrypoints.init_all()  # once only: nothing more happens
        from tripled import triple

        @numba.njit
        def f(a):
            return triple(a)
        for a in (np.arange(5), np.linspace(-1.0, 1.0, 4), 7):
            np.testing.assert_array_equal(f(a), 3 * a)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_python_m_numba_shim_runs_a_script(tmp_path):
    done = run_fresh("""
        import sys
        import numpy as np
        import numba

        @numba.vectorize(["float64(float64, float64)"])
        def ratio(a, b):
            return a / b
        # as in Numba, a ufunc's loop follows NumPy's errors: 1/0 is inf
        print(numba.njit is __import__("ruchey").njit, ratio(np.array([1.0, 2.0]), np.array([0.0, 4.0])).tolist(),
              sys.argv[1:])
    """, tmp_path, "-m", "ruchey.numba_shim")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True [inf, 0.5] []"


@shim_only
def test_shim_needs_a_script():
    done = subprocess.run([sys.executable, "-m", "ruchey.numba_shim"], capture_output=True, text=True)
    assert done.returncode == 2 and "usage" in done.stderr


def cumulative_gaps(r, out):
    n = r.shape[0]
    out[0] = r[0]
    for i in range(1, n):
        out[i] = r[i] - r[i - 1]
    out[n] = 1 - r[n - 1]


@pytest.mark.parametrize("target", ["cpu", "parallel"])
def test_gufunc_layout_without_outputs_writes_into_an_input(target):
    g = guvectorize(["(f8[:], f8[:])"], "(n), (k)", nopython=True, target=target)(cumulative_gaps)
    r = np.sort(make_rng(4).random((6, 3)), axis=1)
    out = np.zeros((6, 4))
    want = np.zeros((6, 4))
    g(r, out)
    for i in range(6):
        cumulative_gaps(r[i], want[i])
    np.testing.assert_array_equal(out, want)
    assert g.nin == 2 and g.nout == 0


def test_readonly_array_type_in_signatures():
    @njit(["f4(f4[::1])", types.float32(types.Array(types.float32, 1, "C", readonly=True))])
    def total(a):
        return a.sum()
    x = np.arange(5, dtype=np.float32)
    assert total(x) == x.sum()
    x.flags.writeable = False
    assert total(x) == x.sum()
    assert len(total.signatures) == 2
    if not AS_NUMBA:
        assert repr(total.signatures[1][0]) == "readonly array(float32, 1d, C)"


def test_loop_variable_declared_another_integer_type():
    @njit(locals={"i": types.uint32, "total": types.uint32})
    def triangle(n):
        total = 0
        for i in range(n):
            total += i
        return total, i
    for n in (1, 2, 10, 1000):
        assert triangle(n) == triangle.py_func(n)


@numba_deviation("converts the loop's int64 to the declared float")
def test_loop_variable_declared_a_float_is_a_typing_error():
    @njit(locals={"i": types.float64})
    def f(n):
        s = 0.0
        for i in range(n):
            s += i
        return s
    with pytest.raises(ruchey.TypingError):
        f(3)


@shim_only
def test_a_stub_without_parameters_binds_keywords_by_its_typing_function(tmp_path):
    assert_printed_ok(run_fresh("""
import ruchey
ruchey.install_as_numba()
import numba
from numba.extending import overload
from numba.core.types.misc import NoneType

def stub():
    pass

@overload(stub, prefer_literal=True)
def ol_stub(x, out=None, k=1, label="a"):
    # out left out: Python's None, as Numba's typing functions see an omitted argument
    assert isinstance(k, (int, numba.types.IntegerLiteral)) and out is None and not isinstance(out, NoneType)
    kk, n = getattr(k, "literal_value", k), len(getattr(label, "literal_value", label))
    return lambda x, out=None, k=1, label="a": x * kk + n

@numba.njit
def f(x, k):
    return stub(x, label="abc", k=numba.literally(k)) + stub(x)

assert f(2.0, 3) == 2.0 * 3 + 3 + 2.0 * 1 + 1, f(2.0, 3)
print("ok")
""", tmp_path))


@shim_only
def test_code_written_for_numba_compares_bools_with_is_and_subtracts_bool_arrays(tmp_path):
    """Numba's readings sktime relies on: `x is False` of a bool compares
    its value (CPython's answer for a NumPy bool is always False), `-` of
    bool arrays is int8's (NumPy refuses it); numba.typed.typedlist."""
    assert_printed_ok(run_fresh("""
import numpy as np
import ruchey
ruchey.install_as_numba()
import numba
from numba.typed.typedlist import List
from numba.typed.typeddict import Dict

@numba.njit
def dropped(keep):
    n = 0
    for i in range(keep.shape[0]):
        if keep[i] is False:
            n += 1
    return n

@numba.njit
def crossings(x, m):
    above = x > m
    return above[1:] - above[:-1]

keep = np.array([True, False, False, True, False])
assert dropped(keep) == 3
d = crossings(np.array([0.0, 2.0, 3.0, 0.5, 4.0]), 1.0)
assert d.dtype == np.int8 and d.tolist() == [1, 0, -1, 1], d
assert List is ruchey.typed.List and Dict is ruchey.typed.Dict
print("ok")
""", tmp_path))


@numba_deviation("it compares bools with 'is' and subtracts bool arrays everywhere")
def test_bools_compared_with_is_and_bool_arrays_subtracted_stay_errors_in_ruchey_code():
    @njit
    def is_false(b):
        return b is False

    @njit
    def minus(a):
        return a[1:] - a[:-1]

    with pytest.raises(ruchey.TypingError, match="'is' and 'is not'"):
        is_false(True)
    with pytest.raises(ruchey.TypingError, match="boolean subtract"):
        minus(np.array([True, False]))


@shim_only
def test_a_raise_in_a_ufunc_from_compiled_code_after_install_is_zero(tmp_path):
    """financepy's American-option pricers call a @vectorize Black-Scholes
    value with an option type it raises for: Numba's ufunc kernels in
    compiled code ignore the function's status, so the element is 0.0
    (from Python the ufunc raises); functions decorated after
    install_as_numba() do so too, ruchey's own keep the exception."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        def priced(s, k, kind):
            if kind == 1:
                return max(s - k, 0.0)
            raise ValueError("unknown kind")

        own = ruchey.vectorize(["float64(float64, float64, int64)"])(priced)

        @ruchey.njit
        def own_call(s, k, kind):
            return own(s, k, kind)

        numba = ruchey.install_as_numba()
        theirs = numba.vectorize(["float64(float64, float64, int64)"])(priced)

        @numba.njit
        def scalar_call(s, k, kind):
            return theirs(s, k, kind) + 1.0

        @numba.njit
        def array_call(s, k, kinds):
            return theirs(s, k, kinds)

        assert scalar_call(120.0, 100.0, 1) == 21.0 and scalar_call(120.0, 100.0, 0) == 1.0
        got = array_call(np.array([120.0, 90.0, 130.0]), np.full(3, 100.0), np.array([1, 1, 0]))
        assert np.array_equal(got, [20.0, 0.0, 0.0]), got
        for call in (lambda: theirs(120.0, 100.0, 0), lambda: own_call(120.0, 100.0, 0)):
            try:
                call()
            except ValueError as e:
                print("ok", e)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["ok unknown kind", "ok unknown kind"]


@shim_only
def test_round_digits_after_install_is_numbas_scaled_rounding(tmp_path):
    """pandas-ta's Schaff trend cycle rounds a recursion with round(x, 8) at
    each step: Numba scales by 10**8, rounds half to even and scales back
    (NumPy's np.round), which near a half is not CPython's correctly rounded
    answer; functions decorated after install_as_numba() round as Numba's,
    ruchey's own keep CPython's."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        def rounded(x, nd):
            out = np.empty_like(x)
            for i in range(x.size):
                out[i] = round(x[i], nd)
            return out

        own = ruchey.njit(rounded)
        numba = ruchey.install_as_numba()
        theirs = numba.njit(rounded)
        x = np.concatenate([np.random.default_rng(0).uniform(-100, 100, 20000), [28.770272205, 93.548466475, 0.5, 2.5,
                            1e300, -1e-300, np.inf, np.nan]])
        for nd in (0, 3, 8, -2):
            assert np.array_equal(theirs(x, nd), np.round(x, nd), equal_nan=True), nd
        cpython = np.array([round(float(v), 8) for v in x[:-2]])
        assert np.array_equal(own(x[:-2], 8), cpython)
        assert theirs(np.array([28.770272205]), 8)[0] == 28.7702722 != own(np.array([28.770272205]), 8)[0]
        print("ok")
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@shim_only
def test_thread_id_where_numba_kept_it_before_get_thread_id(tmp_path):
    # pecanpy imports it from numba.np.ufunc.parallel (older Numba's home of it) and seeds each
    # thread's generator with it: the shim gives ruchey's, which compiled code calls
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba.np.ufunc.parallel import get_thread_id, _get_thread_id

        @numba.njit(parallel=True)
        def ids(n):
            out = np.empty(n, np.int64)
            for i in numba.prange(n):
                out[i] = get_thread_id() + _get_thread_id()
            return out

        assert get_thread_id is numba.get_thread_id
        got = ids(64)
        assert ((got >= 0) & (got < 2 * numba.get_num_threads()) & (got % 2 == 0)).all()
        numba.set_num_threads(1)
        assert (ids(8) == 0).all()
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


def test_numba_modules_are_located_at_the_shim_as_numbas_at_its_files(tmp_path):
    done = run_fresh("""
        import importlib.util, os
        import ruchey
        ruchey.install_as_numba()
        import numba
        import numba.core.types
        import ruchey.numba_shim as shim
        assert numba.__file__ == shim.__file__ == importlib.util.find_spec("numba").origin
        assert numba.core.types.__file__ == shim.__file__
        assert os.path.isdir(os.path.dirname(numba.__file__))
        assert numba.__path__ == [] and numba.__spec__.name == "numba" and numba.__version__
        v = numba.version_info
        assert v.short == (v.major, v.minor) and v.full == v[:3] and v.string == numba.__version__
        assert v.full >= (0, 61, 2)  # (pandas 3 refuses its numba engine below 0.61.2)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_nrt_c_helpers_and_a_packages_numpy_fft_registration(tmp_path):
    # rocket-fft's import: the address of Numba's get_api C helper called through ctypes for the NRT
    # table its C library allocates with, then infer_global/lower_builtin registrations of
    # numpy.fft.fft; ruchey's own numpy.fft rows stay what compiled code calls
    done = run_fresh("""
        import ctypes
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba.core.runtime import _nrt_python
        from numba.core.imputils import lower_builtin
        from numba.core.typing.templates import AbstractTemplate, infer_global

        get_api = ctypes.CFUNCTYPE(ctypes.c_void_p)(_nrt_python.c_helpers["get_api"])
        table = get_api()
        assert table and table == get_api()
        allocate = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t).from_address(table)
        release = ctypes.CFUNCTYPE(None, ctypes.c_void_p).from_address(table + 4 * ctypes.sizeof(ctypes.c_void_p))
        meminfo = allocate(64)
        assert meminfo
        release(meminfo)
        assert list(_nrt_python.c_helpers) == ["get_api"]

        class Template(AbstractTemplate):
            key = np.fft.fft

        infer_global(np.fft.fft, numba.types.Function(Template))

        @lower_builtin(np.fft.fft, numba.types.VarArg(numba.types.Any))
        def lower(context, builder, sig, args):
            raise AssertionError("the package's lowering ran")

        @numba.njit
        def f(a):
            return np.fft.fft(a)

        a = np.arange(6.0)
        assert np.allclose(f(a), np.fft.fft(a))
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_numpys_own_types_module_types_datetime_signatures(tmp_path):
    assert_printed_ok(run_fresh("""
import numpy as np
import ruchey
ruchey.install_as_numba()
from numba import njit
from numba.np import types as npy_types

def add(a, b):
    return a + b

f = njit(npy_types.NPDatetime("us")(npy_types.NPDatetime("ms"), npy_types.NPTimedelta("us")))(add)
g = njit("NPDatetime('us')(NPDatetime('ms'), NPTimedelta('us'))")(add)
for d, t in [(1, 2), (-7, 1500), (0, 0)]:
    args = np.datetime64(d, "ms"), np.timedelta64(t, "us")
    assert f(*args) == g(*args) == add(*args) and f(*args).dtype == np.dtype("M8[us]")
print("ok")
""", tmp_path))


@shim_only
def test_typing_signature_and_cffi_utils_of_the_shim(tmp_path):
    pytest.importorskip("cffi")
    assert_printed_ok(run_fresh("""
import numpy as np
import ruchey
ruchey.install_as_numba()
from numba import cfunc, carray, types
from numba.core.typing import signature
from numba.core.typing.templates import signature as template_signature
import numba.core.typing.cffi_utils as cffi_support
import numba.np.numpy_support as numpy_support
import cffi

sig = signature(types.float64, types.CPointer(types.float64), types.intp)
assert sig == template_signature(types.float64, types.CPointer(types.float64), types.intp)

@cfunc(sig)
def total(p, n):
    return carray(p, n).sum()

x = np.arange(5.0)
assert total.ctypes(x.ctypes.data_as(total.ctypes.argtypes[0]), 5) == x.sum()
ffi = cffi.FFI()
ffi.cdef("double frexp(double, int *);")
assert cffi_support.map_type(ffi.typeof("double(*)(double, int *)")) == \\
    types.float64(types.float64, types.CPointer(types.int32))
rec = np.dtype([("a", np.int32), ("b", np.float64)])
assert numpy_support.from_struct_dtype(rec) == numpy_support.from_dtype(rec)
assert numpy_support.map_arrayscalar_type(np.float32(1)) == types.float32

@cfunc(sig)  # carray as numba.np.numpy_support names it (numba.carray is that one)
def total_there(p, n):
    return numpy_support.carray(p, n).sum() + numpy_support.farray(p, (1, n))[0, n - 1]

y = np.random.default_rng(7).random(9)
in_order = 0.0  # Numba's sum: one element after another, not NumPy's pairwise
for v in y:
    in_order += v
assert total_there.ctypes(y.ctypes.data_as(total_there.ctypes.argtypes[0]), 9) == in_order + y[8]
print("ok")
""", tmp_path))


@shim_only
def test_numba_cudas_homes_of_numbas_names(tmp_path):
    # numba-cuda's code imports types, errors and the extension API from under numba.cuda;
    # numba.cuda.extending's overloads serve CUDA code, not @njit's
    done = run_fresh("""
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        from numba import cuda, njit
        from numba.cuda import HAS_NUMBA, float32, int64, types, void
        from numba.cuda.core.errors import TypingError
        from numba.cuda.extending import overload
        from numba.cuda.np.numpy_support import from_dtype
        assert HAS_NUMBA and float32 is types.float32 and int64 is types.int64 and void is types.none
        assert from_dtype(np.dtype(np.int16)) is types.int16 and issubclass(TypingError, ruchey.TypingError)

        def triple(x):
            pass

        @overload(triple)
        def triple_typer(x):
            return lambda x: 3 * x

        @cuda.jit
        def kernel(out, x):
            out[0] = triple(x)

        out = np.zeros(1, np.int64)
        kernel[1, 1](out, 14)
        assert out[0] == 42
        try:
            njit(lambda x: triple(x))(1)
        except TypingError:
            print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_callbacks_are_numbas_ccallback_cfunc_objects(tmp_path):
    """QuSpin's user_basis checks its callbacks against numba.core.ccallback's
    CFunc and their signatures by ``_sig``, then calls them by address with
    a C struct of a matrix element and a state."""
    done = run_fresh("""
        import ctypes
        import numpy as np
        import ruchey
        ruchey.install_as_numba()
        from numba import carray, cfunc, types, uint32
        from numba.core.ccallback import CFunc
        from numba.ccallback import CFunc as older_place

        rotate_sig = types.uint32(types.uint32, types.intc, types.CPointer(types.int8), types.CPointer(types.uint32))
        element = types.Record.make_c_struct([("matrix_ele", types.complex128), ("state", types.uint32)])
        flip_sig = types.intc(types.CPointer(element), types.char, types.intc, types.intc, types.CPointer(types.uint32))

        @cfunc(rotate_sig, locals=dict(high=uint32, low=uint32))
        def rotate(x, n, sign, args):
            high = x >> (n - args[0])
            low = (x << args[0]) & args[1]
            return low | high

        @cfunc(flip_sig)
        def flip(ptr, op, site, n, args):
            e = carray(ptr, 1)[0]
            bit = 1 << (n - site - 1)
            sign = 1 if e.state & bit else -1
            if op == 122:  # "z"
                e.matrix_ele *= sign
            elif op == 121:  # "y"
                e.state ^= bit
                e.matrix_ele *= 1.0j * sign
            else:
                return -1
            return 0

        assert CFunc is older_place and isinstance(rotate, CFunc) and isinstance(flip, CFunc)
        assert rotate._sig == rotate_sig and flip._sig == flip_sig and flip._sig != rotate_sig
        rng = np.random.default_rng(7)
        u32 = ctypes.POINTER(ctypes.c_uint32)
        for n in (4, 9, 12):
            for shift in range(1, n):
                args = np.array([shift, (1 << n) - 1], dtype=np.uint32)
                for x in rng.integers(0, 1 << n, 5):
                    got = rotate.ctypes(int(x), n, None, args.ctypes.data_as(u32))
                    assert got == rotate.py_func(np.uint32(x), n, None, args), (n, shift, x)
        structs = np.zeros(6, dtype=np.dtype([("matrix_ele", "c16"), ("state", "u4")], align=True))
        structs["matrix_ele"] = rng.standard_normal(6) + 1j * rng.standard_normal(6)
        structs["state"] = rng.integers(0, 1 << 8, 6)
        expected = structs.copy()
        for i, (op, site) in enumerate([(122, 0), (121, 3), (122, 7), (121, 7), (120, 2), (121, 0)]):
            assert flip.ctypes(structs[i:i + 1].ctypes.data, op, site, 8, None) == (-1 if op == 120 else 0)
            bit = 1 << (8 - site - 1)  # what the Python function does to the struct, on NumPy's record
            sign = 1 if expected["state"][i] & bit else -1
            if op == 121:
                expected["state"][i] ^= bit
                expected["matrix_ele"][i] *= 1.0j * sign
            elif op == 122:
                expected["matrix_ele"][i] *= sign
        for field in ("matrix_ele", "state"):  # (the padding after state is no field's)
            assert structs[field].tobytes() == expected[field].tobytes(), field
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_float_to_int_powers_after_install_multiply_as_numba(tmp_path):
    """window-ops' rolling kurtosis, np.mean((w - mean) ** 4) / (std ** 4): Numba
    computes a float ** int by square-and-multiply in the float's type (x ** 4
    is (x*x)*(x*x), float32 for float32 arrays), where CPython's pow rounds
    once; functions decorated after install_as_numba() multiply so, for
    literal exponents and ones known at run time, scalars and arrays, and
    0.0 ** -n raises ZeroDivisionError as Numba's; past 65536 it is pow.
    ruchey's own code (decorated before) keeps CPython's pow."""
    done = run_fresh("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def before(x, n):
            return x ** n

        numba = ruchey.install_as_numba()

        @numba.njit
        def power(x, n):
            return x ** n

        @numba.njit
        def literal_powers(x):
            return x ** 4, x ** 5, x ** -3, x ** 7

        @numba.njit
        def kurtosis(w):
            mean = np.mean(w)
            std = np.std(w)
            return np.mean((w - mean) ** 4) / (std ** 4) - 3

        def numbas(x, n):
            # Numba's int_power: r from 1, times x where n has a bit, x squared
            one = type(x)(1)
            r, e = one, abs(n)
            while e:
                if e & 1:
                    r = r * x
                e >>= 1
                x = x * x
            return one / r if n < 0 else r

        rng = np.random.default_rng(11)
        for dtype in (np.float64, np.float32):
            x = (rng.random(400) * 4 - 2).astype(dtype)
            n = rng.integers(-30, 30, 400)
            got = power(x, n)
            assert got.dtype == dtype
            assert all(got[i] == numbas(x[i], int(n[i])) for i in range(400)), dtype
            np.testing.assert_allclose(got, power.py_func(x, n), rtol=64 * np.finfo(dtype).eps)
            for i in range(0, 400, 7):
                assert power(x[i], int(n[i])) == numbas(x[i], int(n[i]))  # scalars
                want = tuple(numbas(x[i], k) for k in (4, 5, -3, 7))
                assert literal_powers(x[i]) == want, (x[i], literal_powers(x[i]), want)
            assert np.array_equal(literal_powers(x)[0], x * x * (x * x))
        s = rng.random(300) * 100
        assert all(power(v, 4) == (v * v) * (v * v) for v in s)
        assert power(1.0000001, 70000) == 1.0000001 ** 70000  # pow past 65536
        for x, n in [(0.0, -2), (-0.0, -3), (np.zeros(3), -1)]:
            try:
                power(x, n)
            except ZeroDivisionError as e:
                assert str(e) == "division by zero"
            else:
                raise AssertionError((x, n))
        w = (rng.random(50) * 100).astype(np.float32)
        assert np.isclose(kurtosis(w), kurtosis.py_func(w), rtol=1e-5)
        apart = [v for v in s if v ** 4 != (v * v) * (v * v)]
        assert apart and all(before(v, 4) == v ** 4 for v in apart)
        print("ok")
    """, tmp_path)
    assert_printed_ok(done)


@shim_only
def test_float_to_int_powers_after_install_equal_numbas_own(tmp_path):
    """The same powers and window-ops' float32 kurtosis under Numba itself,
    where it is installed: equal to the bit."""
    if not numba_itself():
        pytest.skip("Numba itself is not installed")
    code = """
        import sys
        import numpy as np
        if sys.argv[1] == "ruchey":
            import ruchey
            ruchey.install_as_numba()
        import numba

        @numba.njit
        def power(x, n):
            return x ** n

        @numba.njit
        def literal_powers(x):
            return x ** 4, x ** 6, x ** -2, x ** 3

        @numba.njit
        def rolling_kurtosis(x, window):
            out = np.full(len(x), 0.0)
            for i in range(window - 1, len(x)):
                w = x[i - window + 1:i + 1]
                mean = np.mean(w)
                std = np.std(w)
                out[i] = np.mean((w - mean) ** 4) / (std ** 4) - 3 if std > 0 else 0.0
            return out

        rng = np.random.default_rng(12)
        out = {}
        for dtype in (np.float64, np.float32):
            x = (rng.random(300) * 6 - 3).astype(dtype)
            n = rng.integers(-12, 13, 300)
            out["power" + dtype.__name__] = power(x, n)
            out["scalars" + dtype.__name__] = np.array([power(x[i], int(n[i])) for i in range(300)])
            out["literal" + dtype.__name__] = np.array(literal_powers(x))
        out["kurtosis"] = rolling_kurtosis((rng.random(500) * 100).astype(np.float32), 7)
        np.savez(sys.argv[1] + ".npz", **out)
        print("ok")
    """
    assert_printed_ok(run_under_both(code, tmp_path))
    with np.load(tmp_path / "numba.npz") as want, np.load(tmp_path / "ruchey.npz") as got:
        for key in want.files:
            assert got[key].dtype == want[key].dtype and np.array_equal(got[key], want[key]), key


@shim_only
def test_cmath_after_install_raises_nothing_and_logs_as_numba(tmp_path):
    """Numba's cmath functions raise no ValueError or OverflowError:
    cmath.log(0) is -inf (+0j, or pi j for -0.0), log10(0) too, atanh(1) inf,
    exp's overflow inf; its log is log(hypot(x, y)) + atan2(y, x) j, log10
    that over ln 10, log(z, base) a quotient that raises ZeroDivisionError
    for a base of 1. Functions decorated after install_as_numba() give
    Numba's values (checked against Numba itself where it is installed, and
    against the Python original where CPython raises nothing); ruchey's own
    code keeps CPython's errors."""
    code = """
        import cmath
        import math
        import sys
        import numpy as np
        if sys.argv[1] == "ruchey":
            import ruchey

            @ruchey.njit
            def before(z):
                return cmath.log(z)

            ruchey.install_as_numba()
            try:
                before(0j)
            except ValueError:
                pass
            else:
                raise AssertionError("ruchey's own cmath.log(0) raises")
        import numba

        @numba.njit
        def logs(z, base):
            return cmath.log(z), cmath.log10(z), cmath.log(z, base)

        @numba.njit
        def unraised(z):
            return cmath.atanh(z), cmath.exp(z), cmath.acosh(z)

        rng = np.random.default_rng(13)
        zs = [0j, complex(-0.0, 0.0), complex(0.0, -0.0), complex(-0.0, -0.0), 1 + 0j, -1 + 0j, 1j,
              complex(math.inf, 1.0), complex(1.0, math.nan)]
        zs += [complex(*p) for p in rng.normal(0, 3, (200, 2))] + [complex(*p) for p in rng.normal(0, 1e-300, (5, 2))]
        bases = [10 + 0j, 2 + 0j, 0.5j] + [complex(*p) for p in rng.normal(0, 2, (len(zs) - 3, 2))]
        out = []
        for z, b in zip(zs, bases):
            got = logs(z, b)
            try:
                want = logs.py_func(z, b)
            except ValueError:
                assert z == 0
            else:
                for g, w in zip(got, want):
                    assert cmath.isclose(g, w, rel_tol=1e-14, abs_tol=1e-300) or g == w or (
                        cmath.isnan(g) and cmath.isnan(w)), (z, b, got, want)
            out.append(got)
        assert logs(0j, 10 + 0j)[:2] == (complex(-math.inf, 0.0), complex(-math.inf, 0.0))
        assert logs(complex(-0.0, 0.0), 2 + 0j)[0] == complex(-math.inf, math.pi)
        try:
            logs(2 + 1j, 1 + 0j)
        except ZeroDivisionError:
            pass
        else:
            raise AssertionError("log(z, 1)")
        u = [unraised(1 + 0j), unraised(-1 + 0j), unraised(complex(800.0, 0.5))]
        assert u[0][0] == complex(math.inf, 0.0) and u[1][0] == complex(-math.inf, 0.0) and math.isinf(u[2][1].real)
        np.save(sys.argv[1] + ".npy", np.array(out))
        print("ok")
    """
    if not numba_itself():
        assert_printed_ok(run_fresh(code.replace("sys.argv[1]", '"ruchey"'), tmp_path))
        return
    assert_printed_ok(run_under_both(code, tmp_path))
    want, got = np.load(tmp_path / "numba.npy"), np.load(tmp_path / "ruchey.npy")
    assert np.array_equal(got, want, equal_nan=True)


@shim_only
def test_locals_in_prange_bodies_after_install_are_numbas(tmp_path):
    """muon's smooth_knn_dist (parallel=True) declares its bisection's sum
    float32 with locals=: Numba's parfors type the variables of a prange
    body without locals (float64 there), and keep them outside prange bodies
    and in serial code. Functions decorated after install_as_numba() type
    them as Numba does (checked against Numba itself where it is installed);
    ruchey's own code keeps every declaration."""
    code = """
        import sys
        import numpy as np
        if sys.argv[1] == "ruchey":
            import ruchey

            @ruchey.njit(parallel=True, locals={"s": ruchey.float32})
            def before(x):
                out = np.empty(x.shape[0])
                for i in ruchey.prange(x.shape[0]):
                    s = 0.0
                    for j in range(x.shape[1]):
                        s += x[i, j] * 1.1
                    out[i] = s
                return out

            ruchey.install_as_numba()
        import numba
        from numba import prange

        @numba.njit(parallel=True, locals={"s": numba.float32, "lo": numba.float32, "t": numba.float32})
        def sums(x):
            out = np.empty(x.shape[0])
            t = 0.0
            for i in prange(x.shape[0]):
                s = 0.0
                lo = 0.1
                for j in range(x.shape[1]):
                    s += x[i, j] * 1.1
                out[i] = s + lo
            for j in range(x.shape[1]):
                t += x[0, j] * 1.1
            return out, t

        @numba.njit(locals={"s": numba.float32})
        def serial(x):
            out = np.empty(x.shape[0])
            for i in prange(x.shape[0]):
                s = 0.0
                for j in range(x.shape[1]):
                    s += x[i, j] * 1.1
                out[i] = s
            return out

        rng = np.random.default_rng(14)
        x = rng.random((6, 80))
        out, t = sums(x)
        f32 = np.float32(0.0)
        for v in x[0] * 1.1:
            f32 = np.float32(f32 + v)
        assert t == f32  # outside the prange body: float32
        np.testing.assert_allclose(out, (x * 1.1).sum(axis=1) + 0.1, rtol=1e-13)  # inside: float64
        assert not np.allclose(serial(x), (x * 1.1).sum(axis=1), rtol=1e-10, atol=0)  # serial: float32
        np.testing.assert_allclose(serial(x), serial.py_func(x), rtol=1e-6)
        if sys.argv[1] == "ruchey":
            assert np.array_equal(before(x), serial(x))  # ruchey's own: float32 in the prange body
        np.savez(sys.argv[1] + ".npz", out=out, t=t, serial=serial(x))
        print("ok")
    """
    if not numba_itself():
        assert_printed_ok(run_fresh(code.replace("sys.argv[1]", '"ruchey"'), tmp_path))
        return
    assert_printed_ok(run_under_both(code, tmp_path))
    with np.load(tmp_path / "numba.npz") as want, np.load(tmp_path / "ruchey.npz") as got:
        for key in want.files:
            assert np.array_equal(got[key], want[key]), key


@shim_only
def test_nditer_after_install_walks_as_numba(tmp_path):
    """Numba's nditer walks memory order where its operands are C- or
    Fortran-contiguous (Fortran order where more of them are Fortran than
    C) and C order otherwise, where NumPy's order='K' (ruchey's own code)
    follows the strides: a reversed or strided Fortran array is walked as
    Numba walks it (checked against Numba itself where it is installed)."""
    code = """
        import sys
        import numpy as np
        if sys.argv[1] == "ruchey":
            import ruchey

            @ruchey.njit
            def before(a):
                return [x.item() for x in np.nditer(a)]

            ruchey.install_as_numba()
        import numba

        @numba.njit
        def listed(a):
            out = []
            for x in np.nditer(a):
                out.append(x.item())
            return out

        @numba.njit
        def pairs(a, b):
            out = []
            for x, y in np.nditer((a, b)):
                out.append(x.item() * 1000.0 + y.item())
            return out

        a = np.arange(20.0).reshape(4, 5)
        f = np.asfortranarray(a)
        views = [a, f, a.T, a[::-1], a[:, ::-1], a[:, ::2], f[::2], f[::-1], a.T[::2], np.arange(7.0)[::-1]]
        got = [listed(v) for v in views] + [pairs(v, w) for v in views[:9] for w in views[:9] if v.shape == w.shape]
        for v in views:
            order = "F" if v.ndim > 1 and v.flags.f_contiguous and not v.flags.c_contiguous else "C"
            assert listed(v) == [x.item() for x in np.nditer(v, order=order)], v.strides
        if sys.argv[1] == "ruchey":
            r = np.arange(7.0)[::-1]
            assert before(r) == [x.item() for x in np.nditer(r)] != listed(r)  # NumPy's order in ruchey's own
        np.save(sys.argv[1] + ".npy", np.array([x for walk in got for x in walk]))
        print("ok")
    """
    if not numba_itself():
        assert_printed_ok(run_fresh(code.replace("sys.argv[1]", '"ruchey"'), tmp_path))
        return
    assert_printed_ok(run_under_both(code, tmp_path))
    assert np.array_equal(np.load(tmp_path / "ruchey.npy"), np.load(tmp_path / "numba.npy"))


@shim_only
def test_uint16_with_float32_after_install_is_numbas_float64(tmp_path):
    """Numba's casting rules hold int8, uint8 and int16 in a float32, not a
    uint16: a uint16 and a float32 scalar compute in float64 there (NumPy's
    promotion, ruchey's own code, gives float32), as datashader's bundling
    multiplies its uint16 step count by float32 steps. Checked against
    Numba itself where it is installed."""
    code = """
        import sys
        import numpy as np
        if sys.argv[1] == "ruchey":
            import ruchey

            @ruchey.njit
            def before(i, s):
                return i * s

            ruchey.install_as_numba()
            assert before(np.uint16(3), np.float32(0.1)) == np.float32(3) * np.float32(0.1)
        import numba

        @numba.njit
        def arith(i, s):
            return i * s, i + s, s - i, s / i

        rng = np.random.default_rng(15)
        out = []
        for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.bool_):
            for v, s in zip(rng.integers(1, 100, 20), rng.random(20).astype(np.float32)):
                got = arith(t(v), s)
                if t is np.uint16:
                    assert got == arith.py_func(float(v), float(s)), (v, s, got)
                out.append(got)
        np.save(sys.argv[1] + ".npy", np.array(out))
        print("ok")
    """
    if not numba_itself():
        assert_printed_ok(run_fresh(code.replace("sys.argv[1]", '"ruchey"'), tmp_path))
        return
    assert_printed_ok(run_under_both(code, tmp_path))
    assert np.array_equal(np.load(tmp_path / "ruchey.npy"), np.load(tmp_path / "numba.npy"))


@shim_only
@pytest.mark.skipif(not numba_itself(), reason="compares with Numba itself")
def test_typing_context_unifies_as_numba(tmp_path):
    # numba.core.typing.Context's unify_pairs and unify_types (what packages' typing functions ask), each
    # pair and trio of number types and a few others, printed under Numba and under ruchey as numba
    code = textwrap.dedent("""
        import itertools, sys
        if sys.argv[1] == "ruchey":
            import ruchey
            ruchey.install_as_numba()
        from numba.core import types
        from numba.core.typing import Context
        ctx = Context()
        numbers = [types.boolean, types.int8, types.int16, types.int32, types.int64, types.uint8, types.uint16,
                   types.uint32, types.uint64, types.float32, types.float64, types.complex64, types.complex128]
        for a, b in itertools.product(numbers, numbers):
            print(a, b, ctx.unify_pairs(a, b), ctx.unify_types(a, b), ctx.unify_types(b, a))
        for trio in itertools.combinations(numbers[1:], 3):
            print(trio, {str(ctx.unify_types(*p)) for p in itertools.permutations(trio)})
        pair = ctx.unify_pairs(types.UniTuple(types.int32, 2), types.Tuple((types.int16, types.int64)))
        print([str(t) for t in pair],
              ctx.unify_pairs(types.int32[:], types.float64))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    printed = [subprocess.run([sys.executable, "-c", code, mode], capture_output=True, text=True, timeout=300,
                              env=env, cwd=str(tmp_path)) for mode in ("numba", "ruchey")]
    assert all(done.returncode == 0 for done in printed), [done.stderr for done in printed]
    assert printed[1].stdout.splitlines() == printed[0].stdout.splitlines()
