"""ruchey.extending: Python functions that compiled code calls as built in
(register_jitable, overload, overload_method, overload_attribute). Each
compiled result is compared with the Python function's own, or NumPy's."""
import math
import os

import numpy as np
import pytest

import ruchey
from ruchey import njit, typeof, types
from ruchey.extending import is_jitted, overload, overload_attribute, overload_method, register_jitable

from conftest import AS_NUMBA, numba_deviation

if AS_NUMBA:
    from numba import types  # noqa: F811 - the typing functions ask Numba's classes
    from numba.extending import is_jitted, overload, overload_attribute, overload_method, register_jitable  # noqa: F811


# ---------------------------------------------------------------- register_jitable

@register_jitable
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@register_jitable(fastmath=True)
def poly(x, a=1.0, b=0.5):
    return a * x * x + b * x


@register_jitable
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@njit
def uses_jitables(x):
    return clamp(x, 0.0, 1.0) + poly(x) + poly(x, b=2.0)


@njit
def uses_fib(n):
    return fib(n) * 2


def test_register_jitable_is_called_from_compiled_code_for_the_callers_types():
    for x in (0.25, -3.0, 7.5, 1, np.float32(0.5)):
        assert uses_jitables(x) == uses_jitables.py_func(x)


@numba_deviation("Numba cannot type a recursive register_jitable function")
def test_a_recursive_register_jitable_function():
    for n in (0, 1, 10, 20):
        assert uses_fib(n) == uses_fib.py_func(n)


def test_register_jitable_stays_the_python_function():
    assert not is_jitted(clamp) and clamp(5, 0, 1) == 1 and clamp.__name__ == "clamp"
    assert fib(10) == 55


@njit
def clamp_array(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = clamp(a[i], -1, 1)
    return out


def test_register_jitable_on_array_elements_of_each_dtype():
    for a in (np.arange(-4, 5), np.linspace(-2.0, 2.0, 9), np.arange(-3, 3, dtype=np.int8)):
        np.testing.assert_array_equal(clamp_array(a), clamp_array.py_func(a))


# ---------------------------------------------------------------- modules as arguments

# vector's compute functions take the array library as their first
# argument and call its functions: numpy passed from compiled code
@register_jitable
def wrapped(lib, phi):
    return (phi + lib.pi) % (2 * lib.pi) - lib.pi


@register_jitable
def sum_polar(lib, rho1, phi1, rho2, phi2):
    u, v = rho2 * lib.cos(phi2 - phi1), rho2 * lib.sin(phi2 - phi1)
    return lib.sqrt((rho1 + u) ** 2 + v ** 2), wrapped(lib, phi1 + lib.arctan2(v, rho1 + u))


@register_jitable
def root(lib, x):
    return lib.sqrt(x) + lib.e


@njit
def polar_sums(a, b):
    out = np.empty((a.shape[0], 4))
    for i in range(a.shape[0]):
        out[i, 0], out[i, 1] = sum_polar(np, a[i, 0], a[i, 1], b[i, 0], b[i, 1])
        out[i, 2], out[i, 3] = root(math, abs(a[i, 0])), root(np, abs(b[i, 0]))
    return out


def test_a_module_passed_to_a_function_is_the_module_it_reads():
    rng = np.random.default_rng(7)
    for n in (0, 1, 50):
        a, b = rng.normal(0.0, 3.0, (n, 2)), rng.normal(0.0, 3.0, (n, 2))
        b[:n // 5] = 0.0  # (zero lengths: arctan2's signed zeros)
        np.testing.assert_allclose(polar_sums(a, b), polar_sums.py_func(a, b), rtol=1e-14, atol=1e-15)


@njit
def root_of(x):
    return root(np, x), root(math, x)


def test_a_function_taking_a_module_is_compiled_for_each_module():
    for x in (0.0, 2.0, 1e300, np.inf):
        assert root_of(x) == root_of.py_func(x)
    assert len(root_of.signatures) == 1


@register_jitable
def library(lib):
    return lib


@njit
def returns_numpy(x):
    return library(np)


@njit
def passes_os(x):
    return root(os, x)


@pytest.mark.skipif(AS_NUMBA, reason="Numba's refusals are worded otherwise")
def test_modules_compiled_code_cannot_take_are_refused_clearly():
    with pytest.raises(TypeError, match=r"cannot convert native Module\(numpy\)"):
        returns_numpy(1.0)
    with pytest.raises(ruchey.TypingError, match="module 'os' is not supported"):
        passes_os(1.0)


def numeric_library():
    return np


@overload(numeric_library)
def numeric_library_numpy():
    def impl():
        return np
    return impl


def grid_from_a_library(n):
    lib = numeric_library()
    return lib.arange(n) * lib.sqrt(n * 1.0), lib.zeros(n, dtype=np.int32), lib.cos(lib.arange(n))


@njit
def math_library():
    return math


def hypot_with(m, x, y):
    return m.sqrt(x * x + y * y) + m.floor(x)


hypot_compiled = njit(hypot_with)


def hypot_through_a_returned_module(x, y):
    return hypot_compiled(math_library(), x, y)


def no_such_function(x):
    lib = numeric_library()
    return lib.no_such_function(x)


def test_a_module_an_overload_returns_is_that_module_in_compiled_code():
    """Numba's Module type: a call returning numpy gives a value whose
    functions compiled code calls, as if numpy were named there."""
    f = njit(grid_from_a_library)
    for n in np.random.default_rng(3).integers(0, 40, 6):
        for got, expected in zip(f(int(n)), f.py_func(int(n))):
            np.testing.assert_allclose(got, expected, rtol=1e-15)
            assert got.dtype == expected.dtype


def test_a_module_a_compiled_function_returns_passes_on_as_an_argument():
    f = njit(hypot_through_a_returned_module)
    for x, y in np.random.default_rng(5).normal(size=(8, 2)) * 10:
        assert f(x, y) == hypot_with(math, x, y)


def constant_of_a_returned_module(x):
    lib = numeric_library()
    return lib.pi * x


def test_a_function_a_returned_module_lacks_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="has no function 'no_such_function'"):
        njit(no_such_function)(1.0)
    with pytest.raises(ruchey.TypingError, match=r"name the module for 'pi' \(numpy.pi\)"):
        njit(constant_of_a_returned_module)(1.0)


# ---------------------------------------------------------------- overload

def scale(x, k=2):
    raise NotImplementedError("only compiled code calls scale")


@overload(scale)
def ol_scale(x, k=2):
    if isinstance(x, types.Array):
        def impl(x, k=2):
            out = np.empty_like(x)
            for i in range(x.shape[0]):
                out[i] = x[i] * k
            return out
        return impl
    if isinstance(x, types.Float):
        return lambda x, k=2: x * k + 0.5
    return None


@njit
def scaled(a, x):
    return scale(a), scale(x), scale(x, 3), scale(a, k=4)


def test_overload_chooses_the_implementation_by_argument_types():
    a = np.linspace(0.0, 1.0, 7)
    arr2, x2, x3, arr4 = scaled(a, 0.25)
    np.testing.assert_array_equal(arr2, a * 2)
    np.testing.assert_array_equal(arr4, a * 4)
    assert (x2, x3) == (1.0, 1.25)


@njit
def scale_int(n):
    return scale(n)


def test_overload_without_an_implementation_for_the_types_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="scale"):
        scale_int(3)


def converged(x, dx, xtol, subset=0):
    raise AssertionError("the overload is called, not this")


@overload(converged)
def ol_converged(x, dx, xtol):  # (fewer parameters than the function and the call have)
    return lambda x, dx, xtol: abs(dx) < xtol * abs(x)


@njit
def converged_in_subset(x, dx, subset):
    return converged(x, dx, 1e-3, subset)


def test_a_typing_function_whose_parameters_cannot_take_the_arguments_is_a_typing_error():
    # Numba rejects that candidate (its TypeError binding them) and finds no implementation
    rng = np.random.default_rng(12)
    for x, dx in rng.uniform(-2.0, 2.0, (3, 2)):
        with pytest.raises(ruchey.TypingError, match="converged"):
            converged_in_subset(x, dx, 0)


def shift(x, y=5, z=6):
    raise AssertionError("the overload is called, not this")


@overload(shift)
def ol_shift(x, y=5, z=6):
    if isinstance(x, types.Complex):
        return lambda x, y=5, z=6: (x + y, z)
    return lambda x, y=5, z=6: (x - y, z)


@njit
def shifted(a, b):
    return shift(a, z=b)


def test_overload_tells_complex_arguments_by_their_type_class():
    for a in (1, -2.5, 1j, np.complex64(2 - 3j), np.float32(0.5)):
        for b in (0, 7):
            assert shifted(a, b) == (a + 5 if isinstance(a, complex | np.complexfloating) else a - 5, b)


def make_point(positional=None, x=None, y=None, z=None):
    raise AssertionError("the overload is called, not this")


@overload(make_point)
def ol_make_point(positional=None, x=None, y=None, z=None):
    # vector.obj's typing: an argument left out is Python's None here, one
    # given None is the none type (Numba's Omitted arguments)
    if positional is not None:
        raise ruchey.TypingError("make_point takes keyword arguments only")
    if z is None:
        return lambda positional=None, x=None, y=None, z=None: (x, y, 0.0)
    if isinstance(z, types.NoneType):
        return lambda positional=None, x=None, y=None, z=None: (x, y, -1.0)
    return lambda positional=None, x=None, y=None, z=None: (x, y, z)


@njit
def points(a, b):
    return make_point(x=a, y=b), make_point(x=a, y=b, z=a * b), make_point(y=b, x=a, z=None)


@njit
def positional_point(a):
    return make_point(a)


def test_an_overloads_typing_function_sees_none_for_arguments_left_out():
    for a, b in ((1.5, -2.0), (0.0, 3.0), (np.nan, np.inf)):
        np.testing.assert_equal(points(a, b), ((a, b, 0.0), (a, b, a * b), (a, b, -1.0)))
    with pytest.raises(ruchey.TypingError, match="keyword arguments only"):
        positional_point(1.0)


def total_of(a, b, c, d, subset=0):
    raise AssertionError("the overload is called, not this")


@overload(total_of)
def ol_total_of(a, b, c, d):
    # as Numba's templates bind: the typing function and implementation are
    # given the arguments the call gives, not the stub's defaults
    return lambda a, b, c, d: a + b + c + d


def times_default(x, factor=2):
    raise AssertionError("the overload is called, not this")


@overload(times_default)
def ol_times_default(x, factor=3):
    if factor == 3:  # left out: the typing function's own default, a Python int
        return lambda x, factor=3: x * factor
    if isinstance(factor, types.Integer):
        return lambda x, factor=3: x * factor + 1
    return None


@njit
def totals(a, b, c, d):
    return total_of(a, b, c, d), times_default(a), times_default(a, 5), times_default(a, factor=d)


@njit
def total_with_subset(a):
    return total_of(a, a, a, a, 1)


def test_an_overload_is_given_the_arguments_a_call_gives_not_the_stubs_defaults():
    rng = np.random.default_rng(7)
    for a, b, c, d in rng.integers(-100, 100, size=(8, 4)).tolist():
        assert totals(a, b, c, d) == (a + b + c + d, a * 3, a * 5 + 1, a * d + 1)
    with pytest.raises(ruchey.TypingError):  # given, it is an argument the implementation lacks
        total_with_subset(1)


def describe(x):
    pass


@overload(describe)
def ol_describe_ints(x):
    if isinstance(x, types.Integer):
        return lambda x: 1
    return None


@overload(describe)
def ol_describe_rest(x):
    if isinstance(x, types.Boolean):
        return lambda x: 2
    if isinstance(x, types.Number):
        return lambda x: 3
    return lambda x: 4


@njit
def describe_all(i, b, f, a):
    return describe(i), describe(b), describe(f), describe(a)


def test_several_overloads_of_one_function_are_tried_in_turn():
    assert describe_all(1, True, 1.0, np.zeros(2)) == (1, 2, 3, 4)
    assert describe_all(np.uint8(1), np.bool_(False), np.float32(1), np.zeros((2, 2))) == (1, 2, 3, 4)


def halved(x):
    return x / 2


@njit
def _halved_compiled(x):
    return x * 0.5


@overload(halved)
def ol_halved(x):
    return _halved_compiled  # a compiled function as the implementation: its Python function is compiled


@njit
def uses_halved(x):
    return halved(x) + 1.0


def test_an_overload_may_return_a_compiled_function():
    assert uses_halved(3.0) == uses_halved.py_func(3.0) == 2.5


def by_arity():
    """A stub without parameters, overloaded once per number of arguments
    (interpolation.py's eval_linear dispatches so)."""


@overload(by_arity)
def ol_by_arity_two(a, b):
    return lambda a, b: a + b


@overload(by_arity)
def ol_by_arity_three(a, b, c):
    if isinstance(c, types.Array):
        return lambda a, b, c: (a + b) * c.sum()
    return lambda a, b, c: (a + b) * c


@njit
def arities(x, y, z, arr):
    return by_arity(x, y), by_arity(x, y, z), by_arity(x, y, arr)


def test_overloads_of_a_stub_without_parameters_are_chosen_by_arity():
    a = np.arange(3.0)
    assert arities(1.0, 2.0, 4.0, a) == (3.0, 12.0, 9.0)
    assert arities(1, 2, 3, a) == (3, 9, 9.0)

    @njit
    def four(x):
        return by_arity(x, x, x, x)

    with pytest.raises(ruchey.TypingError):
        four(1.0)


def picky(x):
    pass


@overload(picky)
def ol_picky(x):
    raise ValueError("picky refuses " + str(x))


@njit
def call_picky(x):
    return picky(x)


class Refusal(Exception):
    pass


def stretched(x, k):
    pass


@overload(stretched, prefer_literal=True)
def ol_stretched(x, k):
    if isinstance(k, types.IntegerLiteral) and k.literal_value < 0:
        raise ValueError(f"k must not be negative, got {k.literal_value}")
    if isinstance(k, types.Float):
        raise Refusal("no floats", k)
    if isinstance(k, types.Boolean):
        raise ruchey.TypingError("no bools")  # one of the compiler's: a TypingError still
    return lambda x, k: x * k


@njit
def stretched_by_minus_one(x):
    return stretched(x, -1)


@njit
def calls_stretched_by_minus_one(x):
    return stretched_by_minus_one(x) + 1


@njit
def stretched_by(x, k):
    return stretched(x, k)


def test_a_typing_function_that_raises_lets_its_exception_through():
    """As Numba: an exception of the typing function's own, not one of the
    compiler's, stops the compile and reaches the caller unchanged (a
    ValueError on a bad constant), from a caller's caller too."""
    with pytest.raises(ValueError, match="picky refuses"):
        call_picky(1.0)
    for f in (stretched_by_minus_one, calls_stretched_by_minus_one):
        with pytest.raises(ValueError, match="k must not be negative, got -1"):
            f(2)
    with pytest.raises(Refusal) as raised:
        stretched_by(2, 1.5)
    assert raised.value.args[0] == "no floats"
    with pytest.raises(ruchey.TypingError, match="no bools"):
        stretched_by(2, True)
    for x, k in ((2, 3), (-1.5, 0), (7, -2)):  # the failures left nothing behind
        assert stretched_by(x, k) == x * k


@overload(np.polyval)
def ol_polyval(p, x):
    if isinstance(p, types.Array) and isinstance(x, types.Float):
        def impl(p, x):
            r = 0.0
            for i in range(p.shape[0]):
                r = r * x + p[i]
            return r
        return impl
    if isinstance(p, types.Array) and isinstance(x, types.Array):
        def impl(p, x):
            out = np.zeros(x.shape)
            for i in range(p.shape[0]):
                out = out * x + p[i]
            return out
        return impl


@njit
def polyvals(p, a, x):
    return np.polyval(p, a), np.polyval(p, x)


def test_overload_of_a_numpy_function_compiled_code_lacks():
    p, a = np.array([2.0, -1.0, 0.5]), np.linspace(-3.0, 3.0, 13)
    arr, x = polyvals(p, a, 0.3)
    np.testing.assert_allclose(arr, np.polyval(p, a), rtol=1e-14, atol=1e-15)
    assert x == pytest.approx(np.polyval(p, 0.3), rel=1e-14)


# ---------------------------------------------------------------- methods and attributes

@overload_method(types.Array, "span")
def ol_span(a):
    def impl(a):
        return a.max() - a.min()
    return impl


@overload_method(types.Array, "scaled_sum")
def ol_scaled_sum(a, k):
    if isinstance(k, (types.Integer, types.Float)):
        def impl(a, k):
            s = 0.0
            for i in range(a.shape[0]):
                s += a[i] * k
            return s
        return impl


@overload_attribute(types.Float, "halved")
def ol_halved(x):
    return lambda x: x / 2


@overload_attribute(types.Array, "first")
def ol_first(a):
    if a.ndim == 1:
        return lambda a: a[0]


@njit
def members(a, x):
    return a.span(), a.scaled_sum(3), a.scaled_sum(0.5), x.halved, a.first, a.sum()


def test_overload_method_and_attribute_on_arrays_and_numbers():
    a = np.array([3.0, -1.0, 4.0, 1.5])
    assert members(a, 5.0) == (5.0, 22.5, 3.75, 2.5, 3.0, 7.5)


@njit
def span_int(a):
    return a.span()


def test_overload_method_on_an_integer_array():
    a = np.array([5, 2, 9, -4])
    assert span_int(a) == 13


@njit
def halved_int(n):
    return n.halved


def test_an_attribute_registered_for_another_type_class_is_not_found():
    with pytest.raises(ruchey.TypingError, match="halved"):
        halved_int(3)


def test_a_builtin_function_keeps_its_own_implementation():
    def ptp_like(a):
        pass

    @overload(np.ptp)
    def wrong_ptp(a):
        return lambda a: -1.0

    @njit
    def span(a):
        return np.ptp(a)

    a = np.array([1.0, 5.0, 2.0])
    assert span(a) == np.ptp(a)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own type classes")
def test_the_type_classes_of_ruchey_types():
    assert isinstance(types.float64[:], types.Array) and not isinstance(types.float64, types.Array)
    assert isinstance(types.int8, types.Integer) and isinstance(types.uint64, types.Number)
    assert isinstance(types.float32, types.Float) and not isinstance(types.float32, types.Integer)
    assert isinstance(types.boolean, types.Boolean) and not isinstance(types.boolean, types.Number)
    assert isinstance(types.complex64, types.Complex) and isinstance(types.complex128, types.Number)
    assert not any(isinstance(t, types.Complex) for t in (types.float64, types.int64, types.complex128[:]))
    assert types.float32[:, ::1].dtype == types.float32 and types.int16.bitwidth == 16
    assert types.Array(types.float64, 2, "C") == types.float64[:, ::1]


def hashes(x):
    try:
        hash(x)
        return True
    except TypeError:
        return False


@overload(hashes)
def hashes_by_type(x):
    if isinstance(x, types.Hashable):
        return lambda x: True
    return lambda x: False


@njit
def value_hashes(x):
    return hashes(x)


def test_types_hashable_is_the_class_of_the_types_whose_values_hash():
    rng = np.random.default_rng(11)
    values = [int(rng.integers(-99, 99)), float(rng.standard_normal()), bool(rng.integers(2)), "abc"[:rng.integers(4)],
              (1, 2.5), rng.standard_normal(3), [1, 2], np.int32(4)]
    for x in values:
        assert value_hashes(x) is value_hashes.py_func(x)
    assert types.Hashable in type(types.unicode_type).__mro__  # as Numba's (an overload may test the class)


def overload_returning(impl, strict=True):
    """A compiled caller of a fresh function whose overload returns impl."""
    def stub(a, b, kw=None):
        pass

    @overload(stub, strict=strict)
    def stub_typer(a, b, kw=None):
        return impl

    return njit(lambda a, b, k: stub(a, b, kw=k))


def test_a_strict_overloads_implementation_takes_the_typing_functions_parameters():
    """As Numba's strict overload: an implementation whose parameters are
    not the typing function's (names, order, keywords and their defaults;
    *args may take the rest) is a TypingError naming the difference."""
    def same(a, b, kw=None):
        return a + b * 2

    def rest_in_star_args(a, *args, kw=None):
        return a - 1

    def renamed(a, c, kw=None):
        return a

    def other_keyword(a, b, key=None):
        return a

    def other_default(a, b, kw=12):
        return a

    rng = np.random.default_rng(13)
    a, b = (int(v) for v in rng.integers(-50, 50, 2))
    assert overload_returning(same)(a, b, 3) == same(a, b)
    assert overload_returning(rest_in_star_args)(a, b, 3) == a - 1
    assert overload_returning(renamed, strict=False)(a, b, 3) == a
    for impl, what in ((renamed, "argument names"), (other_keyword, "keyword argument names"),
                       (other_default, "keyword argument default values")):
        with pytest.raises(ruchey.TypingError, match="Typing and implementation arguments differ in " + what):
            overload_returning(impl)(a, b, 3)


def internal_kind(x):
    pass


@overload(internal_kind)
def internal_kind_by_type(x):
    if x.is_internal:
        return (lambda x: 1) if isinstance(x, types.Array) else (lambda x: 0)
    return lambda x: -1


class PackageType(types.Type):  # a package's own type class: not the compiler's
    def __init__(self):
        super().__init__(name="package_type")


def test_is_internal_tells_the_compilers_own_types():
    """Numba's Type.is_internal: an overload may guard on it to take the
    compiler's own types alone; a package's type class is not internal."""
    rng = np.random.default_rng(12)
    values = [int(rng.integers(-9, 9)), float(rng.standard_normal()), rng.standard_normal(3), (1, 2.5), "ab",
              rng.integers(0, 5, (2, 2))]
    compiled = njit(lambda x: internal_kind(x))
    for x in values:
        assert compiled(x) == (1 if isinstance(x, np.ndarray) else 0)
    for t in (types.float64, types.int32[:, :], types.Tuple([types.int64, types.float64]), types.none):
        assert t.is_internal
    assert not PackageType().is_internal


def test_scalar_and_array_types_are_interned_as_numbas():
    """`t.dtype is types.float64` holds, as Numba's types are interned; across pickling too."""
    import pickle
    for t in (types.int32, types.float64, types.NPDatetime("D"), types.uint8):
        for arr in (t[:], t[::1], t[:, ::1], t[::1, :], types.Array(t, 3, "A")):
            assert arr.dtype is t
            assert pickle.loads(pickle.dumps(arr)) is arr
        assert types.Array(t, 2, "C") is t[:, ::1]
        assert pickle.loads(pickle.dumps(t)) is t
    rec = np.dtype([("a", np.int32), ("b", np.float32)])
    assert types.DType(types.int32)[::1] is types.int32[::1]  # a dtype's array types, as Numba's
    assert typeof(rec)[::1] == typeof(np.zeros(3, rec))
    assert typeof(np.dtype(np.float64)).dtype is types.float64


def clamp_to(x, like):
    """The Python meaning of the overload below: x clamped to like's int type's range."""
    info = np.iinfo(like.dtype)
    return min(max(x, int(info.min)), int(info.max))


@overload(clamp_to)
def ol_clamp_to(x, like):
    t = like.dtype
    low, high = t.minval, t.maxval  # the int type's range, known when typing
    return lambda x, like: min(max(x, low), high)


def test_int_types_ranges_and_widths_as_numbas():
    names = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
    for name in names:
        t = getattr(types, name)
        assert (t.minval, t.maxval) == (np.iinfo(name).min, np.iinfo(name).max)
        assert types.Integer.from_bitwidth(t.bitwidth, signed=name.startswith("int")) is t
    for not_int in (types.float64, types.boolean, types.int64[:]):
        with pytest.raises(AttributeError):
            not_int.maxval
    with pytest.raises(ValueError):
        types.Integer.from_bitwidth(24)

    @njit
    def clamped(x, like):
        return clamp_to(x, like)

    for dt in (np.int8, np.uint8, np.int16, np.uint32):
        like = np.zeros(1, dt)
        for x in (-70000, -129, -1, 0, 200, 70000):
            assert clamped(x, like) == clamp_to(x, like)


def test_a_number_type_called_with_a_value_casts_it():
    rng = np.random.default_rng(11)
    for name in ("int8", "uint16", "int32", "uint64", "float32", "float64", "complex64", "complex128"):
        for v in list(rng.integers(0, 100, 3)) + [3.75, True]:
            got = getattr(types, name)(v)
            want = getattr(np, name)(v)
            assert type(got) is type(want) and got == want, (name, v)
    assert types.boolean(3) is True and types.boolean(0.0) is False
    assert types.float64(types.int64).args == (types.int64,)  # with types: a signature still


def test_a_number_types_key_is_its_name():
    for t in (types.int8, types.uint64, types.float32, types.complex128):
        assert t.key == t.name and np.dtype(t.key) == np.dtype(t.name)
    assert np.iinfo(types.int16.key).max == 2**15 - 1


def test_the_domains_of_number_types():
    assert types.int8 in types.signed_domain and types.uint64 in types.unsigned_domain
    assert types.integer_domain == types.signed_domain | types.unsigned_domain
    assert types.float32 in types.real_domain and types.complex64 in types.complex_domain
    assert types.number_domain == types.integer_domain | types.real_domain | types.complex_domain
    assert types.boolean not in types.number_domain and types.float16 not in types.real_domain
    assert sorted(types.signed_domain) == [types.int8, types.int16, types.int32, types.int64]
    assert sorted(types.complex_domain) == [types.complex64, types.complex128]
    assert types.uint8 < types.uint64 and types.float64 >= types.float32 and not types.int32 < types.int16
    with pytest.raises(TypeError):
        types.int8 < types.uint16  # of two families: no order, as Numba's


def test_the_type_classes_of_tuple_types():
    uni, mixed = types.UniTuple(types.float64, 3), types.Tuple((types.int64, types.float64))
    assert isinstance(uni, types.UniTuple) and not isinstance(uni, types.Tuple)
    assert isinstance(mixed, types.Tuple) and not isinstance(mixed, types.UniTuple)
    assert isinstance(uni, types.BaseTuple) and isinstance(mixed, types.BaseTuple)
    assert not isinstance(types.float64, types.BaseTuple)
    assert types.Tuple((types.int64, types.int64)) == types.UniTuple(types.int64, 2)
    assert uni.dtype == types.float64 and uni.count == 3 and len(uni) == 3 and uni[1] == types.float64
    assert mixed.types == (types.int64, types.float64) and list(mixed) == [types.int64, types.float64]
    with pytest.raises(AttributeError):
        mixed.dtype


def step_of(x):
    pass


@overload(step_of)
def ol_step_of(x):
    if isinstance(x, types.Float):
        return lambda x: x * 0.5
    return lambda x: x + 1


def each(*args):
    pass


@overload(each)
def ol_each(f, t):
    """interpolation's fmap: a function applied to each item of a tuple,
    its body written for the tuple's length."""
    if not isinstance(t, types.BaseTuple):
        return None
    items = ", ".join(f"f(t[{i}])" for i in range(len(t)))
    namespace = {}
    exec(f"def apply(f, t):\n    return ({items},)\n", namespace)
    return namespace["apply"]


@njit
def steps(t):
    return each(step_of, t)


def test_an_overloaded_function_passed_as_a_value():
    for t in [(1.0, 3.0), (4, 5, 6), (2.5, 7)]:
        assert steps(t) == tuple(x * 0.5 if isinstance(x, float) else x + 1 for x in t)


def impl_spread_sum(a, scale, *rest):
    """The method below, as Python runs it: its arguments bound as a call spreads them."""
    return a.sum() * scale, rest


@overload_method(types.Array, "spread_sum")
def ol_spread_sum(a, scale, *rest):
    return impl_spread_sum


@njit
def spread_method(a, *args):
    return a.spread_sum(*args)


@njit
def spread_after_one(a, args):
    return a.spread_sum(2, *args)


def test_a_method_called_with_a_spread_tuple_binds_its_items():
    for a in (np.arange(5.0), np.array([-1.5, np.nan]), np.zeros(0, np.int32)):
        for args in ((3,), (3, 4.5), (0.5, 1, 2, 3)):
            got, want = spread_method(a, *args), impl_spread_sum(a, *args)
            np.testing.assert_array_equal(got[0], want[0])
            assert got[1] == want[1]
            got, want = spread_after_one(a, args), impl_spread_sum(a, 2, *args)
            np.testing.assert_array_equal(got[0], want[0])
            assert got[1] == want[1]


def apply_all(func, *args):
    pass


@overload(apply_all)
def ol_apply_all(func, *args):
    # the typing function's *args gets each star argument's type, as Numba's
    # (it got one tuple type: len(args) was 1 and the one-argument body ran)
    if len(args) == 1:
        return lambda func, *args: func(args[0])
    if len(args) == 2 and all(isinstance(a, types.Number) for a in args):
        return lambda func, *args: func(args[0]) + func(args[1])
    if len(args) == 3:
        return lambda func, *args: func(args[0]) * func(args[1]) - func(args[2])
    return None


@njit
def plus_one(x):
    return x + 1


@njit
def apply_counts(x, y):
    return apply_all(plus_one, x), apply_all(plus_one, x, y), apply_all(plus_one, x, y, 2.5)


def test_a_typing_function_with_star_args_gets_each_argument():
    def expected(x, y):
        return x + 1, (x + 1) + (y + 1), (x + 1) * (y + 1) - 3.5

    for x, y in ((3, 4), (-2, 7.5), (0.25, -1)):
        assert apply_counts(x, y) == expected(x, y)


def times_factor(a, factor=None):
    """A function of Python's, overloaded below by a typing function taking **kwargs."""
    return a if factor is None else a * factor


@overload(times_factor, strict=False)
def ol_times_factor(a, **kws):
    # (Numba's strict=False): the parameters past a's come by name
    factor = kws.get("factor")
    if factor is None or isinstance(factor, (types.NoneType, types.Omitted)):
        return lambda a, factor=None: a
    return lambda a, factor=None: a * factor


@njit
def use_times_factor(a, k):
    return times_factor(a, factor=k), times_factor(a), times_factor(a, factor=None)


def test_a_typing_function_taking_kwargs_gets_the_arguments_past_its_own_by_name():
    for a, k in [(3, 4), (2.5, -1.0), (np.arange(4.0), 2), (-7, 0.5)]:
        got, expected = use_times_factor(a, k), use_times_factor.py_func(a, k)
        for g, e in zip(got, expected):
            assert np.array_equal(g, e)
