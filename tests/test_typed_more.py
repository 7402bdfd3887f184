"""More of typed lists and dicts in compiled code: d.get(k) as an Optional,
popitem, update, dict() and list() constructors, sorted, sum, min and max
of a list, list.remove; and `if x:` on an Optional. Each compared with the
function's py_func on generated inputs, with the bad inputs Python refuses."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed, types

from conftest import AS_NUMBA, make_rng, rss_bytes, seed_of
from test_typed import same, tdict, tlist

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers (numba's reflected lists differ)")


# ---------------------------------------------------------------- dicts

@njit
def get_or_none(n, k):
    d = {i * 3: i * 0.5 for i in range(n)}
    v = d.get(k)
    if v is None:
        return -1.0
    return v + 1.0


@pytest.mark.parametrize("seed", range(4))
def test_get_without_default_is_an_optional(seed):
    rng = make_rng(seed)
    n = int(rng.integers(0, 20))
    for k in rng.integers(-3, 70, size=10):
        same(get_or_none, n, int(k))


@njit
def get_truth(d, k):
    if d.get(k):
        return 1
    return 0


def test_get_result_as_a_condition_is_false_for_none_and_zero():
    d = tdict("int64", "float64", [(1, 0.0), (2, 2.5)])
    for k in (1, 2, 3):
        assert get_truth(d, k) == get_truth.py_func(dict(d.items()), k)


@njit
def popitems(n):
    d = {i: i * i for i in range(n)}
    del d[n // 2]
    out = []
    while len(d) > 1:
        k, v = d.popitem()
        out.append(k * 1000 + v)
    d[99] = 7  # an insertion after popitem reuses the room
    return out, d


@pytest.mark.parametrize("n", [2, 3, 10, 57])
def test_popitem_takes_the_last_inserted(n):
    same(popitems, n)


@njit
def popitem_empty(n):
    d = {1: 2.0}
    for _ in range(n):
        d.popitem()
    return len(d)


def test_popitem_of_an_empty_dict_raises_key_error_as_python():
    assert popitem_empty(1) == 0
    with pytest.raises(KeyError) as got:
        popitem_empty(2)
    with pytest.raises(KeyError) as want:
        popitem_empty.py_func(2)
    assert got.value.args == want.value.args


@njit
def updated(a, b):
    d = {}
    d.update({int(x): x * 2.0 for x in a})
    e = {int(x): -x for x in b}
    d.update(e)
    d.update(d)
    c = d.copy()
    c[12345] = 1.0
    return d, len(c)


@pytest.mark.parametrize("seed", range(4))
def test_update_keeps_order_and_overwrites(seed):
    rng = make_rng(seed)
    same(updated, rng.integers(0, 30, size=int(rng.integers(0, 25))).astype(np.float64),
         rng.integers(0, 30, size=int(rng.integers(0, 25))).astype(np.float64))


@njit
def update_into(d, e):
    d.update(e)
    return len(d)


def test_update_of_passed_dicts_and_wrong_types():
    d = tdict("int64", "float64", [(1, 1.0), (2, 2.0)])
    e = tdict("int64", "float64", [(2, 5.0), (3, 3.0)])
    assert update_into(d, e) == 3
    assert dict(d.items()) == {1: 1.0, 2: 5.0, 3: 3.0}
    with pytest.raises(ruchey.TypingError, match="update"):
        update_into(d, tdict("int64", "int64", [(1, 1)]))
    with pytest.raises(ruchey.TypingError, match="typed dict"):
        update_into(d, 3)


@njit
def dict_ctor(n):
    d = dict()
    for i in range(n):
        d[i % 7] = i
    return d


def test_dict_constructor_makes_an_empty_dict():
    for n in (0, 3, 20):
        same(dict_ctor, n)


# ---------------------------------------------------------------- lists

@njit
def list_of_range(a, b, c):
    return list(range(a, b, c)), list(range(b)), list(range(a, b))


@pytest.mark.parametrize("seed", range(6))
def test_list_of_a_range(seed):
    rng = make_rng(seed)
    a, b = (int(x) for x in rng.integers(-20, 20, size=2))
    c = int(rng.choice([-5, -2, -1, 1, 2, 3, 7]))
    same(list_of_range, a, b, c)


def test_list_of_a_range_with_step_zero_raises_value_error():
    with pytest.raises(ValueError, match="must not be zero"):
        list_of_range(0, 5, 0)


@njit
def list_copies(a, x):
    y = list(x)
    y.append(1.5)
    z = list()
    z.append(len(y))
    return list(a), y, z


@pytest.mark.parametrize("seed", range(3))
def test_list_of_an_array_and_of_a_list(seed):
    rng = make_rng(seed)
    a = rng.standard_normal(int(rng.integers(0, 9)))
    same(list_copies, a, tlist("float64", rng.standard_normal(4)))
    same(list_copies, a[::2], tlist("float64", []))


@njit
def sorts(x, a, rev):
    return sorted(x), sorted(x, reverse=rev), sorted(a), sorted(range(5, 0, -1))


@pytest.mark.parametrize("seed", range(5))
def test_sorted_returns_a_new_sorted_list(seed):
    rng = make_rng(seed)
    x = rng.integers(-5, 5, size=int(rng.integers(0, 30))).astype(np.float64)
    x[::3] *= -0.0
    got = same(sorts, tlist("float64", x), rng.integers(-9, 9, size=7), bool(seed % 2))
    if len(x):  # stable: -0.0 and 0.0 keep their order
        assert [np.signbit(v) for v in got[0] if v == 0] == [np.signbit(v) for v in x if v == 0]


@njit
def reductions(x):
    return min(x), max(x), sum(x), sum(x, 10)


@njit
def int_reductions(x):
    return min(x), max(x), sum(x), sum(x, 2.5)


def in_order(v, start=0):
    """sum() as compiled code adds (and Numba, and CPython before 3.12, whose
    sum of floats compensates its rounding errors since)"""
    for x in v:
        start = start + x
    return start


@pytest.mark.parametrize("seed", range(5))
def test_min_max_sum_of_a_list(seed):
    rng = make_rng(seed)
    n = int(rng.integers(1, 40))
    for f, x, start in ((reductions, tlist("float64", rng.standard_normal(n)), 10),
                        (int_reductions, tlist("int64", rng.integers(-100, 100, size=n)), 2.5)):
        v = list(x)
        got, want = f(x), (min(v), max(v), in_order(v), in_order(v, start))
        assert got == want and [type(g) for g in got] == [type(w) for w in want], (got, want)


def test_min_max_of_nan_keep_python_order():
    for v in ([np.nan, 1.0, 2.0], [1.0, np.nan, 0.5], [2.0, 2.0, -0.0, 0.0]):
        got, want = reductions(tlist("float64", v)), reductions.py_func(list(v))
        np.testing.assert_equal(got, want)
        assert [np.signbit(g) for g in got[:2]] == [np.signbit(w) for w in want[:2]]


@njit
def sum_bools(x):
    return sum(x)


def test_sum_of_bools_counts_them():
    assert sum_bools(tlist("bool", [True, False, True])) == 2
    assert sum_bools(tlist("bool", [])) == 0


def test_min_max_of_an_empty_list_raise_value_error():
    with pytest.raises(ValueError):
        reductions(tlist("float64", []))


@njit
def iterable_reductions(a, b, n):
    """sum, min and max of 1-d arrays (an expression's too), a set and a range"""
    s = {int(v) for v in b}
    return (min(a), max(a), sum(a), sum(a * 2.0, 1), min(a[::-2]) if a.size else 0.0,
            min(s) if s else 0, sum(s), max(range(n)) if n else -1, sum(range(n)), sum(range(n, 0, -3)))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint8", "bool"])
def test_min_max_sum_of_arrays_sets_and_ranges(seed, dtype):
    rng = make_rng(seed)
    n = int(rng.integers(1, 30))
    a = (rng.standard_normal(n) * 50).astype(dtype) if dtype != "uint8" else rng.integers(0, 256, n).astype(dtype)
    b = rng.integers(-20, 20, size=int(rng.integers(0, 12)))
    m = int(rng.integers(0, 9))
    got = iterable_reductions(a, b, m)
    s = {int(v) for v in b}
    # sums as Numba's (and ruchey's): an int start unified with the items'
    # type (int64 for small ints, float64 for float32), not NumPy 2's wrap
    want = (min(a), max(a), in_order(a.tolist()), in_order((a * 2.0).tolist(), 1), min(a[::-2]),
            min(s) if s else 0, sum(s),
            max(range(m)) if m else -1, sum(range(m)), sum(range(m, 0, -3)))
    for g, w in zip(got, want):
        assert g == w or (isinstance(w, float) and np.isclose(g, w, rtol=1e-6)), (got, want)


def test_min_max_of_arrays_keep_python_order_and_refuse_empty():
    f = iterable_reductions
    for v in ([np.nan, 1.0, 2.0], [1.0, np.nan, 0.5], [2.0, -0.0, 0.0]):
        a = np.array(v)
        got, want = f(a, np.zeros(0, np.int64), 0), f.py_func(a, np.zeros(0, np.int64), 0)
        np.testing.assert_equal(got[:2], want[:2])
        assert [np.signbit(g) for g in got[:2]] == [np.signbit(w) for w in want[:2]]
    with pytest.raises(ValueError, match="min\\(\\) arg is an empty sequence"):
        f(np.zeros(0), np.zeros(0, np.int64), 0)


@njit
def min_of_number(x):
    return min(x)


@njit
def sum_of_number(x):
    return sum(x)


def test_min_and_sum_of_a_number_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="typed list"):
        min_of_number(3.0)
    with pytest.raises(ruchey.TypingError, match="typed list"):
        sum_of_number(3.0)


@njit
def removes(x, vs):
    for v in vs:
        x.remove(v)
    return x


@pytest.mark.parametrize("seed", range(4))
def test_remove_takes_the_first_equal_item(seed):
    rng = make_rng(seed)
    x = rng.integers(0, 6, size=20)
    vs = rng.permutation(x)[:int(rng.integers(0, 20))]
    got = removes(tlist("int64", x), vs)
    assert list(got) == removes.py_func(list(x), vs)


def test_remove_of_a_missing_item_raises_value_error():
    with pytest.raises(ValueError, match="not in list"):
        removes(tlist("int64", [1, 2]), np.array([3]))


@njit
def churn_more(n):
    d = {i: i * 1.0 for i in range(n)}
    d.update(d.copy())
    while len(d) > n // 2:
        d.popitem()
    y = sorted(list(range(n, 0, -1)))
    return len(y) + len(d) + sum(y)


def test_new_constructors_leak_nothing():
    churn_more(10000)
    before = rss_bytes()
    for _ in range(300):
        churn_more(10000)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- Optional as a condition

@njit
def opt_truth(x, limit):
    y = None
    if x < limit:
        y = x
    n = 0
    if y:
        n += 1
    while y:
        y = None
        n += 10
    return n


@pytest.mark.parametrize("x", [-1.0, 0.0, 2.5, 9.0])
def test_if_and_while_on_an_optional_treat_none_as_false(x):
    assert opt_truth(x, 5.0) == opt_truth.py_func(x, 5.0)


# ---------------------------------------------------------------- slices, +, *, comparisons

@njit
def slices(x, a, b, c):
    return x[a:b:c], x[a:], x[:b], x[::c], x[:], x[a:b]


@pytest.mark.parametrize("seed", range(8))
def test_list_slices_as_python(seed):
    rng = make_rng(seed)
    n = int(rng.integers(0, 12))
    x = rng.integers(-50, 50, size=n)
    a, b = (int(v) for v in rng.integers(-15, 15, size=2))
    c = int(rng.choice([-4, -2, -1, 1, 2, 3]))
    got = slices(tlist("int64", x), a, b, c)
    want = slices.py_func(list(x), a, b, c)
    assert [list(g) for g in got] == list(want)


@njit
def del_slice(x, a, b, c):
    del x[a:b:c]
    y = x.copy()
    del y[a:]
    z = x.copy()
    del z[:b]
    return x, y, z


@pytest.mark.parametrize("seed", range(8))
def test_del_of_a_slice_as_python(seed):
    rng = make_rng(seed)
    n = int(rng.integers(0, 12))
    x = rng.standard_normal(n)
    a, b = (int(v) for v in rng.integers(-15, 15, size=2))
    c = int(rng.choice([-3, -1, 1, 2, 4]))
    got = del_slice(tlist("float64", x), a, b, c)
    want = del_slice.py_func(list(x), a, b, c)
    assert [list(g) for g in got] == list(want)


@njit
def assign_slice(x, v, a, b, c):
    x[a:b:c] = v
    y = x.copy()
    y[a:] = v
    y[:b] = y  # the list itself, read before it changes
    return x, y


@pytest.mark.parametrize("seed", range(12))
def test_assign_to_a_slice_as_python(seed):
    """Any length for a step of 1 (the list grows or shrinks), exactly the
    slice's length for other steps (else Python's ValueError)."""
    rng = make_rng(seed)
    x = rng.standard_normal(int(rng.integers(0, 10)))
    v = rng.standard_normal(int(rng.integers(0, 5)))
    a, b = (int(k) for k in rng.integers(-12, 12, size=2))
    c = int(rng.choice([-2, -1, 1, 1, 2, 3]))
    if c != 1:  # an extended slice takes as many as it has
        v = v[:0] if not len(range(len(x))[a:b:c]) else rng.standard_normal(len(range(len(x))[a:b:c]))
    got = assign_slice(tlist("float64", x), tlist("float64", v), a, b, c)
    want = assign_slice.py_func(list(x), list(v), a, b, c)
    assert [list(g) for g in got] == list(want)
    if c == 2 and len(range(len(x))[a:b:c]) != len(v) + 1:
        for f, conv in ((assign_slice, lambda w: tlist("float64", w)), (assign_slice.py_func, list)):
            with pytest.raises(ValueError, match="attempt to assign sequence of size"):
                f(conv(x), conv(list(v) + [1.0]), a, b, c)


@njit
def assign_slice_held(n):
    words = [str(i) for i in range(n)]
    words[1:3] = ["x" * k for k in range(4)]
    words[::2] = words[1::2][: len(words[::2])] + ["e"] * (len(words[::2]) - len(words[1::2]))
    arrays = [np.full(2, float(i)) for i in range(n)]
    arrays[:2] = [arrays[-1]]
    return words, [a.sum() for a in arrays]


def test_assign_to_a_slice_of_strs_and_arrays_keeps_them_alive():
    for n in (3, 6, 9):
        assert assign_slice_held(n) == assign_slice_held.py_func(n)


@njit
def fill_empty_by_slices(n):
    x = []
    x[0:0] = [1.5]
    x[1:] = [float(i) for i in range(n)]
    return x


def test_assign_to_a_slice_types_an_empty_list():
    assert list(fill_empty_by_slices(4)) == fill_empty_by_slices.py_func(4)


@njit
def assign_floats_to_slice(x):
    x[0:1] = [1.5]
    return x


def test_assign_to_a_slice_of_another_item_type_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="only a list of int64 can be assigned to a slice"):
        assign_floats_to_slice(tlist("int64", [1, 2]))


@njit
def slice_of_a_dict(d):
    return d[0:1]


@njit
def store_slice_of_a_dict(d):
    d[0:1] = 3
    return d


def test_dict_slices_are_typing_errors():
    for f in (slice_of_a_dict, store_slice_of_a_dict):
        with pytest.raises(ruchey.TypingError, match="dict keys cannot be slices"):
            f(tdict("int64", "int64", [(1, 2)]))


def test_slice_step_zero_raises_value_error():
    with pytest.raises(ValueError, match="step cannot be zero"):
        slices(tlist("int64", [1, 2]), 0, 1, 0)
    with pytest.raises(ValueError, match="step cannot be zero"):
        del_slice(tlist("int64", [1, 2]), 0, 1, 0)
    with pytest.raises(ValueError, match="step cannot be zero"):
        assign_slice(tlist("int64", [1, 2]), tlist("int64", [3]), 0, 1, 0)


@njit
def slice_float(x):
    return x[1.5:]


def test_slice_of_a_float_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="slice indices must be integers"):
        slice_float(tlist("int64", [1, 2]))


@njit
def concat_repeat(x, y, n):
    z = x + y
    w = x * n
    v = n * y
    e = [] + x
    return z, w, v, e, len(x + x * 2)


@pytest.mark.parametrize("seed", range(5))
def test_concatenation_and_repetition(seed):
    rng = make_rng(seed)
    x = rng.standard_normal(int(rng.integers(0, 6)))
    y = rng.standard_normal(int(rng.integers(0, 6)))
    n = int(rng.integers(-2, 4))
    got = concat_repeat(tlist("float64", x), tlist("float64", y), n)
    want = concat_repeat.py_func(list(x), list(y), n)
    assert [list(g) for g in got[:4]] == list(want[:4]) and got[4] == want[4]


@njit
def concat_mixed(x, y):
    return x + y


@njit
def augmented(x, y):
    x += y
    return x


def test_concatenation_of_other_types_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="cannot concatenate"):
        concat_mixed(tlist("int64", [1]), tlist("float64", [1.0]))
    with pytest.raises(ruchey.TypingError, match="not supported"):
        concat_mixed(tlist("int64", [1]), 2)


def test_augmented_concatenation_extends_in_place_as_python():
    x = tlist("int64", [1, 2])
    got = augmented(x, tlist("int64", [3]))
    assert got is x and list(x) == augmented.py_func([1, 2], [3]) == [1, 2, 3]


@njit
def comparisons(x, y):
    return x == y, x != y, x < y, x <= y, x > y, x >= y


@pytest.mark.parametrize("seed", range(10))
def test_list_comparisons_as_python(seed):
    rng = make_rng(seed)
    x = list(rng.integers(0, 3, size=int(rng.integers(0, 5))))
    y = list(rng.integers(0, 3, size=int(rng.integers(0, 5)))) if seed % 3 else list(x)
    assert comparisons(tlist("int64", x), tlist("int64", y)) == comparisons.py_func(x, y)
    fy = [float(v) for v in y]
    assert comparisons(tlist("int64", x), tlist("float64", fy)) == comparisons.py_func(x, fy)


@njit
def literal_equal(n):
    return [1, 2, n] == [1, 2, 3], [n] * 2 != [n, n]


def test_comparing_list_literals_leaks_nothing():
    assert literal_equal(3) == (True, False)
    before = rss_bytes()
    for _ in range(200000):
        literal_equal(3)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


@njit
def compare_list_number(x):
    return x == 1


def test_comparing_a_typed_list_with_a_number_is_false_as_numbas():
    x = tlist("int64", [1])
    assert compare_list_number(x) is compare_list_number.py_func(x) is False


# ---------------------------------------------------------------- typed.List / typed.Dict made in compiled code

from ruchey import types  # noqa: E402
from ruchey.typed import Dict, List  # noqa: E402


@njit
def grouped(keys, values, n):
    """Numba's idioms: Dict.empty and List.empty_list by name and through
    the module, List() and Dict() typed by their first use"""
    groups = Dict.empty(key_type=types.int64, value_type=types.float64)
    counts = typed.Dict.empty(types.int64, types.int64)
    rows = [List.empty_list(types.int64) for _ in range(n)]
    firsts = typed.List.empty_list(item_type=types.float32, allocated=8)
    later = List()
    seen = Dict()
    for k, v in zip(keys, values):
        groups[k] = groups.get(k, 0.0) + v
        counts[k] = counts.get(k, 0) + 1
        rows[k % n].append(k)
        if len(firsts) < 3:
            firsts.append(np.float32(v))
        later.append(v * 2.0)
        seen[k] = True
    return groups, counts, [len(r) for r in rows], list(firsts), len(later), len(seen)


@pytest.mark.parametrize("seed", range(4))
def test_typed_containers_made_in_compiled_code(seed):
    rng = make_rng(seed)
    m = int(rng.integers(0, 30))
    keys, values = rng.integers(0, 6, size=m), rng.standard_normal(m)
    got, want = grouped(keys, values, 3), grouped.py_func(keys, values, 3)
    assert dict(got[1]) == dict(want[1]) and list(got[2]) == want[2] and got[4:] == want[4:]
    assert sorted(dict(got[0])) == sorted(dict(want[0]))
    np.testing.assert_allclose([got[0][k] for k in want[0]], [want[0][k] for k in want[0]], rtol=1e-12)
    np.testing.assert_array_equal(np.float32(list(got[3])), np.float32(want[3]))


@njit
def word_counts(text):
    counts = Dict.empty(key_type=types.unicode_type, value_type=types.int64)
    upper = List.empty_list(types.unicode_type)
    for w in text.split(" "):
        counts[w] = counts.get(w, 0) + 1
        upper.append(w.upper())
    return counts, upper


@pytest.mark.parametrize("seed", range(3))
def test_str_containers_made_in_compiled_code(seed):
    rng = make_rng(seed)
    text = " ".join(str(rng.choice(["a", "bb", "é", "dd", "a"])) for _ in range(int(rng.integers(1, 20))))
    got, want = word_counts(text), word_counts.py_func(text)
    assert dict(got[0]) == dict(want[0]) and list(got[1]) == list(want[1])


@njit
def zeros_of_str(n):
    return np.zeros(n, dtype=types.unicode_type)


def test_unicode_type_is_no_dtype():
    with pytest.raises(ruchey.TypingError, match="dtype must be a NumPy dtype"):
        zeros_of_str(3)


@njit
def empty_of_array_type(a):
    return Dict.empty(key_type=types.int64, value_type=a)


@njit
def empty_without_types():
    return Dict.empty()


def test_typed_containers_made_in_compiled_code_refuse_other_types():
    # an array given as value_type is the type of its values, as Numba's; as a key, no key
    assert len(empty_of_array_type(np.zeros(2))) == 0
    with pytest.raises(ruchey.TypingError):
        njit(lambda a: Dict.empty(key_type=a, value_type=types.int64))(np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="takes key_type and value_type"):
        empty_without_types()


# ---------------------------------------------------------------- lists of lists compared

@njit
def compare_nested(va, la, vb, lb):
    x, y, at = [], [], 0
    for n in la:
        x.append([v for v in va[at:at + n]])
        at += n
    at = 0
    for n in lb:
        y.append([v for v in vb[at:at + n]])
        at += n
    return x == y, x != y, x < y, x <= y, x > y, x >= y


def nested_rows(rng, rows, width):
    """rows lists of small ints, as their items one after another and their lengths."""
    lens = rng.integers(0, width + 1, rows)
    return rng.integers(0, 3, int(lens.sum())), lens


@pytest.mark.parametrize("rows", [0, 1, 2, 4])
def test_lists_of_lists_compare_as_python(rows):
    rng = np.random.default_rng(seed_of("nested compare", rows))
    for _ in range(30):
        a, b = nested_rows(rng, rows, 3), nested_rows(rng, int(rng.integers(0, rows + 2)), 3)
        if rng.integers(0, 3) == 0:
            b = (a[0].copy(), a[1].copy())
        assert compare_nested(*a, *b) == compare_nested.py_func(*a, *b)


@njit
def compare_deep(n, k):
    a = [[[i, n]] for i in range(k)]
    b = [[[i * 1.0, 1.0]] for i in range(k)]
    return a == b, a < b, a >= b


def test_lists_of_lists_of_lists_and_mixed_numbers_compare():
    for n in range(3):
        for k in range(3):
            assert compare_deep(n, k) == compare_deep.py_func(n, k)


@njit
def compare_depths():
    return [[1]] == [1]


def test_lists_of_other_depths_are_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="comparing .* is not supported"):
        compare_depths()


def test_containers_of_strs_made_in_python_release_their_strs():
    words = ["w" * 200 + str(i) for i in range(500)]
    typed.List(words)
    before = rss_bytes()
    for _ in range(300):
        typed.List(words)
        d = typed.Dict()
        for w in words[:100]:
            d[w] = w
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- comparisons in Python

def test_typed_dict_equals_any_mapping_of_the_same_pairs():
    rng = make_rng(seed_of("dict eq"))
    pairs = [(int(k), float(v)) for k, v in zip(rng.integers(-9, 9, size=8), rng.normal(size=8))]
    d = tdict("int64", "float64", pairs)
    plain_d = dict(pairs)
    shuffled = dict(reversed(list(plain_d.items())))
    assert d == plain_d and plain_d == d and d == shuffled and not (d != shuffled)
    assert d == tdict("int64", "float64", list(shuffled.items()))
    other = dict(plain_d)
    other[next(iter(other))] += 1.0
    assert d != other and not (d == other)
    assert d != {**plain_d, 100: 0.0}
    assert tdict("int64", "float64", []) == {}
    import collections
    assert d == collections.OrderedDict(shuffled)
    assert d != list(plain_d.items()) and d != list(plain_d)
    with pytest.raises(TypeError):
        d < plain_d  # noqa: B015
    with pytest.raises(TypeError, match="unhashable"):
        hash(d)


def test_typed_list_compares_as_a_sequence():
    rng = make_rng(seed_of("list eq"))
    values = rng.integers(-5, 5, size=6).tolist()
    tl = tlist("int64", values)
    assert tl == values and values == tl and tl == tlist("int64", values) and not (tl != values)
    assert tl != values[:-1] and tl != values + [0]
    assert not (tl == tuple(values)) and not (tl != tuple(values))  # a tuple: False every way, as Numba's
    for other in (values[:-1], values + [0], [v + 1 for v in values], sorted(values)):
        for op in ("<", "<=", ">", ">=", "==", "!="):
            assert eval(f"tl {op} other") == eval(f"values {op} other"), (op, other)
    assert not (tl < (1, 2)) and not ((1, 2) < tl)  # (Numba's typed.List: False)
    with pytest.raises(TypeError, match="unhashable"):
        hash(tl)


def test_typed_containers_are_abc_sequence_and_mapping():
    import collections.abc as abc
    assert isinstance(tlist("int64", [1]), abc.MutableSequence)
    assert isinstance(tdict("int64", "int64", [(1, 2)]), abc.MutableMapping)


@pytest.mark.parametrize("item", ["int64", "float64"])
def test_python_side_list_methods_match_python_lists(item):
    rng = make_rng(seed_of("list methods", item))
    values = [ITEM_PY[item](v) for v in rng.integers(0, 4, size=9)]
    tl, pl = tlist(item, values), list(values)
    x = values[3]
    assert tl.count(x) == pl.count(x) and tl.index(x) == pl.index(x) and tl.index(x, 3) == pl.index(x, 3)
    c = tl.copy()
    c.append(values[0])
    assert list(tl) == pl and list(c) == pl + [values[0]] and c.item_type == tl.item_type
    tl.remove(x)
    pl.remove(x)
    assert list(tl) == pl
    with pytest.raises(ValueError, match="x not in list"):
        tl.remove(ITEM_PY[item](99))
    with pytest.raises(ValueError):
        tl.index(ITEM_PY[item](99))
    tl.clear()
    assert len(tl) == 0 and list(tl) == []
    tl.append(values[0])  # still typed after clear
    assert list(tl) == [values[0]]


def test_python_side_dict_copy_and_clear():
    d = tdict("int64", "float64", [(1, 1.5), (2, 2.5)])
    e = d.copy()
    e[3] = 3.5
    assert dict(d) == {1: 1.5, 2: 2.5} and dict(e) == {1: 1.5, 2: 2.5, 3: 3.5}
    d.clear()
    assert len(d) == 0 and dict(e) == {1: 1.5, 2: 2.5, 3: 3.5}
    d[7] = 0.5
    assert dict(d) == {7: 0.5}


ITEM_PY = {"int64": int, "float64": float}


def test_keys_of_another_int_type_are_cast_to_the_dicts_as_numba_casts_them():
    """d[k] = v, d[k], k in d and del d[k] with an int64 key into a dict of
    uint32 keys (sktime's SFA bags): the key converted to the key type."""
    from ruchey import types

    @njit
    def bag(names, drop):
        d = typed.Dict.empty(key_type=types.uint32, value_type=types.uint32)
        for k, v in zip(names, np.arange(len(names), dtype=np.uint32)):
            d[k] = v
        if drop in d:
            del d[drop]
        total = 0
        for k in names:
            if k in d:
                total += d[k]
        return len(d), total

    names = np.array([3, 9, 4, 12, 7], dtype=np.int64)
    assert bag(names, 4) == bag.py_func(names, 4) == (4, 0 + 1 + 3 + 4)

    @njit
    def float_key(x):
        d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
        d[x] = 1.0
        return len(d)

    with pytest.raises(ruchey.TypingError, match="not a key type"):
        float_key(1.5)
# ---------------------------------------------------------------- a typed list from Python

@njit
def rows_of(n, scale):
    rows = list()
    for i in range(n):
        rows.append((i, i * scale))
    return rows


@pytest.mark.parametrize("seed", range(3))
def test_returned_list_iterates_as_a_python_list(seed):
    """The sequence protocol in full (__iter__, __contains__, __reversed__,
    +=): libraries test for __iter__ (pandas' is_list_like) before taking a
    sequence."""
    rng = make_rng(seed)
    n, scale = int(rng.integers(0, 12)), float(rng.normal())
    got, expected = rows_of(n, scale), rows_of.py_func(n, scale)
    assert hasattr(got, "__iter__") and hasattr(got, "__contains__") and hasattr(got, "__reversed__")
    assert list(iter(got)) == expected
    assert list(reversed(got)) == expected[::-1]
    for probe in expected[:3] + [(n, 0.0), (-1, scale)]:
        assert (probe in got) == (probe in expected)
    more = [(n + 1, 2.5), (n + 2, -1.0)]
    alias = got
    got += more
    expected += more
    assert got is alias and list(got) == expected


def test_in_compares_as_python_and_iadd_checks_items():
    ints = typed.List([1, 2, 3])
    assert 2.0 in ints and 4 not in ints and "a" not in ints
    with pytest.raises(TypeError):
        ints += ["x"]
    assert list(ints) == [1, 2, 3]


# ---------------------------------------------------------------- container types written in compiled code

INT_LIST = ruchey.types.ListType(ruchey.types.int64)
MATRIX = ruchey.types.float64[:, ::1]


@njit
def containers_of_typed_items(n):
    groups = typed.Dict.empty(key_type=ruchey.types.int64, value_type=INT_LIST)
    for i in range(n):
        members = typed.List.empty_list(ruchey.types.int64)
        for j in range(i + 1):
            members.append(j * i)
        groups[i % 3] = members
    rows = typed.Dict.empty(ruchey.types.unicode_type, ruchey.types.float64[:])
    rows["a"] = np.arange(float(n))
    blocks = typed.Dict.empty(ruchey.types.int64, MATRIX)
    blocks[0] = np.ones((2, n))
    vectors = typed.List.empty_list(ruchey.types.float64[::1])
    vectors.append(np.arange(float(n)) * 2)
    return groups, rows, blocks, vectors


def test_array_and_container_types_name_typed_items_in_compiled_code():
    for n in (0, 1, 4, 7):
        got, want = containers_of_typed_items(n), containers_of_typed_items.py_func(n)
        assert {k: list(v) for k, v in got[0].items()} == {k: list(v) for k, v in want[0].items()}
        for g, w in zip(got[1:3], want[1:3]):
            assert list(g) == list(w) and all(np.array_equal(g[k], w[k]) for k in w)
        assert len(got[3]) == 1 and np.array_equal(got[3][0], want[3][0])
    with pytest.raises(ruchey.TypingError, match="dtype must be a NumPy dtype"):
        njit(lambda n: np.zeros(n, dtype=ruchey.types.float64[:]))(3)
    with pytest.raises(ruchey.TypingError):
        njit(lambda d: ruchey.types.float64[:] + d)(1)


@njit
def compiled_defaults(d, k):
    return d.get(k, 5), d.get(k, True), d.get(k, None)


def test_get_and_pop_default_of_number_values_is_cast_as_compiled_code_casts_it():
    for value_type, values in ((ruchey.float64, [0.5, -1.5]), (ruchey.int32, [-3, 7]), (ruchey.complex128, [1j])):
        d = typed.Dict.empty(ruchey.int64, value_type)
        for i, v in enumerate(values):
            d[i] = v
        for k in (0, 99):
            want = compiled_defaults(d, k)
            assert (d.get(k, 5), d.get(k, True), d.get(k, None)) == want
            assert [type(x) for x in (d.get(k, 5), d.get(k, True))] == [type(x) for x in want[:2]]
        assert d.copy().pop(99, 5) == want[0] and type(d.copy().pop(99, 5)) is type(want[0])
    s = typed.Dict.empty(ruchey.int64, ruchey.types.unicode_type)
    assert s.get(1, "x") == "x" and s.get(1, None) is None and s.get(1, 3) == 3  # not numbers: as given
    with pytest.raises(TypeError):
        typed.Dict.empty(ruchey.int64, ruchey.float64).get(1, "x")


# ---------------------------------------------------------------- types made in compiled code

@njit
def containers_of_types_made_inside(n):
    pairs = typed.List.empty_list(types.UniTuple(types.int64, 2))
    mixed = typed.List.empty_list(types.Tuple((types.int64, types.float64)))
    arrays = typed.Dict.empty(key_type=types.unicode_type, value_type=types.float64[:])
    nested = typed.Dict.empty(types.int64, types.DictType(types.int64, types.ListType(types.float64)))
    for i in range(n):
        pairs.append((i, i * i))
        mixed.append((i, i / 2))
        inner = typed.Dict.empty(types.int64, types.ListType(types.float64))
        inner[i] = typed.List.empty_list(types.float64)
        inner[i].append(i * 0.25)
        nested[i] = inner
    arrays["a"] = np.arange(n) * 1.5
    total = 0.0
    for i in range(n):
        total += nested[i][i][0] + pairs[i][1] + mixed[i][1]
    return len(pairs), total, arrays["a"].sum()


@pytest.mark.parametrize("n", [0, 1, 5])
def test_types_made_by_calls_in_compiled_code(n):
    assert containers_of_types_made_inside(n) == containers_of_types_made_inside.py_func(n)


def test_a_type_made_from_a_non_type_is_a_typing_error():
    bad = njit(lambda: typed.List.empty_list(types.ListType(3)))
    with pytest.raises(ruchey.TypingError, match="this type cannot be made"):
        bad()


@njit
def index_by_text(ids, scores):
    """ranx's Qrels: a typed List of '<Un' arrays of document ids (one per
    query) made a dict per query of each id's score."""
    out = typed.List()
    for i in range(len(ids)):
        d = typed.Dict()
        for j in range(len(ids[i])):
            d[ids[i][j]] = scores[i][j]
        out.append(d)
    return out


def test_a_typed_list_holds_arrays_of_str_and_of_bytes():
    rng = make_rng(seed_of("text arrays in a typed list"))
    for width in (1, 5, 12):
        words = ["".join(rng.choice(list("abcdé"), size=rng.integers(0, width + 1))) for _ in range(40)]
        ids = [np.array(words[k:k + int(rng.integers(0, 9))], dtype=f"<U{width}") for k in range(0, 40, 8)]
        scores = [rng.integers(-3, 4, len(x)) for x in ids]
        got = index_by_text(typed.List(ids), typed.List(scores))
        assert [dict(d) for d in got] == [dict(zip(x.tolist(), s.tolist())) for x, s in zip(ids, scores)]
        raw = [np.char.encode(x, "utf-8").astype(f"S{2 * width}") for x in ids]
        held = typed.List(raw)
        assert len(held) == len(raw) and all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(held, raw))


@njit
def cached_blocks(n, width):
    """hftbacktest's reader cache: Dict.empty given values in place of the
    key and value types, as Numba takes them (their types)."""
    blocks = typed.Dict.empty(types.int64, np.empty((0, 0), np.float64))
    scales = typed.Dict.empty(np.int64(0), 1.5)
    for i in range(n):
        blocks[i] = np.full((i % 4, width), i * 0.5)
        scales[i] = i * 2.0 - 3.0
    return [blocks[k].sum() for k in blocks], [scales[k] for k in scales]


def test_dict_empty_given_values_in_place_of_types_holds_their_types():
    rng = make_rng(seed_of("dict empty of values"))
    for n in (0, 1, int(rng.integers(2, 30))):
        for width in (0, 3):
            got = cached_blocks(n, width)
            assert list(got[0]) == [np.full((i % 4, width), i * 0.5).sum() for i in range(n)]
            assert list(got[1]) == [i * 2.0 - 3.0 for i in range(n)]
    with pytest.raises(ruchey.TypingError):
        njit(lambda: typed.Dict.empty(np.zeros(2), 1.0))()


def test_a_tuple_type_holds_a_jitclass_instance_type():
    from ruchey.experimental import jitclass

    @jitclass([("price", types.float64)])
    class Order:
        def __init__(self, price):
            self.price = price

    item = types.Tuple((Order.class_type.instance_type, types.int64))
    assert item.items == (Order.class_type.instance_type, types.int64)
    with pytest.raises(TypeError, match="a tuple's items are ruchey types"):
        types.Tuple((Order, types.int64))
