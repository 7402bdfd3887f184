"""A list's item type widens over what it is given, as Numba unifies it:
a list written out (or []) bound once to a variable, then given a wider
number by append, insert, extend or x += y, is a list of the wider type (ints
and a float: float64; a complex: complex128), its items written out made
of that type; `+` of lists of two number types made in the function is a
new list of both (lists given to it may be typed.Lists, which Numba never
adds across item types: test_typed_more).
A list made elsewhere (an argument, list(range(n))) keeps its type, and
the wider item is a TypingError, as Python's list would keep the float.
Each against the Python original on generated inputs."""
import math

import numpy as np
import pytest

import ruchey
from ruchey import njit
from conftest import make_rng, numba_deviation


def assert_widened(got, want, kind):
    """got: a compiled list of items all of kind; want: Python's list of
    the same numbers (its ints still ints)."""
    assert type(got) is list and all(type(v) is kind for v in got), got
    np.testing.assert_array_equal(np.array(got, dtype=complex), np.array(want, dtype=complex))


def numbers(seed, count=6):
    rng = make_rng(seed)
    return ([float(rng.normal() * 100) for _ in range(count)] + [0.0, -0.0, -2.5, math.inf, -math.inf])


@njit
def appended(n, x):
    l = []
    for i in range(n):
        l.append(i)
    l.append(x)
    return l


@njit
def written_out(a, b, x):
    l = [a, b, 3]
    l.extend([x, a])
    l.insert(1, x)
    return l, len(l)


@njit
def extended_by_many(n, x):
    l = []
    l.extend(range(n))
    l.extend(l[:-1])
    l.extend((5, 42))
    l.extend([x])
    return l


@njit
def made_complex(a, z):
    l = [a, 2 * a]
    l.append(z)
    return l


def test_a_list_written_out_widens_to_the_numbers_given_it():
    rng = make_rng(1)
    for x in numbers(1):
        n = int(rng.integers(0, 6))
        a, b = (int(v) for v in rng.integers(-1000, 1000, size=2))
        assert_widened(appended(n, x), appended.py_func(n, x), float)
        (got, k), (want, j) = written_out(a, b, x), written_out.py_func(a, b, x)
        assert k == j
        assert_widened(got, want, float)
        assert_widened(extended_by_many(n, x), extended_by_many.py_func(n, x), float)
        z = complex(x, -x)
        assert_widened(made_complex(a, z), made_complex.py_func(a, z), complex)


@njit
def pairs_of_two_kinds(n, x, z):
    pairs = [(1, x)]
    for i in range(n):
        if i & 1:
            pairs.append((i, x * i))
        else:
            pairs.append((x, i))
    pairs.insert(0, (z, n))
    return pairs


def test_a_list_of_tuples_widens_field_by_field():
    rng = make_rng(4)
    for x in numbers(4):
        n = int(rng.integers(0, 6))
        z = complex(x, 1.5)
        got, want = pairs_of_two_kinds(n, x, z), pairs_of_two_kinds.py_func(n, x, z)
        assert type(got) is list and len(got) == len(want)
        assert all(type(a) is complex and type(b) is float for a, b in got), got
        np.testing.assert_array_equal(np.array(got, dtype=complex), np.array(want, dtype=complex))

    @njit
    def other_lengths(n):
        pairs = [(1, 2)]
        pairs.append((n, 2, 3))
        return pairs

    with pytest.raises(ruchey.TypingError, match="cannot put"):
        other_lengths(1)


@njit
def extended_in_place(n, x):
    ints = [1]
    floats = [x]
    for i in range(n):
        ints += [i]
    ints += floats
    floats += ints
    return ints, floats


@numba_deviation("Numba's x += y casts y's floats to x's ints")
def test_a_list_written_out_widens_to_the_numbers_added_in_place():
    rng = make_rng(3)
    for x in numbers(3):
        n = int(rng.integers(0, 5))
        for got, want in zip(extended_in_place(n, x), extended_in_place.py_func(n, x)):
            assert_widened(got, want, float)


@njit
def concatenated(n, m, x, flag):
    ints = list(range(n))
    floats = [x] * m
    flags = [flag, not flag]
    return ints + floats, floats + ints, flags + ints, ints + ints


def test_adding_lists_of_two_number_types_makes_a_list_of_both():
    rng = make_rng(2)
    for x in numbers(2) + [math.nan]:
        n, m = (int(v) for v in rng.integers(0, 5, size=2))
        got, want = concatenated(n, m, x, bool(n % 2)), concatenated.py_func(n, m, x, bool(n % 2))
        for g, w, kind in zip(got, want, (float, float, int, int)):
            assert_widened(g, w, kind)


@njit
def given_list_append(l, x):
    l.append(x)


@njit
def made_by_call_append(n, x):
    l = list(range(n))
    l.append(x)
    return l


@numba_deviation("Numba widens such a list's type too, then fails an assertion while lowering the cast")
def test_a_list_made_elsewhere_keeps_its_item_type():
    with pytest.raises(ruchey.TypingError, match="cannot put float64 into"):
        given_list_append([1, 2], 2.5)
    with pytest.raises(ruchey.TypingError, match="cannot put float64 into"):
        made_by_call_append(3, 2.5)
