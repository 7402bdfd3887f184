"""Powers as CPython's and NumPy's, and as Numba's in code written for Numba.
CPython computes float ** int with the C library's pow, rounded once;
ruchey's own code multiplies instead (x * x * x, and double-double
square-and-multiply for other exponents, 1 / x for negative ones), so that
loops of powers run at Numba's speed, and its results are pow's within
1 ulp (they differ from it in about one result in a thousand, as the
correctly rounded square x * x and sqrt do). NumPy's arrays take sqrt,
1 / x and x * x for a literal 0.5, -1 and 2. Numba computes complex powers by CPython's polar form (a
product for an exponent of 2), a complex64 to an int power in complex128."""
import cmath
import importlib.machinery
import math
import os
import pickle
import subprocess
import sys
import textwrap

import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, make_rng

own_code_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own semantics and numba-mode compiles")


def bases(seed, count=3000):
    """Generated floats of every kind: ordinary, huge and tiny (subnormals
    included), negative, near 1, and the special values."""
    rng = make_rng(seed)
    return [float(v) for v in numpy.concatenate([
        rng.uniform(-3, 3, count), numpy.exp(rng.uniform(-700, 700, count)) * rng.choice([-1.0, 1.0], count),
        rng.uniform(1 - 1e-3, 1 + 1e-3, count // 4), rng.uniform(-1, 1, count // 8) * 5e-324 * 2 ** 40,
        [0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1e308, -1e308, math.inf, -math.inf, math.nan]])]


def same_float(got, want):
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def within_one_ulp(got, want):
    if math.isnan(want) or math.isinf(want) or want == 0:
        return same_float(got, want)
    return got == want or got == math.nextafter(want, math.inf) or got == math.nextafter(want, -math.inf)


def assert_each_as_python(f, xs, *extra, close=same_float):
    """f(x, *extra) is py_func's value (to the bit, or as close says), or
    raises its exception."""
    for x in xs:
        try:
            want = f.py_func(x, *extra)
        except (ZeroDivisionError, OverflowError) as exc:
            with pytest.raises(type(exc)):
                f(x, *extra)
            continue
        got = f(x, *extra)
        assert type(got) is type(want) and close(got, want), (x, extra, got, want)


@ruchey.njit
def cube(x):
    return x ** 3


@ruchey.njit
def cube_float_literal(x):
    return x ** 3.0


@ruchey.njit
def inverse(x):
    return x ** -1


@ruchey.njit
def inverse_square(x):
    return x ** -2


@ruchey.njit
def seventh(x):
    return x ** 7


@ruchey.njit
def builtin_pow(x):
    return pow(x, 3)


@ruchey.njit
def math_pow(x):
    return math.pow(x, 3), math.pow(x, -1), math.pow(x, 0.5)


@ruchey.njit
def in_place(x):
    x **= 3
    return x


@ruchey.njit
def power(x, n):
    return x ** n


@ruchey.njit
def powers(x, n):
    out = numpy.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] ** n
    return out


@pytest.mark.parametrize("f", [cube, cube_float_literal, inverse, inverse_square, seventh, builtin_pow, in_place],
                         ids=lambda f: f.py_func.__name__)
def test_literal_exponents_are_pows_value_within_one_ulp(f):
    assert_each_as_python(f, bases(2100), close=within_one_ulp)


def test_math_pow_is_pows_value_within_one_ulp():
    for x in bases(2101):
        x = abs(x)  # (math.pow of a negative base to 0.5 is a ValueError either way)
        try:
            want = math_pow.py_func(x)
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            with pytest.raises(type(exc)):
                math_pow(x)
            continue
        got = math_pow(x)
        assert all(within_one_ulp(g, w) for g, w in zip(got, want)), (x, got, want)


@pytest.mark.parametrize("n", [-7, -3, -2, -1, 0, 1, 3, 4, 5, 9, 17, 64, -64, 1025, -1100])
def test_runtime_int_exponents_are_pows_value_within_one_ulp(n):
    assert_each_as_python(power, bases(2102 + abs(n), 1500), n, close=within_one_ulp)


@pytest.mark.parametrize("n", [-3, -1, 3, 5])
def test_a_loop_raising_to_a_parameter_is_pows_value_within_one_ulp(n):
    # (the loop has a version per exponent of 1 to 3; the others multiply in double-double)
    x = numpy.array([v for v in bases(2120 + n) if v != 0 and abs(v) < 1e30 and abs(v) > 1e-30])
    want = numpy.array([float(v) ** n for v in x])
    got = powers(x, n)
    assert all(within_one_ulp(float(g), float(w)) for g, w in zip(got, want))


def test_a_square_stays_the_product():
    # x * x is the correctly rounded square; the C library's pow(x, 2) is a
    # last bit from it where pow itself misses the correct rounding
    for x in bases(2103):
        if math.isfinite(x) and math.isinf(x * x):
            with pytest.raises(OverflowError):
                power(x, 2)
            continue
        want = x * x
        assert same_float(power(x, 2), want), x


@pytest.mark.parametrize("n", [3, -1, 5, 0.5])
def test_float32_powers_are_powf_to_the_bit(n):
    x = make_rng(2104).uniform(0, 3, 2000).astype(numpy.float32)
    n = numpy.float32(n)
    with numpy.errstate(over="ignore", divide="ignore"):
        want = numpy.array([v ** n for v in x])
    got = numpy.array([power(v, n) for v in x])
    # (a float32 result comes back a Python float, as Numba's)
    assert want.dtype == numpy.float32 and numpy.array_equal(got, want.astype(numpy.float64))


def special_and_generated_array(seed):
    rng = make_rng(seed)
    return numpy.concatenate([rng.uniform(-3, 3, 2000), numpy.exp(rng.uniform(-300, 300, 2000)),
                              [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 5e-324]])


@pytest.mark.parametrize("expr", ["a ** 2", "a ** 0.5", "a ** -1", "a ** 1", "a ** 0", "a ** 2.0", "a ** -1.0"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32], ids=["float64", "float32"])
def test_array_powers_with_numpys_special_exponents_are_numpys(expr, dtype):
    """NumPy's arrays raised to 2, 0.5, -1: x * x, sqrt and 1 / x (its
    -0.0 ** 0.5 is -0.0 and -inf ** 0.5 NaN), not pow."""
    f = ruchey.njit(eval("lambda a: " + expr))
    with numpy.errstate(all="ignore"):
        a = special_and_generated_array(2105).astype(dtype)
        want = f.py_func(a)
        got = f(a)
    assert got.dtype == want.dtype
    assert numpy.array_equal(numpy.signbit(got), numpy.signbit(want)) or expr == "a ** 0.5"  # (NaN's sign)
    assert numpy.array_equal(got, want, equal_nan=True), expr


# ---------------------------------------------------------------- code written for Numba

def for_numba(f):
    ruchey._core._numba_semantics(True)
    try:
        return ruchey.njit(f)
    finally:
        ruchey._core._numba_semantics(False)


def numba_polar_power(a, b):
    """Numba's complex a ** b other than a square: CPython's polar form
    (_Py_c_pow, as this Python up to 3.13 computes it), NaN for its domain
    errors."""
    a, b = complex(a), complex(b)
    if b == 0:
        return complex(1.0, 0.0)
    if a == 0:
        return complex(math.nan, math.nan) if b.imag != 0 or b.real < 0 else 0j
    length, at = abs(a), math.atan2(a.imag, a.real)  # (abs: the C library's hypot; math.hypot is CPython's own)
    mag, phase = math.pow(length, b.real), at * b.real
    if b.imag != 0:
        mag /= math.exp(at * b.imag)
        phase += b.imag * math.log(length)
    return complex(mag * math.cos(phase), mag * math.sin(phase))


def numba_complex_power(a, b):
    b = complex(b)
    if b == 2:
        return complex(a.real * a.real - a.imag * a.imag, a.real * a.imag + a.imag * a.real)
    return numba_polar_power(a, b)


def complex_values(seed, count=1500):
    rng = make_rng(seed)
    return (rng.uniform(-3, 3, count) + 1j * rng.uniform(-3, 3, count)).astype(numpy.complex128)


def same_complex(got, want):
    return same_float(got.real, want.real) and same_float(got.imag, want.imag)


needs_cpython_polar = pytest.mark.skipif(sys.version_info >= (3, 14), reason="3.14 changed _Py_c_pow's division")


@own_code_only
@needs_cpython_polar
@pytest.mark.parametrize("n", [2, 3, 4, -1, -2, 0, 1, 7])
def test_numba_code_complex_int_powers_are_numbas_polar_form(n):
    scalar = for_numba(lambda z, n: z ** n)
    array = for_numba(lambda a, n: a ** n)
    z = complex_values(2106 + n)
    got = array(z, n)
    for v, g in zip(z, got):
        want = numba_complex_power(complex(v), n)
        assert same_complex(scalar(complex(v), n), want), (v, n)
        assert same_complex(complex(g), want), (v, n)


@own_code_only
@needs_cpython_polar
def test_numba_code_complex_literal_power_in_an_array_expression_is_numbas():
    """Numba's complex kurtosis: (a - mean) ** 4 through the polar form."""
    f = for_numba(lambda a, m: ((a - m) ** 4, a ** 2, a ** 0.5))
    a = complex_values(2107)
    m = numpy.mean(a)
    fourth, square, root = f(a, m)
    for i, v in enumerate(a):
        assert same_complex(complex(fourth[i]), numba_complex_power(complex(v - m), 4)), v
        assert same_complex(complex(square[i]), numba_complex_power(complex(v), 2)), v
        assert same_complex(complex(root[i]), numba_complex_power(complex(v), 0.5)), v


@own_code_only
@needs_cpython_polar
def test_numba_code_complex64_to_an_int_power_is_computed_in_complex128():
    f = for_numba(lambda a: (a ** 2, a ** 3, a ** numpy.complex64(3)))
    a = complex_values(2108).astype(numpy.complex64)
    square, cube, cube64 = f(a)
    assert square.dtype == cube.dtype == cube64.dtype == numpy.complex64
    for i, v in enumerate(a):
        w = complex(v)
        assert square[i] == numpy.complex64(numba_complex_power(w, 2)), v
        assert cube[i] == numpy.complex64(numba_complex_power(w, 3)), v
        # complex64 ** complex64 is Numba's complex64 signature: the polar form in float64, rounded
        assert cube64[i] == numpy.complex64(numba_polar_power(w, 3)), v


@own_code_only
def test_numba_code_complex_zero_to_a_negative_power_is_nan():
    f = for_numba(lambda z, n: z ** n)
    r = f(0j, -1)
    assert math.isnan(r.real) and math.isnan(r.imag)
    assert f(0j, 0) == 1 and f(0j, 3) == 0


@own_code_only
def test_numba_code_half_and_minus_one_float_powers_are_llvms_sqrt_and_quotient():
    # Numba's pow(x, 0.5) and pow(x, -1.0) become sqrt and 1 / x in LLVM
    f = for_numba(lambda x: (x ** 0.5, x ** -1.0, math.pow(x, 0.5), x ** 3.0))
    for x in bases(2109, 1000):
        if not 0 < x < 1e100:
            continue
        got = f(x)
        want = (math.sqrt(x), 1.0 / x, math.sqrt(x), math.pow(x, 3.0))
        assert all(within_one_ulp(g, w) for g, w in zip(got, want)), (x, got, want)


def numba_itself():
    return importlib.machinery.PathFinder.find_spec("numba") is not None


COMPARE = """
import pickle, sys
import numpy as np
if sys.argv[1] == "ruchey":
    import ruchey
    ruchey.install_as_numba()
import numba
rng = np.random.default_rng(2110)
z = rng.uniform(-3, 3, 500) + 1j * rng.uniform(-3, 3, 500)
out = [numba.njit(lambda a: np.mean((a - np.mean(a)) ** 4) / np.std(a) ** 4 - 3)(z),
       numba.njit(lambda a, k: a ** k)(z, 3), numba.njit(lambda a: a ** 2)(z.astype(np.complex64)),
       numba.njit(lambda a: a ** 5)(z.astype(np.complex64)), numba.njit(lambda v, k: v ** k)(z[0], -3)]
sys.stdout.buffer.write(pickle.dumps(out))
"""


@own_code_only
@pytest.mark.skipif(not numba_itself(), reason="needs Numba itself")
def test_numba_code_complex_powers_equal_numbas_own():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    results = []
    for mode in ("numba", "ruchey"):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(COMPARE), mode], capture_output=True,
                              timeout=300, env=env)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        results.append(pickle.loads(done.stdout))
    for want, got in zip(*results):
        assert numpy.array_equal(numpy.asarray(got), numpy.asarray(want)), (got, want)
