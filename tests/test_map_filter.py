"""map(), filter(), functools.reduce(), dict(pairs) and the truth of lists and dicts in compiled code,
against Python."""
import functools
import re

import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import assert_same, make_rng, seed_of


@njit
def twice_plus(x, y):
    return 2 * x + y


# ---------------------------------------------------------------- for loops

@njit
def sum_map_lambda(a):
    s = 0.0
    for v in map(lambda x: x * x - 1.0, a):
        s += v
    return s


@njit
def sum_map_two(a, b):
    s = 0.0
    for v in map(twice_plus, a, b):  # to the shorter
        s = s * 0.5 + v
    return s


@njit
def map_break_else(a, limit):
    k = 0
    for v in map(lambda x: x + 1, a):
        if v > limit:
            break
        k += 1
    else:
        k = -k
    return k


@njit
def filter_positive(a):
    s = 0.0
    n = 0
    for v in filter(lambda x: x > 0, a):
        s += v
        n += 1
    return s, n


@njit
def filter_none_range(n):
    s = 0
    for v in filter(None, range(-n, n)):  # truthy items: all but 0
        if v % 3 == 0:
            continue
        s += v * v
    return s


@njit
def map_over_enumerate(a):
    s = 0.0
    for v in map(lambda p: p[0] * p[1], enumerate(a)):
        s += v
    return s


@njit
def map_tuple_target(a):
    s = 0.0
    for lo, hi in map(lambda x: (x - 1.0, x + 1.0), a):
        s += hi * lo
    return s


def arrays(name, n):
    rng = make_rng(seed_of("map_filter", name, n))
    return rng.normal(size=n), rng.normal(size=n + 3)


@pytest.mark.parametrize("n", [0, 1, 7, 100])
def test_for_loops_over_map_and_filter(n):
    a, b = arrays("loops", n)
    assert_same(sum_map_lambda, a)
    assert_same(sum_map_two, a, b)
    assert_same(sum_map_two, b, a)
    assert_same(filter_positive, a)
    assert_same(filter_none_range, n)
    assert_same(map_over_enumerate, a)
    assert_same(map_tuple_target, a)
    for limit in (-1.0, 0.5, 10.0):
        assert_same(map_break_else, a, limit)


@njit
def count_calls(calls, n, stop):
    def bump(i):
        calls[0] += 1
        return i

    for v in map(bump, range(n)):
        if v == stop:
            break
    return calls[0]


def test_map_calls_the_function_as_the_loop_reaches_each_item():
    # Python's map is lazy: a break leaves the rest uncalled
    for stop in (0, 3, 50):
        assert_same(count_calls, np.zeros(1, np.int64), 10, stop)


# ---------------------------------------------------------------- as values

@njit
def map_filter_values(a, b):
    squares = list(map(lambda x: x * x, a))
    pos = sorted(filter(lambda x: x > 0.0, a))
    pairs = [v for v in map(twice_plus, a, b)]
    # float lists added in order: Python 3.12's sum() compensates (documented)
    total = 0.0
    for v in squares + pairs:
        total += v
    return len(squares), len(pairs), total, len(pos), pos[0] if pos else 0.0, sum(filter(None, [0, 1, 2, 0, 3]))


@njit
def dict_from_pairs(keys, values):
    d = dict(zip(keys, values))
    e = dict(enumerate(values))
    f = dict([(1, 2.5), (3, 4.5)])
    total = 0.0
    for k in d:
        total += k * d[k]
    return len(d), total, len(e), e[0] if len(e) else -1.0, f[3]


@pytest.mark.parametrize("n", [0, 1, 9, 64])
def test_map_filter_and_dict_as_values(n):
    a, b = arrays("values", n)
    assert_same(map_filter_values, a, b)
    keys = make_rng(seed_of("dict keys", n)).integers(0, 5, size=n)  # repeated keys: the last value wins
    assert_same(dict_from_pairs, keys, b[:n])


@njit
def truth_of_containers(n):
    l = [i * 0.5 for i in range(n)]
    d = {i: i for i in range(n)}
    flags = (1 if l else 0) + (2 if d else 0) + (4 if not l else 0) + (8 if not d else 0)
    drained = 0
    while l:
        l.pop()
        drained += 1
    return flags, drained, bool(n) and len(d) > 0


@pytest.mark.parametrize("n", [0, 1, 5])
def test_lists_and_dicts_are_true_when_not_empty(n):
    assert_same(truth_of_containers, n)


# ---------------------------------------------------------------- zip(*t) and map(f, *t)

@njit
def scaled(x, y, w):
    return (x - y) * w


@njit
def spread_walks(a, b, *more):
    t = (a, b)
    s = 0.0
    for x, y in zip(*t):  # a tuple variable
        s += x * y
    for i, xs in enumerate(zip(*more)):  # the function's *args: one item per argument
        s += i * xs[0] * xs[-1]
    rows = [(x, n, z) for x, (n, z) in zip(a, zip(range(len(b) - 1, -1, -1), *more[:1]))]
    mixed = list(zip(range(3), *more, *t))
    mapped = list(map(lambda x, y: x * 2.0 + y, *t))
    weighted = list(map(scaled, a, *more[:1], *t[1:]))
    return s, rows, mixed, mapped, weighted, sum(map(lambda x, y: x - y, *t), 0.0), list(zip(*()))


@pytest.mark.parametrize("n", [0, 1, 7, 40])
def test_zip_and_map_spread_a_tuple_of_sequences_as_python(n):
    a, b = arrays("spread", n)
    assert_same(spread_walks, a, b, b)
    assert_same(spread_walks, a, b, a[::-1].copy(), b)
    assert_same(spread_walks, b, a, a, b, a)


def test_zip_of_a_spread_list_is_a_typing_error():
    @njit
    def rows(seqs):
        return list(zip(*seqs))
    with pytest.raises(ruchey.TypingError, match=r"take a tuple of sequences"):
        rows(ruchey.typed.List([np.arange(3.0), np.arange(2.0)]))


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("body, message", [
    ("return list(map(lambda x: x))", "map() takes a function and at least one iterable"),
    ("return list(map(lambda x: x, a, key=1))", "map() takes a function"),
    ("return list(filter(lambda x: x, a, a))", "filter() takes a function"),
    ("return list(filter(lambda x: x))", "filter() takes a function"),
])
def test_bad_calls_are_typing_errors(body, message):
    ns = {}
    exec(f"def f(a):\n    {body}\n", ns)
    with pytest.raises(ruchey.TypingError, match=re.escape(message)):
        njit(ns["f"])(np.arange(3.0))


def test_map_of_several_iterables_refuses_a_shadowed_zip():
    ns = {"zip": lambda *a: None}
    exec("def f(a):\n    return list(map(lambda x, y: x + y, a, a))\n", ns)
    with pytest.raises(ruchey.TypingError, match="shadows"):
        njit(ns["f"])(np.arange(3.0))


# ---------------------------------------------------------------- functools.reduce

@njit
def reduce_with_initial(a, start):
    def weigh(acc, x):
        return acc * 0.5 + x
    return functools.reduce(weigh, a, start)


@njit
def reduce_without_initial(a):
    return functools.reduce(twice_plus, a), functools.reduce(lambda p, q: p if p > q else q, a)


@njit
def reduce_range_to_tuple(n):
    return functools.reduce(lambda acc, i: (acc[0] + i, acc[1] * 2 + i), range(n), (0, 1))


@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_reduce_with_and_without_an_initial_value(n):
    a = make_rng(seed_of("reduce", n)).standard_normal(n)
    assert_same(reduce_with_initial, a, 3.5)
    assert_same(reduce_with_initial, a[:0], -1.0)  # nothing to fold: the initial value
    assert_same(reduce_without_initial, a)
    assert_same(reduce_range_to_tuple, n)


def test_reduce_of_nothing_without_initial_is_a_type_error():
    with pytest.raises(TypeError, match="reduce\\(\\) of empty iterable with no initial value"):
        reduce_without_initial(np.zeros(0))
