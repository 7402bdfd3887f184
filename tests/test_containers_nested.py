"""Typed lists and dicts whose items are arrays, lists or dicts: built,
read, changed and returned, each checked against the function's Python
original on generated sizes; reference counts checked over many calls."""
import linecache
import sys

import numpy as np
import pytest

import ruchey
from conftest import rss_bytes, seed_of
from ruchey import njit

SIZES = (0, 1, 2, 5, 17)


def same(a, b):
    """Python's result and ruchey's agree: lists, dicts, arrays, numbers."""
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, list) and isinstance(b, ruchey.typed.List):  # a list of numbers returned alone
        b = list(b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):  # a dict compiled code returns is a typed.Dict, as Numba's (one inside a list: a dict)
        return isinstance(b, (dict, ruchey.typed.Dict)) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


def check(f, *args):
    expected, got = f.py_func(*args), f(*args)
    assert same(expected, got), (args, expected, got)
    return got


# ---------------------------------------------------------------- lists of arrays


@njit
def appended_arrays(n):
    out = []
    for i in range(n):
        out.append(np.zeros(3) + i)
    total = 0.0
    for a in out:
        total += a.sum()
    return len(out), total


@njit
def comprehension_of_arrays(n):
    return [np.arange(k) * 1.5 for k in range(n)]


@njit
def changed_arrays(n):
    out = [np.ones(2) * i for i in range(n)]
    if n > 1:
        out[1] = np.full(4, 7.0)  # the array replaced is released
        del out[0]
    if n > 2:
        last = out.pop()
        out.insert(0, last * 2)
        out.extend(out[:1])
    return out


@njit
def cleared(n):
    out = [np.ones(n) for _ in range(3)]
    out.clear()
    out.append(np.zeros(1))
    return out


@njit
def _total(arrays):
    s = 0.0
    for a in arrays:
        s += a.sum()
    return s


@njit
def passed_on(n):
    return _total([np.arange(k + 1.0) for k in range(n)])


@pytest.mark.parametrize("n", SIZES)
def test_lists_of_arrays_agree_with_python(n):
    check(appended_arrays, n)
    check(comprehension_of_arrays, n)
    check(changed_arrays, n)
    check(cleared, n)
    assert passed_on(n) == sum(np.arange(k + 1.0).sum() for k in range(n))  # py_func's call would pass a Python list


def test_a_list_of_arrays_returns_as_a_python_list():
    r = comprehension_of_arrays(4)
    assert type(r) is list and all(type(a) is np.ndarray for a in r)


@njit
def aliased(a):
    out = [a, a[1:]]
    out[1][0] = 9.0  # a view of a: writes into a
    out[0][0] = -1.0
    return out


def test_items_share_memory_with_the_arrays_stored():
    a = np.arange(4.0)
    r = aliased(a)
    assert a.tolist() == [-1.0, 9.0, 2.0, 3.0]
    assert r[0] is a and np.shares_memory(r[1], a)
    del a
    assert r[1].tolist() == [9.0, 2.0, 3.0]


@njit
def two_d(n):
    out = []
    for i in range(n):
        out.append(np.ones((2, 3)) * i)
    return out[n - 1][1, 2] + len(out)


def test_lists_of_2d_arrays():
    for n in (1, 3):
        check(two_d, n)


# ---------------------------------------------------------------- lists of lists


@njit
def rows_appended(n):
    rows = [[0] * 3 for _ in range(n)]
    for i in range(n):
        rows[i].append(i * 10)
        rows[i][0] = i
    return rows


@njit
def ragged(n):
    rows = []
    for i in range(n):
        row = [0.5]
        for j in range(i):
            row.append(j * 1.0)
        rows.append(row)
    total = 0.0
    for r in rows:
        total += sum(r)
    if n > 1:
        rows.pop(0)
    return rows, total


@njit
def dict_of_lists(n):
    d = {}
    for i in range(n):
        k = i % 3
        if k not in d:
            d[k] = [i]
        else:
            d[k].append(i)
    return d


@pytest.mark.parametrize("n", SIZES)
def test_nested_lists_agree_with_python(n):
    check(rows_appended, n)
    check(ragged, n)
    check(dict_of_lists, n)


# ---------------------------------------------------------------- dicts of arrays


@njit
def dict_of_arrays(n):
    d = {}
    for i in range(n):
        d[i] = np.arange(i) * 2.0
    if n > 2:
        d[1] = np.ones(5)  # replaced: the old value released
        del d[0]
    s = 0.0
    for v in d.values():
        s += v.sum()
    return d, s


@njit
def dict_get_array(n, k):
    d = {i: np.full(2, i * 1.0) for i in range(n)}
    return d.get(k, np.zeros(2))


@pytest.mark.parametrize("n", SIZES)
def test_dicts_of_arrays_agree_with_python(n):
    check(dict_of_arrays, n)
    check(dict_get_array, n, 1)
    check(dict_get_array, n, -4)


# ---------------------------------------------------------------- bad input


@njit
def index_past(n, i):
    out = [np.zeros(2) for _ in range(n)]
    return out[i]


@njit
def pop_empty(n):
    out = [np.zeros(2) for _ in range(n)]
    return out.pop()


@njit
def missing_key(n, k):
    d = {i: np.zeros(i) for i in range(n)}
    return d[k]


def test_errors_release_the_items():
    with pytest.raises(IndexError):
        index_past(3, 3)
    with pytest.raises(IndexError):
        pop_empty(0)
    with pytest.raises(KeyError):
        missing_key(3, 7)
    before = rss_bytes()
    for _ in range(20000):
        for f, args in ((index_past, (4, 9)), (missing_key, (4, 9))):
            try:
                f(*args)
            except (IndexError, KeyError):
                pass
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20


@njit
def list_of_tuple_of_arrays(n):
    a, b = np.arange(n * 1.0), np.ones(n)
    rows = list((a, b, a))
    last = rows.pop()
    nested = list(([n], [n, 1], [2 * n]))
    return rows, last.sum(), len(rows), nested


def test_list_of_a_tuple_of_arrays_or_lists_holds_them():
    for n in SIZES:
        check(list_of_tuple_of_arrays, n)
    before = rss_bytes()
    for _ in range(20000):
        list_of_tuple_of_arrays(5)
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20


def test_mixed_items_are_typing_errors():
    """Items of different types given to a list; a list written out of
    them is a literal list instead (test_literal_lists.py)."""
    def mixed(n):
        out = [np.zeros(n)]
        out.append(1.0)
        return out

    def two_ranks(n):
        out = [np.zeros(n)]
        out.append(np.zeros((n, n)))
        return out

    def list_and_array(n):
        out = [[1, 2]]
        out.append(np.zeros(n))
        return out

    for f in (mixed, two_ranks, list_and_array):
        with pytest.raises(ruchey.TypingError):
            njit(f)(2)


def test_python_lists_of_arrays_are_taken_as_numba_reflected_lists():
    arrays = [np.arange(3.0), np.ones(2)]
    assert _total(arrays) == _total.py_func(arrays)


# ---------------------------------------------------------------- reference counts


@njit
def churn(n):
    out = [np.ones(n) for _ in range(4)]
    out[0] = np.zeros(n)
    out.pop()
    del out[0]
    rows = [[1.0] * n for _ in range(3)]
    rows[1] = rows[0]
    d = {0: np.ones(n), 1: np.ones(n)}
    d[0] = out[0]
    del d[1]
    both = out + out[1:]
    s = len(both) + len(rows[1]) + d[0].sum()
    out.clear()
    return s


def test_no_leak_over_many_calls():
    assert churn(50) == churn.py_func(50)
    before = rss_bytes()
    for _ in range(100000):
        churn(50)
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20


# ---------------------------------------------------------------- dicts keyed by tuples


@njit
def grid_counts(n):
    d = {}
    for i in range(n):
        for j in range(i % 4):
            k = (i % 3, j)
            d[k] = d.get(k, 0) + 1
    hits = 0
    for i in range(3):
        if (i, 1) in d:
            hits += d[(i, 1)]
    return d, hits, len(d)


@njit
def float_keys(n):
    d = {(0.5, 1): 1.0}
    for i in range(n):
        d[(i * 0.5, i)] = i * 2.0
    del d[(0.5, 1)]
    total = 0.0
    for (x, i), v in d.items():
        total += x * i + v
    ks = [k for k in d]
    return d.get((1.0, 2), -1.0), d.pop((0.0, 0), -2.0), total, len(ks)


@njit
def key_popitem(n):
    d = {(i, -i): i for i in range(n)}
    k, v = d.popitem()
    return k, v, len(d)


@njit
def tuple_key_missing(n, i, j):
    d = {(k, k): k for k in range(n)}
    return d[(i, j)]


@pytest.mark.parametrize("n", SIZES)
def test_tuple_keys_agree_with_python(n):
    check(grid_counts, n)
    check(float_keys, n)
    if n:
        check(key_popitem, n)


def test_tuple_keys_widen_and_return_as_typed_dicts_that_pass_back_in():
    @njit
    def widened(n):
        d = {(1, 2.0): n}
        return d[(1, 2)], (1, 2) in d, (np.int32(1), np.float32(2.0)) in d, (1, 2.5) in d

    assert widened(5) == widened.py_func(5)
    r = grid_counts(6)[0]  # a typed.Dict, as Numba's, which another compiled function takes
    assert type(r) is ruchey.typed.Dict and list(r) == list(grid_counts.py_func(6)[0])

    @njit
    def total(d):
        return sum([v * i for (i, j), v in d.items()])

    assert total(r) == total.py_func(dict(r))


def test_tuple_key_errors():
    with pytest.raises(KeyError, match=r"\(2, 3\)"):
        tuple_key_missing(3, 2, 3)

    def array_in_key(n):
        return {(1, np.zeros(n)): n}

    with pytest.raises(ruchey.TypingError, match="dict key tuple"):
        njit(array_in_key)(1)
    before = rss_bytes()
    for _ in range(100000):
        grid_counts(8)
        try:
            tuple_key_missing(2, 5, 5)
        except KeyError:
            pass
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20



def long_key_program(width):
    """A function counting keys of width items (ints, a float, a str, a
    nested pair) in a dict and a set, as Python source: the tuple displays
    are written out, as code with long keys writes them."""
    items = ["i % 3", "float(i % 2)", "str(i % 4)", "(i % 5, -i % 2)"] + [f"(i * {k}) % 7" for k in range(width - 4)]
    key = "(" + ", ".join(items) + ",)"
    src = f"""
def f(n):
    d = {{}}
    s = set()
    for i in range(n):
        k = {key}
        d[k] = d.get(k, 0) + i
        s.add(k)
    i = 1
    probe = {key}
    first = d.popitem() if d else None
    return d, len(s), probe in d, probe in s, first
"""
    name, scope = f"<long_key_{width}>", {}
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)  # where compiling reads the source
    exec(compile(src, name, "exec"), scope)
    return scope["f"]


@pytest.mark.parametrize("width", (9, 40, 120))
def test_dict_and_set_keys_of_long_tuples_agree_with_python(width):
    f = njit(long_key_program(width))
    for n in (0, 1, 7, 60):
        got, want = f(n), f.py_func(n)
        assert dict(got[0]) == want[0] and got[1:] == want[1:], (width, n)
    d = f(30)[0]  # a typed.Dict of long keys, read and changed from Python
    key = next(iter(d))
    d[key] += 1
    assert d[key] == f.py_func(30)[0][key] + 1 and len(key) == width
    with pytest.raises(KeyError):
        d[key[:-1] + (99,)]


def test_typed_dicts_and_sets_of_long_tuple_keys_cross_the_boundary():
    @njit
    def bump(d, s, k):
        d[k] = d.get(k, 0) + 1
        s.add(k)
        return len(d), k in s

    key_type = ruchey.types.UniTuple(ruchey.int64, 20)
    d = ruchey.typed.Dict.empty(key_type, ruchey.int64)
    rng = np.random.default_rng(seed_of("long keys"))
    keys = [tuple(int(v) for v in rng.integers(-3, 3, 20)) for _ in range(50)] * 2
    s = {keys[0]}
    want = {}
    for k in keys:
        want[k] = want.get(k, 0) + 1
        assert bump(d, s, k) == (len(want), True)
    assert dict(d) == want and s == set(keys)


@njit
def nested_keys(n):
    """Dict keys of tuples in tuples and complex numbers: counted, looked up, popped."""
    d = {}
    for i in range(n):
        k = (i % 4, (str(i % 3), (i % 2) * 1j))
        d[k] = d.get(k, 0) + i
    first = d.popitem() if d else ((0, ("", 0j)), 0)
    return d, first, (1, ("1", 1j)) in d, len(d)


@njit
def store_next(d):
    d[(4, (5, 6))] = d[(1, (2, 3))] + 1


def test_dict_keys_of_nested_tuples_and_complex_numbers():
    for n in (0, 1, 5, 30):
        got, want = nested_keys(n), nested_keys.py_func(n)
        assert dict(got[0]) == want[0] and got[1:] == want[1:]
    with pytest.raises(KeyError, match=r"\(1, \(2, 4\)\)"):
        njit(lambda: {(1, (2, 3)): 1}[(1, (2, 4))])()
    d = ruchey.typed.Dict.empty(ruchey.types.Tuple((ruchey.int64, ruchey.types.UniTuple(ruchey.int64, 2))), ruchey.float64)
    d[(1, (2, 3))] = 1.5
    store_next(d)
    assert dict(d) == {(1, (2, 3)): 1.5, (4, (5, 6)): 2.5}


# ---------------------------------------------------------------- tuple keys holding strs


@njit
def word_keys(n, seed):
    """A dict and a set keyed by (str, int, float) tuples made at run time."""
    d = {("start", 0, 0.5): -1}
    s = set()
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2**31
        k = (str(x % 5) * (x % 3), x % 4, (x % 2) * 0.5)
        d[k] = d.get(k, 0) + i
        d.setdefault((k[0] + "!", k[1], k[2]), i)
        s.add(k)
        if x % 7 == 0:
            s.discard((k[0], k[1], k[2] + 0.5))
    popped = d.pop(("start", 0, 0.5))
    missing = d.pop(("nothing", 0, 0.0), -7)
    if ("", 0, 0.0) in d:
        del d[("", 0, 0.0)]
    total = 0
    for (w, j, f), v in d.items():
        total += len(w) * j + v + int(f * 2)
    t = {("1", 1, 0.5), ("x", 9, 0.0)}
    mixed = (sorted(s | t), sorted(s & t), sorted(s - t), sorted(s ^ t), ("1", 1, 0.5) in s)
    last = d.popitem() if len(d) else (("", 0, 0.0), 0)
    return popped, missing, total, list(d.keys()), last, mixed, len(s)


@pytest.mark.parametrize("n", SIZES + (60,))
def test_tuple_keys_holding_strs_agree_with_python(n):
    for seed in (seed_of(n), 7):
        check(word_keys, n, seed)


def test_tuple_keys_holding_strs_cross_the_boundary():
    @njit
    def extend(d, s, word):
        for (w, i), v in d.items():
            s.add((w + word, i))
        d[(word, len(d))] = 0.5
        return len(s), (word, 1) in s

    d, s = ruchey.typed.Dict(), {("a", 1), ("b", 2)}
    d[("é∑", 1)] = 1.5
    d[("x", 2)] = 2.5
    pd, ps = {("é∑", 1): 1.5, ("x", 2): 2.5}, set(s)
    assert extend(d, s, "z") == extend.py_func(pd, ps, "z")
    assert dict(d) == pd and s == ps
    assert d[("z", 2)] == 0.5 and ("x", 2) in d and ("x", 3) not in d
    del d[("x", 2)]
    assert list(d) == [("é∑", 1), ("z", 2)]


def test_tuple_keys_holding_strs_raise_key_error_and_keep_no_reference():
    @njit
    def lookup(d, w, i):
        return d[(w, i)]

    d = ruchey.typed.Dict()
    d[("a", 1)] = 1.0
    for key in (("zz", 1), ("it's", 2), ('q"\\', 3), ("é\n", 4)):
        with pytest.raises(KeyError) as e:
            lookup(d, *key)
        assert e.value.args == (key,)
    word = "".join(["w"] * 5)
    before = sys.getrefcount(word)
    for _ in range(200):
        word_keys(9, 3)
        d[(word, 5)] = 2.0
        lookup(d, word, 5)
        del d[(word, 5)]
    assert sys.getrefcount(word) == before


# ---------------------------------------------------------------- lists of tuples


@njit
def sorted_pairs(n, seed):
    pairs = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2**31
        pairs.append((x % 4, (x >> 8) % 7 * 0.5, i))
    a = sorted(pairs)
    b = sorted(pairs, reverse=True)
    pairs.sort()
    return a, b, pairs[: n // 2]


@njit
def sorted_with_zeros(n):  # stable: -0.0 and 0.0 keep their order (NaN has none: each sort's own)
    pairs = [(1, 0.0), (0, 2.0), (1, -0.0), (1, 0.0), (0, -1.5)]
    for i in range(n):
        pairs.append((i % 2, i * 0.25))
    pairs.sort()
    return pairs


@pytest.mark.parametrize("n", SIZES)
def test_lists_of_tuples_sort_as_python(n):
    for seed in (1, 7, 123):
        a, b, c = sorted_pairs(n, seed)
        ea, eb, ec = sorted_pairs.py_func(n, seed)
        assert list(a) == ea and list(b) == eb and list(c) == ec
    got, expected = list(sorted_with_zeros(n)), sorted_with_zeros.py_func(n)
    assert [repr(t) for t in got] == [repr(t) for t in expected]


@njit
def sorted_lists(n, seed):
    rows = []
    for i in range(n):
        rows.append([(i * seed + k * k) % 3 for k in range((i * 7 + seed) % 4)])
    names = [["b", "a"], ["a"], ["a", "c"], []]
    nested = [[[2.0], [1.0]], [[1.5]], [[2.0], [0.5]], [[2.0]]]
    a = sorted(rows)
    rows.sort(reverse=True)
    names.sort()
    return a, rows, names, sorted(nested)


@pytest.mark.parametrize("n", SIZES)
def test_lists_of_lists_sort_as_python(n):
    for seed in (1, 7):
        assert same(sorted_lists.py_func(n, seed), sorted_lists(n, seed))


def test_unordered_items_are_typing_errors():
    def sort_arrays(n):
        out = [np.zeros(n)]
        out.sort()
        return out

    def sorted_lists(n):  # complex numbers have no order, in lists neither
        x = [[n * 1j], [1j]]
        return sorted(x)

    def compare_arrays(n):
        return [np.zeros(n)] == [np.zeros(n)]

    for f in (sort_arrays, sorted_lists, compare_arrays):
        with pytest.raises(ruchey.TypingError, match="not supported"):
            njit(f)(2)


# ---------------------------------------------------------------- empty inner containers, list literals as arguments


@njit
def buckets(n, k):
    rows = [[] for _ in range(k)]
    for i in range(n):
        rows[i % k].append(i * 1.5)
    return rows


@njit
def grouped(n):
    d = {}
    for i in range(n):
        d.setdefault(i % 3, []).append(i)
    e = {}
    for i in range(n):
        if i % 4 not in e:
            e[i % 4] = []
        e[i % 4].append(float(i))
    return d, e, d.get(7, [-1])


@njit
def literal_arguments(n):
    out = []
    out.append([1, 2])
    out.append([n])
    out.insert(0, [n, n, n])
    x = sorted([3, 1, n])
    x.extend([7, 8])
    return out, list(x), sum([1, 2, n]), list([n, n])


@njit
def adjacency(n):
    g = {}
    for i in range(n):
        g[i] = {}
    for i in range(n):
        g[i][(i + 1) % n] = 1.0
        g[i][(i * 7) % n] = 2.0
    return g


@pytest.mark.parametrize("n", SIZES)
def test_empty_inner_containers_take_their_types_later(n):
    for k in (1, 3):
        check(buckets, n, k)
    check(grouped, n)
    check(literal_arguments, n)
    check(adjacency, n)


def test_a_list_literal_given_to_a_list_method_is_a_list():
    out = literal_arguments(2)[0]
    assert out == [[2, 2, 2], [1, 2], [2]] and all(type(r) is list for r in out)


@njit
def search_pairs(n, i):
    pairs = [(k % 3, k * 0.5) for k in range(n)]
    found = (i % 3, i * 0.5) in pairs
    count = pairs.count((0, 0.0))
    where = pairs.index((i % 3, i * 0.5)) if found else -1
    if found:
        pairs.remove((i % 3, i * 0.5))
    return found, count, where, pairs


@pytest.mark.parametrize("n", SIZES)
def test_tuples_are_found_in_lists_of_tuples(n):
    for i in (0, 2, n - 1, n + 3):
        check(search_pairs, n, i)
    if n:
        with pytest.raises(ValueError):
            njit(lambda n: [(1, 2.0)].index((n, 0.5)))(n)


# ---------------------------------------------------------------- a fresh process


NESTED_IN_A_PROCESS = """
import gc
import numpy as np
from ruchey import njit

@njit
def build(a, n):
    out = [a, a[1:]]
    rows = [[] for _ in range(n)]
    d = {}
    for i in range(n):
        out.append(np.full(3, i * 1.0))
        rows[i].append(out[-1])
        d[(i, -i)] = rows[i]
    return out, rows, d

@njit
def fail(n):
    out = [[np.zeros(2)] for _ in range(n)]
    return out[n][0]

a = np.arange(4.0)
out, rows, d = build(a, 5)
del a
gc.collect()
assert out[0].tolist() == [0.0, 1.0, 2.0, 3.0] and out[1].tolist() == [1.0, 2.0, 3.0]
assert np.shares_memory(rows[4][0], out[6])  # one array stored twice: two objects, one memory
assert d[(2, -2)][0].tolist() == [2.0, 2.0, 2.0]
for _ in range(1000):
    try:
        fail(3)
    except IndexError:
        pass
del out, rows, d
gc.collect()
"""


def test_containers_of_arrays_outlive_their_arguments_in_a_fresh_process(tmp_path):
    from test_crashes import run_case
    run_case(NESTED_IN_A_PROCESS, tmp_path)


# ---------------------------------------------------------------- sort(key=...)


@njit
def _rank(x):
    return (x % 3, -x)


@njit
def keyed_sorts(n, seed):
    xs = []
    v = seed
    for i in range(n):
        v = (v * 1103515245 + 12345) % 2**31
        xs.append(v % 11 - 5)
    a = sorted(xs, key=lambda x: x * x)
    b = sorted(xs, key=lambda x: x * x, reverse=True)
    c = list(xs)
    c.sort(key=_rank)
    pairs = [(x, i) for i, x in enumerate(xs)]
    pairs.sort(key=lambda p: p[0] % 4, reverse=True)
    arrays = [np.arange(float(x % 4)) for x in xs]
    sizes = [arr.size for arr in sorted(arrays, key=lambda arr: -arr.size)]
    return list(a), list(b), list(c), list(pairs), sizes


@njit
def key_raises(n):
    xs = [np.zeros(2) for _ in range(n)]
    return sorted(xs, key=lambda a: 1 // int(a.sum()))


@pytest.mark.parametrize("n", SIZES)
def test_sort_with_a_key_is_stable_as_python(n):
    for seed in (3, 11):
        assert keyed_sorts(n, seed) == keyed_sorts.py_func(n, seed)


def test_sort_key_errors():
    with pytest.raises(ZeroDivisionError):
        key_raises(2)
    before = rss_bytes()
    for _ in range(20000):
        try:
            key_raises(3)
        except ZeroDivisionError:
            pass
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20

    def array_key(n):
        return sorted([1, 2, n], key=lambda x: np.zeros(x))

    def not_a_function(n):
        return sorted([1, 2, n], key=n)

    for f in (array_key, not_a_function):
        with pytest.raises(ruchey.TypingError, match="key"):
            njit(f)(2)


@njit
def sorts_with_strs(nums, words, rev):
    pairs = [(nums[i], words[i]) for i in range(len(words))]
    pairs.sort()
    flipped = sorted([(words[i], nums[i]) for i in range(len(words))], reverse=rev)
    by_lower = sorted(words, key=lambda w: w.lower(), reverse=rev)
    by_len = sorted(words, key=lambda w: (len(w), w))
    pairs_by_word = sorted(pairs, key=lambda p: p[1])
    return pairs, flipped, by_lower, by_len, pairs_by_word


@pytest.mark.parametrize("n", SIZES)
def test_sorts_of_tuples_with_strs_and_str_keys_as_python(n):
    """Tuples of numbers and strs sort field by field, and a key may give a
    str or a tuple holding strs (Numba sorts these too); equal keys keep
    their order."""
    rng = np.random.default_rng(seed_of("str sorts", n))
    alphabet = np.array(list("abAB\u00e9z"))
    words = ruchey.typed.List(["".join(rng.choice(alphabet, int(k))) for k in rng.integers(0, 4, n)] or [""])
    nums = rng.integers(-2, 3, len(words)).astype(np.float64)
    nums[rng.random(len(words)) < 0.2] = -0.0
    for rev in (False, True):
        got = sorts_with_strs(nums, words, rev)
        want = sorts_with_strs.py_func(nums.tolist(), list(words), rev)
        assert [[repr(x) for x in g] for g in got] == [[repr(x) for x in w] for w in want]


@njit
def closure_keyed_sorts(xs, centre, names, width):
    near = [x for x in xs]
    near.sort(key=lambda v: abs(v - centre))  # a lambda reading the function's variables

    def far(v):  # a nested function reading them
        return -abs(v - centre), v

    by_far = sorted(xs, key=far)
    by_square = sorted(near, key=lambda v: (v - centre) ** 2, reverse=True)
    padded = sorted(names, key=lambda w: (abs(len(w) - width), len(w)))
    arrays = [np.full(k % 4, centre) for k in range(len(xs))]
    sizes = [a.size for a in sorted(arrays, key=lambda a: abs(a.size - width))]
    return near, by_far, by_square, padded, sizes


@pytest.mark.parametrize("n", SIZES)
def test_sort_with_a_key_reading_the_functions_variables(n):
    rng = np.random.default_rng(seed_of("closure keys", n))
    xs = rng.integers(-6, 7, n).astype(np.float64)
    names = ruchey.typed.List(["x" * int(k) for k in rng.integers(0, 5, n)] or ["a"])
    for centre, width in [(0.0, 0), (2.5, 3), (-4.0, 1)]:
        got = closure_keyed_sorts(xs, centre, names, width)
        want = closure_keyed_sorts.py_func(xs, centre, list(names), width)
        assert [list(g) for g in got] == [list(w) for w in want]


@njit
def closure_key_bad_result(xs, c):
    return sorted(xs, key=lambda v: np.zeros(2) + c)


def test_closure_key_errors_name_the_key():
    with pytest.raises(ruchey.TypingError, match="key function returns a number, a str or a tuple"):
        closure_key_bad_result(np.arange(3.0), 1.0)


# ---------------------------------------------------------------- lists of sets


def connected_groups(ix, jx, d):
    """quimb's compute_blocks: the connected components of the graph of
    edges (ix[k], jx[k]) over d nodes, as a list of sets merged in place."""
    groups = []
    for i, j in zip(ix, jx):
        merge = []
        for g, group in enumerate(groups):
            if i in group:
                group.add(j)
                merge.append(g)
            elif j in group:
                group.add(i)
                merge.append(g)
        if len(merge) == 0:
            groups.append({i, j})
        elif len(merge) > 1:
            group0 = groups[merge[0]]
            for g in merge[-1:0:-1]:
                other_group = groups[g]
                group0.update(other_group)
                other_group.clear()
    for i in range(d):
        for group in groups:
            if i in group:
                break
        else:
            groups.append({i})
    return sorted([sorted(g) for g in groups if g])


@pytest.mark.parametrize("n", SIZES)
def test_lists_of_sets_agree_with_python(n):
    f = njit(connected_groups)
    rng = np.random.default_rng(seed_of(n))
    for d in (1, 6, 20):
        ix, jx = rng.integers(0, d, n), rng.integers(0, d, n)
        assert same(connected_groups(ix, jx, d), [list(g) for g in f(ix, jx, d)])


@njit
def sets_in_a_list(n):
    g = [{1, 2}, {n}]
    g[0].add(n + 7)
    g.append({i for i in range(n)})
    total = 0
    for s in g:
        total += len(s)
    g.pop(1)
    return g, total


def test_a_list_of_sets_returns_as_a_python_list_of_sets():
    for n in SIZES:
        got, want = sets_in_a_list(n), sets_in_a_list.py_func(n)
        assert type(got[0]) is list and got == want
    before = rss_bytes()
    for _ in range(20000):
        sets_in_a_list(5)
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20
