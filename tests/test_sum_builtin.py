"""Python's sum() of arrays in compiled code: the rows of a 2-d (or more)
array, or a list's or a tuple's arrays, added to an array start as Python
adds them (start + x0 + x1 + ..., each a new array: start is not changed,
and an empty iterable's sum is start itself), checked against the
function's Python original on generated arrays. As in Numba, the start
must be an array (from 0, an empty iterable's sum would be the int 0) of
a dtype that holds the sums."""
import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, make_rng


@njit
def total(xs, start):
    return sum(xs, start)


@njit
def total_of_list(a, b, c, start):
    return sum([a, b, c], start)


@njit
def total_of_tuple(a, b, start):
    return sum((a, b), start)


def arrays(rng, dtype, shape):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, size=shape).astype(dtype)
    a = rng.normal(size=shape).astype(dtype)
    if a.size:
        a.flat[rng.integers(a.size)] = np.nan
    return a


@pytest.mark.parametrize("dtype", (np.float64, np.float32, np.int64, np.int32, np.uint8))
def test_sum_of_an_arrays_rows_agrees_with_python(dtype):
    rng = make_rng(7)
    for shape in ((0, 3), (1, 4), (5, 3), (4, 2, 3), (3, 0)):
        a = arrays(rng, dtype, shape)
        assert_same(total, a, np.zeros(shape[1:], dtype))
        assert_same(total, a, arrays(rng, dtype, shape[1:]))
        assert_same(total, a, arrays(rng, dtype, (2,) + shape[1:]))  # the start broadcast with each row
    a = arrays(rng, dtype, (6, 8))
    assert_same(total, a[::2, 1::3], np.ones(3, dtype))  # rows of a strided view
    assert_same(total, a.T, np.zeros(6, dtype))


def test_sum_of_a_lists_and_a_tuples_arrays_agrees_with_python():
    rng = make_rng(11)
    for n in (0, 1, 9):
        a, b, c = (arrays(rng, np.float64, n) for _ in range(3))
        assert_same(total_of_list, a, b, c, np.ones(n))
        assert_same(total_of_tuple, a, b, np.full(n, -2.5))
        assert_same(total_of_tuple, a, b, np.zeros((3, n)))
    ints = [rng.integers(0, 9, 4) for _ in range(3)]
    assert_same(total_of_list, *ints, np.zeros(4))  # ints into a float start: floats


def test_sum_leaves_start_unchanged_and_gives_it_back_when_empty():
    start = np.arange(3.0)
    for f in (total, total.py_func):
        got = f(np.ones((2, 3)), start)
        assert got is not start and got.tolist() == [2.0, 3.0, 4.0] and start.tolist() == [0.0, 1.0, 2.0]
        assert f(np.ones((0, 3)), start) is start


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_sum_of_arrays_bad_input():
    with pytest.raises(ruchey.TypingError, match="takes an array start"):
        njit(lambda a: sum(a))(np.ones((2, 3)))
    with pytest.raises(ruchey.TypingError, match="takes an array start"):
        total(np.ones((2, 3)), 1.0)
    with pytest.raises(ruchey.TypingError, match="cannot be unified"):  # as Numba: float sums into an int start
        total(np.ones((2, 3)), np.zeros(3, np.int64))
    with pytest.raises(ruchey.TypingError, match="heterogeneous tuple"):  # as Numba: a loop's item has one type
        total_of_tuple(np.ones((1, 2)), np.ones(2), np.zeros(2))
    for f in (total, total.py_func):
        with pytest.raises(ValueError, match="broadcast"):
            f(np.ones((2, 3)), np.zeros(4))
