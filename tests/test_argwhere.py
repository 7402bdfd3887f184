"""numpy.argwhere in compiled code: the indices of the true elements, a
row each in C order, as NumPy's, on arrays of every dtype and layout."""
import numpy as np
import pytest

import ruchey


@ruchey.njit
def argwhere(a):
    return np.argwhere(a)


@ruchey.njit
def argwhere_of_comparison(a, t):
    return np.argwhere(a > t)


RNG = np.random.default_rng(3)


@pytest.mark.parametrize("a", [
    RNG.integers(-1, 2, 12), RNG.integers(-1, 2, (3, 4)), RNG.random((2, 3, 4)) > 0.5,
    np.zeros((2, 2)), np.zeros(0), RNG.integers(0, 2, (5, 6))[::2, ::-1],
    np.asfortranarray(RNG.integers(0, 2, (3, 3))), np.array([1 + 0j, 0j, 1j])])
def test_matches_numpy(a):
    got = argwhere(a)
    want = argwhere.py_func(a)
    assert got.dtype == np.int64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_of_a_comparison():
    a = RNG.random((4, 5))
    np.testing.assert_array_equal(argwhere_of_comparison(a, 0.3), argwhere_of_comparison.py_func(a, 0.3))


def test_of_a_number_or_0d_array_is_a_row_of_none_where_true():
    for x in (0, 3, 2.5, 0.0, True, np.array(0.0), np.array(-1), np.array(False), np.array(5)):
        got, want = argwhere(x), argwhere.py_func(x)
        assert got.shape == want.shape and got.dtype == want.dtype, x
