"""typed.List and typed.Dict of arrays, tuples and typed containers made,
read, changed and iterated from Python, and passed into compiled code and
back: the containers are shared, not copied, and the arrays in them are
the array objects stored. Each compiled behaviour is compared with the
function's py_func on a second container made of the same generated
items; values of the wrong type are TypeErrors naming the type expected."""
import gc
import sys

import numpy as np
import pytest

from ruchey import njit, typed, types

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers (numba's messages and identities differ)")

SIZES = (1, 3, 17)


def arrays_list(arrays):
    out = typed.List()
    for a in arrays:
        out.append(a.copy())
    return out


def random_arrays(rng, n, length=4):
    return [rng.standard_normal(length) for _ in range(n)]


def assert_same_arrays(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)


# ---------------------------------------------------------------- lists of arrays

def test_a_list_of_arrays_holds_the_array_objects():
    a, b = np.arange(3.0), np.ones(3)
    items = typed.List()
    items.append(a)
    items.append(b)
    assert items[0] is a and items[1] is b and items[-1] is b
    assert [x is y for x, y in zip(items, (a, b))] == [True, True]
    items[0][1] = 7.0  # the array stored, written in place
    assert a[1] == 7.0
    items[1] = a[1:]  # a view of a: stored as a view of it
    assert np.shares_memory(items[1], a) and list(items[1]) == [7.0, 2.0]
    with pytest.raises(TypeError, match=r"of array\(float64, 1d, C\) cannot hold array\(float64, 1d, A\)"):
        items[1] = a[::2]
    items.insert(0, b)
    assert items[0] is b and items[1] is a and len(items) == 3
    assert items.pop() is not None and items.pop(0) is b and len(items) == 1
    del items[0]
    assert len(items) == 0
    assert repr(items).startswith("ListType[array(float64, 1d, C)]")


def test_an_array_outlives_its_names_while_a_list_holds_it():
    items = typed.List()
    items.append(np.arange(5.0))
    gc.collect()
    assert list(items[0]) == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_empty_list_of_an_array_type():
    items = typed.List.empty_list(types.float64[:])
    items.append(np.arange(3.0))
    items.append(np.arange(6.0)[::2])  # any layout
    assert items.item_type == "array(float64, 1d, A)"
    with pytest.raises(TypeError, match=r"of array\(float64, 1d, A\) cannot hold array\(int64, 1d, C\)"):
        items.append(np.arange(3))


@njit
def total(arrays):
    s = 0.0
    for a in arrays:
        s += a.sum()
    return s


@njit
def grow_and_scale(arrays, k):
    arrays.append(np.zeros(3) + k)
    for a in arrays:
        a *= k
    first = arrays.pop(0)
    arrays.append(first)
    return len(arrays)


@pytest.mark.parametrize("n", SIZES)
def test_compiled_code_reads_and_changes_a_list_of_arrays_as_py_func(n):
    rng = make_rng(seed_of("arrays", n))
    arrays = random_arrays(rng, n, 3)
    mine, theirs = arrays_list(arrays), arrays_list(arrays)
    assert total(mine) == pytest.approx(total.py_func(theirs), rel=1e-12)
    assert grow_and_scale(mine, 2.0) == grow_and_scale.py_func(theirs, 2.0)
    assert_same_arrays(mine, theirs)


@njit
def identity(x):
    return x


def test_containers_passed_back_are_the_objects_passed():
    items = arrays_list([np.ones(2)])
    assert identity(items) is items
    d = typed.Dict.empty(types.unicode_type, types.float64[:])
    assert identity(d) is d
    plain = typed.List([1.0, 2.0])
    assert identity(plain) is plain


def test_an_array_compiled_code_stores_is_the_array_passed():
    @njit
    def put(items, a):
        items.append(a)

    items, a = typed.List.empty_list(types.float64[::1]), np.arange(4.0)
    put(items, a)
    assert items[0] is a


@njit
def store_arguments(items, d, rows, a):
    items.append(a)
    items.append(a[1:])
    d["x"] = a
    rows.append([a, a[::1]])


def test_arrays_compiled_code_stores_outlive_the_call():
    items = typed.List.empty_list(types.float64[:])
    d = typed.Dict.empty(types.unicode_type, types.float64[:])
    rows = typed.List.empty_list(types.ListType(types.float64[::1]))
    store_arguments(items, d, rows, np.arange(4.0))  # the array's only names are in the containers
    gc.collect()
    junk = [np.full(4, 9.0) for _ in range(100)]  # memory a freed array would have been given to
    assert list(items[0]) == [0.0, 1.0, 2.0, 3.0] and list(items[1]) == [1.0, 2.0, 3.0]
    assert np.shares_memory(items[0], d["x"]) and list(rows[0][1]) == [0.0, 1.0, 2.0, 3.0]
    assert len(junk) == 100


# ---------------------------------------------------------------- dicts of arrays

@njit
def dict_work(d, k):
    s = 0.0
    for key in d:
        s += d[key].sum()
    d["new"] = np.full(2, k)
    d[k_name(k)] = np.arange(3.0)
    return s


@njit
def k_name(k):
    return "k" if k > 0 else "neg"


@pytest.mark.parametrize("n", SIZES)
def test_a_str_keyed_dict_of_arrays_as_py_func(n):
    rng = make_rng(seed_of("dict", n))
    arrays = random_arrays(rng, n)

    def make():
        d = typed.Dict.empty(key_type=types.unicode_type, value_type=types.float64[:])
        for i, a in enumerate(arrays):
            d[f"a{i}"] = a.copy()
        return d

    mine, theirs = make(), make()
    assert dict_work(mine, 1.5) == pytest.approx(dict_work.py_func(theirs, 1.5), rel=1e-12)
    assert list(mine.keys()) == list(theirs.keys())
    assert_same_arrays(list(mine.values()), list(theirs.values()))


@njit
def cache_of_windows(a, windows):
    cache = dict()
    for w in windows:
        out = np.full(a.shape[0], np.nan)
        for i in range(w - 1, a.shape[0]):
            out[i] = a[i - w + 1:i + 1].mean()
        cache[w] = out
    cache[0] = a  # an argument array, borrowed while the call runs
    cache[-1] = a[1:]
    return cache


@njit
def cached_window(cache, w):
    return cache[w]


@pytest.mark.parametrize("n", SIZES)
def test_a_dict_of_arrays_compiled_code_makes_comes_back_typed(n):
    # as Numba's: a typed.Dict another compiled function takes (a cache one
    # function fills and another reads), not a Python dict it would refuse
    a = make_rng(seed_of("cache", n)).standard_normal(n + 4)
    windows = [1, 2, 3]
    mine, theirs = cache_of_windows(a.copy(), windows), cache_of_windows.py_func(a.copy(), windows)
    assert isinstance(mine, typed.Dict) and list(mine.keys()) == list(theirs.keys())
    for w in theirs:
        np.testing.assert_allclose(cached_window(mine, w), cached_window.py_func(theirs, w), rtol=1e-12)
        np.testing.assert_allclose(mine[w], theirs[w], rtol=1e-12)


def test_argument_arrays_in_a_returned_dict_outlive_the_call():
    cache = cache_of_windows(np.arange(5.0), [2])  # the array's only names are in the dict
    gc.collect()
    junk = [np.full(5, 9.0) for _ in range(100)]  # memory a freed array would have been given to
    assert list(cache[0]) == [0.0, 1.0, 2.0, 3.0, 4.0] and list(cached_window(cache, -1)) == [1.0, 2.0, 3.0, 4.0]
    assert np.shares_memory(cache[0], cache[-1]) and len(junk) == 100


def test_dict_values_are_the_arrays_stored_and_replaced_cleanly():
    d = typed.Dict.empty(key_type=types.unicode_type, value_type=types.float64[:])
    a, b = np.ones(3), np.zeros(2)
    d["a"] = a
    assert d["a"] is a and d.get("a") is a and "a" in d
    d["a"] = b
    assert d["a"] is b
    assert d.pop("a") is b and len(d) == 0
    d["x"] = a
    d.clear()
    assert len(d) == 0


def test_wrong_values_into_a_typed_dict_name_the_type_expected():
    d = typed.Dict.empty(key_type=types.unicode_type, value_type=types.float64[:])
    with pytest.raises(TypeError, match=r"of array\(float64, 1d, A\) cannot hold array\(int64, 1d, C\)"):
        d["a"] = np.ones(3, dtype=np.int64)
    with pytest.raises(TypeError, match=r"cannot hold array\(float64, 2d, C\)"):
        d["a"] = np.ones((2, 2))
    with pytest.raises(TypeError, match=r"cannot hold float64"):
        d["a"] = 1.0
    with pytest.raises(TypeError, match=r"cannot hold list"):
        d["a"] = [1.0]
    with pytest.raises(TypeError):
        d[1] = np.ones(3)  # an int key for str keys
    assert len(d) == 0


# ---------------------------------------------------------------- tuples

@njit
def pair_work(pairs):
    s = 0.0
    for a, b in pairs:
        s += a * b
    pairs.append((len(pairs), s))
    return s


@pytest.mark.parametrize("n", SIZES)
def test_a_list_of_tuples_from_python_as_py_func(n):
    rng = make_rng(seed_of("pairs", n))
    raw = [(int(a), float(b)) for a, b in zip(rng.integers(-9, 9, n), rng.standard_normal(n))]
    mine, theirs = typed.List(raw), typed.List(raw)
    assert pair_work(mine) == pytest.approx(pair_work.py_func(theirs), rel=1e-12)
    assert list(mine) == list(theirs)


def test_tuples_holding_arrays_and_str():
    items = typed.List()
    a = np.arange(2.0)
    items.append(("x", a, 3))
    items.append(("y", np.ones(2), 4))
    name, arr, k = items[0]
    assert name == "x" and arr is a and k == 3
    with pytest.raises(TypeError, match=r"cannot hold \(int64, int64\)"):
        items.append((1, 2))


@njit
def count_cells(d, cells):
    for c in cells:
        d[c] = d.get(c, 0) + 1
    return len(d)


@pytest.mark.parametrize("n", SIZES)
def test_a_dict_keyed_by_tuples_as_py_func(n):
    rng = make_rng(seed_of("cells", n))
    cells = typed.List([(int(i), int(j)) for i, j in rng.integers(0, 3, (n, 2))])
    mine = typed.Dict.empty(types.UniTuple(types.int64, 2), types.int64)
    theirs = typed.Dict.empty(types.UniTuple(types.int64, 2), types.int64)
    mine[(9, 9)] = theirs[(9, 9)] = 5
    assert count_cells(mine, cells) == count_cells.py_func(theirs, cells)
    assert dict(mine.items()) == dict(theirs.items())
    assert (9, 9) in mine and mine[(9, 9)] == 5
    del mine[(9, 9)]
    assert (9, 9) not in mine
    with pytest.raises(KeyError):
        mine[(1, 2, 3)]


def test_an_untyped_dict_takes_tuple_keys_from_its_first_pair():
    d = typed.Dict()
    d[(1, 2)] = 0.5
    d[(3, 4)] = 1.5
    assert d[(1, 2)] == 0.5 and d.key_type == "(int64, int64)"
    assert sorted(d.keys()) == [(1, 2), (3, 4)]


# ---------------------------------------------------------------- nested typed containers

@njit
def nested_work(rows):
    for r in rows:
        r.append(len(r))
    rows.append(rows[0].copy())
    return len(rows)


@pytest.mark.parametrize("n", SIZES)
def test_a_list_of_lists_shares_its_lists(n):
    rng = make_rng(seed_of("nested", n))

    def make():
        rows = typed.List()
        for k in rng.integers(1, 4, n):
            rows.append(typed.List([float(v) for v in range(k)]))
        return rows

    state = rng.bit_generator.state
    mine = make()
    rng.bit_generator.state = state
    theirs = make()
    inner = mine[0]
    assert nested_work(mine) == nested_work.py_func(theirs)
    assert [list(r) for r in mine] == [list(r) for r in theirs]
    inner.append(99.0)  # the list stored, not a copy
    assert mine[0][-1] == 99.0


def test_a_dict_of_lists():
    d = typed.Dict.empty(types.unicode_type, types.ListType(types.int64))
    d["a"] = typed.List([1, 2])
    d["a"].append(3)
    assert list(d["a"]) == [1, 2, 3]
    with pytest.raises(TypeError, match=r"cannot hold list"):
        d["b"] = [1, 2]  # a Python list: a typed.List is needed
    with pytest.raises(TypeError, match=r"cannot hold ListType\[float64\]"):
        d["b"] = typed.List([1.0])


def test_unsupported_item_types_are_clear_type_errors():
    for bad in (object(), {1: 2}, [1, 2], {1}):
        with pytest.raises(TypeError, match="typed containers hold"):
            typed.List().append(bad)
    with pytest.raises(TypeError, match="typed containers hold"):
        typed.List.empty_list(object)
    with pytest.raises(TypeError, match="keys are numbers, bools, str or tuples of these"):
        typed.Dict.empty(types.float64[:], types.int64)


# ---------------------------------------------------------------- references

def test_containers_let_go_of_their_arrays():
    a = np.ones(3)
    before = sys.getrefcount(a)
    for _ in range(50):
        items = typed.List()
        items.append(a)
        items.append(a)
        items[1] = a
        items.insert(0, a)
        items.pop()
        assert total(items) == 6.0
        d = typed.Dict.empty(types.unicode_type, types.float64[:])
        d["x"] = a
        d["x"] = a
        d["y"] = a
        del d["y"]
        pairs = typed.List()
        pairs.append(("k", a))
        del items, d, pairs
    gc.collect()
    assert sys.getrefcount(a) == before


def test_a_failed_store_keeps_nothing():
    a = np.ones(3)
    before = sys.getrefcount(a)
    items = typed.List.empty_list(types.Tuple([types.float64[::1], types.int64]))
    for _ in range(50):
        with pytest.raises(TypeError):
            items.append((a, "not an int"))
    assert len(items) == 0 and sys.getrefcount(a) == before
