"""type(x) in compiled code, as Numba types it: type(x)(v) converts v to
x's type, T = type(x) names that type for later T(v) calls, and type(x)
is a dtype where NumPy takes one (numpy.empty(n, type(x)))."""
import numpy as np
import pytest

import ruchey


@ruchey.njit
def one_of(x):
    return type(x)(1) / x


@ruchey.njit
def halves(z):
    T = type(z)
    return T(0.1) * (T(1.0) + z), T(0) if z < 0 else -z


@ruchey.njit
def same_dtype(x, n):
    T = type(x)
    out = np.empty(n, T)
    for i in range(n):
        out[i] = T(i) * x
    return out, np.zeros(2, type(x))


@ruchey.njit
def of_item(a):
    T = type(a[0])
    return type(a[0])(2.75) + T(1.5)


@pytest.mark.parametrize("x", [3.0, np.float32(3.0), 7, np.int16(-5), np.uint8(9)])
def test_a_values_type_converts_as_its_class(x):
    assert one_of(x) == one_of.py_func(x)


@pytest.mark.parametrize("z", [0.25, -2.0, np.float32(0.25), np.float32(-1.5)])
def test_a_named_type_keeps_the_precision(z):
    # float32's 0.1 differs from float64's: equal results are computed in z's precision
    # (compiled code returns Python numbers, as Numba's does)
    assert halves(z) == halves.py_func(z)


@pytest.mark.parametrize("x", [1.5, np.float32(1.5), np.int32(3), 4])
def test_type_of_a_value_is_a_dtype(x):
    (a, zeros), (b, zeros_py) = same_dtype(x, 5), same_dtype.py_func(x, 5)
    np.testing.assert_array_equal(a, b)
    assert a.dtype == b.dtype and zeros.dtype == zeros_py.dtype


@pytest.mark.parametrize("a", [np.array([1.0]), np.array([1], np.int8), np.array([1.0], np.float32)])
def test_type_of_an_item(a):
    assert of_item(a) == of_item.py_func(a)  # 2 for the int8 item


def test_type_of_an_array_is_a_clear_typing_error():
    @ruchey.njit
    def of_array(a):
        return type(a)(1)

    with pytest.raises(ruchey.TypingError, match="where x is a number or a bool"):
        of_array(np.zeros(2))


def test_a_type_takes_one_argument():
    @ruchey.njit
    def two(x):
        return type(x)(1, 2)

    with pytest.raises(ruchey.TypingError, match="takes one argument"):
        two(1.0)
