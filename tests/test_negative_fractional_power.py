"""A negative float to a fractional power: CPython's result is a complex
number, which a float expression cannot hold, so ruchey's own code raises
ValueError (Python 2's message, math.pow's domain error) rather than give
pow's NaN; code written for Numba gives NaN, as Numba's. complex(x) ** y
is the complex power, as CPython's."""
import cmath
import math

import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own semantics")

MESSAGE = "negative number cannot be raised to a fractional power"


def bases_and_exponents(seed, count=300):
    rng = make_rng(seed)
    return zip(-rng.uniform(1e-3, 1e3, count), rng.uniform(-5, 5, count))


def test_float_to_a_fractional_power_raises_value_error():
    @ruchey.njit
    def power(x, y):
        return x ** y, pow(x, y)

    for x, y in bases_and_exponents(2400):
        x, y = float(x), float(y)
        assert isinstance(power.py_func(x, y)[0], complex)
        with pytest.raises(ValueError, match=MESSAGE):
            power(x, y)


def test_whole_exponents_and_positive_bases_keep_their_values():
    @ruchey.njit
    def power(x, y):
        return x ** y

    rng = make_rng(2401)
    for x, y in zip(rng.uniform(-10, 10, 300), rng.integers(-6, 7, 300)):
        x, y = float(x), float(y)
        assert power(x, y) == power.py_func(x, y) or math.isclose(power(x, y), power.py_func(x, y), rel_tol=1e-15)
        assert power(abs(x), y + 0.5) == abs(x) ** (y + 0.5)
    for x, y in ((-math.inf, 0.5), (-2.0, math.inf), (-0.5, -math.inf), (math.nan, 0.5), (-2.0, math.nan)):
        got, want = power(x, y), power.py_func(x, y)
        assert got == want or (math.isnan(got) and math.isnan(want)), (x, y)


def test_int_base_literal_half_and_augmented_power_raise_too():
    int_base = ruchey.njit(lambda n, y: n ** y)
    half = ruchey.njit(lambda x: x ** 0.5)

    @ruchey.njit
    def augmented(x, y):
        x **= y
        return x

    for f, args in ((int_base, (-2, 0.5)), (half, (-4.0,)), (augmented, (-4.0, 1.5))):
        assert isinstance(f.py_func(*args), complex)
        with pytest.raises(ValueError, match=MESSAGE):
            f(*args)
        positive = tuple(abs(a) for a in args)
        assert f(*positive) == f.py_func(*positive)


def test_complex_base_gives_cpythons_complex_power():
    @ruchey.njit
    def power(x, y):
        return complex(x) ** y

    for x, y in bases_and_exponents(2402):
        got, want = power(float(x), float(y)), power.py_func(float(x), float(y))
        assert cmath.isclose(got, want, rel_tol=1e-13), (x, y)


def test_numpy_float32_scalars_and_arrays_keep_numpys_nan():
    f = ruchey.njit(lambda x, y: x ** y)
    with numpy.errstate(invalid="ignore"):
        assert math.isnan(f(numpy.float32(-2), numpy.float32(0.5)))
        a = -numpy.arange(1.0, 6.0)
        assert numpy.isnan(f(a, 0.5)).all() and numpy.isnan(f.py_func(a, 0.5)).all()
    g = ruchey.njit(error_model="numpy")(lambda x, y: x ** y)
    assert math.isnan(g(-2.0, 0.5))


def test_code_written_for_numba_gives_nan_as_numbas():
    ruchey._core._numba_semantics(True)
    try:
        f = ruchey.njit(lambda x, y: x ** y)
    finally:
        ruchey._core._numba_semantics(False)
    for x, y in bases_and_exponents(2403, 50):
        assert math.isnan(f(float(x), float(y)))
