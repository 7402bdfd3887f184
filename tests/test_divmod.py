"""divmod(a, b) in compiled code: Python's floored quotient and remainder
of ints, floats and bools (NumPy's types unified as for `//` and `%`),
ZeroDivisionError by zero; compared with the function's py_func on
generated inputs."""
import numpy as np
import pytest

from ruchey import TypingError, njit

from conftest import assert_same_value, make_rng, random_ints, seed_of


@njit
def divmod_of(a, b):
    return divmod(a, b)


@pytest.mark.parametrize("kind", ["int", "float", "mixed"])
def test_divmod_matches_python(kind):
    rng = make_rng(seed_of("divmod", kind))
    xs = random_ints(rng, 20, -1000, 1000)
    ys = [y for y in random_ints(rng, 20, -50, 50) if y]
    for x, y in zip(xs, ys):
        a, b = (x, y) if kind == "int" else (x / 7, y / 3) if kind == "float" else (x, y / 3)
        assert_same_value(divmod_of.py_func(a, b), divmod_of(a, b))


def test_divmod_of_bools_and_int32():
    assert_same_value(divmod_of.py_func(True, True), divmod_of(True, True))
    got = divmod_of(np.int32(-7), np.int32(2))
    assert got == (-4, 1)


@pytest.mark.parametrize("a, b", [(3, 0), (3.5, 0.0), (0, 0)])
def test_divmod_by_zero_raises_as_python(a, b):
    with pytest.raises(ZeroDivisionError):
        divmod_of.py_func(a, b)
    with pytest.raises(ZeroDivisionError):
        divmod_of(a, b)


def test_divmod_of_complex_is_a_typing_error():
    with pytest.raises(TypingError, match="complex"):
        divmod_of(1j, 2)
