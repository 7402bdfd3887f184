"""Array expressions, in-place operators and ufuncs with out= inside
parallel=True functions: big enough, their element loops run on the thread
pool, chunk by chunk. Each element is computed as the serial loop computes
it, so the results are the serial ones (and NumPy's) bit for bit, on every
layout, for every thread count (math functions that vectorise through
libmvec excepted: its lanes and libm's remainder loop may differ in the
last bits, and chunk edges move the remainders); an element that raises in any chunk raises
once, and releases what the statement made."""
import gc

import numpy as np
import pytest
import ruchey

from arraygen import array, check
from conftest import AS_NUMBA, make_rng, numpy2_only, rss_bytes

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="NumPy 2's promotion rules, which Numba does not follow")

RNG = make_rng(7)

# below, at and above the size from which the pool runs the loop (2**15)
SHAPES = [(7,), (2**15 - 1,), (2**15,), (100003,), (400, 300), (3, 40000), (40000, 3), (20, 30, 70), (0, 50000)]
LAYOUTS = ["C", "F", "strided", "reversed"]


@ruchey.njit(parallel=True)
def fused(a, b, c):
    return a * b + np.sqrt(np.abs(c)) - 2.5


@ruchey.njit(parallel=True)
def mixed_dtypes(a, n):
    return (a * n) // 3 + (a > 0)


@ruchey.njit(parallel=True)
def broadcast_row(a, row):
    return np.maximum(a, row) * 2.0


@ruchey.njit(parallel=True)
def update(a, b):
    a += b * 0.5
    return a


@ruchey.njit(parallel=True)
def shifted_update(a):
    a[1:] -= a[:-1]
    return a


@ruchey.njit(parallel=True)
def into_out(a, b, out):
    np.hypot(a, b, out=out)
    return out


@ruchey.njit(parallel=True)
def int_power(a, e):
    return a ** e


@ruchey.njit(parallel=True)
def inside_prange(a, b):
    s = 0.0
    for i in ruchey.prange(4):
        s += (a * b + i).sum()
    return s


@pytest.fixture(autouse=True)
def restore_thread_count():
    n = ruchey.get_num_threads()
    yield
    ruchey.set_num_threads(n)


def thread_counts():
    return sorted({1, 2, ruchey._core.max_threads()})


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_fused_expression_equals_numpy(shape, layout):
    a, b, c = (array(RNG, np.float64, shape, layout) for _ in range(3))
    for n in thread_counts():
        ruchey.set_num_threads(n)
        check(fused, a, b, c)


@pytest.mark.parametrize("shape", [(5,), (100003,), (300, 400)])
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32])
def test_mixed_dtypes_equal_numpy(shape, dtype):
    a = array(RNG, dtype, shape)
    check(mixed_dtypes, a, 7)


@pytest.mark.parametrize("shape", [(10, 7), (1000, 333), (40000, 2)])
def test_broadcast_operand_equals_numpy(shape):
    check(broadcast_row, array(RNG, np.float64, shape, "F"), array(RNG, np.float64, shape[-1:]))


@pytest.mark.parametrize("shape", [(9,), (100003,), (500, 300)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_place_update_equals_numpy(shape, layout):
    check(update, array(RNG, np.float64, shape, layout), array(RNG, np.float64, shape, "C"))


@pytest.mark.parametrize("n", [10, 100003])
def test_overlapping_update_reads_the_values_before_it(n):
    check(shifted_update, np.arange(n, dtype=np.int64) ** 2 % 1000)


@pytest.mark.parametrize("shape", [(11,), (70000,), (300, 300)])
def test_out_argument_equals_numpy(shape):
    a, b = array(RNG, np.float64, shape), array(RNG, np.float64, shape)
    out = np.empty(shape, order="F")
    assert into_out(a, b, out) is out
    # hypot's vector loop is libmvec's, within 4 ulps of libm's (as serially)
    np.testing.assert_allclose(out, np.hypot(a, b), rtol=4 * np.finfo(np.float64).eps, atol=0, equal_nan=True)


def test_an_element_raising_in_a_chunk_raises_once_and_frees_the_result():
    a = np.arange(1, 200001, dtype=np.int64)
    a[150000] = 0  # 0 ** -1: NumPy's ValueError for negative integer powers
    with pytest.raises(ValueError, match="negative integer powers"):
        int_power(a, -1)
    gc.collect()
    before = rss_bytes()
    for _ in range(200):  # 1.6 MB each: a leak would show
        with pytest.raises(ValueError):
            int_power(a, -1)
    assert rss_bytes() - before < 64 * 2**20
    np.testing.assert_array_equal(int_power(a, 2), a ** 2)


@ruchey.njit(parallel=True)
def made_whole(n):
    return (np.zeros(n), np.ones((n, 3), np.int16), np.full(n, -2.5, np.float32), np.arange(n),
            np.arange(n, -3.0, -0.75), np.ones(n, np.complex128), np.zeros((2, n), np.bool_),
            np.arange(3, 7 * n, 7, np.uint32), np.ones_like(np.empty((2, n)).T), np.zeros(n, np.complex64))


@pytest.mark.parametrize("n", [0, 1, 7, 2**15 - 1, 2**15, 100003])
def test_arrays_made_on_the_pool_equal_numpys(n):
    for threads in thread_counts():
        ruchey.set_num_threads(threads)
        check(made_whole, n, flags=True)


@ruchey.njit(parallel=True)
def spaced(n):
    return (np.linspace(-3.0, 7.5, n), np.linspace(2, 10, n, endpoint=False), np.linspace(0, n, n, dtype=np.int64),
            np.linspace(5.0, 5.0, n), np.linspace(np.float32(1), np.float32(-2), n))


def complex_spaced(n):
    return np.linspace(1 + 2j, -4 - 1j, n)


@numpy2_only  # (NumPy 1 gives float32 where a float32 end meets a Python float)
@pytest.mark.parametrize("n", [0, 1, 2, 7, 2**15 - 1, 2**15, 100003])
def test_linspace_on_the_pool_equals_numpys(n):
    serial, par = ruchey.njit(complex_spaced), ruchey.njit(parallel=True)(complex_spaced)
    for threads in thread_counts():
        ruchey.set_num_threads(threads)
        check(spaced, n)
        # complex ends: the serial loop's values (NumPy's complex product may round otherwise)
        np.testing.assert_array_equal(par(n), serial(n))
        np.testing.assert_allclose(par(n), complex_spaced(n), rtol=1e-15, atol=1e-15)


@ruchey.njit(parallel=True)
def filled(a, v):
    a.fill(v)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_fill_on_the_pool_equals_numpys(shape, layout):
    for dtype, v in ((np.float64, -0.5), (np.int8, 7), (np.bool_, True)):
        check(filled, array(RNG, dtype, shape, layout), v)


@ruchey.njit(parallel=True)
def slices_assigned(a, b, v):
    a[:] = v
    a[1:] = b[:-1]       # another array's elements, converted where its dtype differs
    a[2:] = a[:-2]       # overlapping: read from a copy, as NumPy
    a[::3] = v           # strided: in place, not on the pool
    a[len(a) // 2:] = -v


@pytest.mark.parametrize("n", [3, 2**15 - 1, 2**15 + 2, 100003])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_slice_assignments_on_the_pool_equal_numpys(n, dtype):
    for threads in thread_counts():
        ruchey.set_num_threads(threads)
        check(slices_assigned, array(RNG, np.float64, (n,)), array(RNG, dtype, (n,)), 2.5)


@ruchey.njit(parallel=True)
def block_assigned(a, b, v):
    a[:] = b
    a[1:-1] = v


@pytest.mark.parametrize("shape", [(5, 4), (400, 300), (3, 40000)])
@pytest.mark.parametrize("layouts", [("C", "C"), ("F", "F"), ("C", "F"), ("strided", "C")])
def test_whole_and_row_block_assignments_on_the_pool_equal_numpys(shape, layouts):
    a, b = (array(RNG, np.float64, shape, layout) for layout in layouts)
    check(block_assigned, a, b, np.float64(-1.5))


@ruchey.njit(parallel=True)
def copies_made(a):
    return a.copy(), np.copy(a), a.astype(np.float32), a.astype(np.int64), np.ascontiguousarray(a), a.T.copy()


@pytest.mark.parametrize("shape", [(5,), (2**15 + 3,), (400, 300), (3, 40000)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_copies_on_the_pool_equal_numpys(shape, layout):
    a = array(RNG, np.float64, shape, layout)
    a[~np.isfinite(a)] = 0.5  # (astype to int: NumPy's value for NaN is its own)
    for threads in thread_counts():
        ruchey.set_num_threads(threads)
        check(copies_made, a, flags=True)


def test_shape_mismatch_raises_numpys_error():
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        fused(np.ones(100000), np.ones(100001), np.ones(100000))


def test_array_expressions_in_a_prange_body():
    a, b = RNG.random(50000), RNG.random(50000)
    assert inside_prange(a, b) == pytest.approx(inside_prange.py_func(a, b), rel=1e-12)


def test_many_big_results_run_in_flat_memory():
    a, b, c = RNG.random(100000), RNG.random(100000), RNG.random(100000)
    fused(a, b, c)
    gc.collect()
    before = rss_bytes()
    for _ in range(2000):
        fused(a, b, c)
    assert rss_bytes() - before < 64 * 2**20


# ---------------------------------------------------------------- reductions
# A long row's reduction runs on the pool: each chunk reduces its part and
# the partials are merged in chunk order. Ints, min/max, arg*, any and all
# are the serial results exactly; float sums are sums of the chunks'
# pairwise sums (NumPy's accuracy, not its last bits).

def all_reductions(x):
    return (np.sum(x), np.prod(x), np.min(x), np.max(x), np.argmin(x), np.argmax(x), np.any(x), np.all(x),
            np.count_nonzero(x), np.ptp(x), x.mean(), x.var(), x.std(ddof=1))


def truth_reductions(x):
    return np.sum(x), np.any(x), np.all(x), np.count_nonzero(x), np.argmax(x), np.argmin(x), x.mean()


def nan_reductions(x):
    return np.nansum(x), np.nanmin(x), np.nanmax(x), np.nanargmin(x), np.nanargmax(x), np.nanmean(x), np.nanvar(x)


def product_sum(a, b):
    return np.sum(a * b), np.average(a, weights=b)


def along_rows(a):
    return np.sum(a, axis=1), np.argmax(a, axis=1), np.max(a, axis=-1), a.mean(axis=1)


PARALLEL = {f: ruchey.njit(parallel=True)(f) for f in (all_reductions, truth_reductions, nan_reductions, product_sum, along_rows)}
SERIAL = {f: ruchey.njit(f) for f in PARALLEL}

REDUCE_SHAPES = [(7,), (2**15 - 1,), (2**15,), (100003,), (300, 400)]


def assert_reductions_equal(got, want, x, exact):
    for g, w in zip(got, want):
        if exact or np.asarray(w).dtype.kind in "iub":
            np.testing.assert_array_equal(g, w)
            continue
        eps = np.finfo(np.asarray(w).dtype).eps
        with np.errstate(all="ignore"):
            scale = np.nansum(np.abs(x.astype(np.float64)))
        np.testing.assert_allclose(g, w, rtol=64 * eps, atol=64 * eps * scale, equal_nan=True)


def run_both(f, *args):
    with np.errstate(all="ignore"):
        return PARALLEL[f](*args), SERIAL[f](*args)


@pytest.mark.parametrize("shape", REDUCE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.int32])
def test_integer_reductions_on_the_pool_equal_the_serial_ones(shape, layout, dtype):
    x = array(RNG, dtype, shape, layout) % 7 + 1  # products that do not overflow to 0 at once
    for n in thread_counts():
        ruchey.set_num_threads(n)
        got, want = run_both(all_reductions, x)
        assert_reductions_equal(got[:10], want[:10], x, exact=True)
        assert_reductions_equal(got[10:], want[10:], x, exact=False)


@pytest.mark.parametrize("shape", REDUCE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("fill", [None, True, False])
def test_boolean_reductions_on_the_pool_equal_the_serial_ones(shape, layout, fill):
    x = array(RNG, np.bool_, shape, layout)
    if fill is not None:
        x[...] = fill
    for n in thread_counts():
        ruchey.set_num_threads(n)
        got, want = run_both(truth_reductions, x)
        assert_reductions_equal(got, want, x, exact=True)
        assert_reductions_equal(got, truth_reductions(x), x, exact=False)


@pytest.mark.parametrize("shape", REDUCE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_reductions_on_the_pool_agree_with_numpy(shape, layout, dtype):
    x = array(RNG, dtype, shape, layout)
    x[...] = np.where(np.isfinite(x), x, 1.5)
    for n in thread_counts():
        ruchey.set_num_threads(n)
        got, want = run_both(all_reductions, x)
        # min, max, argmin, argmax, any, all, count_nonzero, ptp: exactly
        assert_reductions_equal(got[2:10], want[2:10], x, exact=True)
        numpy_said = all_reductions(x)
        if not (np.isfinite(numpy_said[1]) and numpy_said[1] != 0):
            # the product under- or overflowed: the order of its multiplies (NumPy's,
            # serial, chunked) decides between 0, inf and nan; products that stay
            # finite are checked on every shape and layout below
            got, numpy_said = got[:1] + got[2:], numpy_said[:1] + numpy_said[2:]
        assert_reductions_equal(got, numpy_said, x, exact=False)


def float_product(x):
    return np.prod(x)


@pytest.mark.parametrize("shape", REDUCE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_products_on_the_pool_agree_with_numpy(shape, layout, dtype):
    # factors near 1, so that a product of 10**5 of them stays finite
    x = array(RNG, dtype, shape, layout)
    x[...] = np.exp(np.where(np.isfinite(x), x, 0.0).astype(np.float64) % 1.0 * 1e-3 - 5e-4)
    parallel, serial = ruchey.njit(parallel=True)(float_product), ruchey.njit(float_product)
    # each order rounds its own way: within a few ulps per sqrt(multiply)
    rtol = 8 * np.finfo(dtype).eps * np.sqrt(x.size)
    for n in thread_counts():
        ruchey.set_num_threads(n)
        np.testing.assert_allclose(parallel(x), np.prod(x), rtol=rtol)
        np.testing.assert_allclose(serial(x), np.prod(x), rtol=rtol)


@pytest.mark.parametrize("n", [100003, 2**17])
@pytest.mark.parametrize("where", [0.1, 0.5, 0.999])
def test_nan_in_any_chunk_decides_as_serially(n, where):
    x = RNG.standard_normal(n)
    x[int(n * where)] = np.nan
    for k in thread_counts():
        ruchey.set_num_threads(k)
        got, want = run_both(all_reductions, x)
        assert_reductions_equal(got, want, x, exact=False)
        assert np.isnan(got[2]) and np.isnan(got[3]) and got[4] == got[5] == int(n * where)
        got, want = run_both(nan_reductions, x)
        assert_reductions_equal(got, want, x, exact=False)
        assert_reductions_equal(got, nan_reductions(x), x, exact=False)


def test_ties_across_chunks_give_the_first_index():
    x = np.zeros(300000)
    for at in (250000, 70000, 150000):
        x[at] = -1.0
        x[at + 1] = 2.0
    for k in thread_counts():
        ruchey.set_num_threads(k)
        got, _ = run_both(all_reductions, x)
        assert (got[4], got[5]) == (70000, 70001)


@pytest.mark.parametrize("n", [5, 100003])
def test_sums_of_products_and_weighted_averages_on_the_pool(n):
    a, b = RNG.standard_normal(n), RNG.random(n) + 0.5
    got, want = run_both(product_sum, a, b)
    assert_reductions_equal(got, product_sum(a, b), a * b, exact=False)
    assert_reductions_equal(got, want, a * b, exact=False)


@pytest.mark.parametrize("shape", [(3, 100003), (2, 40000), (5, 7)])
def test_long_rows_of_an_axis_reduction_on_the_pool(shape):
    a = RNG.standard_normal(shape)
    got, want = run_both(along_rows, a)
    assert_reductions_equal(got, along_rows(a), a, exact=False)
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got[2], want[2])


def test_float_sums_on_the_pool_are_the_same_on_every_run():
    x = RNG.standard_normal(1000003)
    first = PARALLEL[all_reductions](x)
    for _ in range(20):
        assert PARALLEL[all_reductions](x) == first


def expression_reductions(a, b):
    return (np.sum((a - b) ** 2), np.max(np.abs(a - b)), np.argmax(a * b), np.argmin(a - b), np.mean(a * 2.0),
            np.std(a + b), np.any(a > b), np.all(a > -5.0), np.count_nonzero(a > 0.5), np.nansum(a / b))


def int_power_sum(a, e):
    return np.sum(a ** e)


PARALLEL.update({f: ruchey.njit(parallel=True)(f) for f in (expression_reductions, int_power_sum)})
SERIAL.update({f: ruchey.njit(f) for f in (expression_reductions, int_power_sum)})


@pytest.mark.parametrize("n", [9, 2**15 - 1, 2**15, 100003, 400000])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_reductions_of_expressions_on_the_pool(n, dtype):
    a, b = array(RNG, dtype, (n,)), array(RNG, dtype, (n,))
    if dtype != np.int32:
        a[...] = np.where(np.isfinite(a), a, 0.5)
        b[...] = np.where(np.isfinite(b), b, 0.25)
    else:
        a, b = a % 1000, b % 1000 + 1
    for k in thread_counts():
        ruchey.set_num_threads(k)
        got, want = run_both(expression_reductions, a, b)
        assert_reductions_equal(got[1:4] + got[6:9], want[1:4] + want[6:9], a, exact=True)
        with np.errstate(all="ignore"):
            assert_reductions_equal(got, expression_reductions(a, b), np.abs(a) + np.abs(b) ** 2, exact=False)


def test_an_element_raising_in_a_reduction_chunk_raises_once():
    a = np.arange(1, 300001, dtype=np.int64)
    a[250000] = 0
    with pytest.raises(ValueError, match="negative integer powers"):
        PARALLEL[int_power_sum](a, -1)
    assert PARALLEL[int_power_sum](a, 2) == (a ** 2).sum()  # int64, wrapping as NumPy's
