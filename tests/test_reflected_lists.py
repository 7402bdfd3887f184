"""Python lists passed to compiled functions, as Numba's reflected lists:
lists of numbers, bools, str, arrays and tuples are copied into a list for
the call, and the Python list is made equal to it afterwards when compiled
code changed it (also when the call raised); a list returned is the list
passed. Each behaviour is compared with the function's py_func on
generated inputs: its result, and the list it leaves."""
import copy
import sys

import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import AS_NUMBA, make_rng, numba_deviation, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages (numba's differ)")


def deep_copy(v):
    """A copy of a list argument with copies of the arrays in it."""
    if isinstance(v, np.ndarray):
        return v.copy()
    if isinstance(v, list):
        return [deep_copy(x) for x in v]
    if isinstance(v, tuple):
        return tuple(deep_copy(x) for x in v)
    return v


def assert_equal(got, expected, what):
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype, f"{what}: {got!r} != {expected!r}"
        np.testing.assert_array_equal(got, expected, err_msg=what)
    elif isinstance(expected, (list, tuple)):
        assert type(got) is type(expected) and len(got) == len(expected), f"{what}: {got!r} != {expected!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_equal(g, e, f"{what}[{i}]")
    else:
        if isinstance(expected, np.generic) and not isinstance(got, np.generic):  # a NumPy scalar item comes back as Python's number, as in Numba
            expected = expected.item()
        assert type(got) is type(expected), f"{what}: {type(got)} != {type(expected)}"
        assert got == expected or (got != got and expected != expected), f"{what}: {got!r} != {expected!r}"


def same(f, *args):
    """f compiled and f.py_func on copies of args: the same result, and the
    same lists (and arrays in them) left behind; returns the compiled result."""
    mine, theirs = deep_copy(list(args)), deep_copy(list(args))
    expected_error = got_error = None
    try:
        expected = f.py_func(*theirs)
    except Exception as e:  # the compiled call must raise it too
        expected_error = e
    try:
        got = f(*mine)
    except Exception as e:
        got_error = e
    if expected_error is not None:
        assert type(got_error) is type(expected_error), f"{got_error!r} != {expected_error!r}"
        got = expected = None
    else:
        assert got_error is None, f"raised {got_error!r}"
        assert_equal(got, expected, "result")
    for i, (m, t) in enumerate(zip(mine, theirs)):
        assert_equal(m, t, f"argument {i} after the call")
    return got


def floats(rng, n):
    return [float(v) for v in rng.standard_normal(n) * 100]


def ints(rng, n):
    return [int(v) for v in rng.integers(-1000, 1000, n)]


SIZES = (1, 2, 7, 100, 1000)


# ---------------------------------------------------------------- reading

@njit
def total(xs):
    s = 0.0
    for x in xs:
        s += x
    return s


@njit
def indexed(xs):
    n = len(xs)
    return xs[0], xs[-1], xs[n // 2], n


@pytest.mark.parametrize("n", SIZES)
def test_floats_ints_bools_read_as_python_reads_them(n):
    rng = make_rng(seed_of("read", n))
    for items in (floats(rng, n), ints(rng, n), [bool(v) for v in rng.integers(0, 2, n)],
                  [complex(a, b) for a, b in zip(floats(rng, n), floats(rng, n))]):
        same(total, items)
        same(indexed, items)


@njit
def first_and_length(xs):
    return xs[0], len(xs)


def test_numpy_scalars_and_str_items():
    same(first_and_length, [np.int32(3), np.int32(-4)])
    same(first_and_length, [np.float32(1.5), np.float32(2.5)])
    same(first_and_length, ["ab", "c", "déf"])
    same(indexed, [np.uint8(200), np.uint8(7), np.uint8(0)])


@njit
def out_of_range(xs, i):
    return xs[i]


def test_index_out_of_range_is_index_error():
    same(out_of_range, [1.0, 2.0], 2)
    same(out_of_range, [1.0, 2.0], -3)


# ---------------------------------------------------------------- changes written back

@njit
def grow(xs, v):
    xs.append(v)
    xs.append(v * 2)
    return len(xs)


@njit
def shrink(xs):
    a = xs.pop()
    b = xs.pop(0)
    return a + b


@njit
def store(xs, v):
    for i in range(0, len(xs), 2):
        xs[i] = v + i


@njit
def rearrange(xs, v):
    xs.insert(1, v)
    xs.reverse()
    xs.sort()
    del xs[0]
    xs.extend([v, v])


@njit
def emptied(xs):
    xs.clear()
    return len(xs)


@pytest.mark.parametrize("n", SIZES)
def test_mutations_are_written_back(n):
    rng = make_rng(seed_of("mutate", n))
    for items, v in ((floats(rng, n), 2.5), (ints(rng, n), 7)):
        same(grow, items, v)
        same(store, items, v)
        same(rearrange, items, v)
        same(emptied, items)
        if n >= 2:
            same(shrink, items)


def test_pop_from_an_emptied_list_raises_as_python():
    same(shrink, [1.0])


@njit
def grow_then_raise(xs):
    xs.append(99)
    xs[0] = -1
    if len(xs) > 0:
        raise ValueError("after the changes")
    return 0


def test_changes_are_written_back_when_the_call_raises():
    items = [1, 2, 3]
    with pytest.raises(ValueError, match="after the changes"):
        grow_then_raise(items)
    expected = [1, 2, 3]
    with pytest.raises(ValueError):
        grow_then_raise.py_func(expected)
    assert items == expected


@njit
def length(xs):
    return len(xs)


def test_an_unchanged_list_keeps_its_item_objects():
    big = 10.0 ** 300
    items = [big * 1.5, 12345678901, True]
    for part in ([items[0], 3.0], [items[1], 5], [True, False]):
        before = list(part)
        length(part)
        assert all(a is b for a, b in zip(part, before))
    ints_stay_ints = [1, 2]
    store(ints_stay_ints, 5)
    assert ints_stay_ints == [5, 2] and all(type(v) is int for v in ints_stay_ints)


@njit
def identity(xs):
    return xs


@njit
def grown(xs):
    xs.append(1.0)
    return xs


def test_a_list_returned_is_the_list_passed():
    items = [1.0, 2.0]
    assert identity(items) is items
    assert grown(items) is items and items == [1.0, 2.0, 1.0]


@njit
def popped_and_returned(xs, fresh):
    if fresh:
        xs = [x * 2.0 for x in xs]
    last = xs.pop()
    return xs, last, (len(xs), xs)


def test_a_list_returned_inside_a_tuple_is_the_list_passed():
    """As Numba returns a reflected list, at any depth of a tuple; a new list is a new one."""
    rng = make_rng(seed_of("list in returned tuple"))
    for fresh in (False, True):
        items = rng.normal(size=4).tolist()
        want_items = list(items)
        got, want = popped_and_returned(items, fresh), popped_and_returned.py_func(want_items, fresh)
        assert got == want and items == want_items
        assert (got[0] is items, got[2][1] is items) == (want[0] is want_items, want[2][1] is want_items)


@njit
def same_container(a, b):
    c = a
    return a is b, a is c, a is not b


def test_is_between_lists_is_their_identity():
    x, y = typed.List([1, 2]), typed.List([1, 2])
    for a, b in ((x, y), (x, x), ([1.5], [1.5])):
        assert same_container(a, b) == same_container.py_func(a, b)
    assert same_container(x, typed.List([1.5])) == (False, True, True)  # two types: never the same


@njit
def callee_grows(xs):
    xs.append(len(xs))


@njit
def caller(xs):
    callee_grows(xs)
    callee_grows(xs)
    return len(xs)


def test_a_compiled_callee_changes_the_same_list():
    same(caller, [1, 2])


@ruchey_only  # numba's reflected list is a type of its own
def test_typed_list_and_python_list_share_a_specialisation():
    @njit
    def mean(xs):
        return sum(xs) / len(xs)

    assert mean(typed.List([1.0, 3.0])) == mean([1.0, 3.0]) == 2.0
    assert len(mean.signatures) == 1


# ---------------------------------------------------------------- numpy.array of a list

@njit
def as_arrays(xs):
    return np.array(xs), np.asarray(xs)


@njit
def as_float32(xs):
    return np.array(xs, dtype=np.float32)


@pytest.mark.parametrize("n", SIZES)
def test_numpy_array_of_a_list(n):
    rng = make_rng(seed_of("array", n))
    for items in (floats(rng, n), ints(rng, n), [bool(v) for v in rng.integers(0, 2, n)]):
        same(as_arrays, items)
        same(as_float32, items)
    same(as_arrays, [(a, b) for a, b in zip(ints(rng, n), floats(rng, n))])


# ---------------------------------------------------------------- lists of arrays, tuples, str

@njit
def arrays_changed(xs):
    xs[0][0] = 5.0
    xs.append(np.zeros(2))
    last = xs.pop(0)
    xs.append(last[1:])
    return len(xs)


@njit
def arrays_total(xs):
    s = 0.0
    for a in xs:
        s += a.sum()
    return s


def test_lists_of_arrays_share_the_arrays():
    rng = make_rng(seed_of("arrays"))
    arrays = [rng.standard_normal(3) for _ in range(4)]
    same(arrays_total, arrays)
    same(arrays_changed, arrays)
    passed = list(arrays)
    arrays_changed(passed)
    assert passed[0] is arrays[1] and passed[2] is arrays[3]  # untouched items are the arrays passed
    assert arrays[0][0] == 5.0 and np.shares_memory(passed[-1], arrays[0])  # the view is of the first array
    assert arrays_total(arrays) == arrays_total.py_func(arrays)


@pytest.mark.skipif(AS_NUMBA, reason="numba 0.68 aborts here")
def test_arrays_outlive_the_call_that_dropped_them():
    @njit
    def keep_last(xs):
        a = xs.pop()
        return [a, a]

    items = [np.arange(3.0), np.arange(4.0)]
    out = keep_last(items)
    del items
    assert [list(a) for a in out] == [[0.0, 1.0, 2.0, 3.0]] * 2


@njit
def tuples_changed(xs, k):
    xs.append((k, 0.5 * k))
    a, b = xs[0]
    xs[0] = (a + 1, b)
    return a + b


@njit
def named(xs):
    xs.append(("z", xs[0][1] + 1))
    return xs[-1][0] + xs[0][0]


@njit
def with_arrays(xs):
    n, a = xs[0]
    a[0] = n
    xs.append((n + 1, a))
    return len(xs)


def test_lists_of_tuples():
    rng = make_rng(seed_of("tuples"))
    for n in SIZES:
        same(tuples_changed, [(a, b) for a, b in zip(ints(rng, n), floats(rng, n))], 3)
    same(named, [("a", 1), ("b", 2)])
    same(with_arrays, [(1, np.zeros(2)), (2, np.ones(2))])


@njit
def strings(xs):
    xs.append(xs[0] + "!")
    xs[1] = "two"
    return len(xs)


def test_lists_of_str():
    same(strings, ["a", "b", "c"])


# ---------------------------------------------------------------- bad input

def call_error(f, arg):
    with pytest.raises((TypeError, ValueError, ruchey.TypingError)) as e:
        f(arg)
    return str(e.value)


def test_bad_lists_are_clear_type_errors():
    for bad in ([1, 2.5], [2.5, 1], [True, 1], [1, "a"], [np.ones(2), np.ones((2, 2))],
                [np.ones(2), np.ones(2, dtype=np.int32)], [], [[1], [[2]]], [[1], [2]], [object()]):
        assert "list" in call_error(length, list(bad)), bad
        assert bad == bad  # the list is left as it was


@ruchey_only
def test_bad_lists_name_what_is_wrong():
    assert "heterogeneous list: item 1 is float64, the first int64" in call_error(length, [1, 2.5])
    assert "heterogeneous list: item 1 is array(float64, 2d, C)" in call_error(length, [np.ones(2), np.ones((2, 2))])
    assert "empty list" in call_error(length, [])
    assert "list of lists" in call_error(length, [[1], [[2]]])
    assert "cannot reflect element of reflected container" in call_error(length, [[1], [2]])  # (Numba's words)
    assert "list whose item 0 of type 'object' is not supported" in call_error(length, [object()])
    assert "tuple whose item 0 is a list of lists" in call_error(length, ([[1.0], [2.0]],))
    assert "tuple whose item 0 is an empty list" in call_error(length, ([],))
    assert "tuple whose item 1 of type 'object' is not supported" in call_error(length, ([1.0], object()))


def test_a_failed_unboxing_leaves_no_references():
    arrays = [np.ones(2), np.ones(2)]
    before = [sys.getrefcount(a) for a in arrays]
    for _ in range(100):
        with pytest.raises(TypeError):
            arrays_total(arrays + [np.ones((2, 2))])
        arrays_total(arrays)
    assert [sys.getrefcount(a) for a in arrays] == before


def test_calls_hold_no_references_after_they_return():
    arrays = [np.ones(2), np.ones(3)]
    before = [sys.getrefcount(a) for a in arrays]
    words = ["x" * 10, "y" * 10]
    word_refs = [sys.getrefcount(w) for w in words]
    for _ in range(100):
        arrays_changed(list(arrays))
        strings(list(words))
        identity(list(arrays))
    assert [sys.getrefcount(a) for a in arrays] == before
    assert [sys.getrefcount(w) for w in words] == word_refs


@njit
def starts_of_runs(groups):
    """pydata sparse's pattern: an empty list returned through numpy.array
    on one path, appended to on the other (typed by the later append)."""
    starts = []
    if len(groups) == 0:
        return np.array(starts, dtype=np.intp)
    starts.append(0)
    for i in range(1, len(groups)):
        if groups[i] != groups[i - 1]:
            starts.append(i)
    return np.array(starts, dtype=np.intp)


def test_numpy_array_of_a_list_typed_by_a_later_append():
    rng = np.random.default_rng(11)
    for g in (np.sort(rng.integers(0, 5, 30)), np.zeros(0, np.int64), np.array([3])):
        got, want = starts_of_runs(g), starts_of_runs.py_func(g)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()


# ---------------------------------------------------------------- lists inside tuple arguments


@njit
def pair_sum(t):
    return t[0][1] + t[1]


@njit
def grow_pair(t):
    t[0].append(t[1])
    t[0][0] = t[1] * 2
    return len(t[0])


@njit
def grow_pair_then_raise(t):
    t[0].append(t[1])
    if len(t[0]) > 3:
        raise ValueError("too long", len(t[0]))
    return t[0]


@njit
def nested_lists(t):
    inner, words = t[1]
    inner.append(len(words))
    words.append(words[0] + "!")
    s = 0.0
    for x in t[0]:
        s += x.sum()
    return s, len(inner)


@njit
def first_of_pair(t):
    return t[0]


@pytest.mark.parametrize("n", SIZES)
def test_a_list_inside_a_tuple_is_read_and_written_back(n):
    rng = make_rng(seed_of("tuple lists", n))
    for items in (ints(rng, n), floats(rng, n)):
        same(pair_sum, (items, items[-1]))
        same(grow_pair, (items, items[0]))
        same(grow_pair_then_raise, (items, items[-1]))
    arrays = [rng.standard_normal(3) for _ in range(n)]
    same(nested_lists, (arrays, (ints(rng, n), ["a", "bé"])))


def test_a_list_inside_a_tuple_returned_is_the_list_passed():
    items = [1.5, 2.5]
    assert first_of_pair((items, 1)) is items
    assert first_of_pair.py_func((items, 1)) is items


def test_a_typed_list_inside_a_tuple_is_shared():
    items = typed.List([1, 2, 3])
    assert pair_sum((items, 4)) == pair_sum.py_func((items, 4))
    assert grow_pair((items, 7)) == 4 and list(items) == [14, 2, 3, 7]
    assert first_of_pair((items, 1)) is items


def test_lists_inside_tuples_leave_no_references():
    arrays = [np.ones(2), np.ones(2)]
    before = [sys.getrefcount(a) for a in arrays]
    for _ in range(100):
        nested_lists((arrays, ([1], ["x"])))
        with pytest.raises(TypeError):
            nested_lists((arrays + [np.ones((2, 2))], ([1], ["x"])))
    assert [sys.getrefcount(a) for a in arrays] == before


# ---------------------------------------------------------------- lists of lists a signature declares

INT_LISTS = ruchey.types.ListType(ruchey.types.List(ruchey.types.int64))


@njit(ruchey.types.Tuple((INT_LISTS, ruchey.types.int64))(ruchey.types.int64[:]))
def runs(sizes):
    out = typed.List()
    for n in sizes:
        out.append([n] * n)
    return out, len(out)


def window_sum(lengths):
    total = 0
    for i in range(len(lengths)):
        total += lengths[i][0] * 10 + len(lengths[i])
    return total


def regrow(lengths):
    lengths[0].append(-1)
    lengths[-1][0] = 99
    lengths.append([5, 6])
    return len(lengths)


def shorten(lengths):
    lengths.pop()
    lengths[0].pop()
    return len(lengths[0])


@pytest.mark.parametrize("seed", range(3))
def test_list_of_lists_a_function_returned_is_taken_back(seed):
    sizes = make_rng(seed_of("runs", seed)).integers(1, 5, 4)
    lengths, n = runs(sizes)
    assert n == len(sizes) and [len(x) for x in lengths] == list(sizes)
    summed = njit(ruchey.types.int64(INT_LISTS))(window_sum)
    assert summed(lengths) == summed.py_func(deep_copy(lengths))


@numba_deviation("it refuses a Python list of lists (it returns a typed List of lists, which it takes back)")
@pytest.mark.parametrize("pyfunc", [regrow, shorten])
def test_list_of_lists_changed_by_compiled_code_is_reflected(pyfunc):
    f = njit(ruchey.types.int64(INT_LISTS))(pyfunc)
    passed = [[1, 2, 3], [4], [7, 8]]
    inner = passed[0]
    expected = deep_copy(passed)
    assert f(passed) == f.py_func(expected)
    assert_equal(passed, expected, "the list passed")
    assert passed[0] is inner  # the inner lists are the ones passed, changed in place


@ruchey_only
def test_list_of_lists_without_such_signature_still_refused():
    f = njit(window_sum)
    assert "list of lists" in call_error(f, [[1], [2]])
    g = njit(ruchey.types.int64(INT_LISTS))(window_sum)
    with pytest.raises(TypeError, match="heterogeneous"):
        g([[1], [2.5]])


@ruchey.experimental.jitclass([("x", ruchey.float64)])
class Point:
    def __init__(self, x):
        self.x = x


@njit
def points(xs):
    return [Point(x) for x in xs]


@njit
def total_then_grow(ps, k):
    s = 0.0
    for p in ps:
        s += p.x
    ps[0].x = ps[0].x * k
    ps.append(Point(s))
    return s


@pytest.mark.parametrize("n", [1, 3, 20])
def test_a_list_of_jitclass_instances_comes_back_and_passes_in_again(n):
    xs = [float(v) for v in make_rng(seed_of("instances", n)).normal(size=n)]
    ps = points(xs)
    assert type(ps) is list and [p.x for p in ps] == [p.x for p in points.py_func(xs)]
    mine, theirs = points(xs), points(xs)
    first = mine[0]
    assert total_then_grow(mine, 2.0) == total_then_grow.py_func(theirs, 2.0)
    assert [p.x for p in mine] == [p.x for p in theirs] and len(mine) == n + 1
    assert first.x == theirs[0].x  # the instance itself, not a copy, changed
    with pytest.raises(TypeError, match="heterogeneous"):
        total_then_grow([Point(1.0), 2.0], 1.0)


@njit
def doubled(x):
    return 2 * x


@njit
def list_of_a_function():
    return [doubled]


@njit
def apply_all_and_grow(fs, x):
    s = 0
    for f in fs:
        s += f(x)
    fs.append(fs[0])
    return s


def test_a_list_of_a_compiled_function_comes_back_and_passes_in_again():
    rng = make_rng(seed_of("functions list"))
    for x in (int(v) for v in rng.integers(-99, 99, 4)):
        mine, theirs = list_of_a_function(), list_of_a_function.py_func()
        assert type(mine) is list and len(mine) == 1
        assert apply_all_and_grow(mine, x) == apply_all_and_grow.py_func(theirs, x)
        assert len(mine) == 2 and all(f is doubled or f.py_func is doubled.py_func for f in mine)
        assert apply_all_and_grow([doubled, doubled], x) == 4 * x  # made in Python too
    with pytest.raises(TypeError):
        apply_all_and_grow([doubled, 3], 1)


@njit
def moved_between(dest, src):
    dest.append(src.pop())
    return dest is src, len(dest), len(src)


def test_one_list_passed_twice_is_one_list_in_the_call():
    """f(xs, xs): both names are the one list, as Python's and Numba's (a
    change through one is seen through the other, written back once)."""
    rng = make_rng(seed_of("list passed twice"))
    for n in (1, 3, 8):
        items = rng.normal(size=n).tolist()
        got_items, want_items = list(items), list(items)
        assert moved_between(got_items, got_items) == moved_between.py_func(want_items, want_items)
        assert got_items == want_items
        other, want_other = [0.5], [0.5]
        got_items, want_items = list(items), list(items)
        assert moved_between(other, got_items) == moved_between.py_func(want_other, want_items)
        assert (other, got_items) == (want_other, want_items)
    refs = sys.getrefcount(items)
    for _ in range(200):
        moved_between(items, items)
    assert sys.getrefcount(items) == refs and len(items) == 8
