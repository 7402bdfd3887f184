"""list.extend(y) of every iterable list() takes: a list, a range, a
tuple, a 1-d array, a set, a dict (its keys) and a str (its characters,
into a list of str); items converted to the list's item type as append
converts them. An array of more dimensions gives its rows, to list(),
typed.List() and extend. Compared with the function's py_func on
generated inputs."""
import numpy as np
import pytest

from ruchey import TypingError, njit, typed

from conftest import make_rng, numba_deviation, random_ints, seed_of


def same_list(f, *args, item=None):
    """got's items equal Python's; of its item type (as append converts them) or of Python's own."""
    expected, got = f.py_func(*args), f(*args)
    assert list(got) == expected
    want = [item or (type(v.item()) if isinstance(v, np.generic) else type(v)) for v in expected]
    assert [type(v) for v in got] == want


@njit
def extended_floats(n, t, a, s, keys):
    d = {}
    for k in keys:
        d[k] = 1.0
    x = [0.5]
    x.extend(range(n))
    x.extend(range(n, 0, -2))
    x.extend(t)
    x.extend(a)
    x.extend(sorted(s))  # (a set's order is its own: sorted, for a comparison)
    x.extend(d)
    x.extend(d.keys())
    return x


def test_extend_of_ranges_tuples_arrays_sets_and_dict_keys():
    rng = make_rng(seed_of("list extend"))
    for n in (0, 1, 5, 17):
        t = tuple(float(v) for v in rng.normal(size=3))
        a = rng.normal(size=n)
        s = {int(v) for v in random_ints(rng, n, -9, 9)}
        keys = rng.integers(0, 99, n)
        same_list(extended_floats, n, t, a, s, keys, item=float)


@njit
def extended_set(s):
    x = [1]
    x.extend(s)
    return sorted(x)


def test_extend_of_a_set():
    rng = make_rng(seed_of("list extend set"))
    for n in (0, 3, 20):
        same_list(extended_set, {int(v) for v in random_ints(rng, n, -50, 50)})


@njit
def extended_ints(a, t):
    x = [7]
    x.extend(a)
    x.extend(t)
    x.extend(x)
    return x


def test_extend_of_an_int_array_and_of_itself():
    rng = make_rng(seed_of("list extend ints"))
    for n in (0, 2, 9):
        same_list(extended_ints, rng.integers(-100, 100, n), (1, -2, 3))


@njit
def extended_strs(s):
    x = ["start"]
    x.extend(s)
    x.extend("ab")
    x.extend(("hi", s))
    y = list(s)
    y.extend(sorted(s))
    return x, y


def test_extend_of_a_str_adds_its_characters():
    for s in ("", "a", "héllo", "日本語 text", "x" * 40):
        expected, got = extended_strs.py_func(s), extended_strs(s)
        assert [list(g) for g in got] == list(expected)


@njit
def extended_with(x, y):
    x.extend(y)
    return x


@numba_deviation("Numba's messages differ")
def test_extend_of_a_non_iterable_or_a_wrong_item_is_a_typing_error():
    with pytest.raises(TypingError, match=r"extend\(\) takes"):
        extended_with([1], 3)
    with pytest.raises(TypingError, match="cannot put unicode_type"):
        extended_with([1], "ab")
    with pytest.raises(TypingError, match=r"cannot put array\(float64, 1d, C\)"):  # (its items are rows)
        extended_with([1.0], np.ones((2, 2)))
    with pytest.raises(TypeError):
        extended_with.py_func([1], 3)


@njit
def grown_in_place(n, t, s):
    x = [0.5]
    alias = x
    x += [1.0, 2.0]
    x += range(n)
    x += t
    words = ["w"]
    words += s
    nested = [[1], [2, 3]]
    nested[1] += [n]
    return x, alias, words, nested


@numba_deviation("Numba's list += takes a list only")
def test_plus_equals_of_a_list_extends_it_in_place():
    rng = make_rng(seed_of("list iadd"))
    for n in (0, 1, 6):
        t = tuple(float(v) for v in rng.normal(size=2))
        for s in ("", "ab", "日本"):
            expected, got = grown_in_place.py_func(n, t, s), grown_in_place(n, t, s)
            assert [list(g) for g in got[:3]] == list(expected[:3])
            assert [list(g) for g in got[3]] == expected[3]


@njit
def grown_by(x, y):
    x += y
    return x


@njit
def repeated_in_place(n, k):
    x = [i * 0.5 for i in range(n)]
    alias = x
    x *= k
    return x, alias, x is alias


def test_times_equals_of_a_list_repeats_it_in_place():
    """x *= k changes x itself, as Python's list.__imul__: another name sees it."""
    rng = make_rng(seed_of("list imul"))
    for n in (0, 1, 4):
        for k in (*rng.integers(-2, 5, size=4).tolist(), True, False):
            x, alias, same = repeated_in_place(n, k)
            want_x, want_alias, want_same = repeated_in_place.py_func(n, k)
            assert (x, alias) == (want_x, want_alias) and same is want_same is True


@numba_deviation("Numba's messages differ")
def test_plus_equals_of_an_array_or_times_equals_of_a_float_is_a_typing_error():
    # Python gives NumPy's elementwise x + a there (a new array), not an extended list
    with pytest.raises(TypingError, match="x.extend"):
        grown_by([1.0], np.ones(2))
    with pytest.raises(TypingError, match="operator is not supported"):
        njit(lambda n: [n] * 1.5)(1)
    with pytest.raises(TypingError, match=r"extend\(\) takes"):
        grown_by([1], 3)


@njit
def rows_three_ways(a):
    first = list(a)
    second = typed.List(a)
    third = [a[0]]
    third.extend(a)
    return first, second, third


def test_an_array_of_more_dimensions_gives_its_rows():
    """As Numba's and Python's: views a[i], each of one dimension less, sharing a's memory."""
    rng = make_rng(seed_of("array rows"))
    c = rng.integers(-9, 9, size=(3, 4))
    arrays = [c, np.asfortranarray(c), c[:, ::2], rng.normal(size=(2, 3, 2)), np.ones((1, 0), np.float32),
              np.array([[True, False]]), (c[:1] + 1j)]
    for a in arrays:
        got, want = rows_three_ways(a), rows_three_ways.py_func(a)
        for g, w in zip(got, want):
            assert len(g) == len(w)
            for x, y in zip(g, w):
                assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)
        assert type(got[1]) is typed.List and type(got[0]) is list
    first, _, _ = rows_three_ways(c)
    first[1][0] = 100  # a view: a's element changed
    assert c[1, 0] == 100
    assert njit(lambda: list(np.arange(6.0).reshape(3, 2))[2][1])() == 5.0  # rows of a temporary array
    assert njit(lambda a: len(list(a)))(np.empty((0, 3))) == 0
