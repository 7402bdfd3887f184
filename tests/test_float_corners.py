"""Float operations whose answers CPython defines exactly: round(x, ndigits)
correctly rounded, the special cases of ** and math.pow (zeros,
infinities, NaN), and the messages of division by zero (which Python 3.14
changed), each compared with CPython on generated values."""
import itertools
import math
import random
import sys

import numpy as np
import pytest

from ruchey import njit

from conftest import AS_NUMBA, numba_deviation


@njit
def round_to(x, nd):
    return round(x, nd)


def outcome(f, *args):
    try:
        r = f(*args)
    except (OverflowError, ValueError, ZeroDivisionError) as e:
        return type(e)
    return repr(r)


@numba_deviation("Numba rounds x * 10**nd, off by one digit near halves")
def test_round_digits_is_correctly_rounded_as_cpython():
    # 2.675 is stored as 2.67499999999999982236431605997495353221893310546875
    assert round_to(2.675, 2) == 2.67
    assert round_to(0.125, 2) == 0.12 and round_to(0.375, 2) == 0.38
    assert round_to(25.0, -1) == 20.0 and round_to(35.0, -1) == 40.0
    assert round_to(96.0, -1) == 100.0


def generated_floats(rng, count):
    for _ in range(count):
        kind = rng.randrange(5)
        if kind == 0:
            yield rng.uniform(-1e3, 1e3)
        elif kind == 1:  # decimal halves, the ties of the naive method
            yield rng.choice([-1, 1]) * (rng.randrange(10**6) + 0.5) / 10 ** rng.randrange(7)
        elif kind == 2:
            yield round(rng.uniform(-100, 100), 3)
        elif kind == 3:
            yield rng.random() * 10.0 ** rng.randrange(-20, 21)
        else:  # any bit pattern: subnormals, huge values, NaN, infinities
            yield float(np.frombuffer(rng.randbytes(8), np.float64)[0])


@numba_deviation("Numba rounds x * 10**nd, off by one digit near halves")
def test_round_digits_on_generated_values():
    rng = random.Random(2675)
    for x in generated_floats(rng, 20000):
        nd = rng.randrange(-12, 20)
        exp, got = outcome(round, x, nd), outcome(round_to, x, nd)
        assert got == exp, (x, nd, got, exp)


@pytest.mark.parametrize("nd", [-400, -309, -308, -300, -1, 0, 1, 15, 300, 323, 324, 1000])
def test_round_digits_at_the_extremes(nd):
    for x in (0.0, -0.0, 5e-324, -2.5e-308, 1.5, -123456.789, 1.7976931348623157e308,
              -1e308, math.inf, -math.inf, math.nan):
        assert outcome(round_to, x, nd) == outcome(round, x, nd), (x, nd)


def test_round_digits_of_float32_rounds_its_exact_value():
    for x in (2.675, 0.125, 1.005, 123.456):
        x32 = np.float32(x)
        assert round_to(x32, 2) == float(np.float32(round(float(x32), 2)))


POW_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 2.5, -2.5, 1e300, -1e300,
              1e-300, -1e-300, 1024.0, -1075.0, math.inf, -math.inf, math.nan]


@njit
def power(a, b):
    return a ** b


@njit
def math_power(a, b):
    return math.pow(a, b)


@pytest.mark.parametrize("f, ref", [(power, lambda a, b: a ** b), (math_power, math.pow)],
                         ids=["operator", "math.pow"])
def test_pow_special_cases_as_cpython(f, ref):
    for a, b in itertools.product(POW_VALUES, POW_VALUES):
        exp = outcome(ref, a, b)
        if ref is not math.pow and -math.inf < a < 0 and math.isfinite(b) and b != int(b):
            # CPython makes a complex number, which a float cannot hold: ValueError (Numba gives nan)
            if AS_NUMBA and ref is not math.pow:
                assert math.isnan(f(a, b))
                continue
            with pytest.raises(ValueError, match="negative number cannot be raised to a fractional power"):
                f(a, b)
            continue
        if ref is math.pow and a == 0 and b == -math.inf and sys.version_info < (3, 11):
            continue  # Python 3.10's math.pow raised here; 3.11 and ruchey give inf
        assert outcome(f, a, b) == exp, (a, b)


def test_zero_to_minus_infinity_is_infinity():
    assert power(0.0, -math.inf) == math.inf and power(-0.0, -math.inf) == math.inf
    with pytest.raises(ZeroDivisionError):
        power(0.0, -1.0)
    with pytest.raises(ZeroDivisionError):
        power(-0.0, -3.0)


@njit
def true_div(a, b):
    return a / b


@njit
def floor_div(a, b):
    return a // b


@njit
def modulo(a, b):
    return a % b


@pytest.mark.skipif(AS_NUMBA, reason="Numba's messages are its own")
@pytest.mark.parametrize("f", [true_div, floor_div, modulo, power], ids=lambda f: f.py_func.__name__)
def test_division_by_zero_says_what_cpython_says(f):
    """3.10 to 3.13 name the operation ("float modulo", "integer division or
    modulo by zero"), 3.14 says "division by zero" for all."""
    pairs = [(7, 0), (-7, 0), (7.5, 0.0), (7, -0.0), (-2.5, 0), (True, False)]
    if f is power:
        pairs = [(0.0, -1.0), (-0.0, -3.0), (0.0, -2.5), (0.0, -1)]
    for a, b in pairs:
        with pytest.raises(ZeroDivisionError) as expected:
            f.py_func(a, b)
        with pytest.raises(ZeroDivisionError) as got:
            f(a, b)
        assert str(got.value) == str(expected.value), (a, b)
