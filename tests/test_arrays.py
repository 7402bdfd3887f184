"""1-D float64/int64 arrays: arguments, len, indexing (read, write, augmented
assignment), allocation (empty_like, empty, zeros), returning arrays, ownership."""
import gc

import numpy
import numpy as np
import pytest
import ruchey

from conftest import SIZES, assert_same, float_array, int_array, make_rng, rss_bytes, run_python_file, seed_of

# ---------------------------------------------------------------- reading


@ruchey.jit
def length(x):
    return len(x)


@ruchey.jit
def float_total(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@ruchey.jit
def int_total(x):
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


@ruchey.jit
def read_at(x, i):
    return x[i]


@ruchey.jit
def ends(x):
    return x[0] * 3 - x[len(x) - 1] + x[-1] * 5 - x[-len(x)]


@ruchey.jit
def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


@ruchey.jit
def count_greater(x, t):
    c = 0
    for i in range(len(x)):
        if x[i] > t:
            c += 1
    return c


@ruchey.jit
def element_is_positive(x, i):
    return x[i] > 0


@pytest.mark.parametrize("n", SIZES)
def test_len_of_float64_and_int64_arrays(n):
    rng = make_rng(50 + n)
    assert_same(length, float_array(rng, n))
    assert_same(length, int_array(rng, n))


@pytest.mark.parametrize("n", SIZES)
def test_sum_over_float64_array_is_exact_in_serial_order(n):
    assert_same(float_total, float_array(make_rng(60 + n), n))


@pytest.mark.parametrize("n", SIZES)
def test_sum_over_int64_array_returns_int(n):
    x = int_array(make_rng(70 + n), n, -(2**40), 2**40)
    assert_same(int_total, x)
    assert_same(float_total, x)


def test_read_element_by_int_index_positive_and_negative():
    rng = make_rng(80)
    for n in (1, 7, 1000):
        x, xi = float_array(rng, n), int_array(rng, n)
        for i in sorted(set([0, n - 1, -1, -n] + rng.integers(-n, n, size=20).tolist())):
            assert_same(read_at, x, int(i))
            assert_same(read_at, xi, int(i))
            assert_same(element_is_positive, x, int(i))
            assert_same(element_is_positive, xi, int(i))


def test_first_and_last_elements_via_len_and_negative_index():
    rng = make_rng(81)
    for n in (1, 2, 7, 1000):
        assert_same(ends, float_array(rng, n))
        assert_same(ends, int_array(rng, n))


def test_dot_product_of_two_arrays_is_exact_in_serial_order():
    rng = make_rng(82)
    for n in SIZES:
        assert_same(dot, float_array(rng, n), float_array(rng, n))
    assert_same(dot, float_array(rng, 1000), int_array(rng, 1000))


def test_compare_elements_with_scalar_threshold():
    rng = make_rng(83)
    for n in SIZES:
        x, xi = float_array(rng, n), int_array(rng, n)
        for t in (-50.0, 0.0, 3.5):
            assert_same(count_greater, x, t)
        for t in (-50, 0, 999):
            assert_same(count_greater, xi, t)


def test_nan_and_inf_elements_are_read_faithfully():
    x = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0, 5e-324, 1.7976931348623157e308])
    for i in range(len(x)):
        assert_same(read_at, x, i)
    assert_same(float_total, x[1:].copy())
    assert_same(count_greater, x, 0.0)


# ---------------------------------------------------------------- writing


@ruchey.jit
def write_at(x, i, v):
    x[i] = v
    return x[i]


@ruchey.jit
def prefix_sum_inplace(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return len(x)


@ruchey.jit
def augmented_elements_float(x, a):
    for i in range(len(x)):
        x[i] *= a
        x[i] -= 1.5
        x[i] /= 3.0
        x[i] //= 0.25
        x[i] %= 7.0
        x[i] **= 2
    return 0


@ruchey.jit
def augmented_elements_int(x, a):
    for i in range(len(x)):
        x[i] *= a
        x[i] += i
        x[i] -= 3
        x[i] //= 7
        x[i] %= 1000
    return 0


@ruchey.jit
def histogram_mod10(x):
    counts = numpy.zeros(10, dtype=numpy.int64)
    for i in range(len(x)):
        counts[x[i] % 10] += 1
    return counts


def test_write_element_is_visible_to_caller():
    rng = make_rng(90)
    for n in (1, 7, 1000):
        for i in (0, n - 1, -1, int(rng.integers(-n, n))):
            assert_same(write_at, float_array(rng, n), i, float(rng.standard_normal()))
            assert_same(write_at, int_array(rng, n), i, int(rng.integers(-(2**40), 2**40)))


def test_write_int_value_into_float64_array_converts_to_float():
    x = numpy.zeros(3)
    r = assert_same(write_at, x, 1, 7)
    assert isinstance(r, float)


@pytest.mark.parametrize("n", SIZES)
def test_augmented_assignment_on_element_prefix_sum(n):
    rng = make_rng(100 + n)
    assert_same(prefix_sum_inplace, float_array(rng, n))
    assert_same(prefix_sum_inplace, int_array(rng, n))


def test_all_augmented_operators_on_float64_elements():
    rng = make_rng(110)
    for n in (0, 1, 7, 1000):
        for a in (2.0, -0.5, 3.25):
            assert_same(augmented_elements_float, float_array(rng, n), a)


def test_all_augmented_operators_on_int64_elements():
    rng = make_rng(111)
    for n in (0, 1, 7, 1000):
        for a in (3, -2, 0):
            assert_same(augmented_elements_int, int_array(rng, n), a)


def test_index_computed_from_array_element():
    rng = make_rng(112)
    for n in SIZES:
        assert_same(histogram_mod10, int_array(rng, n, -(10**6), 10**6))


# ---------------------------------------------------------------- allocation


@ruchey.jit
def zeros_default(n):
    return numpy.zeros(n)


@ruchey.jit
def zeros_int64_squares(n):
    a = numpy.zeros(n, dtype=numpy.int64)
    for i in range(n):
        a[i] = i * i - 5 * i
    return a


@ruchey.jit
def empty_thirds(n):
    a = numpy.empty(n)
    for i in range(n):
        a[i] = i / 3
    return a


@ruchey.jit
def np_alias_zeros_int(n):
    a = np.zeros(n, dtype=np.int64)
    for i in range(0, n, 2):
        a[i] = -i
    return a


@ruchey.jit
def empty_like_reversed(x):
    out = numpy.empty_like(x)
    n = len(x)
    for i in range(n):
        out[n - 1 - i] = x[i]
    return out


@ruchey.jit
def reversed_negative_step(x):
    out = numpy.zeros(len(x))
    j = 0
    for i in range(len(x) - 1, -1, -1):
        out[j] = x[i] * 2
        j += 1
    return out


@ruchey.jit
def empty_like_shape(x):
    out = numpy.empty_like(x)
    return out


def test_zeros_default_dtype_is_float64():
    for n in SIZES:
        r = assert_same(zeros_default, n)
        assert r.dtype == numpy.float64


def test_zeros_with_int64_dtype():
    for n in SIZES:
        r = assert_same(zeros_int64_squares, n)
        assert r.dtype == numpy.int64
        assert_same(np_alias_zeros_int, n)


def test_empty_filled_completely_is_float64():
    for n in SIZES:
        r = assert_same(empty_thirds, n)
        assert r.dtype == numpy.float64


def test_empty_like_preserves_dtype_and_length():
    rng = make_rng(120)
    for n in SIZES:
        for x in (float_array(rng, n), int_array(rng, n)):
            r = empty_like_shape(x)
            assert isinstance(r, numpy.ndarray)
            assert r.dtype == x.dtype and r.shape == x.shape
            assert not numpy.shares_memory(r, x)


@pytest.mark.parametrize("n", SIZES)
def test_reverse_into_new_array(n):
    rng = make_rng(130 + n)
    for x in (float_array(rng, n), int_array(rng, n)):
        assert_same(empty_like_reversed, x)
        assert_same(reversed_negative_step, x)


# ---------------------------------------------------------------- returning and ownership


@ruchey.jit
def fill_and_return(x, v):
    for i in range(len(x)):
        x[i] = v
    return x


def test_returning_argument_array_aliases_input():
    rng = make_rng(140)
    for x in (float_array(rng, 7), int_array(rng, 7)):
        r = fill_and_return(x, 3)
        assert isinstance(r, numpy.ndarray) and r.dtype == x.dtype
        assert numpy.shares_memory(r, x)
        assert numpy.all(x == 3)
        r[0] = 11
        assert x[0] == 11
    assert_same(fill_and_return, float_array(rng, 1000), -2.5)


def test_allocated_result_owns_memory_or_is_kept_alive_by_base():
    r = zeros_int64_squares(100003)
    expected = zeros_int64_squares.py_func(100003)
    assert r.flags.c_contiguous and r.flags.writeable
    assert r.flags.owndata or r.base is not None
    base = r.base
    gc.collect()
    numpy.testing.assert_array_equal(r, expected, strict=True)
    view = r[10:20]
    del r, base
    gc.collect()
    junk = [numpy.ones(100003, dtype=numpy.int64) for _ in range(8)]
    numpy.testing.assert_array_equal(view, expected[10:20], strict=True)
    del junk, view
    gc.collect()


def test_each_call_allocates_a_fresh_array():
    a = zeros_default(10)
    b = zeros_default(10)
    assert a is not b and not numpy.shares_memory(a, b)
    a[:] = 1.0
    assert numpy.all(b == 0.0)
    assert numpy.all(zeros_default(10) == 0.0)


def test_allocated_results_are_freed_when_dropped():
    n = 1_000_000  # 8 MB per array
    for _ in range(3):  # warm up the allocator
        r = zeros_int64_squares(n)
        del r
    gc.collect()
    before = rss_bytes()
    for _ in range(60):  # 480 MB in total if nothing were freed
        r = zeros_int64_squares(n)
        assert r[n - 1] == (n - 1) * (n - 1) - 5 * (n - 1)
        del r
    gc.collect()
    after = rss_bytes()
    if before is not None:
        assert after - before < 160 * 2**20, f"RSS grew by {(after - before) / 2**20:.0f} MiB"


@ruchey.jit
def sum_of_two(x, y):
    out = numpy.empty_like(x)
    for i in range(len(x)):
        out[i] = x[i] + y[i]
    return out


def test_large_results_start_a_page_and_small_ones_64_bytes_in():
    # a large result at a page's start (no 4K aliasing with NumPy's operands
    # 16 bytes into theirs), small ones 64-byte aligned; values as Python's,
    # also from a block freed by the call before
    rng = make_rng(122)
    for n in (1, 7, 100, 2**19 - 5, 2**19, 2**20 + 3):
        x, y = rng.standard_normal(n), rng.standard_normal(n)
        for _ in range(2):
            r = assert_same(sum_of_two, x, y)
            assert r.ctypes.data % (4096 if r.nbytes >= 4 << 20 else 64) == 0
            r[-1] = 1.0  # the whole block is ours
            del r


@ruchey.jit
def full_matrix(n, value):
    return numpy.full((n, 3), value)


@ruchey.jit
def full_float32(n, value):
    return numpy.full(n, value, dtype=numpy.float32)


@ruchey.jit
def full_then_sum(n, value):
    a = numpy.full(n, value)
    s = 0.0
    for i in range(n):
        s += a[i]
    return s


def test_full_takes_the_fill_values_type():
    rng = make_rng(121)
    for n in SIZES:
        for value in (float(rng.standard_normal()), int(rng.integers(-9, 9)), True, 0):
            r = assert_same(full_matrix, n, value)
            assert r.dtype == numpy.full(1, value).dtype


def test_full_with_a_dtype_converts_the_fill_value():
    for n in SIZES:
        r = assert_same(full_float32, n, 1.0 / 3.0)
        assert r.dtype == numpy.float32
        assert_same(full_then_sum, n, 2.5)


def test_full_with_a_negative_shape_raises_value_error():
    with pytest.raises(ValueError):
        full_matrix.py_func(-1, 1.0)
    with pytest.raises(ValueError):
        full_matrix(-1, 1.0)


@ruchey.njit
def wrapped_picks(m, start, steps, stride):
    t = 0.0
    q = 0
    for k in range(steps):
        t += m[(start + k * stride) % m.shape[0], -1]
        q += (start - k * stride) // m.shape[1] + (start - k) % m.shape[1]
    return t, q


@pytest.mark.parametrize("start, stride", [(0, 1), (5, 3), (-7, 2), (3, -5), (-2**40, 2**20)])
def test_shapes_divide_and_wrap_as_python(start, stride):
    """A shape is known not negative (the compiler may take k % shape as an
    unsigned remainder where k is not negative): floored division and
    modulo of negative numbers by it, and by an empty axis, stay Python's."""
    m = make_rng(seed_of("wrapped picks", start, stride)).standard_normal((7, 3))
    assert_same(wrapped_picks, m, start, 50, stride)
    with pytest.raises(ZeroDivisionError):
        wrapped_picks(numpy.empty((0, 3)), start, 5, stride)
    with pytest.raises(ZeroDivisionError):
        wrapped_picks.py_func(numpy.empty((0, 3)), start, 5, stride)


def test_writes_just_past_an_arrays_end_stay_in_numbas_slack(tmp_path):
    """Code written for Numba, which checks no index, may write a few
    elements past a small array's end (thewalrus' charpoly of a 1x1
    matrix); Numba's allocator leaves 32 bytes there, and so does ruchey's,
    so the heap survives as it does under Numba."""
    proc = run_python_file("""
        import numpy as np
        import ruchey

        @ruchey.njit
        def past_end(n):
            total = 0.0
            for k in range(n):
                c = np.zeros((1, 1), np.complex128)
                c[1, 0] = k      # 16 bytes past the end
                c[1, 1] = 2 * k  # 32
                total += c[0, 0].real
            return total

        assert past_end(20000) == 0.0
        print("ok")
    """, tmp_path)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr[-2000:]


@ruchey.njit
def handed_back(a, k):
    return a if k else a[:0]


@pytest.mark.parametrize("shape", [(0,), (0, 3), (4, 0), (0, 0, 2)])
def test_an_empty_array_argument_handed_back_is_itself(shape):
    """As a non-empty one (and as Numba's): the object passed, whatever
    strides compiled code gives an empty array of its layout."""
    for a in (np.zeros(shape), np.asfortranarray(np.zeros(shape)), np.zeros(shape, np.int32)):
        assert handed_back(a, 1) is a is handed_back.py_func(a, 1)
        b = np.arange(6.0)
        assert handed_back(b, 0).shape == handed_back.py_func(b, 0).shape == (0,)
# ---------------------------------------------------------------- a is b


@ruchey.njit
def identical(a, b):
    return a is b, a is not b, np.asarray(a) is a


def test_is_between_arrays_holds_where_they_show_the_same_elements_the_same_way():
    # compiled code has no array objects: `is` compares dtype, data, shape and strides (Numba's
    # reading, so a[:] is a too, which NumPy's new view object is not)
    for dtype in (np.int32, np.float64, np.complex128):
        a = np.arange(10).astype(dtype).reshape(2, 5)
        for b, same in ((a, True), (a[:], True), (a.copy(), False), (a.T, False), (a[:-1], False), (a[:, 1:], False),
                        (np.asfortranarray(a), False), (a.view(np.uint8), False), (a[0], False)):
            assert identical(a, b) == (same, not same, True)


# ---------------------------------------------------------------- list(a) of rows


@ruchey.njit
def rows_of(a):
    rows = list(a)
    return rows, len(rows)


@ruchey.njit
def rows_written(a):
    for row in list(a):
        row[0] = -1
    return a


@ruchey.njit
def rows_of_a_new_array(n):
    return list(np.arange(n * 3.0).reshape(n, 3))


def test_list_of_an_n_d_array_is_its_rows_as_views():
    base = np.arange(24.0).reshape(2, 3, 4)
    for a in (base[0], np.asfortranarray(base[0]), base[:, ::2], base, np.zeros((0, 3)), base.astype(np.int8)[1, ::-1]):
        rows, n = rows_of(a)
        want = rows_of.py_func(a)[0]
        assert n == len(want) and all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(rows, want))
        assert all(np.shares_memory(x, a) for x in rows)
    a = np.zeros((3, 2))
    assert np.array_equal(rows_written(a.copy()), rows_written.py_func(a.copy()))
    a.flags.writeable = False
    assert not any(x.flags.writeable for x in rows_of(a)[0])
    made = rows_of_a_new_array(4)  # each row holds the memory: freed with the last
    assert [x.base.refcount for x in made] == [4] * 4 and np.array_equal(np.array(made), np.arange(12.0).reshape(4, 3))
