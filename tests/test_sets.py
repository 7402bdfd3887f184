"""Sets in compiled code: literals, comprehensions, set(x), `in`, len,
truth, iteration, the methods, the operators | & - ^ (and in place), the
comparisons; Python sets passed in (changes written back, as Numba's
reflected sets) and returned. Each compared with the function's py_func on
generated inputs; iteration order is not Python's, so results are compared
as sets or sorted."""
import subprocess
import sys

import numpy as np
import pytest

from ruchey import njit, TypingError, typed

from conftest import AS_NUMBA, make_rng, rss_bytes


def plain(v):
    """A compiled result with its typed lists made Python lists."""
    if isinstance(v, tuple):
        return tuple(plain(x) for x in v)
    return list(v) if type(v).__name__ == "List" else v


def same(f, *args):
    """f compiled against f itself on copies of args; returns the result."""
    copies = [set(a) if isinstance(a, set) else a for a in args]
    got, expected = plain(njit(f)(*args)), f(*copies)
    assert got == expected, f"{got} != {expected}"
    assert type(got) is type(expected)
    for a, c in zip(args, copies):  # a set argument changed as Python changes it
        assert a == c
    return got


def random_ints(rng, n, hi=20):
    return [int(v) for v in rng.integers(-hi, hi, n)]


# ---------------------------------------------------------------- making sets

def literal(a, b, c):
    s = {a, b, c, a}
    return sorted(s)


def comprehension(n, m):
    return sorted({i * i % m for i in range(n) if i % 3})


def from_array(a):
    return sorted(set(a))


def from_range(n, step):
    return sorted(set(range(-n, n, step)))


def from_list_and_tuple(x):
    return sorted(set([x, 2 * x, x])), sorted(set((x, x + 1, x)))


def from_str(s):
    return sorted(set(s))


def grown():
    s = set()
    for i in range(10):
        s.add(i % 4 * 1.5)
    return sorted(s)


@pytest.mark.parametrize("seed", range(4))
def test_literals_and_comprehensions_match_python(seed):
    rng = make_rng(seed)
    a, b, c = random_ints(rng, 3)
    same(literal, a, b, c)
    same(literal, a * 0.5, b * 0.5, c * 0.5)
    same(comprehension, int(rng.integers(0, 200)), int(rng.integers(1, 30)))


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float64", "float32", "bool"])
def test_set_of_an_array_matches_python(dtype):
    a = make_rng(7).integers(0, 9, 50).astype(dtype)
    got = njit(from_array)(a)
    assert list(got) == sorted(set(a.tolist()))


def test_set_of_ranges_lists_tuples_and_strs():
    for n, step in [(5, 1), (7, 3), (0, 1), (9, -2)]:
        same(from_range, n, step)
    got = njit(from_list_and_tuple)(3)
    assert [list(x) for x in got] == [list(x) for x in from_list_and_tuple(3)]
    assert list(njit(from_str)("abracadabra")) == from_str("abracadabra")
    assert list(njit(grown)()) == grown()


def test_large_and_signed_items_hash_as_python():
    a = np.array([2**63 + 5, 1, 2**63 + 5, 2**64 - 1], np.uint64)
    assert list(njit(from_array)(a)) == sorted(set(a.tolist()))
    b = np.array([-(2**63), -1, -2, -1, 2**63 - 1], np.int64)
    assert list(njit(from_array)(b)) == sorted(set(b.tolist()))


def zero_signs():
    return len({0.0, -0.0, 1, 1.0, 2.5})


def test_equal_numbers_are_one_item():
    same(zero_signs)


# ---------------------------------------------------------------- reading and changing

def membership(xs, probes):
    s = set(xs)
    hits = 0
    for p in probes:
        if p in s:
            hits += 1
        if p not in s:
            hits += 1000
    return hits, len(s)


def iterate(n, m):
    s = {i % m * 0.5 for i in range(n)}
    total = 0.0
    count = 0
    for x in s:
        total += x
        count += 1
    return total, count


def methods(xs, ys):
    s = set(xs)
    t = set(ys)
    s.add(99)
    s.discard(xs[0])
    s.discard(1000)
    c = s.copy()
    c.add(-99)
    popped = set()
    while len(t) > 2:
        popped.add(t.pop())
    out = (sorted(s), sorted(c), sorted(t | popped), len(popped))
    s.clear()
    return out, len(s), bool(s), bool(c), not s


def truth(n):
    s = {n}
    s.discard(0)
    if s:
        return 1
    return 0


@pytest.mark.parametrize("seed", range(5))
def test_in_len_iteration_and_methods_match_python(seed):
    rng = make_rng(seed)
    xs, ys, probes = random_ints(rng, 12), random_ints(rng, 9), random_ints(rng, 30)
    assert njit(membership)(np.array(xs), np.array(probes)) == membership(xs, probes)
    n, m = int(rng.integers(0, 100)), int(rng.integers(1, 20))
    got = njit(iterate)(n, m)
    want = iterate(n, m)
    assert got[1] == want[1] and abs(got[0] - want[0]) < 1e-9
    got = njit(methods)(np.array(xs), np.array(ys))
    out, *rest = methods(xs, ys)
    assert [list(x) for x in got[0][:3]] == list(out[:3]) and got[0][3] == out[3]
    assert list(got[1:]) == rest
    same(truth, 0)
    same(truth, 5)


def strs(probe):
    s = set()
    for w in ["the", "cat", "and", "the", "hat", "and", "bat"]:
        s.add(w)
    s.discard("zzz")
    s.discard("and")
    return sorted(s), probe in s, len(s), sorted({w + "!" for w in s})


def test_sets_of_strs():
    for probe in ("hat", "dog", ""):
        got = njit(strs)(probe)
        want = strs(probe)
        assert (list(got[0]), got[1], got[2], list(got[3])) == want


# ---------------------------------------------------------------- set algebra

def operators(xs, ys):
    a = set(xs)
    b = set(ys)
    return (sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b),
            a <= b, a < b, a >= b, a > b, a == b, a != b, a <= a | b, a | b > b, a == a.copy())


def named(xs, ys):
    a = set(xs)
    b = set(ys)
    return (sorted(a.union(b)), sorted(a.intersection(b)), sorted(a.difference(b)),
            sorted(a.symmetric_difference(b)), a.issubset(b), a.issuperset(b), a.isdisjoint(b),
            a.issubset(a.union(b)), (a - b).isdisjoint(b))


def in_place(xs, ys, which):
    a = set(xs)
    alias = a
    b = set(ys)
    if which == 0:
        a |= b
    elif which == 1:
        a &= b
    elif which == 2:
        a -= b
    elif which == 3:
        a ^= b
    elif which == 4:
        a.update(b)
    elif which == 5:
        a.intersection_update(b)
    elif which == 6:
        a.difference_update(b)
    elif which == 7:
        a.symmetric_difference_update(b)
    else:
        a -= a
    return sorted(alias)


def flat(v):
    return tuple(list(x) if not isinstance(x, (bool, np.bool_)) else bool(x) for x in v)


@pytest.mark.parametrize("seed", range(6))
def test_operators_and_methods_match_python(seed):
    rng = make_rng(seed)
    xs, ys = random_ints(rng, int(rng.integers(1, 15)), 10), random_ints(rng, int(rng.integers(1, 15)), 10)
    if seed == 0:
        ys = xs + xs[:1]  # equal sets
    if seed == 1:
        ys = xs + [100]  # a proper superset
    for f in (operators, named):
        got = njit(f)(np.array(xs), np.array(ys))
        assert flat(got) == flat(f(xs, ys))
    for which in range(9):
        assert list(njit(in_place)(np.array(xs), np.array(ys), which)) == in_place(xs, ys, which)


# ---------------------------------------------------------------- Python sets in and out

def count_in(s, lo, hi):
    c = 0
    for i in range(lo, hi):
        if i in s:
            c += 1
    return c, len(s)


def change(s, x):
    s.add(x)
    s.discard(1)
    return len(s)


def change_strs(s):
    s.add("new")
    s.remove("a")


def made(n):
    return {i % 7 for i in range(n)}


def made_strs():
    return {"x", "y", "x"}


@pytest.mark.parametrize("seed", range(3))
def test_python_sets_in_and_changes_written_back(seed):
    rng = make_rng(seed)
    s = set(random_ints(rng, 20, 30)) | {1}
    same(count_in, s, -30, 30)
    same(count_in, {0.5, 1.5, 3.0}, -3, 3)
    same(change, s, 77)
    same(change, set(s), 1)
    t = {"a", "b"}
    njit(change_strs)(t)
    assert t == {"new", "b"}


def read_only(s, x):
    return x in s, len(s), list(s)


def test_a_set_argument_the_call_leaves_unchanged_keeps_its_items():
    """As Numba's reflected set: no write back, so its items stay the objects passed."""
    f = njit(read_only)
    for s, x in (({np.float64(1.5), np.float64(-2.0)}, 1.5), ({np.int32(7)}, 7), ({12.5j}, 12.5j)):
        ids, types = sorted(map(id, s)), sorted(type(v).__name__ for v in s)
        assert f(s, x) == read_only(set(s), x)
        assert sorted(map(id, s)) == ids and sorted(type(v).__name__ for v in s) == types
    s, expected = {np.float64(1.5)}, {1.5}
    change(expected, 3)
    njit(change)(s, 3)  # changed: written back
    assert s == expected


def passthrough(s):
    t = s
    t.add(5)
    return s


def test_a_set_argument_returned_is_a_python_set_with_the_changes():
    s = {1, 2}
    got = njit(passthrough)(s)
    assert got == {1, 2, 5} and s == {1, 2, 5} and got is s


def grown_and_counted(a, b, fresh):
    if fresh:
        a = {x + 0.5 for x in a}
    a.update(b)
    return a, len(a), (b, len(b))


def test_set_arguments_returned_inside_a_tuple_are_the_sets_passed():
    """As Numba returns a reflected set; a new set is a new one."""
    rng = make_rng(9)
    f = njit(grown_and_counted)
    for fresh in (False, True):
        a, b = set(rng.normal(size=4).tolist()), set(rng.normal(size=2).tolist())
        want_a, want_b = set(a), set(b)
        got, want = f(a, b, fresh), grown_and_counted(want_a, want_b, fresh)
        assert got == want and (a, b) == (want_a, want_b)
        assert (got[0] is a, got[2][0] is b) == (want[0] is want_a, want[2][0] is want_b)


def sum_unpacked(x):
    a, b = x
    total = a
    for v in b:
        total += v
    return total


def grow_inner(x):
    a, (b, c) = x
    b.add(a)
    c.discard("x")
    return len(b), sorted(c), x[0] in b


def test_sets_inside_tuple_arguments_are_read_and_written_back():
    """As Numba's reflected sets in a tuple: their items read, their changes seen after the call."""
    rng = make_rng(4)
    f = njit(sum_unpacked)
    for items in (random_ints(rng, 12), rng.normal(size=5).tolist(), [True]):
        arg = (3, set(items))
        assert f(arg) == sum_unpacked(arg)
    assert f((1.5, {2, 3})) == 6.5
    g = njit(grow_inner)
    for a in (4, -1, 0):
        got = (a, (set(random_ints(rng, 6)), {"x", "y"}))
        want = (a, (set(got[1][0]), set(got[1][1])))
        assert g(got) == grow_inner(want) and got == want
    passed = (1, {5})
    back = njit(passthrough_tuple)(passed)
    assert back == (1, {5}) and back[1] is passed[1]
    for bad in ((1, {2, "a"}), ({1, 2}, {3, "a"})):  # (the second: the first set released)
        with pytest.raises(TypeError, match="one type"):
            njit(passthrough_tuple)(bad)


def passthrough_tuple(x):
    return x


def test_sets_of_numpy_scalars_pass_as_their_type():
    same(count_in, {np.int32(3), np.int32(-4)}, -5, 5)
    same(count_in, {np.float32(0.5), np.float32(2.0)}, -3, 3)
    with pytest.raises(TypeError, match="one type"):
        njit(length)({np.int32(3), 4})


def probe(a, x):
    return x in set(a)


def test_in_compares_numbers_of_other_widths_by_value():
    a = np.array([3, -4], np.int32)
    for x in (3, -4, 2**32 + 3, 5):
        assert njit(probe)(a, x) == (x in set(a.tolist()))
    f = np.array([0.5, 2.0], np.float32)
    for x in (2, 0, 3):
        assert njit(probe)(f, x) == (x in set(f.tolist()))


def probe_both(keys, x):
    d = {}
    for k in keys:
        d[k] = 1
    return x in d, x in set(keys)


def test_in_compares_floats_with_int_keys_by_value():
    rng = make_rng(7)
    f = njit(probe_both)
    for dtype in (np.int8, np.int32, np.uint8, np.int64, np.uint64):
        info = np.iinfo(dtype)
        keys = np.array([info.min, info.max, 0, 1], dtype)
        edges = [float(info.min), float(info.max), float(info.max) + 1, float(info.min) - 1, 2.0**63, 2.0**64,
                 0.0, -0.0, 1.0, 1.5, -1.0, np.nan, np.inf, -np.inf]
        for x in edges + rng.normal(0, 3, 5).round().tolist():
            assert f(keys, x) == f.py_func(keys, x), (dtype, x)


def keep_pairs(a, b, x, y):
    d = {}
    s = set()
    for i in range(len(a)):
        d[(a[i], b[i])] = i
        s.add((a[i], b[i]))
    s.add((x, y))  # a pair of wider ints, cast into the set's item type
    found = [(a[i] + 0, b[i] + 0) in s for i in range(len(a))]
    found += [(a[i] + 0, b[i] + 0.0) in d for i in range(len(a))]
    return sorted(s), found, d[(x, y)] if (x, y) in d else -1, (x, y) in d, (x + 0.5, y) in s


def test_tuples_of_wider_numbers_find_and_enter_tuple_keys():
    rng = make_rng(8)
    f = njit(keep_pairs)
    for n in (0, 1, 6, 20):
        a = rng.integers(-5, 5, n).astype(np.int16)
        b = rng.integers(0, 3, n).astype(np.int8)
        for x, y in ((1, 2), (-5, 0), (70000, 1), (3, 300)):
            got, want = f(a, b, x, y), f.py_func(a, b, x, y)
            if -2**15 <= x < 2**15 and -128 <= y < 128:  # (out of range: Numba's cast wraps, Python's keeps)
                assert got == want
            else:
                assert got[1:] == want[1:]


def test_sets_returned_are_python_sets():
    same(made, 30)
    same(made_strs)
    assert njit(made)(0) == set()


# ---------------------------------------------------------------- errors

def remove_missing(x):
    s = {1, 2}
    s.remove(x)
    return len(s)


def pop_empty():
    s = {1}
    s.pop()
    return s.pop()


def test_remove_of_a_missing_item_raises_key_error():
    with pytest.raises(KeyError) as e:
        njit(remove_missing)(5)
    assert e.value.args == (5,)
    assert njit(remove_missing)(2) == 1
    with pytest.raises(KeyError, match="pop from an empty set"):
        njit(pop_empty)()


def mixed():
    return {1, "a"}


def of_arrays():
    return {np.zeros(2)}


def of_tuples_holding_arrays():
    return {(1, np.zeros(2))}


def subscript():
    s = {1}
    return s[0]


def mixed_union():
    return {1} | {1.5}


@pytest.mark.parametrize("f, message", [
    (mixed, "must have one type"),
    (of_arrays, "sets of array"),
    (of_tuples_holding_arrays, "sets of"),
    (subscript, "not subscriptable"),
    (mixed_union, "different item types"),
])
def test_unsupported_sets_are_typing_errors(f, message):
    with pytest.raises(TypingError, match=message):
        njit(f)()


def length(s):
    return len(s)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
@pytest.mark.parametrize("arg, message", [
    (set(), "empty set"),
    ({1, "a"}, "one type|not numbers"),
    ({(1, None)}, "not numbers"),
    (frozenset({1}), "frozenset"),
])
def test_python_sets_that_cannot_be_passed_are_type_errors(arg, message):
    with pytest.raises(TypeError, match=message):
        njit(length)(arg)


# ---------------------------------------------------------------- memory

def churn(n):
    a = {i for i in range(n)}
    b = set(range(n // 2, n + n // 2))
    c = (a | b) - (a & b)
    c ^= {1, 2, 3}
    return len(c) + len(sorted(a))


def churn_strs(n):
    s = {"a", "b", "c"}
    for i in range(n):
        s.add(str(i))
    t = s.copy()
    t.discard("b")
    return len(s | t)


def touch(s, x):
    s.add(x)
    s.discard(x)
    return len(s)


def test_making_and_passing_sets_repeatedly_leaks_nothing():
    f, g, h, k = njit(churn), njit(change), njit(churn_strs), njit(touch)
    arg, words = set(range(100)), {"x", "yy"}
    f(50), g(arg, 1), h(5), k(words, "new")
    before = rss_bytes()
    for _ in range(100_000):
        f(20)
        g(arg, 1)
        h(3)
        k(words, "new")
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"
    assert words == {"x", "yy"} and len(arg) == 99


def grow_one_shrink_other(a, b):
    a.add(7)
    b.discard(1)
    return a is b, len(a), len(b)


def test_one_set_passed_twice_is_one_set_in_the_call():
    f = njit(grow_one_shrink_other)
    for items in ({1, 2}, {1, 7, 9}, {3}):
        got, want = set(items), set(items)
        assert f(got, got) == grow_one_shrink_other(want, want) and got == want


def add_other_widths(a, b):
    s = {1, 2}
    s.add(a)
    s.add(b)
    s.update({3, 4})
    return s


def test_add_converts_an_int_of_another_width():
    """s.add(v) of a uint64 or int32 into a set of int64 converts it, as Numba's set casts it."""
    f = njit(add_other_widths)
    for a, b in ((np.uint64(7), np.int32(-3)), (np.uint8(2), np.int16(9)), (np.uint64(2**40), np.int8(0))):
        got = f(a, b)
        assert got == add_other_widths(a, b) and all(type(v) is int for v in got)
    with pytest.raises(TypingError, match="cannot add float64"):
        f(1.5, 2)
