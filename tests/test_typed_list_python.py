"""typed.List used from Python as Numba 0.68's is: indexed and sliced as a
list is (a slice a new typed.List), its items deleted and assigned by
slices, sorted with a key, printed as a list; a Python list of typed Lists
or Dicts passed to compiled code, which shares them (what it changes in
them seen by the caller) and writes the outer list back where it changed
it; a dict compiled code made comes back a typed.Dict inside a returned
list too. Each checked against a Python list doing the same, or against
the function's py_func on generated inputs; bad inputs give Python's
exceptions."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import make_rng, numba_deviation, seed_of

SLICES = [slice(None), slice(None, None, 2), slice(1, 3), slice(None, None, -1), slice(-2, None), slice(4, 1, -2),
          slice(10, 20), slice(-100, 100, 3), slice(None, -1, -3), slice(2, 2)]


def tl(items):
    x = typed.List.empty_list(ruchey.int64)
    for v in items:
        x.append(v)
    return x


def assert_as_list(got, expected):
    assert type(got) is typed.List
    assert list(got) == expected


def numbers(seed, n):
    return [int(v) for v in make_rng(seed).integers(-50, 50, n)]


# ---------------------------------------------------------------- indexing and slices

@pytest.mark.parametrize("n", [0, 1, 5, 12])
def test_slices_are_new_typed_lists_as_a_lists_slices(n):
    items = numbers(seed_of("slices", n), n)
    x = tl(items)
    for s in SLICES:
        assert_as_list(x[s], items[s])
    x[::2].append(7)  # a copy: the list itself unchanged
    assert list(x) == items


@pytest.mark.parametrize("n", [1, 6])
def test_indices_count_from_the_end_and_out_of_range_raise(n):
    items = numbers(seed_of("index", n), n)
    x = tl(items)
    for i in range(-n, n):
        assert x[i] == items[i] and x[np.int64(i)] == items[i]
    for i in (n, -n - 1, n + 10**9):
        with pytest.raises(IndexError):
            x[i]
    with pytest.raises(ValueError):
        x[::0]


@numba_deviation("Numba raises its TypingError, not Python's TypeError, for an index that is not an integer")
def test_an_index_that_is_not_an_integer_is_a_type_error():
    x = tl([1, 2])
    for bad in (1.0, "a", None):
        with pytest.raises(TypeError, match="list indices must be integers or slices"):
            x[bad]
        with pytest.raises(TypeError, match="list indices must be integers or slices"):
            x[bad] = 1


@pytest.mark.parametrize("n", [0, 3, 9])
def test_slices_are_deleted_and_assigned_as_a_lists(n):
    items = numbers(seed_of("assign", n), n)
    for s in SLICES:
        x, y = tl(items), list(items)
        del x[s], y[s]
        assert list(x) == y
        x, y = tl(items), list(items)
        k = len(y[s])
        value = numbers(seed_of("value", n), k)
        x[s] = value if value else tl(value)  # (Numba cannot type an empty Python list)
        y[s] = value
        assert list(x) == y
        if s.step not in (None, 1) and k:
            with pytest.raises(ValueError, match="extended slice"):
                x[s] = value + [1]
    x, y = tl(items), list(items)
    x[1:2] = tl([5, 6, 7])  # a typed.List's items, and the list itself
    y[1:2] = [5, 6, 7]
    x[::2] = x[::2]
    assert list(x) == y
    x[-1] = 42
    y[-1] = 42
    del x[0], y[0]
    assert list(x) == y
    with pytest.raises(IndexError):
        x[len(y)] = 1
    with pytest.raises(IndexError):
        del x[-len(y) - 1]


@numba_deviation("Numba's typed.List() of no item type cannot take a slice's items")
def test_an_empty_list_of_no_type_takes_a_slices_items():
    x = typed.List()
    x[:] = [1.5, 2.5]
    assert x.item_type == "float64" and list(x) == [1.5, 2.5]
    with pytest.raises(TypeError):
        x[:1] = ["a"]
    assert list(x) == [1.5, 2.5]


# ---------------------------------------------------------------- methods

@pytest.mark.parametrize("seed", range(3))
def test_sort_takes_a_key_as_a_lists(seed):
    items = numbers(seed, 20)
    for key in (None, lambda v: -v, njit(lambda v: v * 3 + 1)):
        for reverse in (False, True):
            x, y = tl(items), list(items)
            x.sort(key=key, reverse=reverse)
            y.sort(key=key, reverse=reverse)
            assert list(x) == y

@numba_deviation("Numba's typed.List.sort(key=) is not stable: items of equal keys come in another order")
@pytest.mark.parametrize("seed", range(3))
def test_sort_by_a_key_is_stable_as_a_lists(seed):
    items = numbers(seed, 30)
    for key in (lambda v: abs(v), lambda v: v % 3, njit(lambda v: v % 5)):
        for reverse in (False, True):
            x, y = tl(items), list(items)
            x.sort(key=key, reverse=reverse)
            y.sort(key=key, reverse=reverse)
            assert list(x) == y
    with pytest.raises(TypeError):
        tl(items).sort(key=1)
    with pytest.raises(TypeError):
        tl(items).sort(lambda v: v)  # (key is keyword-only, as a list's)


def test_a_list_of_tuples_sorts_as_python_compares_them():
    rng = make_rng(seed_of("tuples"))
    items = [(int(a), float(b)) for a, b in zip(rng.integers(0, 3, 15), rng.normal(size=15))]
    x = typed.List(items)
    x.sort()
    assert list(x) == sorted(items)
    x.sort(key=lambda t: t[1], reverse=True)
    assert list(x) == sorted(items, key=lambda t: t[1], reverse=True)


def test_str_extend_itself_and_the_rest():
    items = numbers(seed_of("methods"), 6)
    x, y = tl(items), list(items)
    assert str(x) == str(y)
    x.extend(x)
    y.extend(y)
    x += x
    y += y
    assert list(x) == y
    assert x.index(y[3]) == y.index(y[3]) and x.count(y[0]) == y.count(y[0])
    x.insert(-2, 99), y.insert(-2, 99)
    x.remove(99), y.remove(99)
    x.reverse(), y.reverse()
    assert list(x) == y and y[1] in x and 1000 not in x
    c = x.copy()
    c.append(1)
    assert type(c) is typed.List and list(x) == y
    assert repr(x) == f"ListType[int64]({y})"
    assert repr(typed.List()) == "ListType[Undefined]([])"  # Numba's spelling of an untyped one


def test_a_typed_dict_prints_as_a_dict():
    rng = make_rng(seed_of("dict str"))
    d = typed.Dict.empty(ruchey.int64, ruchey.float64)
    plain = {}
    for k, v in zip(rng.integers(0, 9, 6), rng.normal(size=6)):
        d[int(k)] = plain[int(k)] = float(v)
    assert str(d) == str(plain) and repr(d).startswith("DictType[int64,float64]")


# ---------------------------------------------------------------- Python lists of typed containers

@njit
def total_and_append(lists, v):
    s = 0
    for t in lists:
        for x in t:
            s += x
    lists[0].append(v)
    return s


@njit
def grow_outer(lists):
    lists.append(lists[0])
    fresh = typed.List.empty_list(ruchey.int64)
    fresh.append(len(lists))
    lists.append(fresh)
    return len(lists)


@njit
def replace_first(lists, v):
    t = typed.List.empty_list(ruchey.int64)
    t.append(v)
    lists[0] = t


@njit
def make_pair(n):
    a = typed.List.empty_list(ruchey.int64)
    for i in range(n):
        a.append(i)
    return [a, a]


@njit
def add_to_dicts(dicts, k):
    for d in dicts:
        d[k] = d.get(k, 0.0) + 1.0
    return len(dicts)


@pytest.mark.parametrize("n", [1, 4])
def test_a_python_list_of_typed_lists_is_shared_with_the_call(n):
    rng = make_rng(seed_of("shared", n))
    items = [numbers(int(rng.integers(1 << 30)), n) for _ in range(3)]
    v = int(rng.integers(-9, 9))
    got_lists = [tl(i) for i in items]
    want_lists = [tl(i) for i in items]
    got = [got_lists[0], got_lists[1], got_lists[0], got_lists[2]]
    want = [want_lists[0], want_lists[1], want_lists[0], want_lists[2]]
    assert total_and_append(got, v) == total_and_append.py_func(want, v)
    assert [list(t) for t in got] == [list(t) for t in want]
    assert got[0] is got_lists[0] and list(got_lists[0]) == items[0] + [v]  # unchanged outer list: the same objects
    assert grow_outer(got) == grow_outer.py_func(want)
    assert all(type(t) is typed.List for t in got) and [list(t) for t in got] == [list(t) for t in want]
    got[-2].append(5), want[-2].append(5)  # the one appended shares the first's items
    assert list(got[0])[-1] == 5
    replace_first(got, v), replace_first.py_func(want, v)
    assert [list(t) for t in got] == [list(t) for t in want] and type(got[0]) is typed.List


@pytest.mark.parametrize("n", [0, 3])
def test_a_returned_list_of_typed_lists_is_taken_back(n):
    pair = make_pair(n)
    assert type(pair) is list and all(type(t) is typed.List for t in pair)
    assert total_and_append(pair, 7) == sum(range(n)) * 2
    assert list(pair[1]) == list(range(n)) + [7]  # one list, shared


def test_a_python_list_of_typed_dicts_is_shared_with_the_call():
    d = typed.Dict.empty(ruchey.int64, ruchey.float64)
    e = typed.Dict.empty(ruchey.int64, ruchey.float64)
    d[1] = 2.0
    assert add_to_dicts([d, e, d], 1) == 3
    assert dict(d) == {1: 4.0} and dict(e) == {1: 1.0}


@njit
def store_array(lists, a):
    lists[0].append(a)


def test_an_array_stored_in_a_shared_typed_list_is_kept():
    x = typed.List.empty_list(ruchey.float64[::1])
    a = make_rng(seed_of("keep")).normal(size=4)
    want = a.copy()
    store_array([x], a)
    del a
    np.testing.assert_array_equal(x[0], want)


def test_a_list_mixing_typed_and_python_lists_is_refused():
    x = tl([1, 2])
    with pytest.raises(TypeError, match="heterogeneous"):
        total_and_append([x, [1, 2]], 1)
    with pytest.raises(TypeError, match="heterogeneous"):
        total_and_append([x, typed.List([1.5])], 1)
    with pytest.raises(TypeError):
        total_and_append([typed.List()], 1)  # no item type yet
    assert list(x) == [1, 2]


# ---------------------------------------------------------------- dicts in returned lists

@njit
def dict_in_list(n):
    d = {i: i * 0.5 for i in range(n)}
    return [d]


@njit
def dict_in_nested(n):
    d = {i: i + 1 for i in range(n)}
    return (d, [[d]])


@pytest.mark.parametrize("n", [0, 1, 6])
def test_a_dict_in_a_returned_list_is_a_typed_dict(n):
    got, want = dict_in_list(n), dict_in_list.py_func(n)
    assert type(got) is list and type(got[0]) is typed.Dict and dict(got[0]) == want[0]
    got, want = dict_in_nested(n), dict_in_nested.py_func(n)
    assert type(got[0]) is typed.Dict and type(got[1][0][0]) is typed.Dict
    assert dict(got[1][0][0]) == want[1][0][0]
    got[0][100] = 1  # one dict, shared
    assert got[1][0][0][100] == 1


# ---------------------------------------------------------------- typeof

@njit
def total_of(x):
    s = 0.0
    for v in x:
        s += v
    return s


def test_typeof_a_typed_container_is_its_list_or_dict_type():
    rng = make_rng(seed_of("typeof"))
    x = typed.List([float(v) for v in rng.normal(size=5)])
    t = ruchey.typeof(x)
    assert t == ruchey.types.ListType(ruchey.float64)
    assert ruchey.typeof(typed.List([rng.normal(size=3)])) == ruchey.types.ListType(ruchey.float64[::1])
    d = typed.Dict.empty(ruchey.int64, ruchey.float64)
    assert ruchey.typeof(d) == ruchey.types.DictType(ruchey.int64, ruchey.float64)
    nested = typed.List([typed.List([1, 2])])
    assert ruchey.typeof(nested) == ruchey.types.ListType(ruchey.types.ListType(ruchey.int64))
    f = njit(ruchey.float64(t))(total_of.py_func)  # the type a signature takes
    assert f(x) == pytest.approx(total_of.py_func(x))
    with pytest.raises(TypeError):
        ruchey.typeof(typed.List())  # no item type yet


def test_numba_lists_own_attributes_and_keywords():
    """_numba_type_, _typed, _dtype and List(lsttype=, allocated=) as Numba's List has them."""
    rng = make_rng(seed_of("list attributes"))
    for item, values in ((ruchey.int32, rng.integers(-5, 5, 4)), (ruchey.float64, rng.normal(size=3))):
        x = typed.List.empty_list(item)
        for v in values:
            x.append(v)
        assert x._typed and x._dtype == item and x._numba_type_ == ruchey.typeof(x)
        y = typed.List(lsttype=ruchey.types.ListType(item), allocated=8)
        assert len(y) == 0 and y._dtype == item
        y.extend(x)
        assert list(y) == list(x)
    empty = typed.List()
    assert not empty._typed
    with pytest.raises(RuntimeError, match="untyped list"):
        empty._dtype
    with pytest.raises(TypeError, match="no keyword arguments"):
        typed.List(iterable=[1, 2])  # not silently an empty list
    with pytest.raises(TypeError, match="must be a ListType"):
        typed.List(lsttype=ruchey.int64)


@njit
def typed_list_of(a):
    return typed.List(a)


def test_a_zero_dimensional_array_gives_its_one_item():
    rng = make_rng(seed_of("0-d typed lists"))
    for a in (np.array(3), np.array(-2.5), np.array(True), np.array(rng.normal()), np.array(np.nan),
              np.array(rng.integers(-9, 9), np.int8), np.array(1 - 2j, np.complex64)):
        for x in (typed.List(a), typed_list_of(a)):  # in Python and in compiled code alike
            assert type(x) is typed.List and len(x) == 1 and type(x[0]) is type(a.item())
            assert x[0] == a.item() or (np.isnan(a) and np.isnan(x[0]))
    assert list(typed_list_of(np.arange(3))) == [0, 1, 2]
    with pytest.raises(ruchey.TypingError):
        njit(lambda: typed.List(3))()  # a number is no iterable


@njit
def time_items_read(x, extra):
    x.append(extra)
    span = x[-1] - x[0]
    return len(x), x[0], span, x.index(extra)


def test_datetime_and_timedelta_items_given_from_python_keep_their_unit():
    rng = make_rng(seed_of("time items"))
    for unit in ("D", "s", "ns"):
        dates = rng.integers(-10**5, 10**5, 5).astype(f"M8[{unit}]")
        dates[2] = np.datetime64("NaT")
        for values in (dates, dates - dates[0]):
            x = typed.List(values[:-1])
            time = ruchey.types.NPDatetime if values.dtype.kind == "M" else ruchey.types.NPTimedelta
            assert ruchey.typeof(x) == ruchey.types.ListType(time(unit))
            assert [str(v) for v in x] == [str(v) for v in values[:-1]]
            x[1] = values[3]  # setitem and append take one of the list's very type
            expected = time_items_read.py_func(list(x), values[-1])
            got = time_items_read(x, values[-1])
            assert [str(v) for v in got] == [str(v) for v in expected]
            assert type(got[1]) is type(values[0]) and x[-1] == values[-1]  # appended in the caller's list
            for other in (values[0].astype("M8[h]" if values.dtype.kind == "M" else "m8[h]"), 3, 2.5):
                with pytest.raises((TypeError, ruchey.TypingError)):  # (Numba's a TypingError)
                    x.append(other)  # another unit is another type: no conversion, as a Dict's time keys
    empty = typed.List.empty_list(ruchey.types.NPDatetime("D"))
    empty.append(np.datetime64("2020-02-03"))
    assert list(empty) == [np.datetime64("2020-02-03")]


@numba_deviation("Numba cannot type a container of an empty container of no item type")
@pytest.mark.parametrize("make, outer, inner", [
    (lambda: [typed.List()], list, [typed.List]),
    (lambda: typed.List([typed.List()]), typed.List, [typed.List]),
    (lambda: [typed.Dict()], list, [typed.Dict]),
    (lambda: [typed.Dict(), typed.Dict()], list, [typed.Dict, typed.Dict]),
])
def test_empty_untyped_containers_returned_inside_others_are_empty_containers(make, outer, inner):
    # an item of no item type yet was read as if it had one (a crash)
    got = njit(make)()
    assert type(got) is outer and [type(v) for v in got] == inner and all(len(v) == 0 for v in got)


@njit
def list_of_an_empty_typed_list():
    return typed.List([typed.List()])


@numba_deviation("Numba cannot type a container of an empty container of no item type")
def test_an_empty_typed_list_returned_inside_another_is_typed_by_its_first_item():
    inner = list_of_an_empty_typed_list()[0]
    inner.append(2.5)
    assert list(inner) == [2.5]


@njit
def dtypes_of(xs, ys):
    return xs._dtype, ys._dtype


def test_a_typed_lists_dtype_in_compiled_code_is_its_items_dtype():
    """As Numba's: l._dtype in compiled code is the items' type, returned to Python as its numpy.dtype (in
    Python, typed.List._dtype is the ruchey type, equal to that dtype)."""
    rng = make_rng(seed_of("list dtype"))
    for item, values in ((ruchey.int32, rng.integers(-5, 5, 3)), (ruchey.float32, rng.normal(size=2)),
                         (ruchey.boolean, rng.integers(0, 2, 2) > 0), (ruchey.complex128, rng.normal(size=1) + 1j)):
        xs = typed.List.empty_list(item)
        for v in values:
            xs.append(v)
        got = dtypes_of(xs, typed.List([1.5]))
        assert got == (np.dtype(str(item)), np.dtype("float64"))
        assert dtypes_of.py_func(xs, typed.List([1.5])) == (item, ruchey.float64)
    with pytest.raises(ruchey.TypingError, match="for a list of numbers or bools"):
        dtypes_of(typed.List(["a"]), typed.List([1.0]))
