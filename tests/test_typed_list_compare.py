"""typed.List compared with what is not a list, and a list of None with a
list of other items, as Numba's typed list compares them: against a number
(and, the list first, a str or a tuple) every operator gives False (==, !=
and the orderings alike), in compiled code and from Python; a list of None and a list of numbers are
never equal and order by their lengths, then the list of None first. A
reflected list stays Python's: unequal to a number, and ordering it is
Python's TypeError. Each checked against the function's py_func on
generated lists."""
import pytest

from ruchey import njit, typed

from conftest import make_rng, seed_of


@njit
def every_operator(a, b):
    return a < b, a <= b, a == b, a != b, a >= b, a > b


def numbers(seed, n):
    return typed.List([int(v) for v in make_rng(seed).integers(-20, 20, n)])


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("other", [0, 3, -2.5, True])
def test_a_typed_list_and_a_number_compare_false_every_way(n, other):
    x = numbers(seed_of("other", n), n)
    if not n:
        x = typed.List.empty_list(typed.List([1])._numba_type_.item_type)
    for a, b in ((x, other), (other, x)):
        got = every_operator(a, b)
        assert got == every_operator.py_func(a, b)
        assert got == (False,) * 6


@njit
def none_and_numbers(k, j):
    nones = typed.List()
    for _ in range(k):
        nones.append(None)
    counts = typed.List()
    for i in range(j):
        counts.append(i)
    return every_operator(nones, counts), every_operator(counts, nones)


@pytest.mark.parametrize("k,j", [(1, 1), (2, 1), (1, 3), (4, 4), (3, 2)])
def test_a_list_of_none_and_a_list_of_numbers_order_as_numbas(k, j):
    got = none_and_numbers(k, j)
    assert got == none_and_numbers.py_func(k, j)
    first = (k, 0) < (j, 1)  # by the lengths, then the list of None first
    assert got[0] == (first, first, False, True, not first, not first)


def test_a_reflected_list_and_a_number_are_unequal_and_not_ordered():
    @njit
    def equality(n):
        x = [n, n + 1]
        return x == n, x != n, n == x, n != x

    @njit
    def order(n):
        x = [n, n + 1]
        return x < n

    for n in make_rng(seed_of("reflected")).integers(-5, 5, 4):
        assert equality(int(n)) == equality.py_func(int(n)) == (False, True, False, True)
    with pytest.raises(TypeError, match="'<' not supported between instances of 'list' and 'int'"):
        order(1)
    with pytest.raises(TypeError, match="'<' not supported between instances of 'list' and 'int'"):
        order.py_func(1)


def test_a_typed_list_and_a_complex_or_numpy_number_from_python_compare_false_every_way():
    import numpy as np
    x = typed.List([1.5, 2.5])
    for other in (1 + 2j, np.int32(1), np.float64(1.5), np.uint8(2)):
        assert every_operator.py_func(x, other) == (False,) * 6
    assert every_operator.py_func(1 + 2j, x) == (False,) * 6  # (a NumPy scalar first compares item by item)


@njit
def list_first(a, b):
    return a < b, a <= b, a == b, a != b, a >= b, a > b


def words(seed, n):
    return "".join(make_rng(seed).choice(list("abz"), n))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_a_typed_list_then_a_str_or_tuple_compare_false_every_way(n):
    rng = make_rng(seed_of("list then str", n))
    strs = typed.List([words(seed_of("word", n, i), i) for i in range(n)])
    ints = typed.List([int(v) for v in rng.integers(-9, 9, n)])
    if not n:
        strs = typed.List.empty_list(typed.List(["a"])._numba_type_.item_type)
        ints = typed.List.empty_list(typed.List([1])._numba_type_.item_type)
    for x in (strs, ints):
        for other in (words(seed_of("other", n), n), "", tuple(int(v) for v in rng.integers(-9, 9, 2)), (1.5,)):
            got = list_first(x, other)
            assert got == list_first.py_func(x, other)
            assert got == (False,) * 6


def test_a_reflected_list_then_a_str_or_tuple_is_unequal_and_not_ordered():
    @njit
    def equality(n, s, t):
        x = [n, n + 1]
        return x == s, x != s, x == t, x != t

    @njit
    def order_str(n, s):
        return [n] < s

    @njit
    def order_tuple(n, t):
        return [n] >= t

    rng = make_rng(seed_of("reflected then str"))
    for n in rng.integers(-5, 5, 3):
        s, t = words(seed_of("w", int(n)), 3), (int(n), int(n) + 1)
        assert equality(int(n), s, t) == equality.py_func(int(n), s, t) == (False, True, False, True)
    for f, other, name in ((order_str, "ab", "str"), (order_tuple, (1,), "tuple")):
        msg = f"not supported between instances of 'list' and '{name}'"
        with pytest.raises(TypeError, match=msg):
            f.py_func(1, other)
        with pytest.raises(TypeError, match=msg):
            f(1, other)


def test_a_str_then_a_typed_list_keeps_the_strs_operators():
    @njit
    def equality(s, x):
        return s == x, s != x

    x = typed.List(["a", "b"])
    assert equality("a", x) == equality.py_func("a", list(x)) == (False, True)  # (str's own ==, as Numba's)
    with pytest.raises(Exception, match="orderings are not supported"):  # (Numba refuses it too)
        njit(lambda s, x: s < x)("a", x)
