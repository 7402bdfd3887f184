"""Sorting and ordering complex arrays in compiled code against NumPy:
numpy.sort, a.sort(), numpy.argsort, numpy.unique (with counts),
numpy.min/max/argmin/argmax and their methods, on complex64 and complex128.

NumPy orders complex numbers by real part, then imaginary part, with
those holding a NaN last (a NaN imaginary part first, by real part, then
a NaN real part, by imaginary part, then NaN in both); min and max return
the first element holding a NaN, argmin and argmax its index. Inputs mix
ties of the real part, NaNs in either part, infinities and -0.0, across
lengths on both sides of the merge sort's runs; stable kinds must give
NumPy's exact order. One compiled function returns every result.

NAN_KEPT: numpy.unique keeps one element holding a NaN, the first of them
in sorted order, as NumPy's unique with return_counts=True does (without
it, NumPy 2.4's hashing unique keeps the first in the input's order).
"""
import numpy as np
import pytest

import ruchey

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's sort takes no kind=")

DTYPES = (np.complex64, np.complex128)


@ruchey.njit
def orderings(a):
    b = a.copy()
    b.sort()
    return (np.sort(a), np.sort(a, kind="stable"), np.argsort(a, kind="stable"), b, np.argsort(a),
            np.min(a), np.max(a), np.argmin(a), np.argmax(a), a.min(), a.argmax())


@ruchey.njit
def uniques(a):
    return np.unique(a), np.unique(a, return_counts=True)


@ruchey.njit
def along_axes(a):
    return np.sort(a, axis=0), np.argsort(a, axis=1, kind="stable"), np.min(a, axis=0), np.argmax(a, axis=1), \
        np.sort(a, axis=None)


def values(rng, dtype, n, special):
    parts = np.round(rng.standard_normal((2, n)) * 3)  # ties of either part
    if special:
        choices = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0])
        for p in parts:
            mask = rng.random(n) < 0.15
            p[mask] = rng.choice(choices, mask.sum())
    return (parts[0] + 1j * parts[1]).astype(dtype) if not special else _complex(parts[0], parts[1], dtype)


def _complex(re, im, dtype):
    z = np.empty(re.shape, dtype)
    z.real, z.imag = re, im
    return z


def same(got, expected, what):
    """Equal parts (NaN equal to NaN); arrays of the same dtype and shape
    (a scalar comes back as a Python complex)."""
    scalar = np.ndim(expected) == 0
    got, expected = np.asarray(got), np.asarray(expected)
    assert scalar or (got.dtype == expected.dtype and got.shape == expected.shape), what
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(part(got), part(expected), err_msg=what)


def expected_orderings(a):
    b = a.copy()
    b.sort()
    return (np.sort(a), np.sort(a, kind="stable"), np.argsort(a, kind="stable"), b, None,
            np.min(a), np.max(a), np.argmin(a), np.argmax(a), a.min(), a.argmax())


@pytest.mark.parametrize("dtype", DTYPES)
def test_orderings_match_numpy(dtype):
    rng = make_rng(41)
    for n in (1, 2, 5, 16, 17, 40, 1000, 3000):
        for special in (False, True):
            a = values(rng, dtype, n, special)
            got = orderings(a)
            for i, (g, e) in enumerate(zip(got, expected_orderings(a))):
                if e is None:  # the default argsort: any order that sorts
                    same(a[g], np.sort(a), f"n={n} argsort")
                else:
                    same(g, e, f"n={n} special={special} result {i}")
            u, (uc, counts) = uniques(a)
            eu, ec = np.unique(a, return_counts=True)  # (see NAN_KEPT)
            same(u, eu, f"n={n} unique")
            same(uc, eu, f"n={n} unique with counts")
            np.testing.assert_array_equal(counts, ec)


def test_nan_classes_are_ordered_as_numpy():
    nan = np.nan
    a = np.array([complex(nan, nan), complex(nan, 1), complex(2, nan), complex(1, 5), complex(nan, -1), complex(1, nan),
                  complex(-0.0, 0), complex(0.0, -0.0), complex(-np.inf, 3), complex(1, -5)])
    for dtype in DTYPES:
        x = a.astype(dtype)
        got = orderings(x)
        same(got[1], np.sort(x, kind="stable"), "stable sort")
        np.testing.assert_array_equal(got[2], np.argsort(x, kind="stable"))
        same(got[5], np.min(x), "min")
        assert got[7] == np.argmin(x) == 0
        same(uniques(x)[0], np.unique(x, return_counts=True)[0], "unique")
        y = x[3:]
        same(orderings(y)[5], np.min(y), "min of the rest")
        assert orderings(y)[8] == np.argmax(y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_along_axes_and_layouts(dtype):
    rng = make_rng(42)
    a = values(rng, dtype, 60, True).reshape(6, 10)
    for x in (a, np.asfortranarray(a), a[:, ::-2], a[::2]):
        got = along_axes(x)
        expected = (np.sort(x, axis=0), np.argsort(x, axis=1, kind="stable"), np.min(x, axis=0), np.argmax(x, axis=1),
                    np.sort(x, axis=None))
        for i, (g, e) in enumerate(zip(got, expected)):
            same(g, e, f"result {i}")


def test_empty_arrays():
    a = np.zeros(0, np.complex128)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        orderings(a)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        along_axes(np.zeros((0, 3), np.complex64))
    u, (uc, counts) = uniques(a)
    assert u.size == 0 and counts.size == 0
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        along_axes(np.zeros((3, 0), np.complex128))
