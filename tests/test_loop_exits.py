"""Loops whose checks leave them (int() of a float, a power's overflow, an
index) are unrolled by a count known only at run time, as loops of one exit
are: each check still raises Python's exception at its own iteration, and
what the iterations before it wrote into the caller's arrays is Python's.
The bad value is put at every position of arrays of several lengths, so
that it falls in the unrolled body at each offset and in the remainder."""
import math
import re

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, make_rng, numba_deviation

raises_like_python = numba_deviation("int() of NaN or inf and float overflow do not raise")
ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="inspects ruchey's LLVM IR")

LENGTHS = (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31)


@ruchey.njit
def scaled_ints(x, out):
    for i in range(x.shape[0]):
        out[i] = int(x[i] * 4.0)
    return out


@ruchey.njit
def histogram(x, lo, hi, nbins):
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        v = x[i]
        if v >= lo and v < hi:
            counts[int((v - lo) * scale)] += 1
    return counts


@ruchey.njit
def squared_distance(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


@ruchey.njit
def root_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sqrt(x[i])
    return s


@ruchey.njit
def row_squares(m, out, stop):
    for i in range(stop):
        r = m[i]
        out[i] = r[0] * r[0] + r[1] * r[1]
    return out


def outcome(f, *args):
    """What a call gives: its result or its exception's type and text, and
    the arrays passed in as they are after it."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        result = ("returned", f(*args))
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        result = ("raised", type(e), str(e))
    return result, [a for a in args if isinstance(a, np.ndarray)]


def assert_same_outcome(f, *args, same_text=True, python_floats=False):
    """python_floats: py_func reads the float arrays' items as Python
    floats (an object array), whose ** raises OverflowError where NumPy's
    scalars give inf; compiled code follows Python's floats."""
    py_args = [a.astype(object) if python_floats and a.dtype == np.float64 else a for a in args]
    expected, expected_arrays = outcome(f.py_func, *py_args)
    got, got_arrays = outcome(f, *args)
    assert got[0] == expected[0], (got, expected)
    if expected[0] == "raised":
        assert got[1] is expected[1] and (got[2] == expected[2] or not same_text), (got, expected)
    else:
        np.testing.assert_array_equal(got[1], expected[1])
    for e, g in zip(expected_arrays, got_arrays):
        np.testing.assert_array_equal(g, e.astype(g.dtype))


def bad_at_every_position(rng, n, bad):
    for k in range(n):
        x = rng.uniform(-100.0, 100.0, n)
        x[k] = bad
        yield x


@raises_like_python
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e300])
def test_int_of_a_bad_float_raises_where_python_does(bad):
    # Python's int() of 4e300 succeeds and its store into the array fails,
    # with another text: the same OverflowError, at the same element
    rng = make_rng(7)
    for n in LENGTHS:
        for x in bad_at_every_position(rng, n, bad):
            assert_same_outcome(scaled_ints, x, np.full(n, -1, dtype=np.int64), same_text=np.isnan(bad) or np.isinf(bad))


def test_int_of_floats_in_an_unrolled_loop_matches_python():
    rng = make_rng(8)
    for n in LENGTHS + (0, 100, 1001):
        assert_same_outcome(scaled_ints, rng.uniform(-1e6, 1e6, n), np.zeros(n, dtype=np.int64))


@raises_like_python
def test_histogram_raises_on_nan_inside_its_range_check():
    # nan fails both comparisons and is skipped; a range whose scale is
    # inf makes int() of inf: OverflowError where the first value lands
    rng = make_rng(9)
    for n in LENGTHS:
        for x in bad_at_every_position(rng, n, np.nan):
            assert_same_outcome(histogram, x, -100.0, 100.0, 10)
        x = rng.uniform(0.0, 1.0, n)
        assert_same_outcome(histogram, x, 0.0, 1.0, 7)
        assert_same_outcome(histogram, x, 0.0, 5e-324, 7)


@raises_like_python
def test_an_overflowing_square_raises_at_any_position():
    rng = make_rng(10)
    for n in LENGTHS:
        y = rng.standard_normal(n)
        for bad in (1e200, np.inf, np.nan):
            for x in bad_at_every_position(rng, n, bad):
                assert_same_outcome(squared_distance, x, y, python_floats=True)
        assert_same_outcome(squared_distance, rng.standard_normal(n), y, python_floats=True)


def test_an_index_error_leaves_the_rows_written_before():
    rng = make_rng(11)
    for n in LENGTHS:
        m = rng.standard_normal((n, 2))
        for stop in (n, n + 1, n + 5):
            assert_same_outcome(row_squares, m, np.zeros(n + 5), stop)


@ruchey_only
def test_an_ordered_sum_whose_check_leaves_it_is_not_unrolled_at_run_time():
    # its in-order adds bound it either way, and the unrolled copies of the
    # domain check cost more than the loop's counter
    root_sum(np.ones(4))
    ir = next(iter(root_sum.inspect_llvm().values()))
    assert "llvm.loop.unroll.runtime.disable" in ir, ir
    assert len(re.findall(r"fadd double", ir)) == 1, ir


@ruchey_only
def test_a_sum_of_squares_checked_by_its_sum_unrolls_unchecked():
    # the overflow of (x-y)**2 shows in the sum (inf or NaN): its first run
    # has no check and unrolls as a loop without one
    squared_distance(np.ones(4), np.zeros(4))
    ir = next(iter(squared_distance.inspect_llvm().values()))
    assert len(re.findall(r"fadd double", ir)) >= 4, ir


@raises_like_python
def test_a_root_sum_raises_at_any_position():
    rng = make_rng(12)
    for n in LENGTHS:
        for k in range(n):
            x = rng.uniform(0.0, 100.0, n)
            x[k] = -1.0
            assert_same_outcome(root_sum, x)
