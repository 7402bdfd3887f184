"""Comprehensions: their loop variables are their own (the function's
variable of the same name keeps its value and type, as in Python), the
operands written before a comprehension in the same expression run before
it, as Python evaluates left to right, and one in a branch of a conditional
expression, a later operand of and/or or a while loop's condition runs
where and as often as Python runs it."""
import numpy as np
import pytest

import ruchey as numba
from conftest import AS_NUMBA, numba_deviation


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
def dict_display_and_fstring_before(l):
    d = {"a": l.pop(), "b": len([x for x in l])}
    return d["a"], d["b"], f"{l.pop()} {len([x for x in l])}"


@numba.njit
def in_a_loop(n):
    l = [0]
    out = []
    for i in range(n):
        out.append((l.append(i), sum([x for x in l]))[1])
    return out


@pytest.mark.parametrize("n", [2, 3, 5])
def test_operands_before_a_comprehension_run_first(n):
    for f in (tuple_item_before, argument_before, operand_before, dict_display_and_fstring_before):
        a, b = list(range(n)), list(range(n))
        assert f(a) == f.py_func(b)
        assert a == b  # the reflected list changed as Python changed it
    a, b = list(range(n + 2)), list(range(n + 2))
    assert keyword_and_receiver_before(a, 1) == keyword_and_receiver_before.py_func(b, 1)
    assert a == b
    assert in_a_loop(n) == in_a_loop.py_func(n)


@numba.njit
def in_branches(l, c):
    a = [x * 2 for x in l] if c else [x for x in l if x > 1]
    b = len(l) > 0 and sum([x for x in l]) > 3
    d = len(l) == 0 or max([x for x in l]) < 3 or min([x for x in l]) > 0
    e = ([x for x in l] if c > 0 else [0]) if c > -5 else [1]
    return a, b, d, e


@numba.njit
def in_a_while_condition(n):
    i = 0
    s = 0
    while sum([j for j in range(i)]) < n:
        i += 1
        if i % 2:
            continue
        s += i
    return i, s


@numba.njit
def appends_in_branches(l, c):
    # the comprehension runs (and sees the append) only where Python runs it
    r = (l.append(7), [x for x in l])[1] if c else [0]
    return r, len(l)


@pytest.mark.parametrize("c", [-9, -1, 0, 1])
def test_comprehensions_in_branches_and_conditions_run_where_python_runs_them(c):
    rng = np.random.default_rng(c + 10)
    for n in (1, 3, 6):
        l = [int(v) for v in rng.integers(-3, 6, n)]
        assert in_branches(l, c) == in_branches.py_func(l, c)
        a, b = list(l), list(l)
        assert appends_in_branches(a, c) == appends_in_branches.py_func(b, c)
        assert a == b
    assert in_a_while_condition(c + 10) == in_a_while_condition.py_func(c + 10)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's refusal (Numba compiles it)")
def test_a_comprehension_in_the_condition_of_a_while_loop_with_else_is_a_typing_error():
    def with_else(n):
        i = 0
        while len([j for j in range(i)]) < n:
            i += 1
        else:
            i = -i
        return i
    with pytest.raises(numba.TypingError, match="while loop with an else clause"):
        numba.njit(with_else)(3)


@numba.njit
def constants_beside_a_comprehension(a, l):
    # dtypes, axes, shapes and constant indices written before a comprehension stay constants
    z = np.zeros(len([x for x in l]), dtype=np.int32)
    s = a.reshape((2, -1)).sum(axis=0) + len([x for x in l])
    t = (a[0], 2.5)
    return z, s, np.sum(a[1:], axis=0) + sum([x for x in l]), t[1] + len([x for x in l])


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_operands_typing_reads_as_constants_stay_constants_beside_a_comprehension(dtype):
    a = np.arange(-2, 6).astype(dtype)
    for l in ([1, 2], [7], [5, -3, 0]):
        got, want = constants_beside_a_comprehension(a, l), constants_beside_a_comprehension.py_func(a, l)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
            assert np.asarray(g).dtype == np.asarray(w).dtype
