"""Typed lists and dicts: list and dict literals, comprehensions, their
methods, `in`, `del` and iteration inside compiled code, and
ruchey.typed.List / Dict shared with Python without copying; each compared
with the function's py_func on generated inputs."""
import math

import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import AS_NUMBA, assert_same_value, make_rng, rss_bytes, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers (numba's reflected lists differ)")


def plain(v):
    """A result with typed containers made Python lists and dicts."""
    if isinstance(v, (typed.List, list)):
        return [plain(x) for x in v]
    if isinstance(v, (typed.Dict, dict)):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return tuple(plain(x) for x in v)
    return v


def check(expected, got):
    """A compiled result against Python's: lists as Python lists (Numba's
    reflected lists) or typed ones (made by typed.List), dicts as typed ones,
    with the same items (dicts in the same order), numbers of the same type."""
    if isinstance(expected, list):
        assert isinstance(got, (list, typed.List)), f"expected a list, got {type(got)}"
        assert len(got) == len(expected), f"{plain(got)} != {expected}"
        for e, g in zip(expected, got):
            check(e, g)
    elif isinstance(expected, dict):
        assert isinstance(got, typed.Dict), f"expected a typed.Dict, got {type(got)}"
        assert list(got.keys()) == list(expected.keys()), f"{plain(got)} != {expected}"
        for e, g in zip(expected.values(), got.values()):
            check(e, g)
    elif isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for e, g in zip(expected, got):
            check(e, g)
    else:
        assert_same_value(expected, got)


def same(f, *args):
    """f and f.py_func on copies of args (typed containers copied), results and
    arguments afterwards compared; typed containers as lists and dicts."""
    def copies():
        out = []
        for a in args:
            if isinstance(a, typed.List):
                c = typed.List.empty_list(ITEM[a.item_type])
                c.extend(a)
                a = c
            elif isinstance(a, typed.Dict):
                c = typed.Dict.empty(ITEM[a.key_type], ITEM[a.value_type])
                for k, v in a.items():
                    c[k] = v
                a = c
            out.append(a)
        return out
    py_args, jit_args = copies(), copies()
    expected = f.py_func(*py_args)
    got = f(*jit_args)
    check(expected, got)
    for pa, ja in zip(py_args, jit_args):
        if isinstance(pa, np.ndarray):
            np.testing.assert_array_equal(pa, ja)
        else:
            assert plain(pa) == plain(ja)
    return got


ITEM = {"int64": ruchey.int64, "float64": ruchey.float64, "bool": ruchey.boolean, "int32": ruchey.int32,
        "float32": ruchey.float32, "uint64": ruchey.uint64}


def tlist(item, values):
    out = typed.List.empty_list(ITEM[item])
    for v in values:
        out.append(v)
    return out


def tdict(key, value, pairs):
    out = typed.Dict.empty(ITEM[key], ITEM[value])
    for k, v in pairs:
        out[k] = v
    return out


# ---------------------------------------------------------------- lists in compiled code

@njit
def append_range(n):
    out = []
    for i in range(n):
        out.append(i * 3 - 7)
    return out


@njit
def literal_ops(a, b):
    x = [a, b, a + b]
    x.insert(1, b * 2)
    x.insert(-100, 5)
    x.insert(100, 6)
    x.extend(x)
    last = x.pop()
    first = x.pop(0)
    mid = x.pop(-2)
    return x, last, first, mid, len(x), x[0], x[-1], x.index(b * 2), x.count(a)


@njit
def sum_iter(n):
    x = [i * 0.5 for i in range(n)]
    s = 0.0
    for v in x:
        s += v
    for i, v in enumerate(x):
        s += i * v
    return s


@njit
def comprehension_nested(n):
    return [i * j for i in range(n) if i % 2 == 0 for j in range(i)]


@njit
def sort_reverse(a, rev):
    x = [a[i] for i in range(a.shape[0])]
    y = x.copy()
    x.sort()
    y.sort(reverse=rev)
    z = x.copy()
    z.reverse()
    z.clear()
    return x, y, len(z)


@njit
def contains(n, v):
    x = [i * i for i in range(n)]
    return v in x, v not in x, 2.5 in x


@njit
def setitem_negative(n):
    x = [0, 0, 0, 0]
    for i in range(n):
        x[-1 - (i % 4)] += i
    del x[1]
    return x


@pytest.mark.parametrize("n", [0, 1, 7, 100, 1000])
def test_append_in_a_loop_types_an_empty_list(n):
    same(append_range, n)


@pytest.mark.parametrize("seed", range(6))
def test_literal_insert_extend_pop_index_count(seed):
    rng = make_rng(seed)
    a, b = (int(v) for v in rng.integers(-50, 50, 2))
    same(literal_ops, a, b)


@pytest.mark.parametrize("n", [0, 1, 10, 333])
def test_iteration_and_enumerate_over_a_comprehension(n):
    same(sum_iter, n)


@pytest.mark.parametrize("n", [0, 3, 9])
def test_nested_comprehension_with_condition(n):
    same(comprehension_nested, n)


@pytest.mark.parametrize("seed", range(4))
def test_sort_is_stable_and_reverses(seed):
    rng = make_rng(seed)
    a = rng.normal(size=30).round(1)
    a[3] = -0.0
    a[4] = 0.0
    for rev in (False, True):
        same(sort_reverse, a, rev)
    same(sort_reverse, rng.integers(-5, 5, 40), True)


@pytest.mark.parametrize("v", [0, 1, 4, 5, 81, -1])
def test_in_and_not_in(v):
    same(contains, 10, v)


def test_negative_indices_augassign_and_del():
    for n in range(6):
        same(setitem_negative, n)


@njit
def index_at(n, i):
    x = [k for k in range(n)]
    return x[i]


@njit
def store_at(n, i):
    x = [k for k in range(n)]
    x[i] = 1
    return x


@njit
def pop_empty(n):
    x = [1.0]
    x.pop()
    for i in range(n):
        x.pop()
    return x


@njit
def index_missing(v):
    return [1, 2, 3].index(v)


def test_bad_indices_raise_index_error_as_python():
    for f, args in ((index_at, (3, 3)), (index_at, (3, -4)), (store_at, (2, 5)), (pop_empty, (1,))):
        with pytest.raises(IndexError) as want:
            f.py_func(*args)
        with pytest.raises(IndexError) as got:
            f(*args)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="7 is not in list"):
        index_missing(7)
    assert index_at(3, -3) == 0


@njit
def empty_untyped():
    x = []
    return len(x)


@njit
def empty_unknown_item():
    x = []
    return x[0]


def test_empty_list_never_given_an_item():
    assert empty_untyped() == 0
    with pytest.raises(ruchey.TypingError, match="cannot infer the item type"):
        empty_unknown_item()


@njit
def append_item(y, x):
    y.append(x)
    return y


def test_wrong_item_type_is_a_typing_error():
    """A list made elsewhere keeps its item type (a list written out in the
    function widens over the numbers given it, as Numba's)."""
    ints = typed.List.empty_list(ruchey.types.int64)
    ints.append(1)
    with pytest.raises(ruchey.TypingError, match="cannot put float64 into ListType\\[int64\\]"):
        append_item(ints, 1.5)
    assert list(append_item(ints, True)) == [1, 1]


# ---------------------------------------------------------------- dicts in compiled code

@njit
def count_keys(a):
    d = {}
    for v in a:
        d[v] = d.get(v, 0) + 1
    return d


@njit
def dict_ops(n, k):
    d = {1: 1.5, 2: 2.5}
    for i in range(n):
        d[i * 7 % 11] = i * 0.25
    has = k in d
    got = d.get(k, -1.0)
    s = d.setdefault(k, 9.0)
    p = d.pop(3, -2.0)
    if 5 in d:
        del d[5]
    keys = 0
    for key in d.keys():
        keys = keys * 31 + key
    vals = 0.0
    for v in d.values():
        vals = vals * 0.5 + v
    items = 0.0
    for key, v in d.items():
        items += key * v
    return d, has, got, s, p, keys, vals, items, len(d)


@njit
def dict_comprehension(n):
    return {i % 5: i * 1.0 for i in range(n)}


@njit
def float_keys(a):
    d = {}
    for i in range(a.shape[0]):
        d[a[i]] = i
    total = 0
    for k in d:
        total += d[k]
    return d, total, 1 in d, -0.0 in d


@njit
def dict_missing(k):
    d = {1: 2, 3: 4}
    return d[k]


@njit
def dict_pop_missing(k):
    d = {1: 2}
    return d.pop(k)


@njit
def dict_del_missing(k):
    d = {1: 2}
    del d[k]
    return len(d)


@pytest.mark.parametrize("seed", range(5))
def test_counting_into_a_dict(seed):
    a = make_rng(seed).integers(-20, 20, 200)
    same(count_keys, a)


@pytest.mark.parametrize("n,k", [(0, 1), (5, 3), (11, 5), (30, 40), (30, 2)])
def test_dict_methods_and_iteration_in_insertion_order(n, k):
    same(dict_ops, n, k)


def test_dict_comprehension():
    for n in (0, 3, 12):
        same(dict_comprehension, n)


@njit
def dict_entries_stored_by_unpacking(d, k1, k2, v1, v2):
    d[k1], d[k2] = v1, v2  # each entry from the tuple's field, an existing one overwritten
    d[k1], d[k2] = d[k2], d[k1]
    e = {}
    e[k1], e[k2], e[0] = "a", "b", "c"  # an empty dict typed by the fields
    return e  # (d compared after the call)


def test_dict_entries_stored_by_an_unpacking_store_as_python():
    rng = make_rng(11)
    for n in (0, 3, 8):
        keys = rng.integers(-5, 5, size=n + 2).tolist()
        values = rng.standard_normal(n + 2).tolist()
        d = tdict("int64", "float64", zip(keys[:n], values[:n]))
        same(dict_entries_stored_by_unpacking, d, keys[n], keys[n + 1], values[n], values[n + 1])


def test_float_keys_hash_and_compare_as_python():
    a = np.array([1.0, 0.0, -0.0, 2.5, 1.0, np.inf, -np.inf, 3.0, 2.5])
    same(float_keys, a)


def test_missing_keys_raise_key_error():
    for f in (dict_missing, dict_pop_missing, dict_del_missing):
        with pytest.raises(KeyError):
            f.py_func(7)
        with pytest.raises(KeyError):
            f(7)
    assert dict_missing(3) == 4


@njit
def many_keys(n):
    d = {}
    for i in range(n):
        d[i * 2654435761 % 1000003] = i
    for i in range(0, n, 3):
        del d[i * 2654435761 % 1000003]
    s = 0
    for k, v in d.items():
        s = (s * 31 + k + v) % 1000000007
    return s, len(d)


def test_many_keys_with_deletions_keep_insertion_order():
    for n in (0, 10, 1000, 20000):
        same(many_keys, n)


@njit
def unknown_dict():
    d = {}
    return d[1]


def test_empty_dict_never_stored_into():
    with pytest.raises(ruchey.TypingError, match="cannot infer the key and value types"):
        unknown_dict()


# ---------------------------------------------------------------- typed.List / Dict from Python

@njit
def append_and_set(x, v):
    x.append(v)
    x[0] = v * 2
    return len(x)


@njit
def passthrough(x):
    return x


def test_typed_list_is_shared_without_copying():
    x = tlist("int64", [1, 2, 3])
    assert append_and_set(x, 5) == 4
    assert list(x) == [10, 2, 3, 5]
    y = passthrough(x)
    y.append(7)
    assert list(x) == [10, 2, 3, 5, 7] and len(y) == 5
    assert x[-1] == 7 and x == [10, 2, 3, 5, 7]
    assert repr(x) == "ListType[int64]([10, 2, 3, 5, 7])"


def test_typed_list_from_python():
    x = typed.List()
    assert len(x) == 0 and x.item_type is None
    x.append(1.5)
    x.extend([2, 3])
    assert x.item_type == "float64" and list(x) == [1.5, 2.0, 3.0]
    assert x.pop() == 3.0 and x.pop(0) == 1.5
    x.insert(0, 9)
    x[1] = -1
    del x[0]
    assert list(x) == [-1.0]
    with pytest.raises(TypeError):
        x.append("a")
    with pytest.raises(IndexError):
        x[5]
    y = typed.List([3, 1, 2])
    y.sort()
    assert list(y) == [1, 2, 3]
    y.reverse()
    assert list(y) == [3, 2, 1]
    with pytest.raises(TypeError):
        y.append(1.5)


@njit
def add_pairs(d, n):
    for i in range(n):
        d[i] = d.get(i, 0.0) + i
    return d


def test_typed_dict_is_shared_without_copying():
    d = typed.Dict.empty(ruchey.int64, ruchey.float64)
    d[1] = 0.5
    r = add_pairs(d, 3)
    assert dict(d.items()) == {1: 1.5, 0: 0.0, 2: 2.0}
    r[10] = 1.0
    assert d[10] == 1.0 and len(d) == 4 and 10 in d and 11 not in d
    assert list(d) == [1, 0, 2, 10]
    assert d.pop(1) == 1.5 and d.get(1) is None and d.setdefault(3, 7.0) == 7.0
    del d[0]
    assert list(d.keys()) == [2, 10, 3]
    with pytest.raises(KeyError):
        d[99]
    assert repr(d) == "DictType[int64,float64]({2: 2.0, 10: 1.0, 3: 7.0})"


@pytest.mark.parametrize("seed", range(4))
def test_typed_dict_update_and_popitem_as_a_dicts(seed):
    """update (a mapping, pairs, keywords) and popitem (last in, first out),
    step by step beside a Python dict, then passed to compiled code."""
    rng = make_rng(seed)
    d, want = typed.Dict.empty(ruchey.types.unicode_type, ruchey.float64), {}
    for _ in range(30):
        pairs = [(f"k{rng.integers(12)}", float(rng.normal())) for _ in range(rng.integers(4))]
        how = rng.integers(4)
        if how == 0:
            d.update(dict(pairs)); want.update(dict(pairs))
        elif how == 1:
            d.update(pairs); want.update(pairs)
        elif how == 2:
            d.update(dict(pairs), extra=1.5); want.update(dict(pairs), extra=1.5)
        elif want:
            assert d.popitem() == want.popitem()
        assert list(d.items()) == list(want.items())
    assert add_first_value(d) == (next(iter(want.values())) if want else -1.0)
    while want:
        assert d.popitem() == want.popitem()
    with pytest.raises(KeyError, match="empty"):
        d.popitem()
    with pytest.raises(ValueError, match="length 1"):
        d.update([("x",)])
    with pytest.raises(TypeError):
        d.update(3)
    assert len(d) == 0


@njit
def add_first_value(d):
    for k in d:
        return d[k]
    return -1.0


def test_untyped_dict_types_from_first_pair():
    d = typed.Dict()
    d[1.5] = True
    assert add_first(d) is True
    with pytest.raises(TypeError):
        d[2.0] = "x"


@njit
def add_first(d):
    for k in d:
        return d[k]
    return False


def test_python_dict_argument_is_refused_naming_typed_dict():
    items = [1, 2]  # a Python list is taken, as Numba's reflected list (tests/test_reflected_lists.py)
    assert passthrough(items) is items
    with pytest.raises(TypeError, match="typed.Dict"):
        passthrough({1: 2})
    with pytest.raises(TypeError, match="empty_list"):
        passthrough(typed.List())


@njit
def sum_list(x):
    s = 0
    for v in x:
        s += v
    return s


@pytest.mark.parametrize("item", ["int64", "int32", "float32", "uint64", "bool"])
def test_item_types_from_python(item):
    rng = make_rng(3)
    vals = [bool(v) if item == "bool" else (float(v) if "float" in item else abs(int(v)))
            for v in rng.integers(0, 100, 20)]
    x = tlist(item, vals)
    assert sum_list(x) == sum_list.py_func(list(x))
    assert list(passthrough(x)) == vals


# ---------------------------------------------------------------- memory

@njit
def churn(n):
    x = [i for i in range(n)]
    d = {i: i * 1.0 for i in range(n)}
    y = x.copy()
    y.extend(x)
    return len(y) + len(d)


def test_creating_containers_repeatedly_leaks_nothing():
    x = tlist("int64", range(1000))
    churn(10000)
    passthrough(x)
    before = rss_bytes()
    for _ in range(300):
        churn(10000)
        passthrough(x)
        typed.Dict.empty(ruchey.int64, ruchey.int64)[1] = 2
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


def test_key_error_carries_the_key_as_python():
    for k in (7, -3):
        with pytest.raises(KeyError) as want:
            dict_missing.py_func(k)
        with pytest.raises(KeyError) as got:
            dict_missing(k)
        assert got.value.args == want.value.args


@njit
def float_key_missing(k):
    d = {1.5: 1}
    return d[k]


def test_key_error_of_a_float_key():
    with pytest.raises(KeyError) as got:
        float_key_missing(2.25)
    assert got.value.args == (2.25,)


@njit
def pass_to_callee(n):
    x = [0.5]
    for i in range(n):
        grow_by(x, i)
    return x


@njit
def grow_by(x, v):
    x.append(v * 1.0)
    return len(x)


def test_lists_passed_between_compiled_functions_are_shared():
    # (py_func would pass a Python list to the compiled grow_by: refused)
    for n in (0, 1, 5):
        check([0.5] + [i * 1.0 for i in range(n)], pass_to_callee(n))


# ---------------------------------------------------------------- tuples as items

@njit
def pairs(n):
    out = [(0, 0.5)]
    for i in range(n):
        out.append((i, i * 0.25))
    out.insert(1, (7, 1.5))
    s = 0.0
    for a, b in out:
        s += a * b
    first = out.pop(0)
    return out, s, first, out[-1], len(out)


@njit
def tuple_values(n):
    d = {}
    for i in range(n):
        d[i % 4] = (i, i > 2)
    total = 0
    for k, (a, b) in d.items():
        total += k * a + b
    return d, total, d.get(9, (0, False))


@pytest.mark.parametrize("n", [0, 1, 6])
def test_lists_of_tuples(n):
    same(pairs, n)


@pytest.mark.parametrize("n", [0, 3, 10])
def test_dict_values_that_are_tuples(n):
    same(tuple_values, n)


@njit
def echo_pairs(x):
    x.append((1, 2.0))
    return x


def test_a_list_of_tuples_back_in_compiled_code_and_read_from_python():
    x = typed.List(pairs(2)[0])  # (a list display comes back a Python list, as Numba's reflected list)
    y = echo_pairs(x)
    assert list(x) == [(7, 1.5), (0, 0.0), (1, 0.25), (1, 2.0)] and len(y) == 4
    assert repr(x).startswith("ListType[(int64, float64)](")
    x.append((2, 3))  # written from Python too (tests/test_typed_boundary.py), the int converted
    assert x[-1] == (2, 3.0) and type(x[-1][1]) is float
    with pytest.raises(TypeError, match=r"cannot hold \(float64, float64\)"):
        x.append((1.5, 2.0))


@njit
def sort_pairs(n):
    x = [np.zeros(n)]  # tuples of numbers sort (test_containers_nested.py); arrays have no order
    x.sort()


@njit
def list_of_list_tuples(a, n):
    out = [(a, [1]), (a[1:], [2])]  # tuples of arrays, strs, lists (test_containers_tuples.py)
    for i in range(n):
        out[i % 2][1].append(i)
    return out


def test_unsupported_items_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="sorting a list of"):
        sort_pairs(1)


def test_lists_of_tuples_holding_lists_agree_with_python():
    a = np.arange(3.0)
    for n in (0, 1, 5):
        got, expected = list_of_list_tuples(a, n), list_of_list_tuples.py_func(a, n)
        assert [(x.tolist(), y) for x, y in got] == [(x.tolist(), list(y)) for x, y in expected]


@njit(parallel=True)
def parallel_appends(n):
    x = [0]
    for i in ruchey.prange(n):
        x.append(i)
    return len(x)


def test_a_prange_loop_using_a_list_runs_serially():
    with pytest.warns(Warning, match="typed list or dict"):
        assert parallel_appends(200000) == 200001
    for _ in range(3):
        assert parallel_appends(200000) == 200001


@njit
def untyped_pair():
    a, b = [], {}
    a.append(True)
    b[1.5] = (1, 2)
    return a, b


def test_empty_containers_made_before_their_types_are_known():
    a, b = untyped_pair()
    assert a == [True] and type(a[0]) is bool
    assert list(b.items()) == [(1.5, (1, 2))] and b.key_type == "float64"


def test_kernels_take_no_typed_containers():
    from ruchey import cuda

    @cuda.jit
    def kernel(x):
        x.append(1)

    x = typed.List.empty_list(ruchey.int64)
    with pytest.raises(TypeError, match="unsupported type List"):  # its threads would share it
        kernel[1, 1](x)


def test_numpy_scalars_fill_a_typed_list_before_anything_is_compiled(tmp_path):
    # typing a NumPy scalar needs the compiler library's types, loaded on demand
    # (it crashed when a typed container was the first thing made)
    from conftest import run_python_file
    r = run_python_file("import numpy as np\nfrom ruchey import typed\n"
                        "print(list(typed.List([np.float32(1.5), np.float32(2)])))\n", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[1.5, 2.0]"


@pytest.mark.parametrize("how", ["first pair", "empty complex128", "empty complex64"])
def test_typed_dict_takes_complex_keys_as_compiled_code_does(how):
    d = typed.Dict() if how == "first pair" else typed.Dict.empty(getattr(ruchey, how.split()[1]), ruchey.float64)
    expected = {}
    for k, v in ((1j, 2.0), (0.5 - 2j, 3.0), (2, 4.0), (1j, 5.0), (-0.0, 6.0)):
        d[k] = expected[k] = v
    del d[0.5 - 2j]
    del expected[0.5 - 2j]
    assert dict(d) == expected and list(d) == list(expected)
    assert 1j in d and 2 + 0j in d and 3j not in d

    @njit
    def read(d, z):
        return d[z], z in d, len(d)

    assert read(d, 1j) == (5.0, True, 3)
    with pytest.raises(KeyError) as e:
        read(d, 2.5 + 1j)
    assert e.value.args == (2.5 + 1j,)
    d = typed.Dict.empty(ruchey.int64, ruchey.complex128)  # complex values are fine
    d[3] = 1 + 2j
    assert dict(d) == {3: 1 + 2j}


ARRAY_ITEMS = ruchey.types.int64[:]


@njit
def arrays_by_length(n):
    out = typed.List.empty_list(item_type=ARRAY_ITEMS, allocated=n)
    out.extend([np.empty(0, dtype=np.int64) for i in range(n)])
    for i in range(n):
        out[i] = np.arange(i) * 2
    return out


def test_empty_list_of_an_array_type_a_global_names():
    for n in (0, 1, 5):
        got, expected = arrays_by_length(n), arrays_by_length.py_func(n)
        assert len(got) == len(expected)
        assert all(g.dtype == e.dtype and np.array_equal(g, e) for g, e in zip(got, expected))


@njit
def lists_typed_by_values(keys, n):
    # a value in place of the item type: its type, as Numba's (Python's List.empty_list takes types only)
    dicts = typed.List.empty_list(typed.Dict.empty(ruchey.int32, ruchey.float64))
    arrays = typed.List.empty_list(np.zeros((0, 0)))
    for i in range(n):
        d = typed.Dict.empty(ruchey.int32, ruchey.float64)
        for k in keys[:i]:
            d[k] = k * 0.5
        dicts.append(d)
        arrays.append(np.ones((i, 2)))
    return [sorted(d.items()) for d in dicts], [a.sum() for a in arrays]


def test_empty_list_of_a_values_type():
    keys = make_rng(5).integers(-9, 9, 6).astype(np.int32)
    for n in (0, 1, 6):
        got = lists_typed_by_values(keys, n)
        expected = ([sorted({int(k): k * 0.5 for k in keys[:i]}.items()) for i in range(n)],
                    [2.0 * i for i in range(n)])
        assert got == expected


@njit
def dict_of_pairs(keys, values):
    return typed.Dict(zip(keys, values)), typed.Dict(enumerate(values))


def test_typed_dict_of_pairs_is_dicts_of_them():
    """typed.Dict(pairs), compiled and in Python, fills it as dict(pairs) (later keys win)."""
    rng = make_rng(23)
    for n in (1, 5, 12):
        keys, values = rng.integers(0, 6, size=n), rng.normal(size=n)
        got, want = dict_of_pairs(keys, values), dict_of_pairs.py_func(keys, values)
        for g, w in zip(got, want):
            assert isinstance(g, typed.Dict) and dict(g) == dict(w) and list(g) == list(w)
        made = typed.Dict(zip(keys.tolist(), values.tolist()))
        assert dict(made) == dict(zip(keys.tolist(), values.tolist()))
    assert dict(typed.Dict({1: 2.5})) == {1: 2.5} and len(typed.Dict()) == 0
    with pytest.raises(TypeError):
        typed.Dict(3)
    with pytest.raises(TypeError):
        typed.Dict([(1, 2)], [(3, 4)])
    with pytest.raises(ValueError):
        typed.Dict([(1, 2), (3, 4, 5)])
    for pairs in (((1, "a"), (2, "b")), ((1, 2),), ()):  # a tuple of pairs is one argument, not the call's
        assert dict(typed.Dict(pairs)) == dict(pairs)
    with pytest.raises(ValueError, match="element #1 has length 3"):
        typed.Dict(((1, "a"), (2, "b", 3)))


# ---------------------------------------------------------------- lists of None

@njit
def nones(n, k):
    out = typed.List()
    for _ in range(n):
        out.append(None)
    if n:
        out[n // 2] = None
    other = typed.List()
    for _ in range(k):
        other.append(None)
    count = 0
    for x in out:
        if x is None:
            count += 1
    return out, count, len(other), out == other, out != other, out < other, out >= other


def test_typed_lists_of_none_as_numba_none_type_items():
    """Numba's List of NoneType: None items, always equal, so that lists of
    them compare by their lengths; passed to and from Python too."""
    for n, k in make_rng(41).integers(0, 4, size=(6, 2)).tolist() + [[0, 0], [2, 2]]:
        assert plain(nones(n, k)) == plain(nones.py_func(n, k))
    held = typed.List([None, None])
    assert list(held) == [None, None] and held[1] is None
    held.append(None)
    assert len(held) == 3


def many_entries_source(rng, n):
    """A function of x returning a dict of n int keys (repeated ones too),
    one of n str keys, a set of n items and whether x is in a set of n
    constants, each written out."""
    keys = rng.integers(-3 * n, 3 * n, n).tolist()
    ints = ", ".join(f"{k}: x * {i}" for i, k in enumerate(keys))
    strs = ", ".join(f"'k{k}': {i}.5 - x" for i, k in enumerate(keys))
    items = ", ".join(f"x + {k}" for k in keys)
    constants = ", ".join(str(k) for k in keys)
    return f"def f(x):\n    return {{{ints}}}, {{{strs}}}, sorted({{{items}}}), x in {{{constants}}}\n"


@pytest.mark.parametrize("n", [65, 200])
def test_dict_and_set_literals_of_many_entries(n):
    from arraygen import define
    f = njit(define(many_entries_source(make_rng(n), n)))
    for x in (0, -7, 3, n + 1):
        same(f, x)


def test_a_dict_made_without_types_is_typed_by_its_first_pair():
    """Numba's typed.Dict()'s _typed: false until a pair (d[k] = v, setdefault(k, v)) gives the types."""
    rng = make_rng(seed_of("untyped dict"))
    for k, v in zip(rng.integers(-50, 50, 3).tolist(), rng.normal(size=3).tolist()):
        for first in ("setitem", "setdefault"):
            d = typed.Dict()
            assert not d._typed and len(d) == 0 and k not in d and d.get(k) is None
            with pytest.raises(KeyError):
                d[k]
            if first == "setitem":
                d[k] = v
            else:
                d.setdefault(k, v)
            assert d._typed and d[k] == v and dict(d) == {k: v}
