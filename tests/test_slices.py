"""Slice objects as values: slice() in compiled code, their parts,
indices(), x[s] of arrays, lists and strings, slices as arguments and
results; each checked against the function's Python original."""
import numpy
import pytest
import ruchey

from conftest import make_rng


@ruchey.njit
def parts(a, b):
    s, t, u = slice(a, b), slice(None, None, -1), slice(b)
    return s.start, s.stop, s.step, t.start, t.step, u.start, u.stop


def test_parts_are_ints_or_none():
    for a, b in ((2, 5), (-3, 7), (0, 0)):
        assert parts(a, b) == parts.py_func(a, b)


@ruchey.njit
def indices(start, stop, step, n):
    return slice(start, stop, step).indices(n), slice(start, None).indices(n), slice(None, stop, step).indices(n)


def test_indices_as_python():
    rng = make_rng(41)
    for _ in range(200):
        start, stop, n = (int(v) for v in rng.integers(-12, 12, 3))
        step = int(rng.choice([-3, -2, -1, 1, 2, 5]))
        n = abs(n)
        assert indices(start, stop, step, n) == indices.py_func(start, stop, step, n)


@ruchey.njit
def segment_sums(data, indptr, z):
    """scanpy's Moran's I: a CSR row's entries through a slice object."""
    out = numpy.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        s = slice(indptr[i], indptr[i + 1])
        out[i] = (data[s] * z[s]).sum()
    return out


@ruchey.njit(parallel=True)
def weighted_rows(data, indices, indptr, z):
    total = 0.0
    for i in ruchey.prange(len(indptr) - 1):
        s = slice(indptr[i], indptr[i + 1])
        total += (data[s] * z[indices[s]]).sum() * z[i]
    return total


def test_array_slices_by_value():
    rng = make_rng(42)
    indptr = numpy.sort(rng.integers(0, 60, 12))
    indptr[0], indptr[-1] = 0, 60
    data, z = rng.random(60), rng.random(60)
    numpy.testing.assert_array_equal(segment_sums(data, indptr, z), segment_sums.py_func(data, indptr, z))
    indices, zz = rng.integers(0, 11, 60), rng.random(11)
    assert weighted_rows(data, indices, indptr, zz) == pytest.approx(weighted_rows.py_func(data, indices, indptr, zz),
                                                                     rel=1e-12)


@ruchey.njit
def many_forms(x, a, b, c):
    s = slice(a, b, c)
    r = slice(None, None, -1)
    return x[s].copy(), x[r].copy(), x[slice(a, None)].copy(), x[s, slice(1, None)].copy()


def test_slices_in_indices_and_tuples_of_them():
    x = numpy.arange(48.0).reshape(8, 6)
    for a, b, c in ((1, 7, 2), (7, 0, -3), (-2, -8, -1), (0, 100, 3)):
        for got, want in zip(many_forms(x, a, b, c), many_forms.py_func(x, a, b, c)):
            numpy.testing.assert_array_equal(got, want)


@ruchey.njit
def stores(x, a, b):
    s = slice(a, b)
    x[s] = -1.0
    x[slice(None, 1)] += 10.0
    return x


def test_stores_through_a_slice():
    for a, b in ((2, 4), (-3, None), (0, 0)):
        numpy.testing.assert_array_equal(stores(numpy.arange(6.0), a, b), stores.py_func(numpy.arange(6.0), a, b))


@ruchey.njit
def of_list_and_str(items, text, k):
    s = slice(k, None, 2)
    return items[s], text[s]


def test_lists_and_strings():
    got = of_list_and_str([1, 2, 3, 4, 5], "abcdef", 1)
    want = of_list_and_str.py_func([1, 2, 3, 4, 5], "abcdef", 1)
    assert list(got[0]) == want[0] and got[1] == want[1]


@ruchey.njit
def takes(x, s):
    return x[s].sum(), s


@ruchey.njit
def makes(a):
    return slice(a, None, 2), slice(a)


def test_slices_as_arguments_and_results():
    x = numpy.arange(10.0)
    for s in (slice(2, 8), slice(None, None, -2), slice(numpy.int64(3), None), slice(1, 9, 3)):
        assert takes(x, s) == takes.py_func(x, s)
    assert makes(3) == makes.py_func(3)

    @ruchey.njit
    def caller(x):
        return takes(x, slice(1, 4))[0]
    assert caller(x) == caller.py_func(x)


@ruchey.njit
def index_with(a, index):
    b = a.copy()
    b[index] = -1.0
    return a[index], b


def test_tuples_of_slices_ints_and_arrays_as_arguments():
    a = numpy.arange(60.0).reshape(3, 4, 5)
    for index in ((slice(1, 3),), (1, slice(None), slice(None, None, -2)), (slice(0, 2), 2),
                  (numpy.array([0, 2]), slice(1, 3)), (Ellipsis, slice(4, 0, -1)), (slice(None), numpy.int64(1), 0)):
        got, expected = index_with(a, index), index_with.py_func(a, index)
        for g, e in zip(got, expected):
            assert numpy.array_equal(g, e) and numpy.shape(g) == numpy.shape(e)
    with pytest.raises(IndexError):
        index_with.py_func(a, (slice(None), 9))
    with pytest.raises(IndexError):
        index_with(a, (slice(None), 9))


EVERY_OTHER = slice(1, None, 2)
ROWS_AND_COLUMN = (slice(None, 2), 1)
PICKED_ROWS = (numpy.array([0, 2]), slice(1, 3))
LAST_COLUMN = (Ellipsis, slice(None, None, -1), 3)
FLOAT_SLICE = slice(0.5, 2)


@ruchey.njit
def index_with_globals(a):
    b = a.reshape(3, 4)
    return a[EVERY_OTHER], b[ROWS_AND_COLUMN], b[PICKED_ROWS], b[LAST_COLUMN], EVERY_OTHER


def test_global_slices_and_tuples_of_them_and_ellipsis_are_frozen():
    a = numpy.arange(12.0)
    got, expected = index_with_globals(a), index_with_globals.py_func(a)
    for g, e in zip(got[:4], expected[:4]):
        assert numpy.array_equal(g, e) and g.shape == e.shape
    assert got[4] == expected[4]


def test_a_global_slice_of_floats_is_a_typing_error():
    @ruchey.njit
    def f(a):
        return a[FLOAT_SLICE]
    with pytest.raises(ruchey.TypingError, match="FLOAT_SLICE"):
        f(numpy.arange(3.0))


def test_a_tuple_holding_a_slice_of_floats_is_refused_as_an_argument():
    with pytest.raises(TypeError):
        index_with(numpy.arange(5.0), (slice(1.5, 3),))


@ruchey.njit
def row_slice(indptr, i):
    return slice(indptr[i], indptr[i + 1])


@ruchey.njit
def counted_slice(count, a, b, c):
    count[0] += 1
    return slice(a, b, c)


@ruchey.njit
def through_results(data, indptr, count, a, b, c):
    """xugrid's CSR helpers: an array indexed by a function's slice result
    (read, walked by a for loop, in a 2-d index, stored and updated), the
    function called once per index, as Python evaluates it."""
    out = numpy.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        for v in data[row_slice(indptr, i)]:
            out[i] += v
        out[i] += data[row_slice(indptr, i)].sum() * 0.5
    grid = numpy.arange(30.0).reshape(6, 5)
    part = grid[counted_slice(count, a, b, c), 1:].copy()
    stepped = data[counted_slice(count, a, b, c)].copy()
    data[counted_slice(count, a, b, c)] = -1.0
    data[counted_slice(count, a, b, c)] += 3.0
    return out, part, stepped, data


def test_slice_results_of_functions_index_arrays():
    rng = make_rng(43)
    indptr = numpy.sort(rng.integers(0, 40, 9))
    indptr[0], indptr[-1] = 0, 40
    for a, b, c in ((1, 5, 1), (4, 0, -1), (0, 6, 2), (-3, 100, 1), (2, 2, 1)):
        data = rng.random(40)
        count, count_py = numpy.zeros(1, numpy.int64), numpy.zeros(1, numpy.int64)
        got = through_results(data.copy(), indptr, count, a, b, c)
        want = through_results.py_func(data.copy(), indptr, count_py, a, b, c)
        for g, w in zip(got, want):
            numpy.testing.assert_allclose(g, w, rtol=1e-12)
        assert count[0] == count_py[0] == 4


def test_bad_slices_are_clear_errors():
    @ruchey.njit
    def zero_step(x):
        s = slice(1, 5, 0)
        return x[s]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        zero_step(numpy.arange(4.0))

    @ruchey.njit
    def float_part(x):
        return x[slice(1.5, 3)]
    with pytest.raises(ruchey.TypingError, match="slice indices must be integers"):
        float_part(numpy.arange(4.0))

    @ruchey.njit
    def float_made(a):
        return slice(a, 3)
    with pytest.raises(ruchey.TypingError, match="slice indices must be integers or None, not float64"):
        float_made(1.5)

    @ruchey.njit
    def negative_length(n):
        return slice(1, 3).indices(n)
    with pytest.raises(ValueError, match="length should not be negative"):
        negative_length(-1)
    with pytest.raises(TypeError, match="not supported"):
        takes(numpy.arange(3.0), slice(0.5, 2))

    @ruchey.njit
    def zero_step_result(x):
        return x[counted_slice(numpy.zeros(1, numpy.int64), 0, 3, 0)]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        zero_step_result(numpy.arange(4.0))


@ruchey.njit
def ellipsis_values(a, y):
    """py-pde's bc_idx = (..., y), returned by one function and used as an
    index by another; Ellipsis and None held in variables."""
    idx = (..., y)
    whole = ...
    grown = (None, ...)
    return a[idx], a[whole].sum(), a[grown].shape, idx


@ruchey.njit
def index_by(a, t):
    return a[t]


def test_ellipsis_and_none_as_values_in_indices():
    a = numpy.arange(12.0).reshape(3, 4)
    for y in (0, 3, -1):
        got, want = ellipsis_values(a, y), ellipsis_values.py_func(a, y)
        numpy.testing.assert_array_equal(got[0], want[0])
        assert got[1:] == want[1:]
    for t in ((..., 1), (1, ...), (None, ..., 2)):
        numpy.testing.assert_array_equal(index_by(a, t), index_by.py_func(a, t))


@ruchey.njit
def window(x, start=None, stop=None, step=None):
    """a[start:stop:step] with bounds that default to None, and None written out."""
    y = x[start:stop:step]
    x[start:stop:step] = 2 * y
    return y.copy(), x[None:stop][::step], x[start:None:None]


def test_none_as_a_written_slices_part_is_left_out():
    rng = make_rng(43)
    parts = [None, -12, -3, -1, 0, 2, 12]
    for dtype, shape in ((numpy.float64, (10,)), (numpy.int32, (5, 3)), (numpy.bool_, (0,))):
        x = rng.integers(-5, 5, shape).astype(dtype)
        for start, stop, step in ((None, None, None), (None, 3, None), (2, None, -1), (None, None, -2)):
            got, want = window(x.copy(), start, stop, step), window.py_func(x.copy(), start, stop, step)
            for g, w in zip(got, want):
                numpy.testing.assert_array_equal(g, w)
                assert g.dtype == w.dtype and (g.strides == w.strides or not w.size)
        for start in parts:
            got, want = window(x.copy(), start), window.py_func(x.copy(), start)
            numpy.testing.assert_array_equal(got[0], want[0])


def test_a_float_in_a_written_slice_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="slice indices must be integers or None, got float64"):
        window(numpy.arange(4.0), 1.5)


@ruchey.njit
def maybe_window(x, has, start, stop, step):
    """Parts that are None or an int as the run goes (Optionals): None left out."""
    i = j = k = None
    if has[0]:
        i = start
    if has[1]:
        j = stop
    if has[2]:
        k = step
    y = x[i:j:k].copy()
    x[i:j:k] = -1
    return y, x


def test_optional_parts_of_a_written_slice_read_none_as_left_out():
    rng = make_rng(44)
    x = rng.integers(-9, 9, 10).astype(numpy.float64)
    for has in ((0, 0, 0), (1, 0, 0), (0, 1, 1), (1, 1, 0), (0, 0, 1), (1, 1, 1)):
        for _ in range(12):
            start, stop = (int(v) for v in rng.integers(-13, 13, 2))
            step = int(rng.choice([-3, -1, 1, 2]))
            got, want = maybe_window(x.copy(), has, start, stop, step), maybe_window.py_func(x.copy(), has, start, stop, step)
            for g, w in zip(got, want):
                numpy.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        maybe_window(x.copy(), (0, 0, 1), 0, 0, 0)
