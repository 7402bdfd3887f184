"""numpy.ndindex and numpy.ndenumerate as for loops' iterables: tuples of
int64 indices in C order (the last varying fastest), arrays indexed by
such a tuple held in a variable (a[idx], a[idx] = v, a[idx] += v), as
numbagg's grouped reductions use them; ndenumerate of arrays of every
dtype (complex, float16, datetimes, records). Against the Python original on
generated shapes, empty and 0-d ones included; bad shapes are clear
TypingErrors."""
import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import assert_same, make_rng


@njit
def weighted_by_index(a):
    s = 0.0
    for idx in numpy.ndindex(a.shape):
        w = 1.0
        for i in range(len(idx)):
            w += (i + 1) * idx[i]
        s += a[idx] * w
    return s


@njit
def count_dims(n, m):
    c = 0
    for i, j in numpy.ndindex(n, m):
        c = c * 3 + i * 10 + j
    return c


@njit
def count_int_shape(n):
    c = 0
    for t in numpy.ndindex(n):
        c += t[0] + 1
    return c


@njit
def zero_d_shape():
    c = 0
    for t in numpy.ndindex(()):
        c += 1 + len(t)
    return c


@njit
def group_sum(values, labels, ngroups):
    out = numpy.zeros(ngroups)
    counts = numpy.zeros(ngroups, dtype=numpy.int64)
    for idx in numpy.ndindex(values.shape):
        label = labels[idx]
        if label < 0:
            continue
        v = values[idx]
        if not numpy.isnan(v):
            out[label] += v
            counts[label] += 1
    return out, counts


@njit
def fill_by_index(shape):
    out = numpy.empty(shape)
    for idx in numpy.ndindex(shape):
        out[idx] = 0.0
        for d in range(len(idx)):
            out[idx] += idx[d] * 10.0 ** d
    return out


@njit
def enumerate_sum(a):
    s = 0.0
    k = 0
    for idx, v in numpy.ndenumerate(a):
        s += v * (idx[0] + 1) + idx[-1] * 0.5
        k += 1
    return s, k


@njit
def enumerate_flat(a):
    out = numpy.empty(a.size)
    n = 0
    for i, v in numpy.ndenumerate(a):
        out[n] = v + i[0]
        n += 1
    return out


@njit
def first_big(a, limit):
    for idx in numpy.ndindex(a.shape):
        if a[idx] > limit:
            return idx
    else:
        return (-1, -1)


SHAPES = [(0,), (1,), (7,), (3, 4), (2, 0), (4, 1, 3), (2, 3, 2, 2)]


@pytest.mark.parametrize("shape", SHAPES)
def test_ndindex_over_an_arrays_shape(shape):
    a = make_rng(len(shape)).standard_normal(shape)
    assert_same(weighted_by_index, a, rel=1e-12)
    assert_same(enumerate_sum, a, rel=1e-12)
    assert_same(fill_by_index, shape)


@pytest.mark.parametrize("n,m", [(0, 0), (0, 3), (3, 0), (1, 1), (2, 5), (4, 3)])
def test_ndindex_of_several_ints(n, m):
    assert_same(count_dims, n, m)
    assert_same(count_int_shape, n * m)


def test_zero_d_shape_iterates_once():
    assert_same(zero_d_shape)


def test_negative_int_shape_is_empty_as_zero():
    assert count_int_shape(-3) == 0


@pytest.mark.parametrize("seed", range(5))
def test_grouped_sum_with_tuple_indices(seed):
    rng = make_rng(seed)
    values = rng.standard_normal((6, 40))
    values[rng.random(values.shape) < 0.1] = numpy.nan
    labels = rng.integers(-1, 5, size=values.shape)
    assert_same(group_sum, values, labels, 5)


@pytest.mark.parametrize("seed", range(4))
def test_ndenumerate_layouts(seed):
    a = make_rng(seed).standard_normal((5, 6))
    assert_same(enumerate_flat, a)
    assert_same(enumerate_flat, a.T)
    assert_same(enumerate_flat, a[::2, 1::2])


@njit
def enumerate_into(a, out):
    for i, v in numpy.ndenumerate(a):
        out[i] = v
    return out


def arrays_of_other_dtypes(rng):
    """complex, float16, datetime64, timedelta64 and record arrays of every layout."""
    base = rng.integers(-50, 50, size=(3, 4))
    records = numpy.zeros((3, 4), [("x", "f8"), ("n", "i2")])
    records["x"], records["n"] = rng.standard_normal((3, 4)), base
    made = [base + 1j * rng.standard_normal((3, 4)), base.astype(numpy.complex64), base.astype(numpy.float16),
            base.astype("M8[D]"), base.astype("m8[s]"), records]
    for a in made:
        yield from (a, numpy.asfortranarray(a), a[::2, ::-1], a[:0], a[1])


def test_ndenumerate_of_every_dtype_visits_each_element():
    for a in arrays_of_other_dtypes(make_rng(11)):
        got = enumerate_into(a, numpy.zeros_like(a))
        want = enumerate_into.py_func(a, numpy.zeros_like(a))
        assert got.dtype == want.dtype and numpy.array_equal(got, want)


@pytest.mark.parametrize("seed", range(4))
def test_return_the_index_tuple(seed):
    a = make_rng(seed).standard_normal((4, 5))
    assert_same(first_big, a, 1.0)
    assert_same(first_big, a, 100.0)


def test_bad_shape_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="needs a shape"):
        count_int_shape(1.5)

    @njit
    def float_tuple():
        c = 0
        for t in numpy.ndindex((2, 1.5)):
            c += 1
        return c
    with pytest.raises(ruchey.TypingError, match="needs a shape"):
        float_tuple()


def test_ndenumerate_takes_one_array():
    @njit
    def two(a):
        for i, v in numpy.ndenumerate(a, a):
            pass
    with pytest.raises(ruchey.TypingError, match="takes one array"):
        two(numpy.ones(2))


@njit
def corner():
    return (0, 1)


def test_tuple_index_made_by_a_compiled_function_is_computed_once():
    @njit
    def made(a):
        return a[corner()]
    a = numpy.arange(8.0).reshape(2, 2, 2)
    assert_same(made, a)


def test_tuple_index_made_in_a_branch_must_be_a_variable():
    @njit
    def made(a, c):
        return a[corner()] if c else a[0]
    with pytest.raises(ruchey.TypingError, match="assign the tuple first"):
        made(numpy.ones((2, 2, 2)), True)


def test_a_sum_of_tuples_indexes_as_the_tuple_it_makes():
    @njit
    def summed(a, t):
        return a[(0, 1) + (1,)], a[t + (1,)], a[(1,) + t[:1] + (0,)]
    a = numpy.arange(8.0).reshape(2, 2, 2)
    assert summed(a, (1, 0)) == summed.py_func(a, (1, 0))


def test_tuple_variable_index_too_long():
    @njit
    def too_many(a):
        t = (0, 0, 0)
        return a[t]
    with pytest.raises(ruchey.TypingError, match="too many indices"):
        too_many(numpy.ones((2, 2)))


# ---------------------------------------------------------------- outside a for loop's header

@njit
def listed_indices(a):
    return list(numpy.ndindex(a.shape)), list(numpy.ndindex(*a.shape)), list(numpy.ndenumerate(a)), \
        sorted(numpy.ndindex(2, 3), reverse=True)


def test_list_of_ndindex_and_ndenumerate_outside_loops_is_numpys():
    rng = make_rng(11)
    for shape in [(3,), (2, 3), (2, 1, 4), (0, 3)]:
        a = rng.standard_normal(shape)
        got = listed_indices(a)
        want = listed_indices.py_func(a)
        assert [list(x) for x in got] == [list(x) for x in want]


def test_list_of_ndenumerate_of_a_number_is_a_typing_error():
    @njit
    def bad(x):
        return list(numpy.ndenumerate(x))
    with pytest.raises(ruchey.TypingError):
        bad(1.5)


@njit
def walked_after_next(a):
    """thewalrus' indices = numpy.ndindex(G.shape); next(indices); for idx in indices."""
    indices = numpy.ndindex(a.shape)
    first = next(indices)
    s = 0.0
    for idx in indices:
        s = s * 0.5 + a[idx]
    items = numpy.ndenumerate(a)
    skipped = next(items)
    t = 0.0
    for idx, x in items:
        t += x * (idx[0] + 1)
    pairs = numpy.ndindex(2, 3)
    return first, s, skipped[0], skipped[1], t, next(pairs), next(pairs)


def test_ndindex_and_ndenumerate_as_values_walk_as_loops():
    rng = make_rng(7)
    for shape in ((3,), (2, 3), (2, 1, 4)):
        a = rng.standard_normal(shape)
        assert_same(walked_after_next, a)


def test_next_of_an_exhausted_ndindex_raises_stop_iteration():
    @njit
    def past_end(n):
        it = numpy.ndindex(n)
        for _ in range(n + 1):
            next(it)

    for f in (past_end, past_end.py_func):
        with pytest.raises(StopIteration):
            f(2)


@njit
def listed(n, m):
    return list(numpy.ndindex(n, m)), sorted(numpy.ndindex((m, n)), reverse=True), len(list(numpy.ndindex(n)))


def test_list_and_sorted_of_ndindex_values():
    for n, m in ((0, 2), (2, 3), (1, 1)):
        got, expected = listed(n, m), listed.py_func(n, m)
        assert [list(x) for x in got[:2]] == [list(x) for x in expected[:2]] and got[2] == expected[2]
