"""The operator module's functions in compiled code: operator.add(a, b) is
a + b, operator.lt(a, b) is a < b, operator.getitem(a, i) is a[i], and so
on, with the operators' typing and errors (arrays included); the in-place
ones (operator.iadd) change arrays in place and give numbers a new value.
Compared with the function's py_func on generated inputs."""
import operator
from operator import add as plus

import numpy as np
import pytest

from ruchey import TypingError, njit

from conftest import assert_same, make_rng, numba_deviation, random_ints, seed_of

BEYOND_NUMBA = "Numba 0.68 has no operator.abs, truth (of numbers and arrays), inv or index"


@njit
def arithmetic(a, b):
    return (operator.add(a, b), operator.sub(a, b), operator.mul(a, b), operator.truediv(a, b),
            operator.floordiv(a, b), operator.mod(a, b), plus(a, b))


@njit
def unary(a):
    return (operator.neg(a), operator.pos(a), operator.not_(a))


@njit
def unary_beyond_numba(a):
    return operator.abs(a), operator.truth(a), operator.inv(int(a))


@njit
def comparisons(a, b):
    return (operator.eq(a, b), operator.ne(a, b), operator.lt(a, b), operator.le(a, b),
            operator.gt(a, b), operator.ge(a, b))


@njit
def bitwise(a, b):
    return (operator.and_(a, b), operator.or_(a, b), operator.xor(a, b), operator.invert(a),
            operator.lshift(a, b & 15), operator.rshift(a, b & 15))


@njit
def power(a, b):
    return operator.pow(a, b)


def _pairs(kind, count=40):
    rng = make_rng(seed_of("operator", kind))
    if kind == "int":
        xs, ys = random_ints(rng, count, -1000, 1000), random_ints(rng, count, -1000, 1000)
        return [(int(x), int(y) or 1) for x, y in zip(xs, ys)]
    xs, ys = rng.normal(0, 100, count), rng.normal(0, 100, count)
    if kind == "float":
        return [(float(x), float(y)) for x, y in zip(xs, ys)]
    return [(int(x), float(y)) for x, y in zip(xs, ys)]


@pytest.mark.parametrize("kind", ["int", "float", "mixed"])
def test_arithmetic_and_comparisons_are_the_operators(kind):
    for a, b in _pairs(kind):
        assert_same(arithmetic, a, b)
        assert_same(comparisons, a, b)
        assert_same(unary, a)
        assert_same(comparisons, a, a)


@numba_deviation(BEYOND_NUMBA)
@pytest.mark.parametrize("kind", ["int", "float", "mixed"])
def test_abs_truth_and_inv(kind):
    for a, b in _pairs(kind):
        assert_same(unary_beyond_numba, a)
        assert_same(unary_beyond_numba, b)


def test_bitwise_and_shifts_of_ints():
    for a, b in _pairs("int"):
        assert_same(bitwise, a, abs(b))


def test_pow_of_ints_and_floats():
    rng = make_rng(seed_of("operator pow"))
    for a, b in zip(random_ints(rng, 30, -9, 9), random_ints(rng, 30, 0, 12)):
        assert_same(power, int(a), int(b))
        assert_same(power, abs(float(a)), float(b) / 3)


def test_arrays_are_the_operators_array_expressions():
    rng = make_rng(seed_of("operator arrays"))
    for n in (0, 1, 7, 100):
        a, b = rng.normal(size=n), rng.normal(size=n) + 3
        assert_same(arithmetic, a, b)
        assert_same(comparisons, a, b)
        assert_same(arithmetic, a, 2.5)
        i, j = rng.integers(-50, 50, n), rng.integers(1, 50, n)
        assert_same(bitwise, i, j)


@njit
def items(x, i, v):
    return operator.getitem(x, i), operator.contains(x, v), operator.not_(operator.contains(x, v))


def test_getitem_and_contains():
    rng = make_rng(seed_of("operator getitem"))
    a = rng.integers(0, 20, 30)
    for i in random_ints(rng, 20, -30, 30):
        assert_same(items, a, int(i), int(i))
    t = (3, 1, 4, 1, 5)
    assert_same(items, t, 2, 4)
    assert_same(items, t, -1, 7)


@njit
def getitem_slice(x, lo, hi):
    return operator.getitem(x, slice(lo, hi))


def test_getitem_with_a_slice_object():
    a = np.arange(10.0)
    for lo, hi in ((0, 3), (2, -1), (5, 100)):
        assert_same(getitem_slice, a, lo, hi)


@njit
def identity(x):
    return operator.is_(x, None), operator.is_not(x, None), operator.is_(None, x)


def test_is_and_is_not_with_none():
    assert_same(identity, 3)
    assert_same(identity, None)


@njit
def in_place_numbers(n, step):
    s = 0
    p = 1.0
    for i in range(n):
        s = operator.iadd(s, i)
        s = operator.isub(s, step)
        p = operator.imul(p, 1.5)
        p = operator.itruediv(p, 1.25)
    t = operator.ifloordiv(s, 3), operator.imod(s, 7), operator.ipow(step, 2)
    u = operator.iand(s, 255), operator.ior(s, 1), operator.ixor(s, 5), operator.ilshift(n, 2), operator.irshift(n, 1)
    return s, p, t, u


def test_in_place_on_numbers_gives_a_new_value():
    rng = make_rng(seed_of("operator inplace"))
    for n, step in zip(random_ints(rng, 10, 0, 50), random_ints(rng, 10, -5, 5)):
        assert_same(in_place_numbers, int(n), int(step))


@njit
def in_place_array(a, b):
    c = operator.iadd(a, b)
    d = operator.imul(c, 2.0)
    return operator.add(a, 0.0), c, d


def test_in_place_on_arrays_changes_them():
    rng = make_rng(seed_of("operator inplace arrays"))
    for n in (0, 1, 9):
        assert_same(in_place_array, rng.normal(size=n), rng.normal(size=n))


@njit
def index_of(x):
    return operator.index(x)


@numba_deviation(BEYOND_NUMBA)
def test_index_of_integers_and_bools():
    for x in (0, -5, 2**40, True, False, np.int32(7), np.uint8(200)):
        assert_same(index_of, x)


@numba_deviation(BEYOND_NUMBA)
def test_index_of_a_float_is_a_type_error():
    with pytest.raises(TypingError, match="cannot be interpreted as an integer"):
        index_of(1.5)
    with pytest.raises(TypeError):
        index_of.py_func(1.5)


@njit
def divide(a, b):
    return operator.floordiv(a, b), operator.mod(a, b)


def test_division_by_zero_raises_as_the_operator():
    for a in (7, -7):
        with pytest.raises(ZeroDivisionError):
            divide(a, 0)
        with pytest.raises(ZeroDivisionError):
            divide.py_func(a, 0)


@njit
def wrong_count(a):
    return operator.add(a)


@njit
def keywords(a):
    return operator.neg(a=a)


@njit
def bad_types(a, b):
    return operator.sub(a, b)


@njit
def bad_invert(a):
    return operator.invert(a)


@numba_deviation("Numba's messages differ")
def test_bad_calls_are_typing_errors():
    with pytest.raises(TypingError, match=r"operator.add\(\) takes exactly 2 arguments \(1 given\)"):
        wrong_count(1)
    with pytest.raises(TypingError, match="no keyword arguments"):
        keywords(1)
    with pytest.raises(TypingError):
        bad_types((1, 2), 3)
    with pytest.raises(TypingError):
        bad_invert(1.5)


@njit
def aliased(a, b):
    less = operator.lt
    return less(a, b), less(b, a)


def test_a_local_name_bound_to_an_operator_function():
    for a, b in _pairs("mixed", 10):
        assert_same(aliased, a, b)


@njit
def in_place_in_while(n):
    i = 0
    while operator.iadd(i, 1) < n:
        i += 1
    return i


def test_in_place_function_in_a_while_condition_runs_each_time_the_condition_does():
    for n in range(6):
        assert in_place_in_while(n) == in_place_in_while.py_func(n)


@njit
def containers(s, items, k):
    d = {1: 2.5, 4: -1.0}
    return (operator.truth(s), operator.truth(items), operator.truth(d), operator.contains(s, "b"),
            operator.contains(d, k), operator.getitem(s, k % max(len(s), 1)) if s else "", operator.contains(items, k))


@numba_deviation(BEYOND_NUMBA)
def test_truth_contains_and_getitem_of_strs_lists_and_dicts():
    rng = make_rng(seed_of("operator containers"))
    for s in ("", "abc", "xyz", "b"):
        for k in random_ints(rng, 5, -3, 6):
            expected = containers.py_func(s, [1, 2, 4], int(k))
            assert containers(s, [1, 2, 4], int(k)) == expected


@njit
def truth_of(a):
    return operator.truth(a)


@numba_deviation(BEYOND_NUMBA)
@pytest.mark.filterwarnings("ignore:The truth value of an empty array:DeprecationWarning")
def test_truth_of_an_array_raises_as_python():
    """One element's truth; NumPy's ValueError for more (and for none from
    NumPy 2.2 on; before it, False with a DeprecationWarning: as the NumPy
    installed)."""
    assert truth_of(np.ones(1)) is truth_of.py_func(np.ones(1))
    with pytest.raises(ValueError):
        truth_of(np.ones(3))
    with pytest.raises(ValueError):
        truth_of.py_func(np.ones(3))
    try:
        want = truth_of.py_func(np.zeros(0))
    except ValueError:
        with pytest.raises(ValueError):
            truth_of(np.zeros(0))
    else:
        assert truth_of(np.zeros(0)) is want


@njit
def stores(a, b, i, v):
    operator.setitem(a, i, v)
    r = operator.setitem(a, slice(0, 2), -v)
    return operator.matmul(a, b), r


def test_setitem_and_matmul():
    rng = make_rng(seed_of("operator setitem"))
    for i in random_ints(rng, 8, -4, 4):
        assert_same(stores, rng.normal(size=4), rng.normal(size=(4, 3)), int(i), float(rng.normal()))


@njit
def store_in_list(n, i):
    items = [0] * n
    operator.setitem(items, i, 1)
    return items


def test_setitem_of_a_list_out_of_range_raises_index_error():
    assert list(store_in_list(3, -1)) == store_in_list.py_func(3, -1)
    with pytest.raises(IndexError):
        store_in_list(3, 5)
    with pytest.raises(IndexError):
        store_in_list.py_func(3, 5)


@njit
def list_in_place(n):
    items = [1, 2]
    same = operator.iadd(items, range(n))
    return items, same


@numba_deviation("Numba's list += takes a list only")
def test_iadd_of_a_list_extends_it_and_returns_it():
    for n in (0, 3):
        expected, got = list_in_place.py_func(n), list_in_place(n)
        assert [list(g) for g in got] == list(expected)


@njit
def apply1(f, a):
    return f(a)


@njit
def apply2(f, a, b):
    return f(a, b)


@njit
def through_values(a, b):
    less = operator.lt
    return (apply2(operator.add, a, b), apply2(less, a, b), apply1(operator.neg, a), apply2(operator.getitem, (a, a + 1), 1),
            apply2(operator.mul, a, b))


def test_operator_functions_passed_as_values_to_compiled_functions():
    for a, b in _pairs("mixed", 20):
        assert through_values(a, b) == (a + b, a < b, -a, a + 1, a * b)


@njit
def scaled_through_a_value(x):
    return apply2(operator.mul, x, 2.0), apply2(operator.iadd, x, x)


def test_operator_function_values_on_arrays():
    x = np.arange(5.0)
    doubled, same = scaled_through_a_value(x)
    assert np.array_equal(doubled, np.arange(5.0) * 2) and same is not None
    assert np.array_equal(x, np.arange(5.0) * 2)  # iadd changed it in place


def test_operator_function_passed_from_python_is_refused_as_numba():
    with pytest.raises((TypeError, TypingError)):
        apply2(operator.add, 1, 2)
