"""The `/` operator of complex array expressions divides each element as
Python's complex `/` does (Smith's method, dividing by the divisor's norm),
as Numba's array expressions do; np.divide and `/=` keep NumPy's loop (which
multiplies by the norm's reciprocal). Both agree with NumPy to rounding."""
import numpy as np
import pytest

from ruchey import njit


def smith_quotient(x, y, real):
    """Python's complex x / y (CPython's _Py_c_quot) in the float type real."""
    ar, ai, br, bi = real(x.real), real(x.imag), real(y.real), real(y.imag)
    if abs(br) >= abs(bi):
        ratio = bi / br
        d = br + bi * ratio
        return complex((ar + ai * ratio) / d, (ai - ar * ratio) / d)
    ratio = br / bi
    d = br * ratio + bi
    return complex((ar * ratio + ai) / d, (ai * ratio - ar) / d)


def operands(seed, n, dtype):
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-4, 4, (4, n))
    a = rng.standard_normal(n) * scale[0] + 1j * rng.standard_normal(n) * scale[1]
    b = rng.standard_normal(n) * scale[2] + 1j * rng.standard_normal(n) * scale[3]
    return a.astype(dtype), b.astype(dtype)


def elementwise(x, y, dtype):
    real = np.float32 if dtype == np.complex64 else np.float64
    x, y = np.broadcast_arrays(x, y)
    return np.array([smith_quotient(p, q, real) for p, q in zip(x.ravel(), y.ravel())], dtype).reshape(x.shape)


@njit
def quotient(a, b):
    return a / b


@njit
def quotient_in_expression(a, b, c):
    return (a + c) / b * 2.0


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["c16", "c8"])
def test_array_quotient_divides_each_element_as_pythons_complex_division(dtype):
    a, b = operands(1, 400, dtype)
    got = quotient(a, b)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, elementwise(a, b, dtype))
    np.testing.assert_allclose(got, quotient.py_func(a, b), rtol=1e-6 if dtype == np.complex64 else 1e-15)
    got = quotient(a.reshape(20, 20), b[:20])  # broadcast
    np.testing.assert_array_equal(got, elementwise(a.reshape(20, 20), b[:20], dtype))
    c = dtype(0.5 - 2j)
    np.testing.assert_array_equal(quotient_in_expression(a, b, c), elementwise(a + c, b, dtype) * dtype(2.0))


def test_complex_array_over_a_real_divides_both_parts_by_it():
    # as Numba's: the real made complex, a zero ratio, each part divided
    a, _ = operands(2, 300, np.complex128)
    t = np.random.default_rng(3).uniform(0.5, 7.0, 300)
    for divisor in (t, 3.7, t[5]):
        got = quotient(a, divisor)
        np.testing.assert_array_equal(got.real, a.real / divisor)
        np.testing.assert_array_equal(got.imag, a.imag / divisor)
        np.testing.assert_allclose(got, quotient.py_func(a, divisor), rtol=1e-15)
    got = quotient(2.5, a)
    np.testing.assert_array_equal(got, elementwise(np.full(300, 2.5 + 0j), a, np.complex128))


def test_complex_scalar_over_complex_array_and_array_over_scalar():
    a, b = operands(4, 200, np.complex128)
    for x, y in ((a, b[7]), (b[3], a)):
        np.testing.assert_array_equal(quotient(x, y), elementwise(x, y, np.complex128))
        np.testing.assert_allclose(quotient(x, y), quotient.py_func(x, y), rtol=1e-15)


@njit
def numpy_divide(a, b):
    return np.divide(a, b)


@njit
def divide_in_place(a, b):
    a /= b
    return a


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["c16", "c8"])
def test_numpy_divide_and_in_place_division_keep_numpys_loop(dtype):
    a, b = operands(5, 400, dtype)
    np.testing.assert_array_equal(numpy_divide(a, b), numpy_divide.py_func(a, b))
    np.testing.assert_array_equal(divide_in_place(a.copy(), b), divide_in_place.py_func(a.copy(), b))
    np.testing.assert_array_equal(divide_in_place(a.copy(), 3.7), divide_in_place.py_func(a.copy(), 3.7))


def test_array_quotient_by_zero_gives_numpys_infinities_and_nan():
    a = np.array([1 + 2j, -3 + 0j, 0j, complex(np.nan, 1), complex(np.inf, 0)])
    b = np.array([0j, 0j, 0j, 1 + 1j, 2 + 0j])
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = quotient.py_func(a, b)
    got = quotient(a, b)
    np.testing.assert_array_equal(np.stack([got.real, got.imag]), np.stack([expected.real, expected.imag]))
