"""numpy.fill_diagonal in compiled code: NumPy's elements set (a tall
matrix's diagonal restarting with wrap=True, values cycled from an array
of any shape in C order, or from a tuple or list of numbers),
against NumPy on arrays of several shapes and layouts."""
import numpy as np
import pytest

import ruchey


@ruchey.njit
def filled(a, val):
    np.fill_diagonal(a, val)
    return a


@ruchey.njit
def filled_wrapping(a, val, wrap):
    np.fill_diagonal(a, val, wrap=wrap)
    return a


def numpys(a, val, wrap=False):
    b = a.copy()
    np.fill_diagonal(b, val, wrap=wrap)
    return b


SHAPES = [(4, 4), (7, 3), (3, 7), (11, 2), (1, 5), (0, 0), (5, 1)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("val", [2.5, 7, np.array([1.0, -2.0, 3.0]), np.array([9])])
@pytest.mark.parametrize("wrap", [False, True])
def test_matrices_match_numpy(shape, val, wrap):
    a = np.random.default_rng(0).random(shape)
    np.testing.assert_array_equal(filled_wrapping(a.copy(), val, wrap), numpys(a, val, wrap))


def test_views_and_more_dimensions():
    base = np.zeros((8, 8))
    view = base[::2, ::-1]
    want = numpys(view, 4.0)
    filled(view, 4.0)
    np.testing.assert_array_equal(view, want)
    cube = np.zeros((3, 3, 3), np.int32)
    np.testing.assert_array_equal(filled(cube.copy(), 5), numpys(cube, 5))


def test_int_arrays_take_converted_values():
    a = np.zeros((3, 3), np.int64)
    np.testing.assert_array_equal(filled(a.copy(), 2.9), numpys(a, 2.9))


def test_unequal_dimensions_raise_numpys_error():
    with pytest.raises(ValueError, match="All dimensions of input must be of equal length"):
        filled(np.zeros((3, 3, 2)), 1.0)


@pytest.mark.parametrize("val", [(4,), (8, 9), [8.5, -1.0], (True, False, True), np.arange(54).reshape(9, 3, 2, 1),
                                 np.asfortranarray(np.arange(9).reshape(3, 3)), np.arange(9).reshape(3, 3)[::-1],
                                 np.array(7), np.zeros((0, 2))])
def test_values_of_any_shape_or_array_likes_are_read_in_c_order(val):
    rng = np.random.default_rng(1)
    for shape in [(4, 4), (9, 3), (3, 9), (3, 3, 3)]:
        for a in (rng.random(shape), np.asfortranarray(rng.random(shape)), rng.random(shape) > 0.5):
            np.testing.assert_array_equal(filled(a.copy(), val), numpys(a, val))


def test_bad_arguments_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="at least 2 dimensions"):
        filled(np.zeros(3), 1.0)
    with pytest.raises(ruchey.TypingError, match="complex"):
        filled(np.zeros((2, 2)), 1j)
    with pytest.raises(ruchey.TypingError, match="fill_diagonal"):
        filled(np.zeros((2, 2)), "ab")
    with pytest.raises(ruchey.TypingError, match="read-only"):
        a = np.zeros((2, 2))
        a.flags.writeable = False
        filled(a, 1.0)
