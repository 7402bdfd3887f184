"""float ** int in code written for Numba (ruchey registered as numba):
Numba computes it by square-and-multiply, each product rounded in the
float's type, 1.0 / r for a negative exponent (ZeroDivisionError where r
is 0) and pow beyond |n| 0x10000; ruchey's own functions stay within an
ulp of CPython's pow. The products differ from pow in the last bits, and
iterated maps amplify those (a chaotic map's orbit follows Numba's only
with its products): compiled results equal, to the bit, the products
written below in Python (the exponent a literal or a variable)."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")


def numba_power(x, n):
    """Numba's x ** n for an int n, in x's type (a Python float or np.float32)."""
    if abs(n) > 0x10000:
        return type(x)(float(x) ** float(n))
    r, a, k = type(x)(1.0), x, abs(n)
    while k:
        if k & 1:
            r = r * a
        k >>= 1
        a = a * a
    if n < 0:
        if r == 0:
            raise ZeroDivisionError("division by zero")
        return type(x)(1.0) / r
    return r


def for_numba(f):
    ruchey._core._numba_semantics(True)
    try:
        return ruchey.njit(f)
    finally:
        ruchey._core._numba_semantics(False)


@for_numba
def power(x, n):
    return x ** n


@for_numba
def literal_powers(x):
    return x ** 4, x ** 5, x ** 7, x ** 13, x ** -3, x ** -6


def test_a_variable_int_exponent_is_numbas_products():
    rng = np.random.default_rng(2)
    xs = np.concatenate([rng.uniform(-3, 3, 300), rng.uniform(0.9, 1.1, 100), [0.5, 2.0, -1.0]])
    ns = [4, 5, 6, 7, 8, 9, 13, 31, 64, 100, 1000, -1, -3, -4, -7, -15]
    for x in xs:
        for n in ns:
            assert power(float(x), n) == numba_power(float(x), n), (x, n)


def test_literal_exponents_are_numbas_products():
    rng = np.random.default_rng(3)
    for x in np.concatenate([rng.uniform(-2, 2, 400), [0.75, 1.5]]):
        want = tuple(numba_power(float(x), n) for n in (4, 5, 7, 13, -3, -6))
        assert literal_powers(float(x)) == want, x


def test_a_float32_base_multiplies_in_float32_then_widens():
    """Numba's float32 ** int64 is a float64 of float32 products."""
    rng = np.random.default_rng(4)
    for x in rng.uniform(-2, 2, 200).astype(np.float32):
        for n in (4, 6, 9, -5):
            got = power(x, n)
            assert type(got) is float and got == float(numba_power(x, n)), (x, n)


def test_exponents_beyond_0x10000_take_pow():
    for x in (1.0000001, 0.9999999, -1.00000001):
        for n in (70000, 100001, -70001):
            assert power(x, n) == numba_power(x, n), (x, n)


def test_a_singer_map_orbit_follows_numbas():
    @for_numba
    def orbit(pop, rate, steps):
        out = np.empty(steps)
        for i in range(steps):
            pop = rate * (7.86 * pop - 23.31 * pop ** 2 + 28.75 * pop ** 3 - 13.3 * pop ** 4)
            out[i] = pop
        return out

    def orbit_numba(pop, rate, steps):
        out = []
        for _ in range(steps):
            pop = rate * (7.86 * pop - 23.31 * numba_power(pop, 2) + 28.75 * numba_power(pop, 3)
                          - 13.3 * numba_power(pop, 4))
            out.append(pop)
        return np.array(out)

    for rate in np.linspace(0.9, 1.07, 9):
        np.testing.assert_array_equal(orbit(0.3, rate, 300), orbit_numba(0.3, rate, 300))


@pytest.mark.parametrize("n", [-1, -2, -5])
def test_zero_to_a_negative_int_is_numbas_zero_division_error(n):
    with pytest.raises(ZeroDivisionError, match="^division by zero$"):
        power(0.0, n)


def test_ruchey_functions_keep_powers_within_an_ulp_of_pow():
    @ruchey.njit
    def own(x, n):
        return x ** n

    rng = np.random.default_rng(5)
    for x in rng.uniform(0.5, 2, 100):
        for n in (4, 9, 31, -7):
            got, want = own(float(x), n), own.py_func(float(x), n)
            assert abs(got - want) <= np.spacing(abs(want)), (x, n)
