"""for x in xs of a list whose loop body changes it: the walk reads the
list's length at each step, as Python's list iterator does (items
appended are walked, popping ends the walk early), alone, in enumerate()
and zip(), with continue and break; a typed.List whose length changes
while it is walked raises RuntimeError, as Numba's typed list does.
Compared with the function's py_func on generated lists."""
import pytest

import ruchey
from ruchey import njit, typed

from conftest import make_rng, seed_of


@njit
def grow_while_walking(xs, limit):
    seen = []
    for x in xs:
        seen.append(x)
        if len(xs) < limit:
            xs.append(x * 2)
    return seen, len(xs)


@njit
def shrink_while_walking(xs):
    seen = []
    for x in xs:
        seen.append(x)
        if len(xs) > 1:
            xs.pop()
    return seen


@njit
def enumerate_and_remove(xs, bad):
    kept = 0
    for i, x in enumerate(xs):
        if x == bad:
            xs.remove(x)
            continue
        kept += i
    return kept, len(xs)


@njit
def zip_with_growth(xs, n):
    pairs = 0.0
    for x, k in zip(xs, range(n)):
        if k % 2 == 0:
            xs.append(x + 1)
        pairs += x * k
    return pairs


@njit
def walk_until(xs, stop):
    total = 0
    for x in xs:
        if x == stop:
            break
        xs.insert(0, x)  # shifts what is left: Python walks x again
        if len(xs) > 40:
            break
        total += x
    return total


@njit
def walk_unchanged_with_else(xs):
    total = 0
    for x in xs:
        total += x
    else:
        total = -total
    return total


def both(f, items, *args, make=list):
    """f compiled and f.py_func, each on its own copy of items; a typed
    List whose length the walk changed raises Numba's RuntimeError."""
    got_list, want_list = make(items), list(items)
    want = f.py_func(want_list, *args)
    if isinstance(got_list, typed.List) and len(want_list) != len(items):
        with pytest.raises(RuntimeError, match="mutated during iteration"):
            f(got_list, *args)
        return
    got = f(got_list, *args)
    assert got == want and list(got_list) == want_list


def makers(items, item_type):
    """The lists a walk is tried on: a Python list and a typed List (only
    the typed List where there are no items, whose type it names)."""
    if not items:
        return [lambda v: typed.List.empty_list(item_type)]
    return [list, typed.List]


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_a_walk_reads_the_length_at_each_step(n):
    rng = make_rng(seed_of("list walk", n))
    items = rng.integers(-4, 5, size=n).tolist()
    floats = [v * 0.5 for v in items]
    for make in makers(items, ruchey.int64):
        for limit in (0, n + 3, 2 * n + 5):
            both(grow_while_walking, items, limit, make=make)
        both(shrink_while_walking, items, make=make)
        for bad in (0, 2, 9):
            both(enumerate_and_remove, items, bad, make=make)
        for stop in (0, 3):
            both(walk_until, items, stop, make=make)
        both(walk_unchanged_with_else, items, make=make)
    for make in makers(floats, ruchey.float64):
        for m in (0, 3, n + 5):
            both(zip_with_growth, floats, m, make=make)


@njit
def append_forever(xs):
    count = 0
    for x in xs:
        if count > 1:
            xs.append(x)
        count += 1
    return count


def test_a_typed_list_grown_while_walked_raises_rather_than_walking_on():
    xs = typed.List([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="mutated during iteration"):
        append_forever(xs)
    assert len(xs) == 4  # the item appended before the next step saw it
    assert append_forever(typed.List([1.0, 2.0])) == 2  # (unchanged: walked to its end)
