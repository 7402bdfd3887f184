"""complex64 and complex128: scalars (arguments, results, literals,
complex(x, y), arithmetic with CPython's semantics, .real/.imag/.conjugate(),
abs, ==/!=, cmath) and arrays (arguments, results, elements, creation,
array expressions, NumPy's functions, reductions), each compared with the
function's Python original or NumPy on generated values, infinities, NaN
and signed zeros included."""
import cmath
import itertools
import math
import random

import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import numba_deviation

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
    with pytest.raises(ZeroDivisionError, match="complex division by zero"):
        div(1 + 2j, 0j)
    with pytest.raises(ZeroDivisionError):
        div(1 + 2j, 0)
    with pytest.raises(ZeroDivisionError):
        div(1.0, -0.0 + 0j)


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
    for e in (-1, -0.5, 1j, -2 + 0j):
        with pytest.raises(ZeroDivisionError, match="0.0 to a negative or complex power"):
            power(0j, e)
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
