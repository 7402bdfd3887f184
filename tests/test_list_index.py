"""list.index(x, start, stop) in compiled code: the search limited to
[start, stop) read as a slice's bounds (negative from the end, clamped to
the list), ValueError where x is not there, a TypingError for bounds that
are not integers. Compared with the function's py_func on generated lists."""
import numpy as np
import pytest

import ruchey
from ruchey import TypingError, njit, typed

from conftest import make_rng, rss_bytes, seed_of


@njit
def found_from(xs, v, start):
    return xs.index(v, start)


@njit
def found_between(xs, v, start, stop):
    return xs.index(v, start, stop)


def outcome(f, *args):
    """f's result, or the class and message of what it raised (a str's
    message is ruchey's own: only the class)."""
    try:
        return f(*args)
    except ValueError as e:
        return ValueError, str(e) if isinstance(args[1], int) else None


@pytest.mark.parametrize("n", [0, 1, 7, 30])
def test_index_between_bounds_is_pythons(n):
    rng = make_rng(seed_of("list index", n))
    items = rng.integers(0, 4, size=n).tolist()
    bounds = sorted(set(rng.integers(-n - 3, n + 4, size=8).tolist()) | {0, -1, n, True})
    typed_items = typed.List(items) if items else typed.List.empty_list(ruchey.int64)
    for xs in ((items, typed_items) if items else (typed_items,)):
        for v in range(5):
            for start in bounds:
                assert outcome(found_from, xs, v, start) == outcome(found_from.py_func, items, v, start)
                for stop in bounds:
                    got = outcome(found_between, xs, v, start, stop)
                    assert got == outcome(found_between.py_func, items, v, start, stop)


def test_index_of_strs_between_bounds():
    words = ["fig", "kiwi", "fig", "date", "fig"]
    for start, stop in ((0, 5), (1, 5), (3, -1), (-2, 10), (3, 4)):
        want = outcome(found_between.py_func, words, "fig", start, stop)
        assert outcome(found_between, typed.List(words), "fig", start, stop) == want


def test_bounds_that_are_not_integers_are_typing_errors():
    with pytest.raises(TypingError, match="start must be an integer"):
        found_from([1, 2], 1, 0.5)
    with pytest.raises(TypingError, match="stop must be an integer"):
        found_between([1, 2], 1, 0, "2")


def search_records(rows, key):
    """Lists of tuples holding strs (and nested tuples): ==, in, index, count, remove, <."""
    found = key in rows
    where = rows.index(key) if found else -1
    counted = rows.count(key)
    ordered = (rows < [key], rows == rows[::-1], rows != [key])
    if found:
        rows.remove(key)
    return found, where, counted, ordered, rows


@pytest.mark.parametrize("seed", range(3))
def test_lists_of_tuples_with_strs_are_searched_and_compared_as_pythons(seed):
    rng = make_rng(seed_of("tuple rows", seed))
    f = njit(search_records)
    words = ["", "a", "b", "ab", "é"]
    rows = [(int(i), words[int(j)]) for i, j in zip(rng.integers(-2, 3, 9), rng.integers(0, 5, 9))]
    nested = [(int(i), (words[int(j)], float(i) / 2)) for i, j in zip(rng.integers(-2, 3, 6), rng.integers(0, 5, 6))]
    for items in (rows, nested):
        for key in items[:3] + [items[0][:1] + (items[-1][1],)]:
            assert f(list(items), key) == search_records(list(items), key)
    g = njit(lambda rows, key: key in rows)
    assert g([(1, "a")], (1, "a")) and not g([(1, "a")], (1, "b"))
    with pytest.raises(TypingError):
        g([(1, "a")], (1, 2.5))  # a str against a number: no compiled ==


def search_rows(rows, key):
    """Lists of lists: in, index, count and remove compare lists as Python's == does."""
    found = key in rows
    where = rows.index(key) if found else -1
    counted = rows.count(key) + rows.count([9, 9, 9])
    if found:
        rows.remove(key)
    return found, where, counted, rows, [1] in [[1], []]


def typed_rows(rows, item):
    out = typed.List.empty_list(ruchey.types.ListType(item))
    for r in rows:
        out.append(typed_row(r, item))
    return out


def typed_row(r, item):
    x = typed.List.empty_list(item)
    for v in r:
        x.append(v)
    return x


def plain_rows(result):
    found, where, counted, rows, literal = result
    return found, where, counted, [list(r) for r in rows], literal


@pytest.mark.parametrize("seed", range(3))
def test_lists_of_lists_are_searched_as_pythons(seed):
    rng = make_rng(seed_of("list rows", seed))
    f = njit(search_rows)
    rows = [rng.integers(0, 3, int(k)).tolist() for k in rng.integers(0, 3, 8)]
    for item, kind in ((ruchey.int64, int), (ruchey.float64, float)):
        for key in rows[:4] + [[7], []]:
            want = search_rows([[kind(v) for v in r] for r in rows], [kind(v) for v in key])
            assert plain_rows(f(typed_rows(rows, item), typed_row(key, item))) == want


def shrink_by_remove(n):
    words = [str(i) * 8 for i in range(n)]
    rows = [[i, i] for i in range(n)]
    while words:
        words.remove(words[-1])
        rows.remove(rows[-1])
    return len(words) + len(rows)


def test_remove_lets_the_removed_item_go():
    """list.remove of strs and lists released what it removed (it leaked before)."""
    f = njit(shrink_by_remove)
    assert f(5) == shrink_by_remove(5) == 0
    before = rss_bytes()
    for _ in range(3000):
        f(60)
    if before is not None:
        assert rss_bytes() - before < 8 << 20


def test_items_swapped_by_an_unpacking_store_as_python():
    # x[i], x[j] = x[j], x[i]: each item stored from the tuple's field (typed and reflected lists)
    @ruchey.njit
    def swapped(x, i, j):
        x[i], x[j] = x[j], x[i]
        return x

    rng = np.random.default_rng(7)
    for n in (2, 5, 9):
        values = list(rng.standard_normal(n))
        i, j = (int(v) for v in rng.integers(-n, n, 2))
        expected = swapped.py_func(list(values), i, j)
        assert list(swapped(ruchey.typed.List(values), i, j)) == expected
        assert swapped(list(values), i, j) == expected
