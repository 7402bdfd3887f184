"""Sets, part 2: sets of tuples of numbers (literals, add, in, iteration,
the algebra, passed in and returned), the methods taking any iterable as
CPython's do (s.update(lst), s.union(arr), s.intersection(range(n)) ...),
and comparisons of sets of two number types ({1} == {1.0}). Each compared
with the function's py_func on generated inputs; iteration order is not
Python's, so results are compared as sets or sorted."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed, TypingError

from conftest import AS_NUMBA, make_rng, rss_bytes
from test_sets import plain

# numba's sets take no set comprehensions over tuples, no Python sets of
# tuples and no mixed comparisons: these check ruchey's own behaviour
pytestmark = pytest.mark.skipif(AS_NUMBA, reason="beyond numba's sets")


def same(f, *args):
    """f compiled against f itself on copies of args; returns the result."""
    copies = [set(a) if isinstance(a, set) else a for a in args]
    got, expected = plain(njit(f)(*args)), f(*copies)
    assert got == expected, f"{got} != {expected}"
    for a, c in zip(args, copies):  # a set argument changed as Python changes it
        assert a == c
    return got


def pairs(rng, n, hi=6):
    return [(int(a), int(b)) for a, b in rng.integers(-hi, hi, (n, 2))]


# ---------------------------------------------------------------- sets of tuples

def tuple_literal(a, b):
    s = {(a, b), (b, a), (a, b)}
    return sorted(s), len(s)


def grid(n, m):
    s = set()
    for i in range(n):
        for j in range(m):
            s.add((i % 3, j * j % 5))
    return s


def visited(moves):
    s = {(0, 0)}
    x = y = 0
    for dx, dy in moves:
        x += dx
        y += dy
        s.add((x, y))
    return len(s), (0, 0) in s, (x, y) in s, (x + 100, y) in s


def walk_items(n):
    s = {(i, 0.5 * i) for i in range(n)}
    total = 0.0
    for a, b in s:
        total += a * b
    return total, sorted(s)


def algebra(xs, ys):
    a = {(p, q) for p, q in xs}
    b = {(p, q) for p, q in ys}
    return a | b, a & b, a - b, a ^ b, a <= b, a == b, a.isdisjoint(b)


def in_place(xs, ys):
    a = {(p, q) for p, q in xs}
    b = {(p, q) for p, q in ys}
    a |= b
    c = a.copy()
    c -= {(0, 0)}
    a ^= c
    return a, c


def remove_and_pop(n):
    s = {(i, -i) for i in range(n)}
    s.discard((1, -1))
    s.discard((99, 99))
    s.remove((0, 0))
    p = s.pop()
    return p not in s, len(s), s | {p}


def missing(n):
    s = {(i, i) for i in range(n)}
    s.remove((n, 0))


def three_kinds(n):
    return {(i, i * 0.5, i % 2 == 0) for i in range(n)}


def touch_arg(s, i, j):
    s.add((i, j))
    s.discard((0, 0))
    return (1, 2) in s, len(s)


def echo(s):
    return s


def test_tuple_literals_and_adds():
    rng = make_rng(1)
    for a, b in pairs(rng, 20):
        same(tuple_literal, a, b)
    for n, m in [(0, 3), (1, 1), (4, 7), (9, 2)]:
        same(grid, n, m)


def test_membership_and_iteration():
    rng = make_rng(2)
    for n in [0, 1, 5, 40]:
        moves = tuple(pairs(rng, 6, hi=2))
        same(visited, moves)
        same(walk_items, n)


def test_algebra_of_tuple_sets():
    rng = make_rng(3)
    for _ in range(20):
        xs, ys = tuple(pairs(rng, 8, hi=3)), tuple(pairs(rng, 8, hi=3))
        same(algebra, xs, ys)
        same(in_place, xs, ys)


def test_remove_pop_and_key_errors():
    for n in [3, 5, 30]:
        same(remove_and_pop, n)
    with pytest.raises(KeyError) as compiled:
        njit(missing)(3)
    with pytest.raises(KeyError) as python:
        missing(3)
    assert compiled.value.args == python.value.args == ((3, 0),)


def test_returned_and_passed_in_as_python_sets_of_tuples():
    got = njit(three_kinds)(5)
    assert got == three_kinds(5) and type(got) is set
    assert all(type(x) is tuple for x in got)
    s = {(0, 0), (1, 2)}
    same(touch_arg, s, 3, 4)
    assert s == {(1, 2), (3, 4)}
    assert njit(echo)({(np.int32(3), np.float32(1.5))}) == {(3, 1.5)}


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_bad_tuple_sets():
    with pytest.raises(TypeError, match="of another type"):
        njit(touch_arg)({(1, 2), (1, 2, 3)}, 1, 2)
    with pytest.raises(TypeError, match="not numbers"):
        njit(echo)({(1, None)})
    with pytest.raises(TypingError, match="sets of"):
        njit(lambda: {(1, np.zeros(2))})()
    long_key = tuple(range(40))  # a key holds as many items as a tuple may
    assert njit(echo)({long_key, long_key[::-1]}) == {long_key, long_key[::-1]}
    with pytest.raises(TypeError, match="of another type"):
        njit(echo)({(1, (2, 3)), (1, (2, 3.5))})


def nested_and_complex(n, words):
    s = {(i % 5, (words[i % len(words)], (i % 3) * 0.5j)) for i in range(n)}
    t = {(i % 4, (i, i + 1)) for i in range(n)}
    s.add((0, ("new", 1j)))
    s.discard((1, (words[1 % len(words)], 0.5j)))
    popped = t.pop() if t else (0, (0, 0))
    return s, t, (0, ("new", 1j)) in s, popped in t, len(s | s), {(1, 2j), (1, 2j + 0)}


def test_sets_of_nested_tuples_and_complex_numbers():
    """As Numba's: items equal and hashed as Python's, whatever the nesting."""
    rng = make_rng(8)
    f = njit(nested_and_complex)
    for n in [0, 1, 7, 40]:
        words = [str(w) for w in rng.integers(0, 4, 3)] + ["é"]
        got, want = f(n, words), nested_and_complex(n, words)
        assert got[0] == want[0] and got[2:] == want[2:] and len(got[1]) == len(want[1])
    passed = {(1, (2, 3)), (4, (5, 6))}
    same(touch_nested, passed)
    assert njit(echo)({(1, ("a", 2j))}) == {(1, ("a", 2j))}


def touch_nested(s):
    s.add((7, (8, 9)))
    s.discard((1, (2, 3)))
    return (4, (5, 6)) in s, len(s)


# ---------------------------------------------------------------- any iterable

def update_from(lst, arr, t, n):
    s = {100}
    s.update(lst)
    s.update(arr)
    s.update(t)
    s.update(range(n))
    return sorted(s)


def combine_with(lst, arr, t, n):
    s = {1, 2, 3, 5, 8}
    return (sorted(s.union(lst)), sorted(s.intersection(arr)), sorted(s.difference(t)),
            sorted(s.symmetric_difference(range(n))), s.issubset(lst), s.issuperset(t), s.isdisjoint(arr),
            s.issubset(range(n)))


def in_place_from(lst, t, n):
    s = set(range(n))
    s.intersection_update(lst)
    u = {0, 1, 2, 3}
    u.difference_update(t)
    w = {1, 2}
    w.symmetric_difference_update(range(n))
    return sorted(s), sorted(u), sorted(w)


def empty_takes_items(t):
    s = set()
    s.update(t)
    return sorted(s)


def literals(n):
    s = {n}
    return sorted(s.union([n + 1, n + 2])), sorted(s.union((n, 7))), s.issubset([n, 0])


def strs(words):
    s = {"a", "b"}
    s.update(words)
    return sorted(s), s.issuperset(("a",)), sorted(s.intersection(["b", "zz"]))


def floats_take_ints(lst):
    s = {0.5}
    s.update(lst)
    return sorted(s)


def tuples_from_list(n):
    s = {(0, 0)}
    s.update([(i, i * i) for i in range(n)])
    return sorted(s.union(((7, 7), (0, 0))))


def test_methods_take_lists_arrays_tuples_ranges():
    rng = make_rng(4)
    for _ in range(25):
        vals = [int(v) for v in rng.integers(-3, 10, int(rng.integers(0, 8)))]
        lst = typed.List.empty_list(ruchey.int64) if not vals else typed.List(vals)
        arr = rng.integers(-3, 10, int(rng.integers(0, 6)))
        t = tuple(int(v) for v in rng.integers(-3, 10, 3))
        n = int(rng.integers(0, 9))
        assert plain(njit(update_from)(lst, arr, t, n)) == update_from(list(lst), arr, t, n)
        assert plain(njit(combine_with)(lst, arr, t, n)) == combine_with(list(lst), arr, t, n)
        assert plain(njit(in_place_from)(lst, t, n)) == in_place_from(list(lst), t, n)
        same(empty_takes_items, t)
        same(literals, n)
        same(tuples_from_list, n)


def test_methods_take_iterables_of_strs_and_ints_into_floats():
    same(strs, ("c", "a", "é"))
    assert plain(njit(floats_take_ints)(typed.List([1, 2, 2]))) == floats_take_ints([1, 2, 2])


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_iterables_of_items_that_do_not_fit_are_typing_errors():
    with pytest.raises(TypingError, match="cannot hold items of float64"):
        njit(lambda: {1}.union([1.5]))()
    with pytest.raises(TypingError, match="no one type"):
        njit(lambda: {1}.union((1, "a")))()
    with pytest.raises(TypingError):
        njit(lambda x: {1}.update(x))(2)


# ---------------------------------------------------------------- numbers of two types

def compared(x, y):
    a, b = set(x), set(y)
    return a == b, a != b, a <= b, a < b, a >= b, a > b


def test_sets_of_two_number_types_compare_as_their_numbers():
    rng = make_rng(5)
    corners = [(np.array([2**53 + 1]), np.array([2.0**53])),
               (np.array([-1]), np.array([2**64 - 1], dtype=np.uint64)),
               (np.array([1, 0], dtype=np.uint8), np.array([True, False])),
               (np.array([1.5, np.nan]), np.array([1, 2], dtype=np.int32)),
               (np.array([0.5], dtype=np.float32), np.array([0.5]))]
    for _ in range(30):
        ints = rng.integers(-4, 4, int(rng.integers(1, 6)))
        floats = rng.integers(-4, 4, int(rng.integers(1, 6))).astype(np.float64) / rng.choice([1, 2])
        corners.append((ints, floats))
        corners.append((ints.astype(np.int32), ints.astype(np.float64)))
    for x, y in corners:
        for p, q in ((x, y), (y, x)):
            assert njit(compared)(p, q) == compared(p, q), (p, q)


# ---------------------------------------------------------------- memory

def churn(n, lst):
    a = {(i, i % 7) for i in range(n)}
    b = {(i % 5, i) for i in range(n)}
    c = (a | b) - (a & b)
    c.update([(0, 1), (2, 3)])
    d = c.union(lst)
    return len(d) + len(sorted(a)) + (set(range(n)) == {1.0, 2.0})


def test_repeated_calls_leak_nothing():
    f, g = njit(churn), njit(touch_arg)
    lst = ((1, 1), (9, 9))
    arg = {(1, 2), (5, 5)}
    f(20, lst), g(arg, 1, 1)
    before = rss_bytes()
    for _ in range(100_000):
        f(8, lst)
        g(arg, 1, 1)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"
    assert arg == {(1, 2), (5, 5), (1, 1)}
