"""Typed lists and dicts whose items are tuples holding arrays and strs
((array, int), (str, float), (str, (array, int))): built, read, changed,
copied and returned, each checked against the function's Python original
on generated sizes; the references the tuples hold counted over many
calls (arguments' reference counts and RSS flat)."""
import sys

import numpy as np
import pytest

import ruchey
from conftest import rss_bytes, run_python_file, seed_of
from ruchey import njit
from test_containers_nested import check

SIZES = (0, 1, 2, 5, 17)

# ---------------------------------------------------------------- lists of tuples holding arrays

@njit
def appended_pairs(n):
    out = []
    for i in range(n):
        out.append((np.arange(i) * 0.5, i))
    total = 0.0
    for a, k in out:
        total += a.sum() + k
    return out, total


@njit
def changed_pairs(n):
    out = [(np.ones(2) * i, i) for i in range(n)]
    if n > 1:
        out[1] = (np.full(3, 7.0), -1)  # the tuple replaced releases its array
        del out[0]
    if n > 2:
        last = out.pop()
        out.insert(0, (last[0] * 2, last[1] + 1))
        out.extend(out[:1])
        out.reverse()
    copy = out.copy()
    copy.append((np.zeros(1), 0))
    return out + copy[::2], len(copy)


@njit
def nested_tuples(n):
    out = [("w" + str(i), (np.arange(i + 1), i * 1.5)) for i in range(n)]
    names = [name for name, _ in out]
    return out, names, out * 2


@pytest.mark.parametrize("n", SIZES)
def test_lists_of_tuples_holding_arrays_agree_with_python(n):
    check(appended_pairs, n)
    check(changed_pairs, n)
    check(nested_tuples, n)


def test_a_list_of_tuples_of_arrays_returns_as_a_python_list_of_tuples():
    r, _ = appended_pairs(3)
    assert type(r) is list and all(type(t) is tuple and type(t[0]) is np.ndarray for t in r)


@njit
def stored_arguments(a, b, n):
    out = [(a, 0)]
    for i in range(n):
        out.append((b[i:], i))
    return len(out)


def test_argument_arrays_stored_in_tuples_keep_their_counts():
    a, b = np.arange(5.0), np.arange(9.0)
    stored_arguments(a, b, 4)
    before = sys.getrefcount(a), sys.getrefcount(b)
    for _ in range(1000):
        stored_arguments(a, b, 4)
    assert (sys.getrefcount(a), sys.getrefcount(b)) == before


# ---------------------------------------------------------------- dicts of tuples holding strs

@njit
def word_table(keys, values):
    d = {}
    for i in range(len(keys)):
        d[keys[i]] = ("w" + str(keys[i] % 7), values[i])
    d.setdefault(-1, ("default", 0.0))
    got = d.get(keys[0], ("missing", -1.0)) if len(keys) else ("none", 0.0)
    if len(keys) > 1:
        d.pop(keys[1])
    e = d.copy()
    e.update({99: ("x", 9.0)})
    names = [v[0] for v in e.values()]
    return d, got, names, [(k, v) for k, v in e.items()]


@pytest.mark.parametrize("n", SIZES)
def test_dicts_of_tuples_holding_strs_agree_with_python(n):
    rng = np.random.default_rng(seed_of("word table", n))
    keys = rng.integers(0, 2 * n + 1, n)
    values = rng.normal(size=n)
    check(word_table, keys, values)


@njit
def dict_of_array_pairs(n):
    d = {i: (np.arange(i), "k" + str(i)) for i in range(n)}
    for i in range(0, n, 2):
        d[i] = (d[i][0] * 2, d[i][1] + "!")
    return d


@pytest.mark.parametrize("n", SIZES)
def test_dicts_of_tuples_holding_arrays_and_strs_agree_with_python(n):
    check(dict_of_array_pairs, n)


@njit
def constant_words(k):
    words = ("a", "bb", "ccc", "", "déjà", "zz")
    return [(words[i % 6], i) for i in range(k)] + [("const", -1)]


def test_str_constants_in_tuples_outlive_the_call():
    got = constant_words(12)
    assert got == constant_words.py_func(12)
    for _ in range(3):
        constant_words(50)
    assert got == constant_words.py_func(12)


# ---------------------------------------------------------------- memory

def churn(n):
    out = [(np.ones(n), "s" + str(i), (np.zeros(2), "t")) for i in range(n)]
    d = {i: (out[i][0], out[i][1]) for i in range(n)}
    out.reverse()
    out.pop()
    out = out + out[1:]
    d.pop(0)
    return len(out) + len(d)


churn_jit = njit(churn)


def test_containers_of_tuples_holding_references_leak_nothing():
    assert churn_jit(50) == churn(50)
    before = rss_bytes()
    for _ in range(3000):
        churn_jit(50)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- refused

@njit
def too_many_strs(n):
    return [("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q") for _ in range(n)]


@njit
def nine_strs(n):
    return [("a", "b", "c", "d", "e", "f", "g", "h", str(k)) for k in range(n)]


@njit
def sorts_str_tuples(n):
    out = [("b", n), ("a", 1), ("b", n - 3)]
    out.sort()
    return out


@njit
def sorts_array_tuples(n):
    out = [(np.zeros(n), 1), (np.ones(n), 2)]
    out.sort()
    return out


def test_tuples_holding_too_many_references_or_unordered_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="lists of .* are not supported"):
        too_many_strs(2)
    with pytest.raises(ruchey.TypingError, match="sorting a list of"):
        sorts_array_tuples(2)


def test_tuples_of_more_than_eight_strs_are_held():
    for n in (0, 1, 4):
        assert list(nine_strs(n)) == nine_strs.py_func(n)


def test_tuples_of_strs_and_numbers_sort_as_python():
    for n in (-2, 2, 5):
        assert list(sorts_str_tuples(n)) == sorts_str_tuples.py_func(n)


def test_lists_of_many_sizes_of_tuples_do_not_crash(tmp_path):
    code = """
    import numpy as np
    from ruchey import njit
    @njit
    def f(n):
        out = [(np.arange(i), (i, "x" * i), np.ones((2, i)), 1.5) for i in range(n)]
        out.reverse()
        out = out * 3
        out.reverse()
        return sum([len(t[0]) + len(t[1][1]) + t[2].size for t in out])
    for n in (0, 1, 7, 100):
        assert f(n) == f.py_func(n), n
    print("ok")
    """
    r = run_python_file(code, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ok" in r.stdout
