"""complex64 and complex128: scalars (arguments, results, literals,
complex(x, y), arithmetic with CPython's semantics, .real/.imag/.conjugate()/.item(),
abs, ==/!=, cmath) and arrays (arguments, results, elements, creation,
array expressions, NumPy's functions, reductions), each compared with the
function's Python original or NumPy on generated values, infinities, NaN
and signed zeros included."""
import cmath
import itertools
import math
import random
import sys
import warnings

import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import numba_deviation

PY314 = sys.version_info >= (3, 14)  # C99's complex arithmetic (Annex G), new messages

PARTS = (0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e300, -1e-300, 1e-320, math.inf, -math.inf, math.nan)


def generated_complexes(seed, count=60):
    """Complex numbers: every pair of special parts, then random ones."""
    rng = random.Random(seed)
    out = [complex(a, b) for a, b in itertools.product(PARTS, PARTS)]
    for _ in range(count):
        out.append(complex(rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3)))
        out.append(complex(rng.gauss(0, 1) * 10.0 ** rng.randrange(-30, 30), rng.gauss(0, 1)))
    return out


def close_normwise(e, g, ulps):
    """|e - g| within ulps units in the last place of |e|: complex functions'
    accuracy, which a part much smaller than the other cannot have alone."""
    if not (cmath.isfinite(e) and isinstance(g, complex) and cmath.isfinite(g)):
        return isinstance(g, complex) and same_float(e.real, g.real, 1) and same_float(e.imag, g.imag, 1)
    return abs(e - g) <= ulps * math.ulp(abs(e))


def same_float(e, g, ulps=0):
    if math.isnan(e):
        return math.isnan(g)
    if ulps == 0 or math.isinf(e) or e == 0:
        return e == g and (ulps or math.copysign(1, e) == math.copysign(1, g))
    return abs(e - g) <= ulps * math.ulp(e)


def same_value(e, g, ulps=0):
    """Equal values of the same Python type; complex parts compared as floats
    (signed zeros and NaN included; within ulps units in the last place)."""
    if isinstance(e, tuple):
        return isinstance(g, tuple) and len(e) == len(g) and all(same_value(a, b, ulps) for a, b in zip(e, g))
    if type(e) is not type(g):
        return False
    if isinstance(e, complex) and ulps:
        return close_normwise(e, g, ulps)
    if isinstance(e, complex):
        return same_float(e.real, g.real, ulps) and same_float(e.imag, g.imag, ulps)
    if isinstance(e, float):
        return same_float(e, g, ulps)
    return e == g


def outcome(f, *args):
    try:
        return f(*args)
    except (ZeroDivisionError, OverflowError, ValueError) as exc:
        return type(exc)


def check(f, args_list, ulps=0):
    bad = []
    for args in args_list:
        e, g = outcome(f.py_func, *args), outcome(f, *args)
        if not (e is g if isinstance(e, type) else same_value(e, g, ulps)):
            bad.append((args, e, g))
    assert not bad, f"{len(bad)} of {len(args_list)} differ, first: {bad[:5]}"


# ---------------------------------------------------------------- scalars


@njit
def add(a, b):
    return a + b


@njit
def sub(a, b):
    return a - b


@njit
def mul(a, b):
    return a * b


@njit
def div(a, b):
    return a / b


@njit
def power(a, b):
    return a ** b


@njit
def eq(a, b):
    return a == b, a != b


@njit
def neg(a):
    return -a, +a


@pytest.mark.parametrize("f", [add, sub, mul, div, eq], ids=lambda f: f.py_func.__name__)
def test_arithmetic_of_two_complexes_is_cpythons(f):
    zs = generated_complexes(1)
    rng = random.Random(2)
    pairs = [(a, b) for a in zs[:40] for b in zs[:40]] + [(rng.choice(zs), rng.choice(zs)) for _ in range(2000)]
    check(f, pairs)


@pytest.mark.parametrize("f", [add, sub, mul, div, eq], ids=lambda f: f.py_func.__name__)
def test_arithmetic_mixing_complex_with_ints_floats_and_bools(f):
    zs = generated_complexes(3, 20)
    others = [0, 1, -3, 2**62, True, False, 0.0, -0.0, 2.5, math.inf, math.nan]
    check(f, [(z, x) for z in zs for x in others] + [(x, z) for z in zs for x in others])


def test_complex_division_by_zero_raises_as_cpython():
    message = "^division by zero$" if PY314 else "^complex division by zero$"
    for a, b in ((1 + 2j, 0j), (1 + 2j, 0), (1.0, -0.0 + 0j), (2, 0j), (1j, -0.0), (True, 0j)):
        for f in (div.py_func, div):
            with pytest.raises(ZeroDivisionError, match=message):
                f(a, b)


def test_complex_division_by_zero_with_numpy_error_model_gives_inf_and_nan():
    d = njit(error_model="numpy")(div.py_func)
    r = d(1 + 2j, 0j)
    assert math.isinf(r.real) and math.isinf(r.imag)
    r = d(0j, 0j)
    assert math.isnan(r.real) and math.isnan(r.imag)


def test_powers_are_cpythons():
    zs = generated_complexes(4, 20)
    exps = [0, 1, 2, 3, -1, -2, 7, 100, 101, 0.5, -0.5, 2.0, 1j, -1j, 0.5 + 0.25j, 3 + 0j, 2 - 1j, 0j]
    check(power, [(z, e) for z in zs for e in exps] + [(e, z) for z in zs[:60] for e in exps], ulps=0)


def test_zero_to_negative_or_complex_power_raises():
    message = "zero to a negative or complex power" if PY314 else "0.0 to a negative or complex power"
    for e in (-1, -0.5, 1j, -2 + 0j):
        for f in (power.py_func, power):
            with pytest.raises(ZeroDivisionError, match=f"^{message}$"):
                f(0j, e)
    with pytest.raises(OverflowError, match="complex exponentiation"):
        power(1e300 + 0j, 2)


def test_unary_minus_and_plus():
    check(neg, [(z,) for z in generated_complexes(5)])


@njit
def parts(z):
    return z.real, z.imag, z.conjugate(), abs(z)


def test_real_imag_conjugate_and_abs():
    check(parts, [(z,) for z in generated_complexes(6)])
    with pytest.raises(OverflowError):
        parts(complex(1.5e308, 1.5e308))


@njit
def parts32(z):
    return z.real, z.imag, z.conjugate(), abs(z), z * z, z + 1


def close32(e, g):
    """Equal as float32 values within a unit in the last place (float32's)."""
    e, g = np.float32(e), np.float32(g)
    return (np.isnan(e) and np.isnan(g)) or e == g or abs(e - g) <= np.spacing(abs(e))


def test_complex64_arguments_compute_in_complex64():
    for z in generated_complexes(7, 10):
        z32 = np.complex64(z)
        with np.errstate(all="ignore"):
            expected = (z32.real, z32.imag, z32.conjugate(), np.abs(z32), z32 * z32, z32 + np.float32(1))
        got = parts32(z32)
        assert all(type(g) is type(complex(e) if np.iscomplexobj(e) else float(e)) for e, g in zip(expected, got))
        parts_e = [p for e in expected for p in (np.real(e), np.imag(e))]
        parts_g = [p for g in got for p in (np.real(g), np.imag(g))]
        assert all(close32(e, g) for e, g in zip(parts_e, parts_g)), (z, expected, got)


@njit
def literals(x):
    return 1j, 2 + 3j, -1.5j * x, x - 0j, complex(x), complex(x, -0.0), complex(), complex(1j, 1j)


def test_literals_and_complex_calls():
    check(literals, [(x,) for x in (0.0, -0.0, 1.5, -2, math.inf, math.nan, True)])


J = 2.5 - 1j


@njit
def uses_global():
    return J * 2


def test_global_complex_is_frozen_as_a_constant():
    assert uses_global() == J * 2


@njit
def truth(z):
    if z:
        return 1
    return 0


@njit
def to_bool(z):
    return bool(z), not z


def test_truth_of_complex():
    check(truth, [(z,) for z in (0j, -0j, 1j, complex(0, -0.0), 1 + 0j, complex(math.nan, 0))])
    check(to_bool, [(z,) for z in (0j, 1j, 2 + 0j)])


@njit
def accumulate(n, z):
    s = 0
    for i in range(n):
        s = s * z + i
    return s


def test_variable_unifies_int_and_complex():
    check(accumulate, [(5, 0.5 + 0.5j), (1, 1j), (10, -1 + 0j)])


@njit
def callee(z):
    return z * z


@njit
def caller(z, x):
    return callee(z) + callee(x)


def test_complex_through_calls_between_compiled_functions():
    check(caller, [(1 + 2j, 3.0), (0.5j, 2j)])


def test_numpy_complex_scalars_and_types():
    assert caller(np.complex64(1 + 1j), np.complex128(2j)) == (1 + 1j) ** 2 + (2j) ** 2
    f = njit("c16(c16, f8)")(lambda z, x: z * x)
    assert f(1 + 2j, 2.0) == 2 + 4j
    assert f(3, 2) == 6 + 0j  # converted to the declared types
    g = njit(ruchey.complex64(ruchey.complex64))(lambda z: z + 1)
    assert g(1j) == 1 + 1j
    assert ruchey.typeof(1j) == ruchey.complex128
    assert ruchey.typeof(np.complex64(1)) == ruchey.complex64
    assert ruchey.from_dtype(np.complex64) == ruchey.complex64
    assert ruchey.types.parse_signature("c8(c16)").args == (ruchey.complex128,)


def test_complex_result_types_follow_promotion():
    @njit
    def promo(z32, f32, i32, f64):
        return z32 * f32, z32 * i32, z32 * f64, z32 * 2.0
    r = promo(np.complex64(1 + 1j), np.float32(2), np.int32(3), 1.5)
    assert r == (2 + 2j, 3 + 3j, 1.5 + 1.5j, 2 + 2j)


# ---------------------------------------------------------------- refusals

@pytest.mark.parametrize("src", [
    "def f(z):\n    return z < 1j\n",
    "def f(z):\n    return z // 2\n",
    "def f(z):\n    return z % 2\n",
    "def f(z):\n    return int(z)\n",
    "def f(z):\n    return float(z)\n",
    "def f(z):\n    return math.sqrt(z)\n",
    "def f(z):\n    return ~z\n",
    "def f(z):\n    return max(z, 1j)\n",
    "def f(z):\n    return np.float64(z)\n",
])
def test_unsupported_operations_on_complex_are_typing_errors(src):
    ns = {"math": math, "np": np}
    exec(src, ns)
    with pytest.raises(ruchey.TypingError):
        njit(ns["f"])(1j)


def test_complex_into_a_float_signature_is_refused():
    f = njit("f8(f8)")(lambda x: x)
    with pytest.raises(TypeError):
        f(1j)
    with pytest.raises(ruchey.TypingError):
        njit("f8(c16)")(lambda z: z)


# ---------------------------------------------------------------- cmath

CMATH_1 = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
           "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "phase", "polar", "isnan", "isinf", "isfinite"]


def cmath_function(name):
    ns = {"cmath": cmath}
    exec(f"def f(z):\n    return cmath.{name}(z)\n", ns)
    return njit(ns["f"])


def finite_complexes(seed, count=300):
    rng = random.Random(seed)
    out = [complex(a, b) for a in (0.0, -0.0, 1.0, -1.0, 0.5, 2.0) for b in (0.0, -0.0, 1.0, -1.0, 0.5)]
    for _ in range(count):
        out.append(complex(rng.uniform(-4, 4), rng.uniform(-4, 4)))
        out.append(complex(rng.gauss(0, 1) * 10.0 ** rng.randrange(-10, 10), rng.gauss(0, 1) * 10.0 ** rng.randrange(-10, 10)))
    return out


@pytest.mark.parametrize("name", CMATH_1)
def test_cmath_functions_match_cpython_within_a_few_ulps(name):
    # the C library's and CPython's algorithms each err by up to 3 ulps or
    # so (tan: each 3 ulps from the exact value, on opposite sides)
    f = cmath_function(name)
    args = [(z,) for z in finite_complexes(sum(map(ord, name)))] + [(x,) for x in (0.0, 2.0, -3.0, 0.5, 7)]
    check(f, args, ulps=8)


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "cosh", "atanh", "isnan", "isinf", "isfinite"])
def test_cmath_special_values_match_cpython(name):
    f = cmath_function(name)
    zs = [complex(a, b) for a in (0.0, -0.0, 1.0, math.inf, -math.inf, math.nan)
          for b in (0.0, -0.0, 1.0, math.inf, -math.inf, math.nan)]
    if name in ("sqrt", "isnan", "isinf", "isfinite"):
        check(f, [(z,) for z in zs], ulps=4)
    else:  # special values as C99's Annex G: where CPython answers, ruchey agrees on finite inputs
        check(f, [(z,) for z in zs if math.isfinite(z.real) and math.isfinite(z.imag)], ulps=4)


@pytest.mark.parametrize("name", ["exp", "log", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan",
                                  "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"])
def test_cmath_of_infinities_and_nans_gives_cpythons_values(name):
    # every infinite or NaN input: CPython's value exactly, signs of zeros and
    # infinities included, or its ValueError (exp(infj), sin(inf): an
    # infinity without a NaN that makes a NaN)
    f = cmath_function(name)
    parts = (0.0, -0.0, 1.0, -1.0, 2.5, -2.5, math.inf, -math.inf, math.nan)
    zs = [complex(a, b) for a in parts for b in parts if not (math.isfinite(a) and math.isfinite(b))]
    check(f, [(z,) for z in zs], ulps=0)


def test_cmath_errors_are_cpythons():
    for name, z, exc in [("log", 0j, ValueError), ("log10", 0j, ValueError), ("atanh", 1 + 0j, ValueError),
                         ("exp", 1000 + 0j, OverflowError), ("cosh", 1000 + 1j, OverflowError)]:
        f = cmath_function(name)
        with pytest.raises(exc):
            f.py_func(z)
        with pytest.raises(exc):
            f(z)


@njit
def log_base(z, b):
    return cmath.log(z, b)


@njit
def rect(r, phi):
    return cmath.rect(r, phi)


def test_cmath_log_with_base_and_rect():
    check(log_base, [(z, b) for z in finite_complexes(8, 20) for b in (2.0, 10, 1j, 0.5 + 0.5j)], ulps=8)
    check(rect, [(r, p) for r in (0.0, 1.0, -2.0, 3.5) for p in (0.0, -0.0, 0.5, -2.0, math.pi)], ulps=2)


def test_cmath_rect_special_values_are_cpythons():
    # signed zeros exactly; infinite and NaN radii and angles take CPython's
    # special values, and a nonzero radius with an infinite angle raises
    edges = [0.0, -0.0, 1.0, -1.0, 2.5, 1e-300, -1e308, math.inf, -math.inf, math.nan]
    angles = edges + [math.pi / 2, -math.pi, 3.0, -0.5]
    check(rect, [(r, p) for r in edges for p in angles if not math.isfinite(r) or not math.isfinite(p) or p == 0])
    rng = random.Random(5)
    values = [(rng.uniform(-1e3, 1e3), rng.uniform(-10, 10)) for _ in range(40)]
    check(rect, [(r, p) for r in edges for p in angles] + values, ulps=2)


# ---------------------------------------------------------------- arrays

def complex_array(seed, shape, dtype=np.complex128, special=True):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape) * 10).astype(dtype)
    if special and a.size >= 8:
        flat = a.reshape(-1)
        flat[:8] = [0j, complex(-0.0, 0.0), complex(0.0, -0.0), complex(math.inf, 1), complex(1, -math.inf),
                    complex(math.nan, 0), complex(0, math.nan), complex(math.inf, math.inf)]
    return a


def assert_array_same(expected, got, rtol=0):
    assert isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape, \
        (got.dtype, expected.dtype, got.shape, expected.shape)
    if rtol and np.iscomplexobj(got):  # normwise, each element; the others' parts exactly
        finite = np.isfinite(expected)
        np.testing.assert_array_equal(np.isfinite(got), finite)
        np.testing.assert_array_equal(parts_of(got[~finite]), parts_of(expected[~finite]))
        assert np.all(np.abs(got[finite] - expected[finite]) <= rtol * np.abs(expected[finite])), (got, expected)
        return
    if np.iscomplexobj(got):  # the parts: signed zeros, NaN and infinities in place
        got, expected = parts_of(got), parts_of(expected)
    if rtol:
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected, strict=True)


def parts_of(a):
    return np.stack([a.real, a.imag])


def compare_with_numpy(f, *args, rtol=0):
    with np.errstate(all="ignore"):
        expected = f.py_func(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    if isinstance(expected, np.ndarray):
        assert_array_same(expected, got, rtol)
    else:
        assert same_value(complex(expected) if np.iscomplexobj(expected) else expected, got, 0) or (
            rtol and abs(got - expected) <= rtol * abs(expected)), (expected, got)
    return got


DTYPES = [np.complex128, np.complex64]
SHAPES = [(0,), (1,), (17,), (4, 5), (3, 1, 6)]


@njit
def identity(a):
    return a


@njit
def elements(a, b):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * b[i] - a[i] / (1 + 1j) + b[i].conjugate()
    return out


@njit
def store_scalars(a, x, z):
    a[0] = x
    a[1] = z
    a[2] += z
    return a


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_complex_arrays_as_arguments_results_and_elements(dtype):
    for shape in SHAPES:
        a = complex_array(1, shape, dtype)
        assert_array_same(a, identity(a))
    a, b = complex_array(2, (50,), dtype), complex_array(3, (50,), dtype)
    compare_with_numpy(elements, a, b, rtol=1e-6 if dtype == np.complex64 else 0)
    compare_with_numpy(elements, a[::-3], b[::3], rtol=1e-6 if dtype == np.complex64 else 0)
    compare_with_numpy(store_scalars, a, 2.5, 1 - 2j)
    compare_with_numpy(identity, complex_array(4, (3, 4), dtype).T)


@njit
def create(n):
    return (np.zeros(n, np.complex128), np.ones((n, 2), dtype=np.complex64), np.empty(n, dtype=complex).shape,
            np.full(n, 2 - 1j), np.zeros(n, "c8"), np.eye(n, dtype=np.complex128))


@njit
def create_like(a):
    return np.zeros_like(a), np.ones_like(a), np.empty_like(a).shape, np.full_like(a, 1j), a.copy(), a.astype(np.complex64)


def test_complex_array_creation():
    for n in (0, 1, 5):
        expected, got = create.py_func(n), create(n)
        for e, g in zip(expected, got):
            if isinstance(e, np.ndarray):
                assert_array_same(e, g)
            else:
                assert e == g
    for dtype in DTYPES:
        a = complex_array(5, (3, 4), dtype, special=False)
        for e, g in zip(create_like.py_func(a), create_like(a)):
            if isinstance(e, np.ndarray):
                assert_array_same(e, g)
            else:
                assert e == g


ARRAY_EXPRESSIONS = [
    "a + b", "a - b", "a * b", "a / b", "-a", "a * 2.5 - 1j", "a / 0", "(a + 1) * (b - 2j) / (a + b)",
    "a * x", "x / a", "a ** 2", "a ** 3", "a ** -1", "a == b", "a != a", "a + r", "r * a", "r / a",
    "np.add(a, b)", "np.subtract(a, r)", "np.multiply(a, 1j)", "np.divide(a, b)", "np.negative(a)",
    "np.abs(a)", "abs(a)", "np.absolute(a)", "np.angle(a)", "np.conj(a)", "np.conjugate(a)", "a.conj()",
    "a.conjugate()", "np.real(a)", "np.imag(a)", "a.real", "a.imag", "a.real * a.imag",
    "np.isnan(a)", "np.isinf(a)", "np.isfinite(a)", "np.where(np.isfinite(a), a, 0)",
]


@pytest.mark.parametrize("expr", ARRAY_EXPRESSIONS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_array_expressions_and_ufuncs_of_complex_match_numpy(expr, dtype):
    ns = {"np": np}
    exec(f"def f(a, b, r, x):\n    return {expr}\n", ns)
    f = njit(ns["f"])
    for shape in [(0,), (9,), (3, 4)]:
        # powers of infinities and NaN: NumPy's grouping of products is its own
        finite = "**" in expr
        a, b = complex_array(6, shape, dtype, not finite), complex_array(7, shape, dtype, not finite)
        r = np.random.default_rng(8).standard_normal(shape).astype(np.float32 if dtype == np.complex64 else np.float64)
        # NumPy's SIMD loops may multiply with fused multiply-adds: a rounding apart
        rounding = any(op in expr for op in ("*", "/", "np.abs", "abs(", "absolute", "multiply", "divide", "angle"))
        compare_with_numpy(f, a, b, r, 1.5 - 0.5j, rtol=(1e-6 if dtype == np.complex64 else 1e-15) if rounding else 0)


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "arcsin", "arccos",
                                  "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_numpy_functions_of_complex_arrays_match_numpy(name, dtype):
    ns = {"np": np}
    exec(f"def f(a):\n    return np.{name}(a)\n", ns)
    f = njit(ns["f"])
    a = complex_array(9, (40,), dtype, special=False) / 10
    # NumPy computes complex64 in float32 with the C library's float functions, ruchey in float64
    compare_with_numpy(f, a, rtol=1e-5 if dtype == np.complex64 else 1e-13)


@njit
def views(a):
    re, im = a.real, a.imag
    re[0] = 100.0
    im[-1] = -7.0
    return a, re.copy(), im.sum()


def test_real_and_imag_of_a_complex_array_are_views():
    for dtype in DTYPES:
        for a in (complex_array(10, (6,), dtype, False), complex_array(11, (3, 4), dtype, False)[:, ::2]):
            e, g = views.py_func(a.copy()), views(a.copy())
            assert_array_same(e[0], g[0])
            assert_array_same(e[1], g[1])
            assert e[2] == g[2]


@njit
def function_views(a):
    re, im = np.real(a), np.imag(a)
    re[0] = 100.0
    im[-1] = -7.0
    return a, np.real(a) * 2 + np.imag(a)


def test_numpy_real_and_imag_of_a_complex_array_are_views_too():
    # numpy.real(a) reads a.real: writing to it writes to a (it was a copy)
    for dtype in DTYPES:
        for a in (complex_array(12, (6,), dtype, False), complex_array(13, (3, 4), dtype, False)[:, ::2]):
            e, g = function_views.py_func(a.copy()), function_views(a.copy())
            assert_array_same(e[0], g[0])
            assert_array_same(e[1], g[1])
    base = np.arange(6.0)
    (ei, er, es), (gi, gr, gs) = parts_of_real.py_func(base), parts_of_real(base)
    assert gr is base and np.array_equal(gi, ei) and not gi.flags.writeable


@njit
def parts_of_real(a):
    return a.imag, a.real, a.imag.sum()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.int64, np.bool_])
def test_imag_of_a_real_array_is_read_only_zeros_of_its_dtype_and_order(dtype):
    base = np.arange(24).astype(dtype)
    for a in (base, base.reshape(4, 6), base.reshape(4, 6).T, base[::3], base[:0], np.asfortranarray(base.reshape(2, 3, 4))):
        (ei, er, es), (gi, gr, gs) = parts_of_real.py_func(a), parts_of_real(a)
        assert gi.dtype == ei.dtype and gi.shape == ei.shape and np.array_equal(gi, ei) and gs == es
        assert (gi.flags.c_contiguous, gi.flags.f_contiguous) == (ei.flags.c_contiguous, ei.flags.f_contiguous)
        assert not gi.flags.writeable and gr is a
        if gi.size:
            with pytest.raises(ValueError, match="read-only"):
                gi[0] = 1


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_parts_of_a_read_only_real_array_are_zeros_and_itself(dtype):
    # a read-only C array's .imag has the array's own type: it must still be zeros, not the array
    base = np.arange(1, 13).astype(dtype)
    for a in (base.copy(), base.reshape(3, 4).copy(), np.asfortranarray(base.reshape(3, 4)), base[::2]):
        a.flags.writeable = False
        (ei, er, es), (gi, gr, gs) = parts_of_real.py_func(a), parts_of_real(a)
        assert np.array_equal(gi, ei) and gs == es == 0 and gr is a and not gi.flags.writeable


@njit
def reductions(a):
    return a.sum(), np.sum(a), a.prod(), np.prod(a), a.mean(), np.mean(a), (a * 2).sum()


def test_sum_prod_mean_of_complex_arrays():
    for dtype in DTYPES:
        for shape in [(0,), (1,), (7,), (3, 4), (1000,)]:
            a = complex_array(12, shape, dtype, special=False) / 10
            with np.errstate(all="ignore"):
                expected = reductions.py_func(a)
            got = reductions(a)
            for e, g in zip(expected, got):
                assert type(g) is complex
                if shape == (0,) and not math.isfinite(abs(e)):  # the mean of nothing
                    assert cmath.isnan(g)
                else:  # NumPy adds pairwise: equal up to rounding
                    assert abs(g - e) <= 1e-5 * max(1, abs(e)) if dtype == np.complex64 else abs(g - e) <= 1e-12 * max(1, abs(e))


@njit
def inplace(a, b):
    a += b
    a *= 1j
    a -= 2
    a /= b
    return a


def test_in_place_operators_on_complex_arrays():
    for dtype in DTYPES:
        compare_with_numpy(inplace, complex_array(13, (10,), dtype), complex_array(14, (10,), dtype))
    f = np.zeros(3)
    with pytest.raises(ruchey.TypingError, match="same_kind"):
        inplace(f, complex_array(1, (3,)))


@njit(parallel=True)
def parallel_sum(a):
    s = 0j
    for i in ruchey.prange(a.shape[0]):
        s += a[i] * a[i]
    return s


def test_prange_reduction_of_complex():
    a = complex_array(15, (20000,), special=False)
    assert abs(parallel_sum(a) - parallel_sum.py_func(a)) <= 1e-9 * abs(parallel_sum.py_func(a))


@njit
def loop_sum(a):
    s = 0j
    for x in a:
        s += x
    return s


def test_loop_over_complex_array():
    a = complex_array(16, (25,), special=False)
    assert same_value(complex(loop_sum.py_func(a)), loop_sum(a))


@njit
def products(a, b, v, w):
    return np.dot(a, b), a @ b, np.dot(a, v), np.dot(v, w), np.vdot(v, w), np.inner(v, w), np.vdot(a, a)


def test_matrix_products_of_complex_through_blas():
    for dtype, rtol in [(np.complex128, 1e-12), (np.complex64, 1e-5)]:
        a, b = complex_array(17, (5, 3), dtype, False), complex_array(18, (3, 4), dtype, False)
        v, w = complex_array(19, (3,), dtype, False), complex_array(20, (3,), dtype, False)
        for args in [(a, b, v, w), (a[::-1], b[:, ::2], v[::-1], w), (a, b.real.copy().astype(dtype), v, w)]:
            for e, g in zip(products.py_func(*args), products(*args)):
                np.testing.assert_allclose(g, e, rtol=rtol)
                if isinstance(e, np.ndarray):
                    assert g.dtype == e.dtype


@pytest.mark.parametrize("src", [
    # (np.sort, np.argmax, a.min: test_complex_sort.py; np.maximum, nanmin, ptp: test_complex_ufuncs.py)
    "def f(a):\n    return np.nanargmax(a)\n",
    "def f(a):\n    return a // 2\n",
    "def f(a):\n    return np.floor(a)\n",
    "def f(a):\n    x = np.zeros(4)\n    x[0] = a[0]\n    return x\n",
])
def test_unsupported_array_operations_on_complex_are_typing_errors(src):
    ns = {"np": np}
    exec(src, ns)
    with pytest.raises(ruchey.TypingError):
        njit(ns["f"])(complex_array(1, (4,)))


@njit
def real_parts(x, i, b):
    return x.real, x.imag, x.conjugate(), i.real, i.imag, i.conjugate(), b.real, b.imag


def test_parts_of_real_numbers_are_pythons():
    check(real_parts, [(2.5, 3, True), (-0.0, -7, False), (math.nan, 2**62, True)])


@njit
def items(x, i, b, z):
    return x.item(), i.item(), b.item(), z.item(), (x * 2 + i).item()


@njit
def smoothed(x, alpha):
    s = x[0]
    out = np.empty_like(x)
    for k in range(x.size):
        s = (alpha * x[k] + (1 - alpha) * s).item()  # a NumPy scalar in Python, a float compiled
        out[k] = s
    return out


def test_item_of_a_number_is_the_number():
    # Python's own float has no item(): NumPy's scalars have, as compiled numbers
    check(items, [(np.float64(2.5), np.int64(3), np.bool_(True), np.complex128(1 - 2j)),
                  (np.float64(-0.0), np.int64(-7), np.bool_(False), np.complex128(complex(math.nan, 0.5))),
                  (np.float64(math.nan), np.int64(2**62), np.bool_(True), np.complex128(0j)),
                  (np.float32(1.5), np.int8(-3), np.bool_(True), np.complex64(1 - 1j))])
    x = np.random.default_rng(5).standard_normal(50)
    assert np.array_equal(smoothed(x, 0.3), smoothed.py_func(x, 0.3))


@njit
def cmath_constants():
    return cmath.pi, cmath.e, cmath.infj, cmath.inf, cmath.nanj.imag


def test_cmath_constants_are_frozen():
    check(cmath_constants, [()])


@njit
def square(a):
    return np.square(a), np.square(a[0])


def test_numpy_square_of_complex():
    a = complex_array(21, (10,), special=False)
    e, g = square.py_func(a), square(a)
    assert_array_same(e[0], g[0], rtol=1e-15)  # NumPy's loop may fuse a multiply-add
    assert abs(complex(e[1]) - g[1]) <= 1e-15 * abs(g[1])


@njit
def show(z, w):
    print("z =", z, w, 1j)


def test_print_writes_complex_numbers_as_python_repr(capsys):
    for z in [1 + 2j, 2j, complex(-0.0, 1), complex(0, -0.0), 0j, complex(math.nan, 1), complex(0, math.nan),
              complex(math.inf, -math.inf), 1e16 + 1e-5j, complex(0.1, 123456789.125), -1.5 - 2.5j]:
        w = np.complex64(z)
        show(z, w)
        compiled = capsys.readouterr().out
        show.py_func(z, complex(w))
        assert compiled == capsys.readouterr().out


def test_vectorize_over_complex_arrays():
    @ruchey.vectorize
    def rotate(z, angle):
        return z * cmath.exp(1j * angle)

    a = complex_array(22, (12,), special=False)
    got = rotate(a, 0.5)
    expected = np.array([rotate.py_func(complex(z), 0.5) for z in a])
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got, expected, rtol=1e-15)
    eager = ruchey.vectorize(["c8(c8, f4)"])(rotate.py_func)
    assert eager(a.astype(np.complex64), np.float32(0.5)).dtype == np.complex64



def test_vectorized_complex_division_sets_no_floating_point_flags():
    # a ufunc's loop is followed by NumPy's look at the FP flags: a
    # quotient of two nonzero numbers must set none, whichever of the
    # divisor's parts is zero or the larger (sigpy's soft threshold)
    @ruchey.vectorize
    def unit(z, r):
        return z / r

    rng = np.random.default_rng(5)
    z = rng.standard_normal(40) + 1j * rng.standard_normal(40)
    divisors = (np.abs(z), 1j * np.abs(z), z, z.conj() * 3, np.full(40, 2.0 + 0j))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for d in divisors:
            got = unit(z, d)
            expected = np.array([unit.py_func(complex(a), complex(b)) for a, b in zip(z, d)])
            np.testing.assert_allclose(got, expected, rtol=1e-15)

G64 = np.complex64(1.5 + 2j)
G128 = np.complex128(-1j)


@njit
def numpy_complex_globals(x):
    return G64 * x, G128 + x


def test_numpy_complex_globals_are_frozen_with_their_type():
    a, b = numpy_complex_globals(2.0)
    assert a == complex(G64 * np.float32(2.0)) and b == complex(G128 + 2.0)


# ---------------------------------------------------------------- NumPy's ufuncs of complex arrays

def complex_operands(seed):
    """Complex arrays of small parts, many of them equal, with NaN parts."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-2, 3, 60) + 1j * rng.integers(-2, 3, 60)
    b = rng.integers(-2, 3, 60) + 1j * rng.integers(-2, 3, 60)
    a[[3, 9]] = [complex(np.nan, 1), complex(1, np.nan)]
    b[[5, 9]] = [complex(1, np.nan), complex(2, 0)]
    return a, b


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                                  "logical_and", "logical_or", "logical_xor"])
def test_numpy_comparisons_and_logical_functions_of_complex_as_numpys_order(name):
    f = njit(eval(f"lambda x, y: np.{name}(x, y)"))
    a, b = complex_operands(hash(name) % 1000)
    with np.errstate(invalid="ignore"):
        for x, y in [(a, b), (a.astype(np.complex64), b), (a, 1 + 0j), (2.0, b), (a[2], b[2]), (a[9], b[9])]:
            expected, got = f.py_func(x, y), f(x, y)
            assert np.asarray(got).dtype == np.asarray(expected).dtype
            np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_operators_of_complex_arrays_as_numpys(op):
    f = njit(eval(f"lambda x, y: x {op} y"))
    a, b = complex_operands(7)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(f(a, b), f.py_func(a, b))
        np.testing.assert_array_equal(f(a.reshape(6, 10), b[:10]), f.py_func(a.reshape(6, 10), b[:10]))
    scalar = njit(eval(f"lambda x, y: x {op} y"))
    with pytest.raises(ruchey.TypingError, match="only compared with == and !="):
        scalar(1j, 2j)  # Python's complex numbers have no order


@pytest.mark.parametrize("name", ["logical_not", "positive", "conjugate", "conj"])
def test_numpy_unary_functions_of_complex(name):
    f = njit(eval(f"lambda x: np.{name}(x)"))
    a, _ = complex_operands(11)
    np.testing.assert_array_equal(f(a), f.py_func(a))
    np.testing.assert_array_equal(f(a.astype(np.complex64)), f.py_func(a.astype(np.complex64)))


def test_conjugate_writes_an_out_array_given_by_position_or_keyword():
    @njit
    def into(x, out):
        np.conjugate(x, out)
        return np.conj(x, out=out[::-1])

    a, _ = complex_operands(12)
    for x in (a, a.astype(np.complex64), np.arange(-5, 55)):
        expected, got = np.zeros(60, x.dtype), np.zeros(60, x.dtype)
        np.testing.assert_array_equal(into(x, got), into.py_func(x, expected))
        np.testing.assert_array_equal(got, expected)
    with pytest.raises(ruchey.TypingError, match="cannot cast"):
        into(a, np.zeros(60))
