"""t * k and k * t: a tuple's items k times over, k a constant integer
(the length is part of the tuple's type), as Python and Numba give them."""
import sys

import numpy as np
import pytest

import ruchey

from conftest import AS_NUMBA

K = 3


@ruchey.njit
def repeat_literal():
    return (1, 2.5) * 3


@ruchey.njit
def repeat_on_the_left():
    return 2 * (1.0, -2.0)


@ruchey.njit
def repeat_module_constant(x):
    return (x, x + 1) * K


@ruchey.njit
def repeat_constant_expression(x):
    return (x,) * (K + 1)


@ruchey.njit
def repeat_none_and_negative(x):
    return (x, x) * 0, (x,) * -2, () * 4


@ruchey.njit
def repeat_nested(x):
    return ((x, 1), x) * 2


@ruchey.njit
def repeat_then_index(x, i):
    t = (x, x * 2.0) * 2
    return t[i] + t[-1]


@ruchey.njit
def repeat_in_place(x):
    t = (x, x)
    t *= 1
    return t


@ruchey.njit
def repeat_arrays(a):
    t = (a,) * 3
    return t[0].sum() + t[2].sum()


@ruchey.njit
def repeat_arrays_returned(a):
    return (a, 1) * 2


@ruchey.njit
def repeat_arrays_none(a):
    return (a,) * 0


def test_literal_count_repeats_the_items():
    assert repeat_literal() == repeat_literal.py_func()


def test_count_on_the_left():
    assert repeat_on_the_left() == repeat_on_the_left.py_func()


@pytest.mark.parametrize("x", [0, 7, -3, 2.5])
def test_constants_of_the_module_and_expressions_count(x):
    assert repeat_module_constant(x) == repeat_module_constant.py_func(x)
    assert repeat_constant_expression(x) == repeat_constant_expression.py_func(x)


def test_zero_or_negative_counts_give_the_empty_tuple():
    assert repeat_none_and_negative(4) == repeat_none_and_negative.py_func(4) == ((), (), ())


def test_nested_tuples_repeat_whole():
    assert repeat_nested(5) == repeat_nested.py_func(5)


@pytest.mark.parametrize("i", range(-4, 4))
def test_repeated_tuple_indexes_like_pythons(i):
    assert repeat_then_index(1.5, i) == repeat_then_index.py_func(1.5, i)


def test_in_place_repeat():
    assert repeat_in_place(2) == repeat_in_place.py_func(2)


def test_tuples_of_arrays_keep_their_references():
    a = np.arange(6.0)
    before = sys.getrefcount(a)
    for _ in range(5):
        assert repeat_arrays(a) == repeat_arrays.py_func(a)
        r = repeat_arrays_returned(a)
        assert r[0] is not None and r[1] == 1 and r[3] == 1
        assert all(np.array_equal(x, a) for x in (r[0], r[2]))
        del r
        assert repeat_arrays_none(a) == ()
    assert sys.getrefcount(a) == before


def test_a_variable_count_is_a_clear_typing_error():
    @ruchey.njit
    def by_variable(n):
        return (1, 2) * n

    with pytest.raises(ruchey.TypingError, match="constant integer number of times"):
        by_variable(3)


def test_a_float_count_is_refused():
    @ruchey.njit
    def by_float():
        return (1, 2) * 2.0

    with pytest.raises(ruchey.TypingError, match="constant integer number of times"):
        by_float()


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's bound; Numba has none")
def test_more_than_1000_items_is_refused():
    @ruchey.njit
    def too_long():
        return (1, 2, 3) * 400

    with pytest.raises(ruchey.TypingError, match="more than 1000"):
        too_long()
