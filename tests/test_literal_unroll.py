"""literal_unroll: `for x in literal_unroll(t)` over a tuple whose items
have different types (ints, floats, arrays of several dtypes, strs, tuples)
compiles the loop's body once per item, as Numba's; over a homogeneous
tuple, a tuple written out, a global tuple and a variable assigned one;
with break, continue, else and return in the body, nested, and with the
target unpacked. Each against the Python original on generated inputs;
what Numba refuses (not a tuple, a length unknown before typing) is a
TypingError."""
import numpy as np
import pytest

import ruchey
from ruchey import literal_unroll, njit
from conftest import assert_same, make_rng, numba_deviation

MIXED = (1, 2.5, np.int8(3), np.float32(0.25), True)
GLOBAL_MIXED = (3, 5.5, np.int16(7), True)
GLOBAL_SIZED = ("four", np.arange(4.0), "six", (1, 2.5))


def mixed_tuples(seed, count=6, small_ints=True):
    """Tuples of numbers of several types, of several lengths (no float32:
    NumPy 2 makes a Python float plus a float32 a float32, Numba's sum stays
    float64; DESIGN.md's rule follows Numba; nor, where they multiply, small
    ints, which NumPy's scalars wrap and Numba's arithmetic widens)."""
    rng = make_rng(seed)
    makers = [lambda: int(rng.integers(-100, 100)), lambda: float(rng.normal()),
              lambda: np.int64(rng.integers(-9, 9)), lambda: np.int16(rng.integers(-50, 50)),
              lambda: np.uint8(rng.integers(0, 200)), lambda: bool(rng.integers(0, 2))]
    makers = makers if small_ints else makers[:3] + makers[5:]
    return [tuple(makers[int(rng.integers(0, len(makers)))]() for _ in range(int(rng.integers(1, 7))))
            for _ in range(count)]


@njit
def total(t):
    s = 0.0
    for x in literal_unroll(t):
        s += x
    return s


@njit
def sums_and_sizes(t):
    s = 0.0
    n = 0
    for x in literal_unroll(t):
        y = x * 2  # a variable of each item's own type
        s += y.sum()
        n += y.size + y.ndim
    return s, n


@njit
def lengths(t):
    n = 0
    for x in literal_unroll(t):
        n += len(x)
    return n


def test_numbers_of_different_types():
    for t in mixed_tuples(1) + [MIXED]:
        assert_same(total, t)


@numba_deviation("its float32 sums differ from NumPy's")
def test_arrays_of_different_dtypes_and_dimensions():
    rng = make_rng(2)
    for _ in range(5):
        t = (rng.normal(size=3), rng.integers(0, 9, (2, 3)).astype(np.int32),
             rng.random((2, 2, 2)).astype(np.float32), np.arange(4, dtype=np.uint16)[::-1])
        assert_same(sums_and_sizes, t)


def test_strings_arrays_and_tuples():
    assert_same(lengths, ("ab", "cde", np.arange(4), (1, 2.5), ""))


def test_homogeneous_tuples():
    for t in [(1, 2, 3), (0.5,), tuple(make_rng(3).normal(size=9))]:
        assert_same(total, t)


@numba_deviation("numba cannot iterate an empty tuple")
def test_an_empty_tuple_runs_no_copy():
    assert_same(total, ())


@njit
def over_global():
    n = 0
    s = 0.0
    for x in literal_unroll(GLOBAL_MIXED):
        s += x
    for x in literal_unroll(GLOBAL_SIZED):
        n += len(x)
    for x in literal_unroll((1, 2.5, np.int8(3))):  # written out
        s += x
    return n, s


def test_global_and_written_out_tuples():
    assert_same(over_global)


@njit
def assigned_once(a, b):
    t = (a, b, a * b)
    s = 0.0
    for x in literal_unroll(t):
        s += np.sum(x)
    return s


def test_variable_assigned_a_tuple():
    rng = make_rng(4)
    assert_same(assigned_once, rng.normal(size=5), 2.5)
    assert_same(assigned_once, 3, np.float32(1.5))


@njit
def through_variables(t, n):
    val = literal_unroll(t)
    alias = val
    sizes = []
    for x in alias:
        sizes.append(len(x))
    s = 0.0
    for x in val:
        s += x[-1] * n
    return sizes, s


def test_a_variable_assigned_literal_unroll_is_unrolled_where_a_loop_walks_it():
    rng = make_rng(5)
    for n in (-2, 0, 3):
        assert_same(through_variables, (rng.normal(size=3), (1, 2.5), np.arange(4, dtype=np.int16)), n)


@njit
def over_slices(t, a):
    s = 0.0
    for x in literal_unroll(t[1:]):
        s += x
    for x in literal_unroll(t[::-2]):
        s += 2 * x
    w = (a, 'skip', 2.5, a * a)
    for x in literal_unroll(w[-3:]):
        if not isinstance(x, str):
            s += x
    return s


def test_a_slice_of_constants_of_a_tuple_is_unrolled():
    for t in mixed_tuples(11, small_ints=False):  # (one of one item: t[1:] is empty, which Numba cannot unroll)
        assert_same(over_slices, t + (2.5,), 3)
        assert_same(over_slices, t + (2.5,), -1.5)


@njit
def by_index(t, limit):
    s = 0.0
    n = 0
    for i in range(len(literal_unroll(t))):
        s += t[i] * (i + 1)
        n += 1
        if s > limit:
            break
    else:
        s += 0.25
    return s, n


def test_range_of_len_of_literal_unroll_indexes_each_item_by_a_constant():
    for t in mixed_tuples(12, small_ints=False):
        for limit in (-100.0, 0.0, 1e9):
            assert_same(by_index, t, limit)


@njit
def until_large(t, limit):
    s = 0.0
    for x in literal_unroll(t):
        if x > limit:
            break
        if x < 0:
            continue
        s += x
    else:
        s += 1000.0
    return s


def test_break_continue_and_else():
    for t in mixed_tuples(5, 10):
        for limit in (-1.0, 0.5, 10.0, 1e9):
            assert_same(until_large, t, limit)


@njit
def first_float(t):
    for x in literal_unroll(t):
        if x == 2.5:
            return 1
    return 0


@njit
def last_item(t):
    for x in literal_unroll(t):
        pass
    return x


def test_return_inside_and_the_target_after_the_loop():
    for t in [(1, 2.5), (1, 3.5), (2.5,)]:
        assert_same(first_float, t)
    assert_same(last_item, (1, 2, 3))


@njit
def products(t, u):
    s = 0.0
    for x in literal_unroll(t):
        for y in literal_unroll(u):
            s += x * y
    return s


@njit
def unpacked(t):
    s = 0.0
    for a, b in literal_unroll(t):
        s += a * b
    return s


@numba_deviation("numba refuses nested literal_unroll loops")
def test_nested_loops():
    for t, u in zip(mixed_tuples(6, small_ints=False), mixed_tuples(7, small_ints=False)):
        assert_same(products, t, u)


@numba_deviation("numba cannot unpack literal_unroll's items")
def test_unpacked_targets():
    assert_same(unpacked, ((1, 2.0), (3.5, np.int32(4)), (True, 0.5)))


@njit
def itself(t):
    return literal_unroll(t)


def test_literal_unroll_elsewhere_is_its_tuple():
    assert_same(itself, (1, 2.5))


@njit
def over_array(a):
    s = 0
    for x in literal_unroll(a):
        s += x
    return s


@njit
def length_unknown(n):
    t = (1, 2) if n else (1, 2, 3)
    s = 0
    for x in literal_unroll(t):
        s += x
    return s


@numba_deviation("numba raises UnsupportedError")
def test_a_function_argument_that_is_no_tuple_is_refused():
    with pytest.raises(ruchey.TypingError, match="only tuples are supported"):
        over_array(np.arange(3))


@numba_deviation("numba's message differs")
def test_a_length_unknown_before_typing_is_refused():
    with pytest.raises(ruchey.TypingError, match="literal_unroll"):
        length_unknown(1)


def test_python_literal_unroll_returns_its_argument():
    t = (1, "a")
    assert literal_unroll(t) is t


# ---------------------------------------------------------------- constant items: field names of a structured array

FIELD_DTYPE = np.dtype([("lo", np.float64), ("hi", np.float64), ("n", np.int32)])
FIELD_NAMES = tuple(FIELD_DTYPE.names)


def summed_fields(arr):
    total = 0.0
    for name in literal_unroll(FIELD_NAMES):
        total += np.abs(arr[name]).sum() + arr[0][name]
    return total


def test_literal_unroll_of_constant_names_indexes_records_and_fields():
    rng = make_rng(1528)
    a = np.zeros(5, FIELD_DTYPE)
    a["lo"], a["hi"], a["n"] = rng.normal(size=5), rng.normal(size=5), rng.integers(-9, 9, size=5)
    assert njit(summed_fields)(a) == summed_fields(a)



def fields_named_locally(arr):
    names = ("lo", "hi", "n")
    total = 0.0
    for name in literal_unroll(names):
        total += np.abs(arr[name]).sum() + arr[-1][name]
    return total


def fields_of_a_slice(arr):
    names = ("lo", "hi", "n")
    total = 0.0
    for name in literal_unroll(names[1:]):
        total += np.abs(arr[name]).sum() + arr[0][name]
    return total


def field_arrays(seed):
    rng = make_rng(seed)
    a = np.zeros(4, FIELD_DTYPE)
    a["lo"], a["hi"], a["n"] = rng.normal(size=4), rng.normal(size=4), rng.integers(-9, 9, size=4)
    return a


def test_names_written_out_in_a_local_tuple_are_literals():
    for seed in range(3):
        a = field_arrays(seed)
        assert njit(fields_named_locally)(a) == fields_named_locally(a)


def test_names_of_a_slice_of_a_local_tuple_are_literals():
    for seed in range(3):
        a = field_arrays(seed)
        assert njit(fields_of_a_slice)(a) == fields_of_a_slice(a)


@njit
def rebound_before_the_loop(n, s):
    items = (n, s)
    total = 0
    for x in literal_unroll(items):
        total += len(str(x))
    items = (n, np.arange(n), s, (n, s))  # rebound: the loop below walks this one
    for x in literal_unroll(items):
        total += len(x) if not isinstance(x, int) else x
    return total


def test_variable_rebound_before_the_loop_unrolls_the_value_reaching_it():
    rng = make_rng(31)
    for _ in range(6):
        n, s = int(rng.integers(0, 6)), "ab"[: int(rng.integers(0, 3))]
        assert_same(rebound_before_the_loop, n, s)


def test_variable_rebound_in_a_branch_before_the_loop_is_a_typing_error():
    @njit
    def f(c):
        t = (1, 2.5)
        if c:
            t = (2, 3.5)
        for x in literal_unroll(t):
            pass

    with pytest.raises(ruchey.TypingError, match="length is known before typing"):
        f(True)
