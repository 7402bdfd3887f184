"""Tuples as Numba has them: arguments from Python (homogeneous,
heterogeneous, nested, of arrays), defaults, results and arguments of other
compiled functions; indexing with constants and, for homogeneous tuples,
with variables; len, iteration, unpacking, constant slices, concatenation
and comparisons; shapes as tuples; *args parameters and calls with *t;
Tuple and UniTuple in explicit signatures. Every result is compared with
the function's Python original."""
import itertools
import sys

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, numba_deviation, float_array, make_rng, random_floats, random_ints


ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own message or type names")


def says(text):
    """A message to match: ruchey's; numba words its errors otherwise."""
    return None if AS_NUMBA else text


def random_tuples(rng, count, size):
    floats = random_floats(rng, count * size)
    ints = random_ints(rng, count * size)
    return ([tuple(floats[i * size:(i + 1) * size]) for i in range(count)],
            [tuple(ints[i * size:(i + 1) * size]) for i in range(count)])


# ---------------------------------------------------------------- arguments and results

@njit
def weighted(t):
    return t[0] * 2.0 + t[1] - t[2] / 4.0


@njit
def mixed(t):
    a, b, c = t
    return a + b if c else a - b


@njit
def nested(t):
    return t[0] + t[1][0] * t[1][1] + t[1][2][0]


@njit
def swap(t):
    return t[1], t[0]


def test_homogeneous_tuples_of_numbers_are_arguments():
    rng = make_rng(1)
    floats, ints = random_tuples(rng, 60, 3)
    for t in floats + ints:
        assert_same(weighted, t)


def test_heterogeneous_and_nested_tuples_are_arguments():
    rng = make_rng(2)
    xs, ys = random_floats(rng, 30), random_ints(rng, 30, -1000, 1000)
    for x, y in zip(xs, ys):
        for flag in (True, False, numpy.bool_(True)):
            assert_same(mixed, (x, y, flag))
        assert_same(nested, (y, (x, y, (x,))))
        assert_same(swap, (x, (y, numpy.int32(7))))
    assert_same(mixed, (numpy.float32(1.5), numpy.int16(-3), False))


def test_tuples_of_arrays_are_arguments_and_results():
    rng = make_rng(3)

    @njit
    def stats(t):
        a, b = t
        return a.sum() + b[0], t[0].shape, (b, t[1][1:])

    for n in (1, 2, 9):
        a, b = float_array(rng, n), rng.integers(-5, 5, size=n + 1)
        got = stats((a, b))
        assert got[0] == pytest.approx(stats.py_func((a, b))[0])
        assert got[1] == (n,) and got[2][0] is b
        numpy.testing.assert_array_equal(got[2][1], b[1:])


def test_tuple_arguments_hold_no_references_after_the_call():
    a = numpy.arange(5.0)

    @njit
    def first(t):
        return t[0][1] + t[1]

    before = sys.getrefcount(a)
    for _ in range(1000):
        first((a, 2.0))
    assert sys.getrefcount(a) == before


def test_each_tuple_type_is_one_specialisation():
    @njit
    def total(t):
        s = 0.0
        for x in t:
            s += x
        return s

    for t in [(1.0, 2.0), (3.0, 4.0), (1, 2), (1.0, 2.0, 3.0), (5.0, 6.0)]:
        assert_same(total, t)
    assert len(total.signatures) == 3


def test_tuples_are_defaults():
    @njit
    def shifted(x, by=(1, 2.5)):
        return x + by[0] * by[1]

    assert_same(shifted, 2.0)
    assert_same(shifted, 2.0, (3, 0.5))
    assert shifted(1.0, by=(2, 2.0)) == 5.0


def test_tuples_are_passed_to_compiled_functions():
    @njit
    def outer(x, y):
        return swap((x, y)), nested((x, (y, x, (y,)))), weighted((x, y, x))

    rng = make_rng(4)
    for x, y in zip(random_floats(rng, 20), random_ints(rng, 20, -99, 99)):
        assert_same(outer, x, y)


# ---------------------------------------------------------------- indexing, len, iteration, unpacking

@njit
def at(t, i):
    return t[i]


@njit
def each(t):
    s = 0.0
    n = 0
    for x in t:
        s = s * 0.5 + x
        n += 1
    return s, n, len(t)


def test_variable_indices_of_homogeneous_tuples_as_python():
    rng = make_rng(5)
    floats, ints = random_tuples(rng, 10, 4)
    for t in floats[:5] + ints[:5]:
        for i in range(-4, 4):
            assert_same(at, t, i)
        for i in (4, 5, -5, 2**40):
            with pytest.raises(IndexError, match="tuple index out of range"):
                at(t, i)


def test_iteration_len_and_unpacking():
    rng = make_rng(6)
    floats, ints = random_tuples(rng, 20, 5)
    for t in floats + ints + [(1.0,), (2, 3)]:
        assert_same(each, t)


def test_constant_index_out_of_range_is_a_typing_error():
    @njit
    def fifth(t):
        return t[5]

    @njit
    def minus_third(t):
        return t[-3]

    with pytest.raises(ruchey.TypingError, match="tuple index out of range"):
        fifth((1, 2))
    with pytest.raises(ruchey.TypingError, match="tuple index out of range"):
        minus_third((1.0, 2.0))


def test_heterogeneous_tuples_need_constant_indices():
    with pytest.raises(ruchey.TypingError, match=says("heterogeneous")):
        at((1, 2.0), 0)
    with pytest.raises(ruchey.TypingError, match=says("heterogeneous")):
        each((1, 2.0))


# ---------------------------------------------------------------- slices, concatenation, comparisons

@njit
def slices(t):
    return (t[1:], t[:-1], t[::2], t[::-1], t[1:4], t[-2:], t[5:], t[:0], t[::-2], t[3:1:-1],
            t[-100:100], t[100:], t[1::3])


def test_constant_slices_as_python():
    rng = make_rng(7)
    floats, ints = random_tuples(rng, 5, 5)
    for t in floats + ints + [(1, 2.5, True, 4, 5.0), (1.0,), ()]:
        assert_same(slices, t)


def test_concatenation():
    @njit
    def joined(a, b):
        return a + b, b + (1,) + a, a + ()

    rng = make_rng(8)
    floats, ints = random_tuples(rng, 5, 3)
    for a, b in zip(floats, ints):
        assert_same(joined, a, b)
    assert_same(joined, (), (2.0, (3, 4)))


@njit
def compared(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def test_comparisons_as_python():
    rng = make_rng(9)
    small = [tuple(t) for t in rng.integers(0, 3, size=(40, 3)).tolist()]
    for a, b in itertools.islice(itertools.product(small, small), 400):
        assert_same(compared, a, b)
    for a, b in [((1, 2), (1, 2, 0)), ((1.0, float("nan")), (1.0, 2.0)), ((), ()), ((2.5,), (2, 9)),
                 ((1, 2.5), (1.0, 2)), (((1, 2), 3), ((1, 3), 0)), ((True, 1), (1, True))]:
        assert_same(compared, a, b)
        assert_same(compared, b, a)


def test_comparisons_of_tuples_holding_strs_as_python():
    rng = make_rng(10)
    words = ["", "a", "ab", "b", "ba", "é"]
    pairs = [((int(rng.integers(3)), words[rng.integers(6)]), (int(rng.integers(3)), words[rng.integers(6)]))
             for _ in range(60)]
    for a, b in pairs + [(("a", 1, "x"), ("a", 1, "xy")), (("b",), ("a", 2))]:
        assert_same(compared, a, b)


@ruchey_only  # numba fails inside its lowering
def test_tuples_of_arrays_do_not_compare():
    with pytest.raises(ruchey.TypingError, match="cannot compare"):
        compared((numpy.ones(2),), (numpy.ones(2),))


# ---------------------------------------------------------------- shapes

def test_shapes_are_tuple_values():
    @njit
    def shape_of(a, b, i):
        s = a.shape
        total = 0
        for d in s:
            total += d
        return s, s[i], s == b.shape, s < b.shape, len(s), total, at(s, -1), s + b.shape[1:]

    rng = make_rng(10)
    for shape_a, shape_b in [((2, 3), (2, 3)), ((2, 3), (2, 4)), ((4, 1), (3, 5))]:
        for i in (0, 1, -1, -2):
            assert_same(shape_of, rng.standard_normal(shape_a), rng.standard_normal(shape_b), i)


# ---------------------------------------------------------------- *args and f(*t)

@njit
def gather(a, *args):
    s = a
    for x in args:
        s += x
    return s, len(args), args


def test_star_args_parameters_are_a_tuple():
    rng = make_rng(11)
    xs = random_floats(rng, 8, special=False)
    for k in range(1, 5):
        assert_same(gather, *xs[:k + 1])
    # the bug: g(1.0, 2) raised SystemError
    assert gather(1.0, 2) == (3.0, 1, (2,))


@numba_deviation("numba cannot iterate over an empty tuple (getiter of Tuple())")
def test_empty_star_args_loop_no_times():
    assert_same(gather, 1.5)
    assert gather(a=2.5) == gather.py_func(a=2.5)


def test_star_args_of_any_types():
    @njit
    def everything(*args):
        return args

    a = numpy.arange(3)
    got = everything(1, 2.5, a, (True,))
    assert got[:2] == (1, 2.5) and got[2] is a and got[3] == (True,)
    assert everything() == ()


def test_star_args_from_compiled_callers_and_star_calls():
    @njit
    def caller(x, t):
        return gather(x, 1.0, 2.0), gather(*t), gather(x, *t), gather(*t, x, *t)

    rng = make_rng(12)
    for x in random_floats(rng, 6, special=False):
        for t in [(1.0, 5.0), (2.0, 3.0, 4.0)]:
            assert_same(caller, x, t)


def test_star_calls_fill_defaults():
    @njit
    def three(a, b=2, c=3.5):
        return a + b * c

    @njit
    def spread(t):
        return three(*t)

    for t in [(1,), (1, 5), (1, 5, 0.5), (1.5, True)]:
        assert_same(spread, t)
    with pytest.raises(ruchey.TypingError, match=says("positional arguments")):
        spread((1, 2, 3, 4))
    with pytest.raises(ruchey.TypingError, match=says("positional arguments")):
        spread(())


def test_star_of_a_number_is_a_typing_error():
    @njit
    def bad(x):
        return gather(*x)

    with pytest.raises(ruchey.TypingError, match=says("must be a tuple")):
        bad(1.0)


# ---------------------------------------------------------------- signatures

def test_tuple_types_in_explicit_signatures():
    types = ruchey.types

    @njit("float64(UniTuple(float64, 3))")
    def first_last(t):
        return t[0] + t[-1]

    @njit(types.float64(types.Tuple([types.int64, types.float64[:]])))
    def head(t):
        return t[0] + t[1][0]

    @njit("UniTuple(int64, 2)(int64)")
    def pair(x):
        return (x, x + 1)

    assert first_last((1.0, 2.0, 4.0)) == 5.0
    assert first_last((1, 2, 4)) == 5.0  # converted, as the signature says
    assert head((2, numpy.ones(3))) == 3.0
    assert pair(4) == (4, 5)
    assert AS_NUMBA or first_last.signatures == ["((float64, float64, float64),)"]
    with pytest.raises(TypeError, match="(?i)no matching definition"):
        first_last((1.0, 2.0))
    assert ruchey.typeof((1, 2.0, (numpy.ones(2),))) == types.Tuple(
        [types.int64, types.float64, types.Tuple([types.float64[::1]])])
    assert ruchey.typeof((1.0, 2.0)) == types.UniTuple(types.float64, 2)


# ---------------------------------------------------------------- bad input

@ruchey_only  # numba's messages differ
def test_unsupported_items_are_a_clear_type_error():
    with pytest.raises(TypeError, match="argument 1 is a tuple whose item 1 of type 'object' is not supported"):
        weighted((1.0, object(), 2.0))
    with pytest.raises(TypeError, match="item 1 is a tuple whose item 0 is a list of lists.*typed.List"):
        nested((1, ([[1]],)))  # a Python list alone inside is taken (tests/test_reflected_lists.py)
    with pytest.raises(TypeError, match="at most 1000"):
        each(tuple(range(1001)))


def test_wrong_arity_is_python_type_error():
    with pytest.raises(TypeError):
        at((1, 2))
    with pytest.raises(TypeError):
        weighted((1.0, 2.0, 3.0), 4)


def test_named_tuples_are_tuples():
    import collections
    Point = collections.namedtuple("Point", "x y")  # (tests/test_namedtuples.py has the rest)
    assert_same(swap, Point(1, 2))


@ruchey_only
def test_a_tuple_subclass_that_is_no_named_tuple_is_refused_clearly():
    class Pair(tuple):
        pass
    with pytest.raises(TypeError, match="of type 'Pair' is not supported"):
        swap(Pair((1, 2)))


def contains(t, v):
    return v in t, v not in t


@pytest.mark.parametrize("t", [(1, 2, 3), (1.5, -2, True), (), (2**40, 0.5), (numpy.float32(0.5), numpy.uint8(7))])
def test_in_a_tuple_compares_each_item(t):
    f = ruchey.njit(contains)
    for v in [1, 2, 0.5, -2.0, True, 2**40, 7, -1]:
        assert f(t, v) == contains(t, v)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_in_a_tuple_of_arrays_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="'in' a tuple holding"):
        ruchey.njit(contains)((numpy.zeros(2),), 1.0)


# ---------------------------------------------------------------- slicing by a slice value

@njit
def sliced_by_values(t):
    s = slice(1, 3)
    back = slice(None, None, -1)
    head = slice(2)
    tail = slice(-3, None)
    return t[s], t[back], t[head], t[tail], t[slice(0, 5, 2)], t[slice(-1, -6, -2)]


def test_a_tuple_sliced_by_a_constant_slice_value_is_pythons_slice():
    for n in range(0, 7):
        t = tuple(range(10, 10 + n))
        assert sliced_by_values(t) == sliced_by_values.py_func(t)
    mixed = (1, 2.5, 3, 4, 5.5)
    assert sliced_by_values(mixed) == sliced_by_values.py_func(mixed)


def test_a_tuple_sliced_by_a_slice_known_only_at_run_time_is_a_typing_error():
    @njit
    def by_run_time_slice(t, k):
        s = slice(1, k)
        return t[s]
    with pytest.raises(ruchey.TypingError, match="constant" if not AS_NUMBA else None):
        by_run_time_slice((1, 2, 3), 2)


# ---------------------------------------------------------------- to_fixed_tuple

@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own module")
def test_to_fixed_tuple_takes_an_arrays_first_items():
    from ruchey.unsafe import to_fixed_tuple

    @njit
    def first(a, n):
        return to_fixed_tuple(a, n)

    @njit
    def shape_of(dims):
        return numpy.zeros(to_fixed_tuple(dims[::2], 2)).shape

    rng = make_rng(41)
    for dtype in (numpy.float64, numpy.int32, numpy.bool_, numpy.complex128):
        a = rng.integers(-9, 9, 6).astype(dtype)
        for n in (0, 1, 3, 6):
            assert first(a, n) == first.py_func(a, n)
    assert shape_of(numpy.array([2, 7, 3])) == shape_of.py_func(numpy.array([2, 7, 3]))
    with pytest.raises(IndexError, match="fewer than 4"):
        first(numpy.arange(3.0), 4)
    with pytest.raises(ruchey.TypingError, match="1-d array"):
        first(numpy.zeros((2, 2)), 1)

    @njit
    def unknown_length(a):
        return to_fixed_tuple(a, len(a))

    with pytest.raises(ruchey.TypingError, match="must be known"):
        unknown_length(numpy.arange(3.0))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own module")
def test_to_fixed_tuple_of_an_arrays_ndim_or_a_tuples_len():
    """The length known from types: transposing with a permutation built as
    an array, its length the array's ndim (as qibojit's superoperators)."""
    from ruchey.unsafe import to_fixed_tuple

    @njit
    def last_two_swapped(x):
        axes = numpy.arange(x.ndim)
        axes[-2:] = axes[-2:][::-1]
        return numpy.ascontiguousarray(numpy.transpose(x, to_fixed_tuple(axes, x.ndim)))

    @njit
    def reversed_as_shape(a, t):
        return to_fixed_tuple(a[::-1], len(t))

    rng = make_rng(43)
    for shape in ((3, 4), (2, 3, 5), (2, 2, 3, 4)):
        x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        assert_same(last_two_swapped, x)
    a = rng.integers(-9, 9, 5)
    for t in ((), (1.5,), (1, 2, 3)):
        assert reversed_as_shape(a, t) == reversed_as_shape.py_func(a, t)
    with pytest.raises(IndexError, match="fewer than 3"):
        reversed_as_shape(a[:2], (1, 2, 3))


@njit
def tuple_calls(i, j, t):
    """thewalrus' tuple((i - 1, j - 1)): tuple() of a tuple is the tuple."""
    return tuple((i - 1, j - 1)), tuple(), tuple(t), tuple((t, 2.5))


def test_tuple_of_a_tuple_is_itself():
    for args in ((3, 4, (1.5, 2)), (0, -1, ()), (7, 8, (numpy.zeros(2), 1))):
        got, expected = tuple_calls(*args), tuple_calls.py_func(*args)
        assert repr(got) == repr(expected)


def test_tuple_of_a_list_is_a_typing_error():
    @njit
    def of_list(n):
        return tuple([i for i in range(n)])

    with pytest.raises(ruchey.TypingError, match="tuple\\(\\) of .* takes a tuple"):
        of_list(3)


def test_unsafe_tuple_setitem_replaces_one_item():
    from ruchey.unsafe import tuple_setitem

    @njit
    def lowered(t, i):
        """thewalrus' dec(): tuple_setitem(t, i, t[i] - 1)."""
        return tuple_setitem(t, i, t[i] - 1), tuple_setitem((0.5, 1.5, 2.5), i % 3, 7)

    for t in ((3, 4, 5), (1, 0, 2, 9)):
        for i in range(len(t)):
            got, expected = lowered(t, i), lowered.py_func(t, i)
            assert got[0] == expected[0] and got[1] == tuple(float(x) for x in expected[1])
    for f in (lowered, lowered.py_func):
        with pytest.raises(IndexError):
            f((3, 4, 5), 3)
    with pytest.raises(ruchey.TypingError, match="one type of numbers"):
        njit(lambda t: tuple_setitem(t, 0, 1))((1, 2.5))


# ---------------------------------------------------------------- unpacking an array's rows

def three_rows(m):
    a, b, c = m
    return a.sum() + 2.0 * b[0] - c[-1], a.shape[0]


def bands(m):
    lower, diag, upper = m.T  # an F-ordered view: each row strided
    lower[0] = 0.0
    return diag * 2.0 + lower + upper


def cube_rows(t):
    x, y = t
    return x[1, 0] + y[0, 1]


def test_unpacking_a_2d_arrays_rows():
    rng = make_rng(31)
    for cols in (1, 4, 9):
        m = rng.standard_normal((3, cols))
        assert njit(three_rows)(m) == three_rows(m)
        m = rng.standard_normal((cols, 3))
        got, want = m.copy(), m.copy()
        numpy.testing.assert_array_equal(njit(bands)(got), bands(want))
        numpy.testing.assert_array_equal(got, want)  # the rows are views: written through
    t = rng.standard_normal((2, 3, 2))
    assert njit(cube_rows)(t) == cube_rows(t)


def test_unpacking_the_wrong_number_of_rows_is_a_value_error():
    f = njit(three_rows)
    with pytest.raises(ValueError, match="not enough values to unpack"):
        f(numpy.ones((2, 4)))
    with pytest.raises(ValueError, match="too many values to unpack"):
        f(numpy.ones((4, 4)))


@njit
def tuple_truths(t):
    return bool(t), (1 if t else 0), not t


def test_truth_of_a_tuple_is_whether_it_has_items():
    """bool(t), `if t` and `not t` of a tuple: its length, known when it compiles."""
    rng = make_rng(31)
    for t in ((), (1,), tuple(random_ints(rng, 3)[-3:]), (0, 0.0), (1.5, (2, 3)), (False,)):
        assert tuple_truths(t) == tuple_truths.py_func(t)
