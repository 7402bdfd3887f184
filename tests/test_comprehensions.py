"""Comprehensions: their loop variables are their own (the function's
variable of the same name keeps its value and type, as in Python), and the
operands written before a comprehension in the same expression run before
it, as Python evaluates left to right."""
import numpy as np
import pytest

import ruchey as numba
from conftest import numba_deviation


@numba.njit
def loop_variable_kept(n):
    x = 5
    i = 2.5
    a = [x * 2 for x in range(n)]
    b = {i: i * 2 for i in range(n)}
    c = {x % 3 for x in range(n)}
    d = sum([i for i in range(n)])
    return x, i, a, b, c, d


@numba.njit
def first_iterable_reads_the_function_variable(x):
    y = [x + 1 for x in x]
    return x, y


@numba.njit
def nested_and_tuple_targets(n):
    i = -1
    pairs = [(i, j) for i in range(n) for j in range(i) if (i + j) % 2]
    rows = [[i * j for j in range(i)] for i in range(n)]
    swapped = [(b, a) for a, b in zip(range(n), range(n, 0, -1))]
    shadow = [[i for i in range(i)] for i in range(n)]
    return i, pairs, rows, swapped, shadow


@numba.njit
def type_of_the_outer_variable_unchanged(n):
    v = 0.5
    ints = [v for v in range(n)]
    return v + 1, ints


@numba_deviation("it takes a set comprehension's loop variable reused from another for the set")
@pytest.mark.parametrize("n", [0, 1, 4, 7])
def test_comprehension_variables_are_their_own(n):
    assert loop_variable_kept(n) == loop_variable_kept.py_func(n)
    assert nested_and_tuple_targets(n) == nested_and_tuple_targets.py_func(n)
    got = type_of_the_outer_variable_unchanged(n)
    assert got == type_of_the_outer_variable_unchanged.py_func(n)
    assert all(type(v) is int for v in got[1])


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_first_iterable_is_read_outside_the_comprehension(dtype):
    x = np.arange(-3, 4).astype(dtype)
    got, want = first_iterable_reads_the_function_variable(x), first_iterable_reads_the_function_variable.py_func(x)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]


@numba.njit
def tuple_item_before(l):
    t = (l.append(5), [x for x in l])
    return t[1]


@numba.njit
def argument_before(l):
    return max(l.pop(), len([x for x in l]))


@numba.njit
def keyword_and_receiver_before(l, k):
    s = {0}
    s.add(len(l.pop() * [x for x in l]))
    return sorted([l.pop() for _ in range(k)], reverse=len([v for v in l]) > 100), s


@numba.njit
def operand_before(l):
    return l.pop() + len([x for x in l]), len(l) == len([x for x in l])


@numba.njit
def in_a_loop(n):
    l = [0]
    out = []
    for i in range(n):
        out.append((l.append(i), sum([x for x in l]))[1])
    return out


@pytest.mark.parametrize("n", [1, 2, 5])
def test_operands_before_a_comprehension_run_first(n):
    for f in (tuple_item_before, argument_before, operand_before):
        a, b = list(range(n)), list(range(n))
        assert f(a) == f.py_func(b)
        assert a == b  # the reflected list changed as Python changed it
    a, b = list(range(n + 2)), list(range(n + 2))
    assert keyword_and_receiver_before(a, 1) == keyword_and_receiver_before.py_func(b, 1)
    assert a == b
    assert in_a_loop(n) == in_a_loop.py_func(n)
