"""all(x) and any(x) of any iterable compiled code walks (lists, tuples,
arrays, ranges, strs, typed containers, generators), each checked against
the function's own Python original on generated inputs: the first item
that decides them ends the walk, as Python's."""
import numpy as np
import pytest
import ruchey
from ruchey import njit
from ruchey.typed import Dict, List

from conftest import make_rng


@njit
def all_of(x):
    return all(x)


@njit
def any_of(x):
    return any(x)


def iterables(rng):
    """Arrays, lists and tuples of few nonzero or zero items (each may decide), and the empty ones."""
    for n in (0, 1, 2, 5, 9):
        ints = rng.integers(0, 3, n) * rng.integers(0, 2, n)
        floats = rng.choice([0.0, -0.0, 1.5, np.nan, -2.0], n)
        yield ints
        yield floats
        yield ints.astype(np.bool_)
        yield floats.astype(np.float32)
        if n:
            yield List([int(v) for v in ints])
            yield tuple(float(v) for v in floats)


@pytest.mark.parametrize("seed", range(3))
def test_all_and_any_of_arrays_lists_and_tuples_as_python(seed):
    for x in iterables(make_rng(seed)):
        assert all_of(x) is all_of.py_func(x), x
        assert any_of(x) is any_of.py_func(x), x


@pytest.mark.parametrize("n", [0, 1, 4])
def test_all_and_any_of_ranges_strs_and_dicts(n):
    s = "ab c"[:n]
    d = Dict.empty(ruchey.int64, ruchey.float64)
    for k in range(n):
        d[k] = 1.0
    for x in (s, d):
        assert all_of(x) is all_of.py_func(x), x
        assert any_of(x) is any_of.py_func(x), x

    @njit
    def of_ranges(n):
        return all(range(n)), any(range(n)), all(range(1, n + 1)), any(range(n, 0, -2))

    assert of_ranges(n) == of_ranges.py_func(n)


def test_all_and_any_of_literal_lists_and_generator_expressions():
    @njit
    def checks(a, lo):
        return (all([a[0] > lo, a[-1] > lo]), any((a[0] > lo, a[-1] > lo)),
                all(v > lo for v in a), any(v > lo for v in a if v != 0), all(()), any(()))

    rng = make_rng(4)
    for _ in range(20):
        a = rng.integers(-3, 4, 6)
        lo = int(rng.integers(-4, 4))
        assert checks(a, lo) == checks.py_func(a, lo)


@njit
def tens(a):
    for x in a:
        yield 10 // x


def test_the_deciding_item_ends_the_walk_of_a_generator():
    @njit
    def first_true(a):
        return any(tens(a))

    @njit
    def first_false(a):
        return all(tens(a))

    a = np.array([1, 0])  # a second item would divide by zero
    assert first_true(a) is first_true.py_func(a) is True
    b = np.array([20, 0])  # 10 // 20 is 0: false
    assert first_false(b) is first_false.py_func(b) is False
    with pytest.raises(ZeroDivisionError):
        first_false(np.array([1, 0]))


def test_all_of_a_non_iterable_is_a_typing_error():
    @njit
    def f(x):
        return all(x)

    with pytest.raises(ruchey.TypingError):
        f(5)


def test_any_of_a_2d_array_walks_its_rows_as_numpy_does():
    a = np.zeros((2, 3))
    with pytest.raises(ValueError, match="ambiguous"):
        any_of(a)
    with pytest.raises(ValueError, match="ambiguous"):
        any_of.py_func(a)
    one = np.zeros((3, 1))
    assert any_of(one) is any_of.py_func(one) is False
