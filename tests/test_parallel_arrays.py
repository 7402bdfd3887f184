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
from conftest import AS_NUMBA, make_rng, rss_bytes

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
