"""What numbagg's nanquantile writes beyond plain loops: a list or tuple
written out stored into an array row (a[i] = [x, y], a[i, :] = (x, y),
converted to the row's dtype as NumPy does), x, y = a of a 1-d array
or of an n-d array's rows (views), Python's ValueError when the count
differs, also as a nested target (for i, (x, y) in enumerate(rows), of
arrays and typed lists), and numpy.partition with a
sequence of kth (a tuple or a 1-d array). Against the Python original on
generated inputs; bad uses are clear errors."""
import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import assert_same, make_rng, rss_bytes


@njit
def rows_from_lists(r):
    out = numpy.zeros((len(r), 2), dtype=numpy.int32)
    for i in range(len(r)):
        out[i] = [int(numpy.floor(r[i])), int(numpy.ceil(r[i]))]
    return out


@njit
def rows_from_tuples(r):
    out = numpy.zeros((len(r), 3))
    for i in range(len(r)):
        out[i, :] = (r[i], 2 * r[i], i)
    return out


@njit
def block_from_nested_list(x):
    out = numpy.zeros((3, 2, 2))
    out[1] = [[x, x + 1], [x + 2, x + 3]]
    return out


@njit
def broadcast_row(x):
    out = numpy.zeros((2, 4))
    out[0] = [x]
    return out


@njit
def wrong_length_row(x):
    out = numpy.zeros((2, 4))
    out[0] = [x, x]
    return out


@njit
def pair_difference(a):
    x, y = a
    return x - y


@njit
def unpack_rows(m):
    s = 0.0
    for x, y, z in m:
        s += x * y - z
    return s


@njit
def unpack_selected(a, idx):
    lo, hi = a[idx]
    return lo + 0.25 * (hi - lo)


@njit
def unpack_enumerated_rows(m):
    out = numpy.zeros(len(m))
    for i, (x, y, z) in enumerate(m):
        out[i] = i * x + y - z
    return out


@njit
def unpack_nested_value(k, a):
    i, (x, y) = k, a
    return i * x - y


@njit
def unpack_zipped_rows(m, w):
    s = 0.0
    for (x, y), c in zip(m, w):
        s += c * (x - y)
    return s


@njit
def unpack_enumerated_list_items(m):
    rows = [m[i, 0] for i in range(len(m))]  # a list of arrays: each one released once unpacked
    pairs = [[m[i, 1, 0], m[i, 1, 1]] for i in range(len(m))]
    s = 0.0
    for i, (a, b, c) in enumerate(rows):
        s += i * a + b * c
    for i, (x, y) in enumerate(pairs):
        s += i * x - y
    return s


@njit
def partition_tuple(a, i, j):
    p = numpy.partition(a, (i, j))
    return p[i], p[j]


@njit
def partition_array(a, ks):
    p = numpy.partition(a, kth=ks)
    out = numpy.empty(len(ks))
    for n in range(len(ks)):
        out[n] = p[ks[n]]
    return out


@pytest.mark.parametrize("seed", range(5))
def test_list_and_tuple_rows(seed):
    r = make_rng(seed).uniform(-20, 20, 9)
    assert_same(rows_from_lists, r)
    assert_same(rows_from_tuples, r)
    assert_same(block_from_nested_list, float(r[0]))
    assert_same(broadcast_row, float(r[1]))


def test_row_of_the_wrong_length_is_a_value_error():
    with pytest.raises(ValueError):
        wrong_length_row.py_func(1.0)
    with pytest.raises(ValueError):
        wrong_length_row(1.0)


@njit
def from_list_variables(a, items):
    lst = [items[0], items[-1]]
    a[0, :2] = lst
    a[1:, 1:3] = items[:2]
    a[-1, -len(items):] = items
    return a


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int32, numpy.uint8, numpy.bool_])
def test_a_list_variable_stores_as_numpy_reads_it(dtype):
    rng = make_rng(7)
    for items in ([1.5, 2.0, 3.25], [4, 0, 9, 2], [True, False, True]):  # (NumPy refuses -2 for uint8 items)
        a = rng.integers(0, 5, (3, 4)).astype(dtype)
        assert_same(from_list_variables, a, list(items))
    with pytest.raises(ValueError, match="could not broadcast"):  # NumPy's error, where the lengths differ
        from_list_variables(numpy.zeros((3, 4)), [1.0, 2.0, 3.0, 4.0, 5.0])


@pytest.mark.parametrize("seed", range(5))
def test_unpacking_a_1d_array(seed):
    rng = make_rng(seed)
    assert_same(pair_difference, rng.standard_normal(2))
    assert_same(pair_difference, rng.integers(-9, 9, 2))
    assert_same(unpack_rows, rng.standard_normal((6, 3)))
    a = numpy.sort(rng.standard_normal(10))
    idx = numpy.array([2, 7], dtype=numpy.int32)
    assert_same(unpack_selected, a, idx)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_unpacking_the_wrong_count_is_a_value_error(n):
    a = numpy.arange(float(n))
    with pytest.raises(ValueError) as expected:
        pair_difference.py_func(a)
    with pytest.raises(ValueError) as got:
        pair_difference(a)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("seed", range(5))
def test_unpacking_nested_targets_of_sequences(seed):
    rng = make_rng(seed)
    n = int(rng.integers(0, 8))
    assert_same(unpack_enumerated_rows, rng.standard_normal((n, 3)))
    assert_same(unpack_enumerated_rows, rng.integers(-9, 9, (n, 3)))
    assert_same(unpack_nested_value, int(rng.integers(-5, 5)), rng.standard_normal(2))
    assert_same(unpack_zipped_rows, rng.standard_normal((n, 2)), rng.standard_normal(n))
    assert_same(unpack_enumerated_list_items, rng.standard_normal((n, 2, 3)))


@pytest.mark.parametrize("shape", [(3, 2), (3, 4), (2, 0)])
def test_unpacking_a_nested_target_of_the_wrong_count_is_a_value_error(shape):
    m = numpy.ones(shape)
    with pytest.raises(ValueError) as expected:
        unpack_enumerated_rows.py_func(m)
    with pytest.raises(ValueError) as got:
        unpack_enumerated_rows(m)
    assert str(got.value) == str(expected.value)


def test_unpacked_list_items_and_rows_leak_nothing():
    m = numpy.ones((200, 2, 3))
    unpack_enumerated_list_items(m)
    unpack_enumerated_planes(m)
    before = rss_bytes()
    for _ in range(2000):  # fresh arrays: one a view kept alive would keep all of its memory
        unpack_enumerated_list_items(m)
        unpack_enumerated_planes(numpy.ones((200, 2, 3)))
        unpack_into_rows(numpy.ones((2, 600)))
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


@njit
def unpack_into_rows(m):
    a, b = m
    a[0] = -1.0  # a view: m changes too
    return a.sum() - 2 * b.sum()


@njit
def unpack_enumerated_planes(m):
    s = 0.0
    for i, (a, b) in enumerate(m):
        s += i * a.sum() - b[..., 1:].sum()
    return s


@pytest.mark.parametrize("seed", range(4))
def test_unpacking_an_nd_array_gives_views_of_its_rows(seed):
    rng = make_rng(seed)
    m = rng.standard_normal((2, int(rng.integers(1, 6))))
    assert_same(unpack_into_rows, m)
    assert_same(unpack_into_rows, numpy.asfortranarray(m))
    assert_same(unpack_into_rows, rng.standard_normal((2, 3, 4))[:, ::2])
    n = int(rng.integers(0, 5))
    assert_same(unpack_enumerated_planes, rng.standard_normal((n, 2, 3)))
    assert_same(unpack_enumerated_planes, rng.standard_normal((n, 2, 3, 4))[:, :, ::-1])


@pytest.mark.parametrize("shape", [(3, 2), (1, 4), (0, 2)])
def test_unpacking_an_nd_array_of_the_wrong_count_is_a_value_error(shape):
    m = numpy.ones(shape)
    with pytest.raises(ValueError) as expected:
        unpack_into_rows.py_func(m)
    with pytest.raises(ValueError) as got:
        unpack_into_rows(m)
    assert str(got.value) == str(expected.value)


def test_unpacking_a_number_or_a_0d_array_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="cannot unpack"):
        unpack_enumerated_rows(numpy.ones(3))
    with pytest.raises(ruchey.TypingError, match="cannot unpack"):
        pair_difference(numpy.ones(()))


@pytest.mark.parametrize("seed", range(6))
def test_partition_with_several_kth(seed):
    rng = make_rng(seed)
    a = rng.standard_normal(int(rng.integers(3, 40)))
    i, j = (int(v) for v in rng.integers(0, len(a), 2))
    assert_same(partition_tuple, a, i, j)
    ks = numpy.unique(rng.integers(0, len(a), 4)).astype(numpy.int32)
    assert_same(partition_array, a, ks)


def test_partition_kth_out_of_bounds():
    with pytest.raises(ValueError):
        partition_array(numpy.ones(3), numpy.array([0, 3]))
    with pytest.raises(ValueError):
        partition_tuple(numpy.ones(3), 0, -4)


def test_partition_kth_of_floats_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="kth must be an integer"):
        partition_array(numpy.ones(3), numpy.array([0.0, 1.0]))
