"""NumPy's indexing inside compiled code: Ellipsis and None (numpy.newaxis)
views, boolean masks, integer arrays (one per index), assignment with
broadcasting and NumPy's overlap rule, augmented assignment through an index,
and for loops over arrays, enumerate and zip.

Every case runs the compiled function and its Python original (NumPy) on
generated arrays of every dtype and several layouts (C, Fortran, strided,
reversed, empty) and compares results and the arguments afterwards; errors
are compared with NumPy's own exception type and message."""
import gc

import numpy
import numpy as np
import pytest
import ruchey

from conftest import assert_same, assert_same_value, make_rng, needs_ptxas, numpy2_only, ptxas_errors, rss_bytes

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float32, np.float64]
NUMBERS = [d for d in DTYPES if d is not np.bool_]
LAYOUTS = ["C", "F", "strided", "reversed"]


def values(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind == "u":
        return rng.integers(0, 100, size=shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def make(rng, dtype, shape, layout="C"):
    """An array of the shape in the layout: C, Fortran, every other element of
    a larger array along the last axis, or reversed along the first."""
    if layout == "strided":
        return values(rng, dtype, shape[:-1] + (2 * shape[-1],))[..., ::2]
    a = values(rng, dtype, shape)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "reversed":
        return a[::-1]
    return a


def same_error(f, *args):
    """The compiled f raises what NumPy raises for f.py_func, type and message."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(Exception) as expected:
        f.py_func(*copies)
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(type(expected.value)) as got:
        f(*copies)
    assert str(got.value) == str(expected.value)


def typing_error(f, *args, match):
    with pytest.raises(ruchey.TypingError, match=match):
        f(*args)


# ---------------------------------------------------------------- Ellipsis and newaxis: views


@ruchey.jit
def views_2d(a):
    return (a[..., 0], a[0, ...], a[:, None], a[None, :], a[None], a[..., None], a[1, None],
            a[None, 1:, ..., ::-1], a[:, np.newaxis, 1], a[...])


@ruchey.jit
def views_3d(a):
    return (a[..., 1], a[1, ...], a[0, ..., 1], a[:, None, ..., None], a[..., None, 0], a[1:, ..., :1])


@ruchey.jit
def element_with_ellipsis(a):
    return a[..., 1], a[-1, ...]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_ellipsis_and_newaxis_views_of_every_dtype(dtype, layout):
    rng = make_rng(1)
    assert_same(views_2d, make(rng, dtype, (3, 4), layout))
    assert_same(element_with_ellipsis, make(rng, dtype, (4,), layout))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(2, 3, 4), (3, 2, 2)])
def test_ellipsis_and_newaxis_views_3d(shape, layout):
    assert_same(views_3d, make(make_rng(2), np.float64, shape, layout))


@ruchey.jit
def newaxis_empty(a):
    return a[None, :, None].shape[0] + a[..., None].shape[1] + a[:, None].size


def test_newaxis_of_empty_arrays():
    for shape in [(0,), (5,)]:
        assert_same(newaxis_empty, np.zeros(shape))


@ruchey.jit
def write_through_newaxis(a):
    v = a[:, None]
    v[1, 0] = 7
    w = a[None, ..., None]
    w[0, -1, 0] = -3
    return a


@ruchey.jit
def write_through_ellipsis(a):
    v = a[..., 1]
    v[:] = 0
    a[0, ...] = 5
    return a


@pytest.mark.parametrize("layout", LAYOUTS)
def test_writes_through_ellipsis_and_newaxis_views(layout):
    rng = make_rng(3)
    assert_same(write_through_newaxis, make(rng, np.int32, (5,), layout))
    assert_same(write_through_ellipsis, make(rng, np.float32, (3, 4), layout))


@ruchey.jit
def zero_d_item(a):
    return a[()]


def test_empty_tuple_index_of_a_0d_array_is_its_element():
    assert_same(zero_d_item, np.array(2.5))
    assert_same(zero_d_item, np.array(7, dtype=np.int16))


@ruchey.jit
def store_0d_into_elements(a, x):
    for i in range(a.shape[0]):
        a[i, 0] = np.array(x * i, dtype=np.float64)
        a[i, 1] = np.array(i)  # an int64 0-d array into a float element
        a[i, -1] = np.sqrt(np.array(x + i))
    return a


@ruchey.jit
def store_0d_at(a, i, z):
    a[i] = z
    return a


def test_a_0d_array_stores_into_one_element_as_its_value():
    rng = make_rng(11)
    for dtype in (np.float64, np.float32, np.int64):
        assert_same(store_0d_into_elements, values(rng, dtype, (5, 3)).astype(dtype), 1.5)
    for z in (np.array(2.5), np.array(3, dtype=np.int8), np.array(True)):
        assert_same(store_0d_at, np.zeros(4), 2, z)
        assert_same(store_0d_at, np.zeros(4, dtype=np.int32), -1, z)


@ruchey.jit
def index_by_0d_ints(a, i, j):
    """csr's rows: row = np.asarray(row, dtype='i4'), then a.rowptrs[row]."""
    sp, ep = a[i, 0], a[j, -1]
    a[j, i] += 1
    a[i] = a[j]
    return sp, ep, a[i, 1:], a[:, j], a


def test_0d_int_arrays_index_as_their_ints():
    rng = make_rng(12)
    for dtype in (np.int8, np.int32, np.uint16, np.int64):
        for i, j in ((0, 2), (1, -1), (2, 1)):
            a = values(rng, np.float64, (3, 4))
            assert_same(index_by_0d_ints, a, np.asarray(i, dtype=dtype) if i >= 0 else np.asarray(i), np.asarray(j))
    with pytest.raises(IndexError):
        index_by_0d_ints(np.zeros((3, 4)), np.asarray(3), np.asarray(0))


@ruchey.jit
def unpack_0d_into_elements(a, i, x):
    t = (np.array(x * 1.5), np.array(i, dtype=np.int8))
    a[0], a[i] = t
    a[1], a[2] = np.array(x), x + 1.0
    return a


@ruchey.jit
def unpack_0d_views_crossed(a):
    a[0], a[1] = a[1:2].reshape(()), a[0:1].reshape(())  # each read as it is stored, as NumPy's
    return a


def test_0d_arrays_unpacked_into_elements_store_their_values():
    for dtype in (np.float64, np.int32, np.uint8):
        for i in (2, 3, -1):
            assert_same(unpack_0d_into_elements, np.zeros(5, dtype=dtype), i, 2.0)
        assert_same(unpack_0d_views_crossed, np.arange(4).astype(dtype))


@ruchey.jit
def unpack_complex_0d_into_float(a):
    a[0], a[1] = np.array(1j), 2.0
    return a


def test_a_complex_0d_array_into_a_float_element_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="cannot store complex128"):
        unpack_complex_0d_into_float(np.zeros(3))


def test_a_1d_array_into_one_element_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="cannot store array"):
        store_0d_at(np.zeros(4), 1, np.ones(1))


# ---------------------------------------------------------------- boolean masks


@ruchey.jit
def select(x, m):
    return x[m]


@ruchey.jit
def select_positive(x):
    return x[x > 0]


@ruchey.jit
def select_fused(x, y):
    return x[(x > 1) & ~(y < 0)]


def masks(rng, shape):
    yield np.zeros(shape, bool)
    yield np.ones(shape, bool)
    yield rng.random(shape) < 0.5
    yield rng.random(shape) < 0.03


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_selects_elements_of_every_dtype(dtype, layout):
    rng = make_rng(4)
    for shape in [(0,), (1,), (37,), (3, 5)]:
        x = make(rng, dtype, shape, layout)
        for m in masks(rng, shape):
            assert_same(select, x, m)
            assert_same(select, x, np.asfortranarray(m) if m.ndim > 1 else m[::-1])
        assert_same(select_positive, x)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_mask_expressions_are_fused_and_match_numpy(layout):
    rng = make_rng(5)
    for shape in [(0,), (100,), (4, 6), (2, 3, 4)]:
        assert_same(select_fused, make(rng, np.float64, shape, layout), make(rng, np.float64, shape, "C"))
        assert_same(select_positive, make(rng, np.int16, shape, layout))


def test_mask_of_a_long_array_in_blocks():
    """The contiguous path reads the mask 32 bytes at a time: lengths around
    its blocks, sparse and dense."""
    rng = make_rng(6)
    for n in [31, 32, 33, 64, 65, 1000, 4099]:
        x = make(rng, np.float64, (n,))
        for m in masks(rng, (n,)):
            assert_same(select, x, m)
        m = np.zeros(n, bool)
        m[-1] = True
        assert_same(select, x, m)
        m[5:45] = True  # a run of True across blocks
        assert_same(select, x, m)


@ruchey.jit
def select_rows(a, m):
    return a[m]


@ruchey.jit
def select_columns(a, m):
    return a[:, m]


@ruchey.jit
def select_in_row(a, m):
    return a[1, m]


@ruchey.jit
def select_rows_then(a, m):
    return a[m, 1:], a[m, -1], a[m, None]


@ruchey.jit
def select_3d(a, m01, m12, m0, m2):
    return a[m01], a[:, m12], a[0, :, m2], a[m0, ..., 0], a[1, m12]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int64, np.float32])
def test_mask_on_some_axes_selects_rows_and_columns(dtype, layout):
    rng = make_rng(7)
    for shape in [(4, 5), (0, 3), (3, 0)]:
        a = make(rng, dtype, shape, layout) if shape[-1] else np.zeros(shape, dtype)
        for m in masks(rng, shape[:1]):
            assert_same(select_rows, a, m)
            if shape[1] > 1:
                assert_same(select_rows_then, a, m)
        for m in masks(rng, shape[1:]):
            assert_same(select_columns, a, m)
            if shape[0] > 1:
                assert_same(select_in_row, a, m)
    a = make(rng, dtype, (3, 4, 2), layout)
    for m01, m12 in zip(masks(rng, (3, 4)), masks(rng, (4, 2))):
        assert_same(select_3d, a, m01, m12, rng.random(3) < 0.5, rng.random(2) < 0.5)


@ruchey.jit
def put_scalar(x, m):
    x[m] = 1


@ruchey.jit
def put_positive(x):
    x[x > 0] = 0


@ruchey.jit
def put_shifted_mask(x):
    x[x[::-1] > 0] = 3


@ruchey.jit
def put_values(x, m, v):
    x[m] = v


@ruchey.jit
def add_masked(x, m):
    x[m] += 3


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_assignment_of_every_dtype(dtype, layout):
    rng = make_rng(8)
    for shape in [(0,), (9,), (3, 4)]:
        x = make(rng, dtype, shape, layout)
        for m in masks(rng, shape):
            assert_same(put_scalar, x, m)
            count = int(m.sum())
            assert_same(put_values, x, m, values(rng, dtype, (count,)))
            other = np.float64 if np.dtype(dtype).kind in "if" else np.uint8  # casts NumPy defines
            assert_same(put_values, x, m, values(rng, other, (1,)))
            assert_same(put_values, x, m, np.array(values(rng, dtype, ())))
            if dtype != np.bool_:
                assert_same(add_masked, x, m)
        assert_same(put_positive, x)
        if x.ndim == 1:
            assert_same(put_shifted_mask, x)


@ruchey.jit
def put_rows(a, m, row):
    a[m] = row


@ruchey.jit
def put_columns(a, m):
    a[:, m] = -1


@ruchey.jit
def put_own_mask(b):
    b[b] = False
    return b


@pytest.mark.parametrize("layout", LAYOUTS)
def test_mask_assignment_of_rows_and_columns(layout):
    rng = make_rng(9)
    a = make(rng, np.float64, (4, 3), layout)
    for m in masks(rng, (4,)):
        assert_same(put_rows, a, m, np.arange(3.0))
        assert_same(put_rows, a, m, np.arange(3.0)[None, :])
        assert_same(put_rows, a, m, 2.5)
        assert_same(put_rows, a, m, make(rng, np.int8, (int(m.sum()), 3)))
    for m in masks(rng, (3,)):
        assert_same(put_columns, a, m)
    assert_same(put_own_mask, make(rng, np.bool_, (20,), layout))


def test_mask_assignment_reads_an_overlapping_right_side_first():
    rng = make_rng(10)
    for n in [5, 16]:
        x = make(rng, np.float64, (n,))
        m = np.ones(n, bool)
        assert_same(put_values, x, m, x[::-1])
        assert_same(put_values, x, m, x)
        m[::2] = False
        assert_same(put_values, x, m, x[: int(m.sum())])


# ---------------------------------------------------------------- integer arrays


@ruchey.jit
def take(x, idx):
    return x[idx]


@ruchey.jit
def put_at(x, idx, v):
    x[idx] = v


@ruchey.jit
def add_at(x, idx):
    x[idx] += 2


INDEX_DTYPES = [np.int8, np.int64, np.uint16, np.uint64]


def indices(rng, n, count, dtype):
    dtype = np.dtype(dtype)
    if n == 0:
        return np.zeros(0, dtype)
    lo = 0 if dtype.kind == "u" else -n
    return rng.integers(lo, n, size=count).astype(dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_int_array_index_of_every_dtype(dtype, layout):
    rng = make_rng(11)
    for n in [0, 1, 10]:
        x = make(rng, dtype, (n,), layout)
        for idx_dtype in INDEX_DTYPES:
            idx = indices(rng, n, 7 if n else 0, idx_dtype)
            assert_same(take, x, idx)
            assert_same(take, x, idx[::-1])
            assert_same(put_at, x, idx, values(rng, dtype, idx.shape))
            assert_same(put_at, x, idx, values(rng, dtype, ()))
            if dtype != np.bool_:
                assert_same(add_at, x, idx)


@ruchey.jit
def take_forms(a, idx, i):
    return a[idx], a[idx, :], a[:, idx], a[i, idx], a[idx, i], a[idx, -1:], a[None, idx], a[idx, None]


@ruchey.jit
def take_3d(a, idx):
    return a[0, :, idx], a[:, 0, idx], a[idx, :, 1], a[1, idx, :], a[..., idx], a[idx, ..., 0]


@ruchey.jit
def take_2d_index(x, idx):
    return x[idx]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint32, np.float64])
def test_int_array_on_one_axis_of_nd_arrays(dtype, layout):
    rng = make_rng(12)
    a = make(rng, dtype, (4, 5), layout)
    for idx_dtype in [np.int64, np.uint8]:
        idx = indices(rng, 4, 6, idx_dtype)
        assert_same(take_forms, a, idx, -2)
        assert_same(take_forms, a, idx[:0], 1)
    a3 = make(rng, dtype, (2, 3, 4), layout)
    assert_same(take_3d, a3, np.array([1, -1, 0, 1]))
    assert_same(take_2d_index, make(rng, dtype, (6,), layout), indices(rng, 6, (3, 4), np.int64))
    assert_same(take_2d_index, a, indices(rng, 4, (2, 2), np.int32))


@ruchey.jit
def put_forms(a, idx, row, col):
    a[idx, :] = row
    a[:, idx] = col
    a[0, idx] = 9
    a[idx] += 1


@pytest.mark.parametrize("layout", LAYOUTS)
def test_int_array_assignment_on_one_axis(layout):
    rng = make_rng(13)
    a = make(rng, np.float64, (4, 4), layout)
    idx = np.array([3, -1, 0, 0])
    assert_same(put_forms, a, idx, np.arange(4.0), np.arange(4.0)[:, None])
    assert_same(put_forms, a, idx, 1.5, make(rng, np.int64, (4, 4)))


def test_int_array_assignment_with_repeated_indices_keeps_the_last_and_adds_once():
    x = np.zeros(5)
    assert_same(put_at, x, np.array([1, 1, 3, 1]), np.array([1.0, 2.0, 3.0, 4.0]))
    assert_same(add_at, x, np.array([0, 0, 0, 4, -1]))


def test_int_array_assignment_reads_an_overlapping_right_side_first():
    rng = make_rng(14)
    x = make(rng, np.int64, (8,))
    assert_same(put_at, x, np.arange(8)[::-1].copy(), x)
    y = np.arange(8)
    assert_same(put_at, y, y, y[::-1])


# ---------------------------------------------------------------- several int arrays: a[rows, cols]


@ruchey.jit
def take_pairs(a, r, c):
    return a[r, c]


@ruchey.jit
def take_pairs_3d(b, r, c):
    return (b[r, c, :], b[:, r, c], b[r, :, c], b[r, 1, c], b[r, c, r], b[r, 0:2, c], b[..., r, c], b[None, r, c],
            b[r, c, None], b[r, c])


@ruchey.jit
def put_pairs(a, r, c, v):
    a[r, c] = v


@ruchey.jit
def add_pairs(a, r, c, v):
    a[r, c] += v


def same_outcome(f, *args):
    """f against f.py_func, an exception (its type and message) too."""
    outcomes = []
    for g in (f.py_func, f):
        copies = [_copy(a) for a in args]
        try:
            outcomes.append(("value", g(*copies), copies))
        except Exception as e:
            outcomes.append(("error", type(e), str(e)))
    want, got = outcomes
    if want[0] == "error":
        assert got == want
        return
    assert got[0] == "value", got
    from conftest import assert_same_value
    assert_same_value(want[1], got[1])
    for w, g in zip(want[2], got[2]):
        if isinstance(w, np.ndarray):
            assert_same_value(w, g, what="argument after the call")


def _copy(a):
    return a.copy() if isinstance(a, np.ndarray) else a


def broadcast_pairs(rng, n, m, dtype):
    """Index arrays for axes of lengths n and m: equal shapes, shapes that
    broadcast ((k, 1) with (1, j), (k, j) with (j,)), empty ones, 0-d."""
    lo_n, lo_m = (0, 0) if np.dtype(dtype).kind == "u" else (-n, -m)
    pick = lambda lo, hi, shape: rng.integers(lo, hi, size=shape).astype(dtype)
    return [(pick(lo_n, n, (5,)), pick(lo_m, m, (5,))),
            (pick(lo_n, n, (3, 1)), pick(lo_m, m, (1, 4))),
            (pick(lo_n, n, (2, 3)), pick(lo_m, m, (3,))),
            (pick(lo_n, n, (1,)), pick(lo_m, m, (4,))),
            (pick(lo_n, n, (0,)), pick(lo_m, m, (0,))),
            (pick(lo_n, n, ()), pick(lo_m, m, (2, 2)))]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint32, np.float64])
def test_two_int_arrays_select_pairs_as_numpy(dtype, layout):
    rng = make_rng(30)
    a = make(rng, dtype, (4, 6), layout)
    for idx_dtype in [np.int64, np.int8, np.uint16]:
        for r, c in broadcast_pairs(rng, 4, 6, idx_dtype):
            same_outcome(take_pairs, a, r, c)
            shape = np.broadcast_shapes(r.shape, c.shape)
            same_outcome(put_pairs, a, r, c, values(rng, dtype, shape))
            same_outcome(put_pairs, a, r, c, values(rng, dtype, shape[-1:]))
            same_outcome(put_pairs, a, r, c, values(rng, dtype, ()))
            if dtype != np.bool_:
                same_outcome(add_pairs, a, r, c, values(rng, dtype, shape))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_two_int_arrays_with_slices_ints_and_new_axes(layout):
    rng = make_rng(31)
    b = make(rng, np.float64, (3, 4, 5), layout)
    for r, c in [(np.array([0, 2, -1]), np.array([1, 0, 2])), (np.array([[1], [2]]), np.array([0, 1, 2])),
                 (np.array([0]), np.array([2, 2]))]:
        same_outcome(take_pairs_3d, b, r, c)


def test_several_int_arrays_repeated_pairs_keep_the_last_and_add_once():
    a = np.zeros((3, 3))
    same_outcome(put_pairs, a, np.array([1, 1, 2, 1]), np.array([0, 0, 2, 0]), np.array([1.0, 2.0, 3.0, 4.0]))
    same_outcome(add_pairs, a, np.array([1, 1, 2, 1]), np.array([0, 0, 2, 0]), 1.0)


def test_several_int_arrays_errors_are_numpys():
    a = np.arange(24.0).reshape(4, 6)
    r, c = np.array([0, 1, 2]), np.array([1, 2])
    with pytest.raises(IndexError, match=r"^shape mismatch: indexing arrays could not be broadcast together with "
                                          r"shapes \(3,\) \(2,\) $"):
        take_pairs(a, r, c)
    same_outcome(take_pairs, a, r, c)
    same_outcome(take_pairs, a, np.array([0, 4]), np.array([1, 2]))
    same_outcome(take_pairs, a, np.array([0, 1]), np.array([1, -7]))
    same_outcome(put_pairs, a, np.array([0, 1]), np.array([6, 0]), 1.0)
    same_outcome(put_pairs, a, np.array([0, 1]), np.array([1, 0]), np.ones(3))
    same_outcome(take_pairs_3d, np.zeros((2, 2, 2)), np.array([0, 1]), np.array([1, 0, 1]))


# ---------------------------------------------------------------- assignment with broadcasting


@ruchey.jit
def assign_forms(a, x, row, col, b):
    a[:, :, 0] = x
    a[1] = 0
    a[:] = a
    a[0, 1] = row
    a[1:3, :, 1] = b
    a[:, 1, :] = col


@ruchey.jit
def assign_all(a, v):
    a[:] = v


@ruchey.jit
def assign_row(a, i, row):
    a[i] = row


@ruchey.jit
def shift_right(a):
    a[1:] = a[:-1]


@ruchey.jit
def reverse_in_place(a):
    a[:] = a[::-1]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_assignment_broadcasts_into_views_of_every_dtype(dtype, layout):
    rng = make_rng(15)
    a = make(rng, dtype, (3, 4, 2), layout)
    assert_same(assign_forms, a, make(rng, dtype, (3, 4), layout), make(rng, np.float64, (2,)),
                make(rng, dtype, (3, 1)), make(rng, dtype, (2, 4)))
    a2 = make(rng, dtype, (3, 5), layout)
    for v in [values(rng, dtype, ()), make(rng, dtype, (5,), layout), make(rng, dtype, (3, 1)),
              make(rng, dtype, (1, 3, 5)), make(rng, dtype, (3, 5), layout)]:
        assert_same(assign_all, a2, v)
    assert_same(assign_row, a2, -1, make(rng, np.int8, (5,)))
    assert_same(shift_right, make(rng, dtype, (7,), layout))
    assert_same(shift_right, a2)
    assert_same(reverse_in_place, make(rng, dtype, (6,), layout))
    assert_same(assign_all, np.zeros((0, 3), dtype), make(rng, dtype, (3,)))


# ---------------------------------------------------------------- errors at run time


@ruchey.jit
def read_at(a, i):
    return a[i, :]


@ruchey.jit
def select_2d(a, m):
    return a[m]


@pytest.mark.parametrize("i", [10, -11, 2**40])
def test_index_out_of_bounds_raises_numpys_index_error(i):
    x = np.arange(10.0)
    same_error(take, x, np.array([0, i]))
    same_error(put_at, x, np.array([i, 0]), 1.0)
    same_error(add_at, x, np.array([1, i]))
    same_error(read_at, np.zeros((10, 2)), i)


@ruchey.jit
def row_at(m, i):
    return m[i]


@ruchey.jit
def row_pair_products(m, start, stop):
    s = 0.0
    for i in range(start, stop):
        a, b = m[i], m[i + 1]
        s += a[0] * b[0] + a[-1] * b[-1]
    return s


def test_a_view_at_every_index_is_numpys_view_or_error():
    # an index in [0, len) takes the one test; a negative one wraps off it
    rng = make_rng(31)
    for n in (0, 1, 2, 5):
        m = rng.standard_normal((n, 3))
        for i in list(range(-n - 3, n + 3)) + [2**62, -2**62, 2**63 - 1, -2**63]:
            if -n <= i < n:
                assert_same(row_at, m, i)
            else:
                same_error(row_at, m, i)


def test_views_of_a_row_and_the_next_in_a_loop_match_python():
    rng = make_rng(32)
    for n in (1, 2, 3, 8, 33):
        m = rng.standard_normal((n, 4))
        for start, stop in ((0, n - 1), (-n, -1), (-n, n - 1), (n // 2, n - 1), (1 - n, 0)):
            assert_same(row_pair_products, m, start, stop)
        for start, stop in ((0, n), (-n - 1, 0), (n - 1, n + 2)):
            same_error(row_pair_products, m, start, stop)


@ruchey.jit
def row_dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@ruchey.jit
def cycled_row_dots(m, v, start, calls):
    t = 0.0
    rows = m.shape[0]
    for k in range(start, calls):
        t += row_dot(m[k % rows], v)
    return t


def test_rows_picked_by_a_remainder_match_python():
    # k % len(m) is an index in range with no test (a length is never
    # negative); negative k, an empty m (ZeroDivisionError) and loops of
    # more than one Ctrl-C poll block (2**16 iterations) as Python
    rng = make_rng(33)
    for rows, cols in ((1, 3), (7, 10), (64, 10), (5, 1), (3, 0)):
        m, v = rng.standard_normal((rows, cols)), rng.standard_normal(cols)
        for start, calls in ((0, 300), (-250, 40), (0, 0), (5, 2), (-(2**63), -(2**63) + 9)):
            assert_same(cycled_row_dots, m, v, start, calls)
    m, v = rng.standard_normal((13, 4)), rng.standard_normal(4)
    expected = sum(float(m[k % 13] @ v) for k in range(3 * 2**16 + 7))
    assert cycled_row_dots(m, v, 0, 3 * 2**16 + 7) == pytest.approx(expected, rel=1e-12)
    same_error(cycled_row_dots, np.zeros((0, 4)), v, 0, 3)
    assert_same(cycled_row_dots, np.zeros((0, 4)), v, 3, 3)


def test_out_of_bounds_assignment_writes_nothing():
    x = np.arange(10.0)
    with pytest.raises(IndexError):
        put_at(x, np.array([0, 1, 10]), 5.0)
    assert (x == np.arange(10.0)).all()


def test_out_of_bounds_on_an_inner_axis_names_it():
    a = np.zeros((3, 4))
    same_error(take_forms, a, np.array([0, 1]), 7)
    same_error(take_3d, np.zeros((2, 3, 4)), np.array([4]))


def test_a_tuple_item_that_raises_releases_the_items_before_it():
    a, idx = np.zeros((300, 400)), np.arange(300)
    gc.collect()
    before = rss_bytes()
    for _ in range(300):  # a[idx], a[idx, :], a[:, idx]: 2.6 MB made before a[7, idx] raises
        with pytest.raises(IndexError):
            take_forms(a, idx, 700)
    assert rss_bytes() - before < 64 * 2**20


@numpy2_only  # NumPy 1.x words the message otherwise
def test_mask_of_the_wrong_shape_raises_numpys_index_error():
    same_error(select, np.arange(10.0), np.ones(5, bool))
    same_error(select_2d, np.zeros((3, 4)), np.ones((3, 5), bool))
    same_error(select_2d, np.zeros((3, 4)), np.ones((2, 4), bool))
    same_error(select_rows, np.zeros((3, 4)), np.ones(2, bool))
    same_error(select_columns, np.zeros((3, 4)), np.ones(3, bool))
    same_error(put_scalar, np.zeros(4), np.ones(3, bool))
    same_error(put_values, np.zeros(4), np.ones(5, bool), np.ones(5))


def test_mask_assignment_of_the_wrong_count_raises_numpys_value_error():
    m = np.array([True, False, True, True])
    same_error(put_values, np.zeros(4), m, np.ones(2))
    same_error(put_values, np.zeros(4), m, np.ones(0))
    same_error(put_rows, np.zeros((4, 3)), m, np.ones(2))


def test_assignment_that_does_not_broadcast_raises_numpys_value_error():
    same_error(assign_all, np.zeros(4), np.ones(3))
    same_error(assign_all, np.zeros((3, 4)), np.ones((2, 4)))
    same_error(assign_all, np.zeros(4), np.ones((2, 4)))
    same_error(assign_row, np.zeros((3, 4)), 1, np.ones(3))
    same_error(put_at, np.zeros(5), np.array([0, 1]), np.ones(3))
    same_error(put_rows, np.zeros((3, 4)), np.array([True, False, True]), np.ones((2, 3)))


@ruchey.jit
def add_values_at(x, idx, y):
    x[idx] += y


def test_augmented_assignment_through_an_array_index_that_does_not_broadcast():
    same_error(add_values_at, np.zeros(5), np.array([0, 1]), np.ones(3))
    same_error(add_values_at, np.zeros(5), np.array([0]), np.ones(3))
    same_error(add_values_at, np.zeros((3, 2)), np.array([0, 2]), np.ones((2, 3)))
    assert_same(add_values_at, np.zeros((3, 2)), np.array([0, 2, 0]), np.arange(2.0))


def test_read_only_arrays_cannot_be_written_through_an_index():
    ro = np.zeros(5)
    ro.flags.writeable = False
    typing_error(put_at, ro, np.array([0]), 1.0, match="read-only")
    typing_error(add_at, ro, np.array([0]), match="read-only")
    typing_error(put_scalar, ro, np.ones(5, bool), match="read-only")
    typing_error(assign_all, ro, 1.0, match="read-only")


@ruchey.jit
def step_slice(x, s):
    return x[::s, None]


def test_empty_masks_of_any_shape_select_nothing_as_in_numpy():
    assert_same(select_rows, np.zeros((3, 4)), np.zeros(0, bool))
    for m in [np.zeros((0, 4), bool), np.zeros((3, 0), bool)]:
        assert_same(select_2d, np.zeros((3, 4)), m)
    assert_same(select, np.arange(10.0), np.zeros(0, bool))
    assert_same(select_positive, np.zeros(0))
    assert_same(put_scalar, np.zeros(10), np.zeros(0, bool))
    assert_same(select_columns, np.zeros((3, 4)), np.zeros(0, bool))


def test_zero_slice_step_in_a_newaxis_view_raises_value_error():
    same_error(step_slice, np.zeros(3), 0)


# ---------------------------------------------------------------- errors at compile time


@ruchey.jit
def two_arrays(a, i, j):
    return a[i, j]


@ruchey.jit
def float_index(a, f):
    return a[f, ...]


@ruchey.jit
def too_many(a):
    return a[0, ..., None, 1]


@ruchey.jit
def two_ellipses(a):
    return a[..., 0, ...]


@ruchey.jit
def none_as_value(a):
    x = None
    return a


@ruchey.jit
def put_2d_values(x, m, v):
    x[m] = v


def test_unsupported_and_invalid_indices_are_typing_errors_at_the_line():
    a = np.zeros((3, 3))
    typing_error(two_arrays, a, np.array([True, False, True]), np.array([1]),
                 match=r"boolean array together with another array(.|\n)*return a\[i, j\]")
    typing_error(float_index, a, 1.5, match=r"only integers, slices")
    typing_error(float_index, a, np.array([1.5]), match=r"integer \(or boolean\) type")
    typing_error(too_many, np.zeros(3), match=r"too many indices for array: array is 1-dimensional, but 2 were")
    typing_error(two_ellipses, a, match=r"single ellipsis")
    assert none_as_value(a) is a  # a variable may hold None (tests/test_optional.py)
    typing_error(put_2d_values, a, np.ones((3, 3), bool), np.ones((3, 3)),
                 match=r"requires a 0 or 1-dimensional input, input has 2 dimensions")


# ---------------------------------------------------------------- iteration


@ruchey.jit
def total(x):
    s = 0.0
    for v in x:
        s += v
    return s


@ruchey.jit
def row_sums(a):
    out = np.zeros(len(a))
    for i, row in enumerate(a):
        for v in row:
            out[i] += v
    return out


@ruchey.jit
def weighted(x, y):
    s = 0.0
    for i, (a, b) in enumerate(zip(x, y), 1):
        s += i * a - b
    return s


@ruchey.jit
def zip_with_ranges(x, n):
    s = 0.0
    last = -1
    for j, v, k in zip(range(n), x, range(10, 0, -3)):
        s += j * v + k
        last = j
    return s, last


@ruchey.jit
def enumerate_range(n, start):
    s = 0
    for i, j in enumerate(range(2, n, 2), start=start):
        s += i * j
    return s


@ruchey.jit
def first_negative(x):
    for i, v in enumerate(x):
        if v < 0:
            break
    else:
        return -1
    return i


@ruchey.jit
def over_expression(x):
    s = 0.0
    for v in x * 2 + 1:
        s += v
    return s


@ruchey.jit
def rows_are_views(a):
    for row in a:
        row[0] = row[-1]
    return a


@ruchey.jit
def sees_updates(x):
    s = 0.0
    for i, v in enumerate(x):
        if i + 1 < len(x):
            x[i + 1] += v
        s += v
    return s


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_for_loop_over_the_elements_of_every_dtype(dtype, layout):
    rng = make_rng(16)
    for n in [0, 1, 33]:
        x = make(rng, dtype, (n,), layout)
        assert_same(total, x, rel=1e-6 if dtype == np.float32 else None)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_for_loops_over_rows_enumerate_and_zip(layout):
    rng = make_rng(17)
    for shape in [(0, 3), (4, 3), (3, 0)]:
        a = make(rng, np.float64, shape, layout) if shape[1] else np.zeros(shape)
        assert_same(row_sums, a)
        if shape[1]:
            assert_same(rows_are_views, a)
    for n, k in [(0, 0), (5, 5), (7, 4), (3, 9)]:
        assert_same(weighted, make(rng, np.float64, (n,), layout), make(rng, np.int32, (k,), layout))
        assert_same(zip_with_ranges, make(rng, np.float32, (n,), layout), k, rel=1e-6)
    for n in [0, 3, 11]:
        assert_same(enumerate_range, n, -2)
    assert_same(first_negative, np.array([1.0, 2.0, -3.0]))
    assert_same(first_negative, np.array([1.0, 2.0]))
    assert_same(over_expression, make(rng, np.int16, (9,), layout))
    assert_same(sees_updates, make(rng, np.float64, (6,), layout))


@ruchey.jit
def loop_over_range_unpacked(n):
    s = 0
    for i, j in range(n):
        s += i
    return s


@ruchey.jit
def zip_strict(x):
    s = 0.0
    for a, b in zip(x, x, strict=True):
        s += a
    return s


@ruchey.jit
def zip_prange(x):
    s = 0.0
    for i, v in zip(ruchey.prange(3), x):
        s += v
    return s


@ruchey.jit
def enumerate_outside_loop(x):
    e = enumerate(x)
    return e


@ruchey.jit
def loop_over_tuple(a):
    s = 0.0
    for v in (a, 1):  # heterogeneous: a loop over (a, a) runs, as in Numba
        s += v
    return s


def test_unsupported_loops_are_typing_errors():
    typing_error(total, np.array(1.0), match=r"iteration over a 0-d array(.|\n)*for v in x")
    typing_error(loop_over_tuple, 1.0, match=r"iteration over the heterogeneous tuple \(float64, int64\)")
    typing_error(loop_over_range_unpacked, 3, match=r"single name")
    typing_error(zip_strict, np.zeros(3), match=r"strict")
    typing_error(zip_prange, np.zeros(3), match=r"prange\(\) can only be the iterable")
    # enumerate() outside a for loop's header: the list of the pairs a loop walks
    x = np.arange(3.0)
    assert list(enumerate_outside_loop(x)) == list(enumerate_outside_loop.py_func(x))


# ---------------------------------------------------------------- in CUDA kernels


def kernel_views_and_loops(x, out):
    i = ruchey.cuda.grid(1)
    if i < out.size:
        s = 0.0
        for j, v in enumerate(x):
            s += v * j
        for a, b in zip(x, x[::-1]):
            s -= a * b
        row = x[None, :]
        out[i] = s + row[0, i] + x[..., i][()]


@pytest.mark.cpu_backend
def test_views_and_loops_over_arrays_in_kernels():
    k = ruchey.cuda.jit(kernel_views_and_loops)
    x = np.arange(8.0)
    out = np.zeros(8)
    k[2, 4](x, out)
    expected = np.zeros(8)
    for i in range(8):
        expected[i] = (x * np.arange(8)).sum() - (x * x[::-1]).sum() + x[i] * 2
    assert (out == expected).all()


@needs_ptxas
def test_views_and_loops_over_arrays_compile_for_the_gpu(tmp_path):
    ptx, _ = ruchey.cuda.compile_ptx(kernel_views_and_loops, "void(float64[::1], float64[::1])", cc=(8, 0))
    assert ptxas_errors(ptx, "sm_80", tmp_path) == ""


def kernel_with_mask(x, m):
    x[m] = 0


def test_indexing_with_an_array_is_refused_in_kernels():
    with pytest.raises(ruchey.TypingError, match="indexing with an array makes a new array"):
        ruchey.cuda.compile_ptx(kernel_with_mask, "void(float64[::1], boolean[::1])", cc=(8, 0))


# ---------------------------------------------------------------- a tuple of index arrays made in the index

@ruchey.njit
def upper_and_nonzero(m, a):
    up = m[np.triu_indices(m.shape[0], 1)]
    low = m[np.tril_indices_from(m, k=-1)]
    pos = a[np.nonzero(a > 0)] + a[np.where(np.abs(a) == a)]
    m[np.triu_indices(m.shape[0])] = 0.0
    a[np.where(a < 0)] += 1.0
    rows = [r[np.nonzero(r > 0)].sum() for r in m]
    return up, low, pos, m, a, rows


@pytest.mark.parametrize("layout", LAYOUTS)
def test_index_by_a_call_making_index_arrays_as_numpy(layout):
    """numpy.nonzero, numpy.where, numpy.triu_indices... written in the
    index: computed once before the statement (inside a comprehension's
    loop, per item), as assigning them to a variable first would."""
    rng = make_rng(41)
    for n in (1, 4, 6):
        m, a = make(rng, np.float64, (n, n), layout), make(rng, np.float64, (n + 3,), layout)
        got, want = upper_and_nonzero(m.copy(), a.copy()), upper_and_nonzero.py_func(m.copy(), a.copy())
        for g, w in zip(got[:5], want[:5]):
            assert_same_value(w, g)
        assert list(got[5]) == pytest.approx(want[5], rel=1e-15)


@ruchey.njit
def shrink_while_any(a):
    while a[np.nonzero(a)].size > 0:
        a[0] = 0.0
    return a


def test_index_by_such_a_call_where_it_must_stay_asks_for_a_variable():
    """A while loop's condition runs each time: its index stays there, and
    a tuple value there must come from a variable."""
    with pytest.raises(ruchey.TypingError, match="assign the tuple first"):
        shrink_while_any(np.ones(3))


@ruchey.njit
def lower_corner(i, j):
    """thewalrus' mlo(i, j): an index pair made by a compiled function."""
    return (i - 1, j - 1)


@ruchey.njit
def tick(log, tag, value):
    log[0] += 1
    log[tag] = log[0]
    return value


@ruchey.njit
def filled_by_index_calls(c, log):
    c[lower_corner(1, 1)] = -2.0
    c[lower_corner(2, 1)] = c[lower_corner(1, 1)] - 1.0
    k = c[lower_corner(2, 1)] * 3
    c[lower_corner(2, 2)] += k
    c[tick(log, 1, (0, 2))] = tick(log, 2, 5.0)  # Python runs the value, then the index
    c[tick(log, 3, (1, 2))] += tick(log, 4, 0.5) * c[tick(log, 5, 0), 2]
    return c


def test_index_by_a_compiled_functions_tuple_is_computed_once_in_pythons_order():
    for n in (2, 3):
        c, log = np.zeros((n, n + 1)), np.zeros(6, np.int64)
        c2, log2 = c.copy(), log.copy()
        assert_same_value(filled_by_index_calls.py_func(c2, log2), filled_by_index_calls(c, log))
        assert log.tolist() == log2.tolist()


def test_index_by_a_compiled_functions_tuple_after_other_work_asks_for_a_variable():
    """Moving the call before the statement would run it before what the
    statement evaluates first (here the target's load, which the call
    might change): a TypingError asks for the variable instead."""
    @ruchey.njit
    def later_in_the_statement(c):
        c[lower_corner(2, 2)] += c[lower_corner(2, 1)] * 3
        return c

    with pytest.raises(ruchey.TypingError, match="assign the tuple first"):
        later_in_the_statement(np.zeros((3, 4)))


@ruchey.njit
def corner_if(c, i):
    return c[lower_corner(i, i)] if i > 0 else 0.0


def test_index_by_a_compiled_functions_tuple_in_a_branch_asks_for_a_variable():
    with pytest.raises(ruchey.TypingError, match="assign the tuple first"):
        corner_if(np.ones((2, 2)), 1)
