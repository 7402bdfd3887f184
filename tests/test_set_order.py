"""Sets iterate in CPython's order: its set table's (linear probes, then a
perturbed jump; grown at 3/5 full), not insertion order, after additions,
removals, pops, growth and the set operations, as Python's (and Numba's)
sets do. Each compiled function is checked against its py_func on
generated sequences of operations."""
import random
import sysconfig

import pytest

import ruchey
from conftest import rss_bytes
from ruchey import njit


@njit
def iterated_literals():
    a = {3, 1, 2}
    b = {0, 8, 16, 1, 2, 3}  # a frozenset constant in CPython, laid out anew
    c = {-1, 7, 15, 23, 31, 39, 47}
    d = {(1, 2), (3, 4), (0, 0), (9, 9)}
    e = {1.5, 0.5, 8.0, 16.0}
    return [x for x in a], list(b), list(c), list(d), list(e)


def test_set_literals_iterate_in_pythons_order():
    assert [list(x) for x in iterated_literals()] == [list(x) for x in iterated_literals.py_func()]


@njit
def operations(kinds, vals, ints):
    s = set()
    t = {0}
    t.discard(0)
    out = []
    for i in range(len(kinds)):
        k = kinds[i]
        v = vals[i]
        if k == 0:
            s.add(v)
        elif k == 1:
            s.discard(v)
        elif k == 2:
            if len(s) > 0:
                out.append(s.pop())
        elif k == 3:
            t.add(v)
        elif k == 4:
            t.discard(v)
        elif k == 5:
            s = s | t
        elif k == 6:
            s = s & t
        elif k == 7:
            s = s - t
        elif k == 8:
            s = s ^ t
        elif k == 9:
            s |= t
        elif k == 10:
            s &= t
        elif k == 11:
            s -= t
        elif k == 12:
            s ^= t
        elif k == 13:
            s = t.copy()
        elif k == 14:
            s.update(ints[:v % 50])
        elif k == 15:
            s = s.union(ints[v % 7:])
        elif k == 16:
            s = s.intersection(ints)
        elif k == 17:
            s = s.difference(ints[:v % 9])
        elif k == 18:
            s = s.symmetric_difference(ints[:v % 30])
        elif k == 19:
            s.difference_update(ints[:v % 40])
        elif k == 20:
            s.symmetric_difference_update(ints[:v % 20])
        elif k == 21:
            s.intersection_update(ints)
        elif k == 22:
            s = t - s
        elif k == 23:
            s = t & s
        elif k == 24:
            s = t ^ s
        elif k == 25:
            s.clear()
        elif k == 26:
            t = set(ints)
        for x in s:
            out.append(x)
    for x in t:
        out.append(x)
    return out


def test_operations_on_sets_iterate_and_pop_as_pythons():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randrange(1, 120)
        kinds = [rng.choice([0, 0, 0, 1, 1, 2, 3, 3, 4] + list(range(5, 27))) for _ in range(n)]
        vals = [rng.choice([rng.randrange(-40, 40), rng.randrange(0, 10**5) * 8, rng.randrange(-2**62, 2**62)])
                for _ in range(n)]
        ints = [rng.choice([rng.randrange(-60, 60), rng.randrange(0, 1000) * 16]) for _ in range(rng.randrange(1, 80))]
        assert list(operations(kinds, vals, ints)) == operations.py_func(kinds, vals, ints)


@njit
def tuples_and_floats(xs, ys, fs):
    s = set()
    for i in range(len(xs)):
        s.add((xs[i], ys[i]))
        if i % 3 == 0:
            s.discard((xs[i // 2], ys[i // 2]))
    f = set()
    for x in fs:
        f.add(x)
    for x in fs[::3]:
        f.discard(x)
    return [p for p in s], list(f)


def test_sets_of_tuples_and_floats_iterate_as_pythons():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randrange(1, 60)
        xs = [rng.randrange(-50, 50) for _ in range(n)]
        ys = [rng.randrange(0, 9) * 8 for _ in range(n)]
        fs = [rng.choice([rng.random() * 100, float(rng.randrange(-30, 30)), rng.randrange(0, 99) * 8.0])
              for _ in range(n)]
        got = tuples_and_floats(xs, ys, fs)
        assert (list(got[0]), list(got[1])) == tuples_and_floats.py_func(xs, ys, fs)


@njit
def walk_argument(s):
    out = [x for x in s]
    c = s.copy()
    c.add(12345)
    c.discard(out[0])
    return out, [x for x in c], sorted(s)


def test_a_set_argument_iterates_as_the_python_set_does():
    rng = random.Random(9)
    for _ in range(200):
        s = set()
        for x in [rng.randrange(-50, 50) for _ in range(rng.randrange(1, 60))]:
            s.add(x)
            if rng.random() < 0.3:
                s.discard(rng.randrange(-50, 50))
        if not s:
            continue
        got = walk_argument(s)
        assert tuple(list(x) for x in got) == walk_argument.py_func(s)


@njit
def set_churn(n):
    s = {"a", "b"}
    t = set()
    for i in range(n):
        t.add((i, i % 7))
        s.add(str(i % 13))
        if i % 3 == 0:
            s.discard(str(i % 5))
    u = s | {"z"}
    u ^= {"a", "q"}
    return len(u) + len(t) + len(s & u)


def test_set_churn_leaks_nothing():
    assert set_churn(40) == set_churn.py_func(40)
    before = rss_bytes()
    for _ in range(20000):
        set_churn(40)
    if before is not None:
        assert rss_bytes() - before < 16 << 20


def test_set_of_unhashable_items_is_a_typing_error():
    @njit
    def bad():
        return {[1], [2]}
    with pytest.raises(ruchey.TypingError):
        bad()


@njit
def built(xs, ds):
    s = set()
    for x in xs:
        s.add(x)
    for d in ds:
        s.discard(d)
    return s, {(x, x % 3) for x in xs}


# A set handed back to Python takes the compiled table where CPython's set
# table is public (with the GIL); on a free-threaded Python it is rebuilt by
# additions, and only its items are Python's.
python_set_table = pytest.mark.skipif(sysconfig.get_config_var("Py_GIL_DISABLED"),
                                      reason="a set handed back is rebuilt by additions on this Python")


@python_set_table
def test_a_returned_set_iterates_and_changes_in_python_as_the_python_one():
    rng = random.Random(2)
    for _ in range(300):
        xs = [rng.randrange(-100, 100) * rng.choice([1, 8, 2**40]) for _ in range(rng.randrange(1, 60))]
        ds = [rng.choice(xs) for _ in range(rng.randrange(1, len(xs) + 1))]
        (a, ta), (b, tb) = built(xs, ds), built.py_func(xs, ds)
        assert list(a) == list(b) and list(ta) == list(tb)
        for _ in range(30):  # Python's own set operations go on from the same table
            r, k = rng.random(), rng.randrange(-200, 200)
            if r < 0.5:
                a.add(k), b.add(k)
            elif r < 0.8:
                a.discard(k), b.discard(k)
            elif a:
                assert a.pop() == b.pop()
        assert list(a) == list(b)


@njit
def mutate(s, xs, ds):
    for x in xs:
        s.add(x)
    for d in ds:
        s.discard(d)
    return len(s)


@python_set_table
def test_a_set_argument_changed_in_compiled_code_is_laid_out_as_pythons():
    rng = random.Random(7)
    for _ in range(300):
        base = set()
        for x in [rng.randrange(-50, 50) for _ in range(rng.randrange(1, 30))]:
            base.add(x)
        xs = [rng.randrange(-100, 100) * rng.choice([1, 8]) for _ in range(rng.randrange(1, 40))]
        ds = [rng.choice(xs + list(base)) for _ in range(rng.randrange(1, 20))]
        a, b = set(), set()
        a.update(base), b.update(base)
        assert mutate(a, xs, ds) == mutate.py_func(b, xs, ds)
        assert list(a) == list(b)
        for _ in range(20):
            k = rng.randrange(-100, 100)
            a.add(k), b.add(k)
            assert a.pop() == b.pop()
        assert list(a) == list(b)


@njit
def hashes(i, f, b):
    return hash(i), hash(f), hash(b), hash((i, f)), hash((i, (f, b)))


def test_hash_of_numbers_and_tuples_is_pythons():
    """The order rests on it: a set's table places items by Python's hash."""
    import math
    rng = random.Random(0)
    for _ in range(2000):
        i = rng.choice([rng.randrange(-2**63, 2**63), rng.randrange(-10, 10), 2**61 - 1, -(2**61 - 1), -1])
        f = rng.choice([rng.random() * 10.0**rng.randrange(-300, 300), -0.0, math.inf, -math.inf,
                        float(rng.randrange(-5, 5)), 1e-320])
        b = rng.random() < 0.5
        assert hashes(i, f, b) == hashes.py_func(i, f, b)
