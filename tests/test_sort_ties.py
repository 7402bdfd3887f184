"""The order of equal elements under numpy.sort and numpy.argsort's
default kind ("quicksort"), which Numba's compiled code defines and
programs' results depend on (the ranks of tied scores, the first of
equal distances): argsort's indices, and the bits of sorted floats
where -0.0 and 0.0, or NaNs of other bits, compare equal.

The reference is that quicksort written here in Python from its
description: a range of 16 elements or more partitioned around the
median of its first, middle and last elements, the pivot kept at the
end meanwhile, two indices moving inwards and swapping the elements
that stop them (one equal to the pivot stops both); shorter ranges by
insertion. Floats order NaN last, every NaN equal to every NaN.
Inputs: every dtype, few distinct values and the whole range, NaN and
-0.0 mixed in, lengths around the insertion sort's 16, empty arrays,
and lanes long enough for the run time's faster sorts to run first.
"""
import math

import numpy as np
import pytest

import ruchey

from arraygen import DTYPES
from conftest import AS_NUMBA, make_rng


def less(a, b):
    if isinstance(a, float):
        return a < b or (math.isnan(b) and not math.isnan(a))
    return a < b


def insertion(v, r, lo, hi):
    for i in range(lo + 1, hi + 1):
        k = r[i]
        j = i
        while j > lo and less(v[k], v[r[j - 1]]):
            r[j] = r[j - 1]
            j -= 1
        r[j] = k


def partition(v, r, lo, hi):
    mid = (lo + hi) >> 1
    for x, y in ((lo, mid), (mid, hi), (lo, mid)):
        if less(v[r[y]], v[r[x]]):
            r[x], r[y] = r[y], r[x]
    pivot = v[r[mid]]
    r[mid], r[hi] = r[hi], r[mid]
    i, j = lo, hi - 1
    while True:
        while i < hi and less(v[r[i]], pivot):
            i += 1
        while j >= lo and less(pivot, v[r[j]]):
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[hi] = r[hi], r[i]
    return i


def reference_argsort(a):
    v = a.tolist()
    r = list(range(len(v)))
    ranges = [(0, len(v) - 1)]
    while ranges:
        lo, hi = ranges.pop()
        while hi - lo >= 15:
            p = partition(v, r, lo, hi)
            ranges.append((p + 1, hi))
            hi = p - 1
        insertion(v, r, lo, hi)
    return np.array(r, dtype=np.intp)


@ruchey.njit
def default_kinds(a):
    b = a.copy()
    b.sort()
    return np.argsort(a), np.argsort(a, kind="quicksort"), a.argsort(), np.sort(a), b


def few_values(rng, dtype, n, distinct):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(n) < 0.5
    if dtype.kind in "iu" and distinct is None:
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    v = rng.integers(-(distinct or 10**6), distinct or 10**6, n).astype(dtype)
    if dtype.kind == "u":
        return v
    if dtype.kind == "f" and n > 4:
        v = v / 2
        for special in (np.nan, -0.0, 0.0):
            v[rng.integers(0, n, n // 6)] = special
    return v.astype(dtype)


def check_lane(a, got):
    order = reference_argsort(a)
    for k in range(3):
        np.testing.assert_array_equal(got[k], order)
    for k in (3, 4):
        assert got[k].tobytes() == a[order].tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
def test_default_kind_orders_ties_as_numbas_quicksort(dtype):
    rng = make_rng(31)
    for n in (0, 1, 2, 15, 16, 17, 40, 333):
        for distinct in (2, 9, None):
            a = few_values(rng, dtype, n, distinct)
            check_lane(a, default_kinds(a))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.float64, np.int64])
def test_long_lanes_with_and_without_ties(dtype):
    """Lanes where the run time's faster sorts run first: ties found
    after them (or certain for narrow keys), and none."""
    rng = make_rng(32)
    for distinct in (50, None):
        a = few_values(rng, dtype, 20_000, distinct)
        check_lane(a, default_kinds(a))
    distinct_values = rng.permutation(20_000).astype(dtype) if np.dtype(dtype).itemsize > 2 else None
    if distinct_values is not None:
        check_lane(distinct_values, default_kinds(distinct_values))


def test_nan_bits_and_signed_zeros_stay_where_the_quicksort_puts_them():
    nans = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001], dtype=np.uint64).view(np.float64)
    rng = make_rng(33)
    for n in (20, 300, 5000):
        a = rng.integers(-3, 3, n).astype(np.float64)
        a[rng.integers(0, n, n // 3)] = nans[rng.integers(0, 3, n // 3)]
        a[rng.integers(0, n, n // 4)] = -0.0
        with np.errstate(invalid="ignore"):
            narrow = a.astype(np.float32)
        for x in (a, a[::3], narrow):
            check_lane(x, default_kinds(x))


@ruchey.njit
def rows_sorted(a):
    return np.sort(a), np.argsort(a)


@pytest.mark.skipif(AS_NUMBA, reason="numba's argsort takes 1-d arrays only")
def test_each_lane_of_a_2d_array_sorted_by_the_quicksort():
    rng = make_rng(34)
    a = rng.integers(0, 4, (5, 60)).astype(np.float64)
    a[a == 0] = -0.0
    a[:, 1::4] = 0.0
    values, indices = rows_sorted(a)
    for row, got_values, got_indices in zip(a, values, indices):
        order = reference_argsort(row)
        np.testing.assert_array_equal(got_indices, order)
        assert got_values.tobytes() == row[order].tobytes()


@ruchey.njit
def stable_argsort(a):
    return np.argsort(a, kind="stable")


def test_stable_kind_keeps_equal_elements_in_their_order():
    a = make_rng(35).integers(0, 3, 5000)
    np.testing.assert_array_equal(stable_argsort(a), np.argsort(a, kind="stable"))
