"""The seed function ``arr_sum`` must compile and run unchanged."""
import gc

import numpy
import pytest
from ruchey import jit

from conftest import SIZES, assert_same, float_array, int_array, make_rng, rss_bytes


@jit
def arr_sum(x, y):
    result_arr = numpy.empty_like(x)
    for i in range(len(x)):
        result_arr[i] = x[i] + y[i]
    return result_arr


@pytest.mark.parametrize("n", SIZES)
def test_arr_sum_float64_matches_python_exactly(n):
    rng = make_rng(100 + n)
    r = assert_same(arr_sum, float_array(rng, n), float_array(rng, n))
    assert r.dtype == numpy.float64 and r.shape == (n,)


@pytest.mark.parametrize("n", SIZES)
def test_arr_sum_int64_matches_python_exactly(n):
    rng = make_rng(200 + n)
    x = int_array(rng, n, -(2**40), 2**40)
    y = int_array(rng, n, -(2**40), 2**40)
    r = assert_same(arr_sum, x, y)
    assert r.dtype == numpy.int64 and r.shape == (n,)


def test_arr_sum_propagates_nan_inf_and_signed_zero():
    special = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1e308, -0.0, 5e-324])
    other = numpy.array([1.0, -numpy.inf, -numpy.inf, -0.0, -0.0, 1e308, 0.0, 5e-324])
    r = assert_same(arr_sum, special, other)
    with numpy.errstate(all="ignore"):
        expected = special + other
    assert numpy.array_equal(numpy.signbit(r), numpy.signbit(expected))


def test_arr_sum_equals_numpy_addition():
    rng = make_rng(1)
    x, y = float_array(rng, 1001), float_array(rng, 1001)
    numpy.testing.assert_array_equal(arr_sum(x, y), x + y, strict=True)


def test_arr_sum_leaves_inputs_unchanged():
    rng = make_rng(2)
    x, y = float_array(rng, 100), float_array(rng, 100)
    x0, y0 = x.copy(), y.copy()
    arr_sum(x, y)
    numpy.testing.assert_array_equal(x, x0, strict=True)
    numpy.testing.assert_array_equal(y, y0, strict=True)


def test_arr_sum_returns_new_writeable_contiguous_array_not_aliasing_inputs():
    rng = make_rng(3)
    x, y = float_array(rng, 50), float_array(rng, 50)
    r = arr_sum(x, y)
    assert type(r) is numpy.ndarray
    assert r.flags.c_contiguous and r.flags.writeable
    assert r.base is None or not any(numpy.shares_memory(r, a) for a in (x, y))
    assert not numpy.shares_memory(r, x) and not numpy.shares_memory(r, y)
    r[:] = 0.0
    assert numpy.all(x + y == arr_sum(x, y))


def test_arr_sum_each_call_returns_independent_array():
    rng = make_rng(4)
    x, y = float_array(rng, 10), float_array(rng, 10)
    r1 = arr_sum(x, y)
    r2 = arr_sum(x, y)
    assert r1 is not r2 and not numpy.shares_memory(r1, r2)
    r1[:] = -1.0
    numpy.testing.assert_array_equal(r2, x + y)


def test_arr_sum_result_survives_deleting_inputs():
    rng = make_rng(5)
    x, y = float_array(rng, 100003), float_array(rng, 100003)
    expected = x + y
    r = arr_sum(x, y)
    del x, y
    gc.collect()
    # allocate and touch other memory so freed blocks would likely be reused
    junk = [numpy.full(100003, 7.0) for _ in range(8)]
    numpy.testing.assert_array_equal(r, expected, strict=True)
    del junk, r  # dropping the last reference must not crash
    gc.collect()


def test_arr_sum_result_can_be_deleted_and_memory_is_freed():
    n = 1_000_000  # 8 MB per result
    rng = make_rng(6)
    x, y = float_array(rng, n), float_array(rng, n)
    for _ in range(3):  # warm up the allocator
        r = arr_sum(x, y)
        del r
    gc.collect()
    before = rss_bytes()
    for _ in range(60):  # 480 MB in total if nothing were freed
        r = arr_sum(x, y)
        assert r[n - 1] == x[n - 1] + y[n - 1]
        del r
    gc.collect()
    after = rss_bytes()
    if before is not None:
        assert after - before < 160 * 2**20, f"RSS grew by {(after - before) / 2**20:.0f} MiB"


def test_arr_sum_signatures_one_per_dtype():
    rng = make_rng(7)
    arr_sum(float_array(rng, 3), float_array(rng, 3))
    arr_sum(float_array(rng, 5), float_array(rng, 5))
    arr_sum(int_array(rng, 3), int_array(rng, 3))
    arr_sum(int_array(rng, 4), int_array(rng, 4))
    assert len(arr_sum.signatures) == 2
