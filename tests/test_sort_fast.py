"""The fast paths of numpy.sort and numpy.argsort in compiled code
against NumPy: the quicksort in vector registers for 8-byte elements
(float64, int64, uint64; unstable kinds, and sort's stable kinds where no
NaN or -0.0 could tell equal elements apart), argsort of elements of 4
bytes or fewer by words holding a key above its index (every kind), the
LSD radix sort of long lanes, the merge sort of short ones.

Lengths run across every switch (the register networks' 4 to 256 keys,
the vector sort's 16, the radix sort's 1024, the counting sort's 64 and
16384) and up to 10**5; values
are the whole range, few distinct values, and floats with NaN, infinities
and -0.0 mixed in. Sorted values must equal NumPy's (the same multiset of
bits but for NaNs, written as NumPy writes them), stable kinds NumPy's
stable result bit for bit, stable argsort NumPy's exact indices, and the
default argsort a permutation that sorts the array. One
compiled function per dtype returns every result, so that the test
compiles few specialisations.
"""
import numpy as np
import pytest

import ruchey

from arraygen import DTYPES
from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's sort takes no kind=")

LENGTHS = (2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 130, 255, 256, 257, 511, 512, 513, 1000, 1023,
           1024, 1025, 4097, 16383, 16384, 100_000)


@ruchey.njit
def every_sort(a):
    b = a.copy()
    b.sort()
    return (np.sort(a), np.sort(a, kind="stable"), np.argsort(a, kind="stable"), b, np.sort(a, kind="heapsort"),
            np.argsort(a))


@ruchey.njit
def sort_strided(a):
    a[::2].sort()
    return a


@ruchey.njit
def along_axis0(a):
    return np.sort(a, axis=0), np.argsort(a, axis=0), np.argsort(a, axis=0, kind="stable")


def values(rng, dtype, n, mode):
    """n values of dtype: mode 0 the whole range, 1 few distinct values,
    2 (floats) NaN, infinities and signed zeros mixed in."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if mode == 1:
            return rng.integers(max(info.min, -3), 4, n).astype(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    a = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
    if mode == 1:
        a = np.round(a / 100)
    if mode == 2:
        for value, share in ((np.nan, 0.1), (-np.nan, 0.05), (np.inf, 0.05), (-np.inf, 0.05), (0.0, 0.1), (-0.0, 0.1)):
            a[rng.random(n) < share] = value
    return a.astype(dtype)


def same_values(got, expected, a, what):
    """The same sorted values as NumPy's (NaN equal to NaN), and as many
    -0.0 as a holds (NumPy's float32 sort may turn some into 0.0)."""
    assert got.dtype == expected.dtype, what
    np.testing.assert_array_equal(got, expected, err_msg=what)
    if expected.dtype.kind == "f":
        assert np.signbit(got[got == 0]).sum() == np.signbit(a[a == 0]).sum(), what


def check_all(a, what):
    sorted_, stable, indices, in_place, heap, any_indices = every_sort(a)
    expected = np.sort(a)
    for got, name in ((sorted_, "sort"), (in_place, "a.sort()"), (heap, "heapsort")):
        same_values(got, expected, a, f"{what}: {name}")
    exact = np.sort(a, kind="stable")
    assert stable.tobytes() == exact.tobytes(), f"{what}: stable sort"
    np.testing.assert_array_equal(indices, np.argsort(a, kind="stable"), err_msg=f"{what}: stable argsort")
    np.testing.assert_array_equal(np.sort(any_indices), np.arange(a.size), err_msg=f"{what}: argsort, a permutation")
    np.testing.assert_array_equal(a[any_indices], expected, err_msg=f"{what}: argsort sorts")


@pytest.mark.parametrize("dtype", DTYPES)
def test_lengths_across_every_switch(dtype):
    rng = make_rng(31)
    for n in LENGTHS:
        for mode in (0, 1, 2) if np.dtype(dtype).kind == "f" else (0, 1):
            check_all(values(rng, dtype, n, mode), f"{np.dtype(dtype)} n={n} mode={mode}")


FAST = [np.float64, np.int64, np.uint64, np.float32, np.int32, np.uint32, np.int16, np.uint8]


@pytest.mark.parametrize("dtype", FAST)
def test_strided_and_reversed_lanes(dtype):
    rng = make_rng(32)
    for n in (40, 300, 5000):
        a = values(rng, dtype, 2 * n, 2 if np.dtype(dtype).kind == "f" else 0)
        check_all(a[::-1], f"reversed n={n}")
        check_all(a[::2], f"strided n={n}")
        got, expected = sort_strided(a.copy()), a.copy()
        expected[::2].sort()
        same_values(got, expected, a, f"a[::2].sort() n={n}")


@pytest.mark.parametrize("dtype", FAST)
def test_lanes_along_the_first_axis(dtype):
    """Lanes whose elements and indices lie a row apart."""
    a = values(make_rng(33), dtype, 3000, 2 if np.dtype(dtype).kind == "f" else 1).reshape(500, 6)
    got_sorted, got_any, got_stable = along_axis0(a)
    same_values(got_sorted, np.sort(a, axis=0), a, "sort axis=0")
    np.testing.assert_array_equal(np.take_along_axis(a, got_any, axis=0), np.sort(a, axis=0))
    np.testing.assert_array_equal(np.sort(got_any, axis=0), np.broadcast_to(np.arange(500)[:, None], a.shape))
    np.testing.assert_array_equal(got_stable, np.argsort(a, axis=0, kind="stable"))


def test_sorted_reversed_and_equal_inputs():
    """The quicksort's bad cases: sorted, reversed, all equal, two values,
    one odd element out."""
    n = 20_000
    ramp = np.arange(n, dtype=np.float64)
    one_out = np.zeros(n)
    one_out[n // 2] = -1.0
    for a in (ramp, ramp[::-1], np.full(n, 3.0), np.tile([1.0, 0.0], n // 2), one_out):
        for dtype in (np.float64, np.int64, np.float32, np.int32, np.uint32, np.int16, np.uint8):
            check_all(a.astype(dtype), f"pattern as {np.dtype(dtype)}")
    check_all(np.full(n, np.nan), "all NaN")
    check_all(np.full(n, np.nan, dtype=np.float32), "all NaN float32")


def test_nan_bits_kept_by_the_default_kind():
    """NaNs of other bits than the one quiet NaN (-nan here) leave the
    default kind to the quicksort (test_sort_ties.py), which moves each
    NaN's bits as they are; the other NaNs are written as that quiet NaN."""
    a = np.array([3.0, -np.nan, 1.0, np.nan, -0.0, 0.0] * 50)
    got = every_sort(a)[0]
    np.testing.assert_array_equal(got[:-100], np.sort(a)[:-100])
    assert sorted(got[-100:].tobytes()[k:k + 8] for k in range(0, 800, 8)) == \
        sorted(a[np.isnan(a)].tobytes()[k:k + 8] for k in range(0, 800, 8))
    quiet = np.array([3.0, np.nan, 1.0, -1.0] * 50)
    assert every_sort(quiet)[0].tobytes()[-8 * 50:] == np.full(50, np.nan).tobytes()
