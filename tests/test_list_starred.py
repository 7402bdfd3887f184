"""Starred items in a list display, [a, *x, b, *y]: a new list of the
items in order, as Python builds it, x and y any iterable list() takes
(lists, typed Lists, tuples, arrays, strs, ranges, comprehensions,
slices); numbers of two types in one list widen, as [1] + [2.5] does.
Each against the function's Python original on generated inputs."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import assert_same, make_rng


@njit
def joined(a, b):
    return [*a, *b]


@njit
def runs_between(a, k):
    return [k, *a, k + 1, k + 2, *a]


@njit
def copied_then_changed(a):
    c = [*a]
    c.append(-1.5)
    return c, a


@njit
def made_here(n):
    squares = [i * i for i in range(n)]
    return [*range(n), *squares[::-1], *np.arange(n)]


@njit
def of_slices(a, n):
    return [*a[:n], 0, *a[n:][::-1]]


def test_starred_items_of_any_iterable_in_a_list_display():
    rng = make_rng(2401)
    for n in (1, 2, 5):
        ints = [int(v) for v in rng.integers(-9, 9, n)]
        floats = [float(v) for v in rng.normal(size=n)]
        for a, b in ((ints, ints[::-1]), (ints, tuple(ints)), (floats, rng.normal(size=n + 1)), (floats, floats)):
            assert_same(joined, a, b)
        assert_same(joined, "ab"[:n], ["c", "d"])
        assert_same(runs_between, ints, 7)
        assert_same(copied_then_changed, floats)
        for k in range(n + 1):
            assert_same(of_slices, ints, k)
    for n in (0, 1, 4):
        assert_same(made_here, n)
    arrays = [rng.normal(size=3) for _ in range(2)]
    assert_same(joined, arrays[:1], arrays[1:])


@njit
def widened(a, b):
    return [*a, *b]


def test_starred_numbers_of_two_types_widen_as_concatenation():
    a, b = [1, -2], [2.5, -0.0]
    got = widened(a, b)
    assert got == widened.py_func(a, b) == a + b
    assert all(type(v) is float for v in got)  # one item type, as [1] + [2.5] gives


def test_starred_typed_list_gives_a_new_list_and_leaves_it_alone():
    x = typed.List([3, 1, 2])
    got = runs_between(x, 4)
    assert got == runs_between.py_func(list(x), 4) and type(got) is list
    assert list(x) == [3, 1, 2]


def test_starred_items_that_cannot_share_a_list_are_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        joined([1, 2], ["a"])
