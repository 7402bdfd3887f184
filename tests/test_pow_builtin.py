"""pow(x, y) in compiled code: x ** y, with its types and errors (ints to
int powers exact, floats, complex, arrays elementwise; ZeroDivisionError
for 0.0 to a negative power; an int to a negative int power the
operator's ValueError); compared with the function's py_func on generated
inputs."""
import numpy as np
import pytest

from ruchey import njit

from conftest import assert_same_value, make_rng, random_ints, seed_of


@njit
def pow_of(x, y):
    return pow(x, y)


@pytest.mark.parametrize("kind", ["int", "float", "mixed", "negative_exponent"])
def test_pow_matches_python(kind):
    rng = make_rng(seed_of("pow", kind))
    xs = random_ints(rng, 30, -20, 20)
    ys = random_ints(rng, 30, 0, 12)
    for x, y in zip(xs, ys):
        a, b = {"int": (x, y), "float": (abs(x) / 3, y / 4), "mixed": (abs(x) / 7, y),
                "negative_exponent": ((x or 1) / 2, -y)}[kind]
        expected, got = pow_of.py_func(a, b), pow_of(a, b)
        if isinstance(expected, float):
            assert got == pytest.approx(expected, rel=1e-15, abs=0)
        else:
            assert_same_value(expected, got)


def test_pow_of_complex_and_arrays():
    assert pow_of(1j, 2) == pow_of.py_func(1j, 2)
    a = np.arange(5.0)
    np.testing.assert_array_equal(pow_of(a, 3), pow_of.py_func(a, 3))
    np.testing.assert_array_equal(pow_of(2.0, a), pow_of.py_func(2.0, a))


def test_pow_errors_as_the_operator():
    with pytest.raises(ZeroDivisionError):
        pow_of.py_func(0.0, -1)
    with pytest.raises(ZeroDivisionError):
        pow_of(0.0, -1)
    with pytest.raises(ValueError, match="negative exponent"):  # an int result type: as int ** int
        pow_of(2, -1)

    def three(x):
        return pow(x, 3, 5)

    assert [njit(three)(x) for x in range(-6, 7)] == [three(x) for x in range(-6, 7)]  # b ** e % m, as Python's
