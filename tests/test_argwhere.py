"""numpy.argwhere in compiled code: the indices of the true elements, a
row each in C order, in a Fortran array as NumPy's, on arrays of every
dtype and layout, numbers, 0-d arrays, array-likes (tuples), and None and
strs (NumPy's 0-d arrays of them)."""
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
    assert got.flags.f_contiguous and (got.size == 0 or got.strides == want.strides)
    np.testing.assert_array_equal(got, want)


def test_of_a_comparison():
    a = RNG.random((4, 5))
    np.testing.assert_array_equal(argwhere_of_comparison(a, 0.3), argwhere_of_comparison.py_func(a, 0.3))


@pytest.mark.parametrize("a", [5, 0, 2.5, 0.0, True, 1j, np.array(3.0), np.array(0), np.array(-1, np.int8),
                               ((1.5, 0.0), (3.5, 4.5)), (0, 1, 2), (0.0, 0.0)])
def test_numbers_0d_arrays_and_tuples_as_numpy(a):
    got, want = argwhere(a), argwhere.py_func(a)
    assert got.dtype == np.int64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(flatnonzero(a), flatnonzero.py_func(a))


@ruchey.njit
def flatnonzero(a):
    return np.flatnonzero(a)


@pytest.mark.parametrize("a", [None, "", "ab", "\u00e9t\u00e9", " ", " \x00\t", "\u3000b", "\u3000", "\x00 ", " \x00", "\x00"])
def test_none_and_strs_as_numpys_0d_arrays(a):
    """NumPy reads None and a str as a 0-d array of one object, one str:
    one row (or position) of no index where its truth is true."""
    got, want = argwhere(a), argwhere.py_func(a)
    assert got.dtype == np.int64 and got.shape == want.shape
    got, want = flatnonzero(a), flatnonzero.py_func(a)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_none_or_a_str_from_a_variable():
    @ruchey.njit
    def f(flag):
        x = None
        s = "yes" if flag else ""
        return np.argwhere(x).shape, np.flatnonzero(s).size

    for flag in (True, False):
        assert f(flag) == f.py_func(flag)


def test_a_set_is_refused_clearly():
    with pytest.raises(ruchey.TypingError, match="argwhere"):
        argwhere({1, 2})
