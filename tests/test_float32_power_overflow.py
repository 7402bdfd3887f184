"""A float32's power is NumPy's scalar's: one that overflows is inf, and
0 to a negative power is inf, as NumPy's (and Numba's) give them, where a
Python float's raises OverflowError or ZeroDivisionError; float64 keeps
Python's errors."""
import math

import numpy
import pytest
import ruchey

from conftest import NUMPY1, assert_same, assert_same_value, make_rng


@ruchey.njit
def power(x, y):
    return x ** y


@ruchey.njit
def square(x):
    return x ** 2


@ruchey.njit
def cube_plus_one(x):
    return x ** 3 + numpy.float32(1)


@ruchey.njit
def squared_distance(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


@ruchey.njit
def int_powers(x, n):
    out = numpy.empty(n.shape[0], numpy.float32)
    for i in range(n.shape[0]):
        out[i] = x[i] ** n[i]
    return out


def float32_pairs(seed, count=300):
    """Bases and exponents whose powers overflow float32, underflow, or fit,
    and the special values."""
    rng = make_rng(seed)
    x = numpy.exp(rng.uniform(-60, 60, count)) * rng.choice([-1, 1], count)
    y = rng.uniform(-40, 40, count)
    y[: count // 3] = numpy.round(y[: count // 3])  # integral exponents: negative bases too
    special = [(0.0, -2.0), (-0.0, -3.0), (0.0, -0.5), (math.inf, 2.0), (1e30, 2.0), (-1e30, 3.0), (2.0, 200.0),
               (-2.0, 0.5), (math.nan, 0.0), (1.0, math.nan)]
    x = numpy.concatenate([x, [a for a, _ in special]])
    y = numpy.concatenate([y, [b for _, b in special]])
    return x.astype(numpy.float32), y.astype(numpy.float32)


def test_float32_power_overflows_to_inf_as_numpys():
    for a, b in zip(*float32_pairs(3100)):
        assert_same(power, a, b)


def as_numpy2(f, *args):
    """f's Python value under NumPy 2's promotion, where a float32 to a
    power written as an int is a float32, as Numba types it; ruchey gives
    it under NumPy 1 too, whose float32 ** 2 is a float64"""
    with numpy.errstate(over="ignore"):
        return numpy.float32(f.py_func(*args)) if NUMPY1 else f.py_func(*args)


def test_float32_literal_powers_overflow_to_inf_as_numpys():
    # (x ** 3 is Numba's product x * x * x, NumPy's pow rounds once)
    for v in numpy.concatenate([float32_pairs(3101)[0], numpy.float32([1e19, 2e19, 7e12, -7e12])]):
        assert_same_value(as_numpy2(square, v), square(v), what=f"square({v!r})")
        assert_same_value(as_numpy2(cube_plus_one, v), cube_plus_one(v), rel=1e-6, what=f"cube_plus_one({v!r})")


def test_float32_sums_of_squares_overflow_to_inf():
    rng = make_rng(3102)
    for n in (1, 3, 8, 17, 1003):
        x, y = (rng.standard_normal((2, n)) * 100).astype(numpy.float32)
        assert_same(squared_distance, x, y, rel=1e-6)  # (a float64 sum in Numba's typing, float32 in NumPy 2's)
        x[rng.integers(n)] = 1e30
        if NUMPY1:  # (NumPy 1's float32 ** 2 is a float64, which does not overflow: Numba's sum is ruchey's there)
            assert squared_distance(x, y) == sum_of_float32_squares(x, y) == math.inf
        else:
            assert_same(squared_distance, x, y)


def sum_of_float32_squares(x, y):
    """squared_distance as Numba types it: each (x - y) ** 2 a float32,
    summed in a float64"""
    s = 0.0
    with numpy.errstate(over="ignore"):
        for a, b in zip(x, y):
            s += float((a - b) * (a - b))
    return s


def test_float32_to_int_powers_overflow_to_inf():
    rng = make_rng(3103)
    x = (numpy.exp(rng.uniform(-5, 5, 200)) * rng.choice([-1, 1], 200)).astype(numpy.float32)
    n = rng.integers(-80, 80, 200)
    assert_same(int_powers, x, n)


def test_float64_power_keeps_pythons_errors():
    with pytest.raises(OverflowError):
        power(1e200, 2.0)
    with pytest.raises(ZeroDivisionError):
        power(0.0, -2.0)
    with pytest.raises(OverflowError):
        square(1e200)
