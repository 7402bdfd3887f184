"""raise E(a, *t, k=v) as Python raises it (the keyword arguments and a
spread tuple reach the exception's class, which Numba drops), IntEnum
members and Optionals raised as they are (the member, or None: Numba's
boxing), and a caught raise's values kept for a bare raise after it
however many other raises come between. Every case against the
function's own Python original on generated inputs."""
import enum
import gc
import sys

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng, numba_deviation, random_ints


class Tagged(Exception):
    def __init__(self, a, b=1, *, tag="none"):
        super().__init__(a, b, tag)
        self.a, self.b, self.tag = a, b, tag


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 7


def raised(f, *args):
    with pytest.raises(Exception) as info:
        f(*args)
    return info.value


def same_args(expected, got):
    assert type(got) is type(expected)
    assert len(got.args) == len(expected.args)
    for e, g in zip(expected.args, got.args):
        if isinstance(e, numpy.ndarray):
            numpy.testing.assert_array_equal(g, e)
        else:
            assert type(g) is type(e) and g == e, (e, g)


def assert_raises_same(f, *args):
    expected, got = raised(f.py_func, *args), raised(f, *args)
    same_args(expected, got)
    return expected, got


@njit
def raise_keyword(x):
    raise Tagged(x, b=x * 2)


@njit
def raise_keywords_of_objects(x, a):
    raise Tagged(a[:2], tag="array", b=x)


@njit
def raise_spread(x, y):
    t = (x, y, "z")
    raise ValueError(*t)


@njit
def raise_spread_between(x, a):
    t = (x, x + 1)
    raise Tagged(*t, tag=str(x))


@numba_deviation("numba drops an exception's keyword arguments")
@pytest.mark.parametrize("x", random_ints(make_rng(11), 8, -1000, 1000))
def test_keyword_arguments_reach_the_class(x):
    expected, got = assert_raises_same(raise_keyword, x)
    assert (got.a, got.b, got.tag) == (expected.a, expected.b, expected.tag)


@numba_deviation("numba drops an exception's keyword arguments")
def test_keywords_with_an_array():
    a = make_rng(12).standard_normal(5)
    expected, got = assert_raises_same(raise_keywords_of_objects, 3, a)
    assert got.tag == "array" and got.b == 3


@numba_deviation("numba raises E(*t) with no arguments")
@pytest.mark.parametrize("x", random_ints(make_rng(13), 6, -100, 100))
def test_spread_tuple_is_the_arguments(x):
    assert_raises_same(raise_spread, x, x * 0.5)
    expected, got = assert_raises_same(raise_spread_between, x, numpy.zeros(2))
    assert got.tag == expected.tag


@numba_deviation("numba raises E(*t) with no arguments")
def test_spread_of_no_tuple_is_a_typing_error():
    @njit
    def f(x):
        raise ValueError(*x)
    with pytest.raises(ruchey.TypingError, match="only tuples are spread"):
        f(numpy.zeros(2))


@njit
def raise_member(k):
    raise ValueError(Level.LOW, k)


@njit
def raise_optional(x, flag):
    y = x if flag else None
    raise ValueError(y)


@pytest.mark.parametrize("k", [Level.LOW, Level.HIGH])
def test_intenum_member_is_raised_as_the_member(k):
    expected, got = assert_raises_same(raise_member, k)
    assert got.args[0] is Level.LOW and got.args[1] is k


@pytest.mark.parametrize("flag", [True, False])
def test_optional_is_raised_as_none_or_value(flag):
    assert_raises_same(raise_optional, 5, flag)


@njit
def reraise_after_others(n, a):
    try:
        raise ValueError("first", a)
    except ValueError:
        for i in range(n):
            try:
                raise KeyError(i, a[:i])
            except KeyError:
                pass
        raise


@njit
def reraise_after_nested(n, a):
    try:
        raise ValueError("outer", a)
    except ValueError:
        for i in range(n):
            try:
                raise KeyError(a[:1])
            except KeyError:
                try:
                    raise IndexError(i, a)
                except IndexError:
                    pass
        raise


@numba_deviation("numba does not re-raise a caught exception")
@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 200, 1000])
def test_caught_raise_keeps_its_values_past_other_raises(n):
    a = make_rng(n).standard_normal(4)
    expected, got = assert_raises_same(reraise_after_others, n, a)
    assert got.args[0] == "first"
    assert_raises_same(reraise_after_nested, n, a)


@njit
def caught_in_loop(n, a):
    c = 0
    for i in range(n):
        try:
            raise ValueError(a[i % 3:])
        except ValueError:
            c += 1
    return c


@njit
def returns_from_clause(a, leave):
    for i in range(3):
        try:
            raise ValueError(a)
        except ValueError:
            if leave:
                return i
            raise
    return -1


@njit
def finally_returns(n, a):
    c = 0
    for i in range(n):
        try:
            try:
                raise ValueError(a)
            finally:
                c += 1
                if c % 2:
                    continue
        except ValueError:
            c += 10
    return c


@njit
def finally_then_reraise(n, a):
    try:
        raise ValueError("kept", a)
    finally:
        for i in range(n):
            try:
                raise KeyError(a[:i])
            except KeyError:
                pass


@pytest.mark.parametrize("n", [0, 70, 300])
def test_finally_keeps_the_raise_it_runs_for(n):
    a = make_rng(15 + n).standard_normal(3)
    assert finally_returns(n, a) == finally_returns.py_func(n, a)
    assert_raises_same(finally_then_reraise, n, a)


@numba_deviation("numba does not re-raise a caught exception")
def test_values_of_caught_raises_are_let_go():
    a = make_rng(14).standard_normal(6)
    assert caught_in_loop(50, a) == caught_in_loop.py_func(50, a)
    assert returns_from_clause(a, True) == returns_from_clause.py_func(a, True)
    assert_raises_same(returns_from_clause, a, False)
    gc.collect()
    before = sys.getrefcount(a)
    caught_in_loop(5000, a)
    returns_from_clause(a, True)
    for n in (3, 70):
        for f in (reraise_after_others, reraise_after_nested):
            try:
                f(n, a)
            except ValueError:
                pass
    try:
        returns_from_clause(a, False)
    except ValueError:
        pass
    finally_returns(1000, a)
    gc.collect()
    assert sys.getrefcount(a) == before
