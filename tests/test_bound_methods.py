"""A method bound to a name and called through it, as Numba's
BoundFunction values are: ``append = out.append`` then ``append(v)``, and
``getattr(x, "__hash__")()``; each call is the method's on the one value
the name was bound to. A name bound so and used otherwise (passed on,
returned) stays a clear TypingError."""
import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import assert_same, make_rng, seed_of


@njit
def squares_by_bound_append(xs):
    out = [0.0]
    out.pop()
    push = out.append
    for x in xs:
        if x > 0:
            push(x * x)
    return out


@njit
def hash_through_getattr(x):
    h = getattr(x, "__hash__")
    return h()


@njit
def hash_through_attribute(x):
    h = x.__hash__
    return h(), hash(x)


@njit
def upper_by_bound_method(s):
    up = s.upper
    count = s.count
    return up(), count("a")


@njit
def sum_by_bound_array_method(a):
    total = a.sum
    fill = a.fill
    before = total()
    fill(2.0)
    return before, total()


@njit
def words_by_bound_split(s):
    words = []
    add = words.append
    for w in s.split(" "):
        add(len(w))
    return words


@njit
def appends_twice_to_a_parameter(x, n):
    add = x.append
    for i in range(n):
        add(i)
        add(-i)
    return len(x)


@pytest.mark.parametrize("n", [0, 1, 7, 40])
def test_a_bound_append_fills_the_list_it_was_bound_to(n):
    xs = make_rng(seed_of("bound append", n)).normal(size=n)
    assert_same(squares_by_bound_append, xs)


def test_getattr_of_a_method_name_is_the_bound_method():
    rng = make_rng(seed_of("bound hash"))
    values = [int(v) for v in rng.integers(-10**12, 10**12, 5)] + [float(v) for v in rng.normal(size=5)]
    values += [(int(a), int(b), int(c)) for a, b, c in rng.integers(-99, 99, (4, 3))]
    for x in values:
        assert_same(hash_through_getattr, x)
        assert_same(hash_through_attribute, x)


def test_str_and_array_methods_bound_to_names():
    rng = make_rng(seed_of("bound str"))
    for n in (0, 3, 12):
        s = "".join(rng.choice(list("ab c"), n))
        assert_same(upper_by_bound_method, s)
        assert_same(words_by_bound_split, s)
        assert_same(sum_by_bound_array_method, rng.normal(size=n))


def test_a_bound_method_of_a_parameter_changes_the_callers_list():
    for n in (0, 1, 5):
        x = ruchey.typed.List([1, 2])
        assert appends_twice_to_a_parameter(x, n) == 2 + 2 * n
        want = [1, 2]
        appends_twice_to_a_parameter.py_func(want, n)
        assert list(x) == want


def returns_the_bound_method(x):
    m = x.append
    return m


def rebinds_the_receiver(n):
    x = [1]
    add = x.append
    x = [2]
    add(n)
    return x


def test_bound_methods_used_otherwise_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="append"):
        njit(returns_the_bound_method)(ruchey.typed.List([1]))
    with pytest.raises(ruchey.TypingError, match="append"):  # (not x's last value's method: Python's is the first)
        njit(rebinds_the_receiver)(3)
    assert rebinds_the_receiver(3) == [2]
