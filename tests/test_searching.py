"""NumPy's searching and counting in compiled code: searchsorted, digitize,
interp, bincount, unique and histogram.

Each call is checked against NumPy on generated inputs (every dtype,
numbers and arrays of needles, empty and one-element arrays, strided and
reversed views, NaN among floats), and its errors against NumPy's.
"""
import numpy as np
import pytest

import ruchey

from arraygen import DTYPES, compiled, array, check, define
from conftest import AS_NUMBA, make_rng, numpy2_only

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's versions take other arguments and raise other errors")

NUMBERS = [d for d in DTYPES if d is not np.bool_]
LAYOUTS = ("C", "strided", "reversed")

fn = compiled


def check_outcome(f, *args):
    """check(f, *args), or where NumPy raises, the same exception and message."""
    try:
        f.py_func(*args)
    except ValueError as e:
        with pytest.raises(type(e), match=str(e).replace(".", "\\.")):
            f(*args)
        return
    check(f, *args)


def small(rng, dtype, shape, layout="C"):
    """Values with ties: small ints, or rounded floats with NaN and infinities among them."""
    a = array(rng, dtype, shape, layout)
    kind = np.dtype(dtype).kind
    if kind in "iu":
        a[...] = array(rng, dtype, shape, "C") % 9
    elif kind == "f":
        a[...] = np.round(a / 100)
    return a


def sorted_array(rng, dtype, n, layout="C"):
    a = np.sort(small(rng, dtype, (n,)))
    if layout == "strided":
        return np.repeat(a, 2)[::2]
    if layout == "reversed":
        return a[::-1].copy()[::-1]
    return a


# ---------------------------------------------------------------- searchsorted


def test_searchsorted_matches_numpy():
    rng = make_rng(1)
    left, right, method = (fn("np.searchsorted(a, v)", "a, v"), fn("np.searchsorted(a, v, side='right')", "a, v"),
                           fn("a.searchsorted(v, 'right')", "a, v"))
    for dtype in DTYPES:
        for vtype in (dtype, np.float64, np.int64):
            for n in (0, 1, 2, 17, 300):
                for layout in LAYOUTS:
                    a = sorted_array(rng, dtype, n, layout)
                    v = small(rng, vtype, (4, 3), layout)
                    for f in (left, right, method):
                        check(f, a, v)
                        check(f, a, v[1, 2])


def test_searchsorted_python_numbers():
    a = np.array([1.0, 2.0, 2.0, 3.5, np.nan])
    for side in ("left", "right"):
        f = fn(f"(np.searchsorted(a, 2), np.searchsorted(a, 2.0, side='{side}'), np.searchsorted(a, np.nan, '{side}'))")
        check(f, a)
        check(f, np.arange(5, dtype=np.float32))
        check(f, np.arange(5))


def test_searchsorted_side_read_when_the_call_runs():
    rng = make_rng(48)
    f = fn("np.searchsorted(a, v, side=side)", "a, v, side")
    g = define("@ruchey.njit\ndef g(a, v, side='left'):\n    return np.searchsorted(a, v, side)\n", "g")
    for dtype in (np.float64, np.int32):
        a = np.sort(rng.integers(0, 6, 12)).astype(dtype)
        for v in (2, 2.5, rng.integers(-1, 8, 7).astype(dtype), np.array([[3, 0], [6, 1]], dtype)):
            for side in ("left", "right"):
                check(f, a, v, side)
                check(g, a, v, side)
            check(g, a, v)
    with pytest.raises(ValueError, match="search side must be 'left' or 'right'"):
        f(np.arange(3.0), 1.0, "middle")


def test_searchsorted_errors():
    with pytest.raises(ruchey.TypingError, match="search side must be 'left' or 'right'"):
        fn("np.searchsorted(a, 1.0, side='middle')")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="a must be a 1-d array"):
        fn("np.searchsorted(a, 1.0)")(np.zeros((2, 2)))
    with pytest.raises(ruchey.TypingError, match="v must be a number or an array"):
        fn("np.searchsorted(a, 'ab')")(np.zeros(3))


@ruchey.njit
def search_text(a, v, side):
    return np.searchsorted(a, v, side=side), a.searchsorted(v, side)


def random_words(rng, n, longest, as_bytes):
    """n words of up to longest letters (one beyond ASCII), as an array of str or bytes items."""
    letters = np.array(list("abc\u00e9"))
    words = ["".join(rng.choice(letters, rng.integers(0, longest + 1))) for _ in range(n)]
    if as_bytes:
        return np.array([w.encode("latin-1") for w in words], dtype=f"S{longest}")
    return np.array(words, dtype=f"U{longest}")


@pytest.mark.parametrize("as_bytes", [False, True])
def test_searchsorted_of_str_and_bytes_arrays_matches_numpy(as_bytes):
    """Needles of other widths than the items (NumPy compares their units,
    trailing NULs not counted), arrays of them and single ones, both sides;
    an unsorted array answers as NumPy's loop does."""
    rng = make_rng(49)
    for n in (0, 1, 6, 40):
        a = np.sort(random_words(rng, n, 3, as_bytes))
        for v in (random_words(rng, 7, 4, as_bytes), random_words(rng, 6, 2, as_bytes).reshape(2, 3),
                  random_words(rng, 5, 3, as_bytes)[::-1], random_words(rng, 9, 3, as_bytes)):
            for side in ("left", "right"):
                for got, want in zip(search_text(a, v, side), (np.searchsorted(a, v, side), a.searchsorted(v, side))):
                    np.testing.assert_array_equal(got, want)
            for x in v.ravel()[:4].tolist():  # a str or a bytes each
                assert search_text(a, x, "right") == (np.searchsorted(a, x, "right"),) * 2
        unsorted = random_words(rng, n, 3, as_bytes)
        np.testing.assert_array_equal(search_text(unsorted, v, "left")[0], np.searchsorted(unsorted, v))


def test_searchsorted_of_text_needs_text_of_its_kind():
    for a, v in ((np.array(["a"]), b"a"), (np.array([b"a"]), np.array(["a"])), (np.array(["a"]), np.arange(2)),
                 (np.array([b"a"]), 3), (np.arange(3), np.array(["a"]))):
        with pytest.raises(ruchey.TypingError, match="searches arrays of str for str or a number, of bytes for bytes"):
            search_text(a, v, "left")


@pytest.mark.parametrize("seed", range(3))
def test_searchsorted_of_a_number_among_str_searches_for_its_str_as_numpy(seed):
    """NumPy searches their common dtype: the number written as its str
    (ints of every width, floats as repr writes them, float32's shortest,
    bools, complex), on sorted and unsorted arrays of numbers' texts"""
    rng = make_rng(seed)
    numbers = [int(rng.integers(-100, 100)), float(rng.normal() * 10.0 ** rng.integers(-8, 22)), True, False,
               np.float32(rng.normal()), np.int8(rng.integers(-128, 127)), np.uint64(2 ** 64 - 1), np.nan, -np.inf,
               complex(rng.normal(), rng.normal()), float(rng.integers(0, 9)) / 2]
    texts = [str(x) for x in numbers] + [str(int(x)) for x in rng.integers(-20, 20, 10)] + ["", "a", "1e"]
    a = np.array(texts)[rng.permutation(len(texts))]
    for arr in (np.sort(a), a, np.sort(a)[::-1].copy()[::-1]):
        for v in numbers:
            for side in ("left", "right"):
                assert search_text(arr, v, side) == (np.searchsorted(arr, v, side),) * 2, (v, side)


# ---------------------------------------------------------------- digitize


def test_digitize_matches_numpy():
    rng = make_rng(2)
    fs = [fn("np.digitize(x, b)", "x, b"), fn("np.digitize(x, b, right=True)", "x, b"), fn("np.digitize(x, b, True)", "x, b")]
    for dtype in NUMBERS:
        for n in (0, 1, 2, 9, 100):
            b = np.unique(small(rng, dtype, (n,)))
            b = b[~np.isnan(b)] if b.dtype.kind == "f" else b
            for bins in (b, b[::-1], np.repeat(b, 2)):
                x = small(rng, dtype, (3, 5))
                for f in fs:
                    check(f, x, bins)
                    check(f, x[::2, ::-1], bins)
                    check(f, x[0, 0], bins)


def test_digitize_bins_must_be_monotonic():
    with pytest.raises(ValueError, match="bins must be monotonically increasing or decreasing"):
        fn("np.digitize(x, b)", "x, b")(np.zeros(3), np.array([1.0, 3.0, 2.0]))
    with pytest.raises(ruchey.TypingError, match="right must be True or False"):
        fn("np.digitize(x, b, r)", "x, b, r")(np.zeros(3), np.array([1.0, 3.0]), "yes")


# ---------------------------------------------------------------- interp


def test_interp_matches_numpy():
    rng = make_rng(3)
    f, g = fn("np.interp(x, xp, fp)", "x, xp, fp"), fn("np.interp(x, xp, fp, left=-1.0, right=7)", "x, xp, fp")
    for n in (1, 2, 3, 50):
        for xtype in (np.float64, np.float32, np.int64):
            xp = np.sort(rng.standard_normal(n) * 3)
            if n > 2:
                xp[1] = xp[2]  # a repeated point
            fp = rng.standard_normal(n)
            for x in (rng.standard_normal((4, 6)) * 4, np.concatenate([xp, [np.nan, np.inf, -np.inf]])):
                x = x.astype(xtype) if xtype is not np.int64 else np.round(x[np.isfinite(x)]).astype(xtype)
                check(f, x, xp, fp)
                check(g, x, xp[::-1][::-1], fp.astype(np.float32))
                check(f, x[..., ::2], xp.astype(np.int32), fp)
                check(f, x.reshape(-1)[0] if x.size else 0.5, xp, fp)


def test_interp_infinite_values():
    f = fn("np.interp(x, xp, fp)", "x, xp, fp")
    xp, fp = np.array([0.0, 1.0, 1.0, 2.0, 4.0]), np.array([0.0, 10.0, 20.0, np.inf, 5.0])
    check(f, np.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, np.nan]), xp, fp)


def test_interp_errors():
    f = fn("np.interp(x, xp, fp)", "x, xp, fp")
    with pytest.raises(ValueError, match="array of sample points is empty"):
        f(np.zeros(3), np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="fp and xp are not of the same length"):
        f(np.zeros(3), np.zeros(3), np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="xp must be a 1-d array"):
        f(np.zeros(3), np.zeros((3, 1)), np.zeros(3))


# ---------------------------------------------------------------- bincount


@numpy2_only  # NumPy 1 cannot cast uint64 to the index type
def test_bincount_matches_numpy():
    rng = make_rng(4)
    f, fw, fm = fn("np.bincount(x)", "x"), fn("np.bincount(x, w)", "x, w"), fn("np.bincount(x, weights=w, minlength=m)", "x, w, m")
    for dtype in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        for n in (0, 1, 5, 200):
            for layout in LAYOUTS:
                x = np.abs(small(rng, dtype, (n,), layout)).astype(dtype) if dtype is not np.bool_ else array(rng, dtype, (n,), layout)
                w = array(rng, np.float32, (n,), layout)
                check(f, x)
                if n == 0:  # NumPy's is int64 when x is empty: ruchey's type cannot hang on a length
                    for m in (0, 3):
                        got = fm(x, w, m)
                        assert got.dtype == np.float64 and (got == np.bincount(x, w, m)).all()
                    continue
                check(fw, x, w)
                check(fw, x, np.arange(n))
                for m in (0, 3, 20):
                    check(fm, x, w, m)


def test_bincount_weights_none_counts():
    x = make_rng(14).integers(0, 6, 40)
    check(fn("np.bincount(x, None)", "x"), x)
    check(fn("np.bincount(x, weights=w)", "x, w"), x, None)


def test_bincount_errors():
    with pytest.raises(ValueError, match="'list' argument must have no negative elements"):
        fn("np.bincount(x)", "x")(np.array([1, -1]))
    with pytest.raises(ValueError, match="'minlength' must not be negative"):
        fn("np.bincount(x, minlength=m)", "x, m")(np.array([1]), -1)
    with pytest.raises(ValueError, match="The weights and list don't have the same length."):
        fn("np.bincount(x, w)", "x, w")(np.array([1]), np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="cannot cast array data from dtype\\('float64'\\)"):
        fn("np.bincount(x)", "x")(np.array([1.0]))
    with pytest.raises(ruchey.TypingError, match="x must be a 1-d array"):
        fn("np.bincount(x)", "x")(np.zeros((2, 2), dtype=np.int64))


# ---------------------------------------------------------------- unique


def test_unique_matches_numpy():
    rng = make_rng(5)
    f, fc, ff = fn("np.unique(a)"), fn("np.unique(a, return_counts=True)"), fn("np.unique(a, return_counts=False)")
    for dtype in DTYPES:
        for shape in ((0,), (1,), (7,), (3, 4), (2000,)):
            for layout in ("C", "F", "strided", "reversed"):
                a = small(rng, dtype, shape, layout)
                check(f, a)
                check(fc, a)
                check(ff, a)


def test_unique_nans_and_zeros():
    a = np.array([np.nan, 0.0, -0.0, np.nan, 1.0, -0.0])
    check(fn("np.unique(a, return_counts=True)"), a)
    check(fn("np.unique(a)"), a.astype(np.float32))


UNIQUE_POSITIONS = ("np.unique(a, return_index=True, return_inverse=True, return_counts=True)",
                    "np.unique(a, True, True)", "np.unique(a, return_inverse=True)",
                    "np.unique(a, return_index=True, return_counts=True)")


@numpy2_only  # (NumPy 2's inverse has a's shape)
def test_unique_positions_match_numpy():
    rng = make_rng(6)
    for dtype in DTYPES:
        for shape in ((0,), (1,), (9,), (3, 4), (2, 0, 3), (1500,)):
            layout = ("C", "F", "strided", "reversed")[len(shape) % 4]
            a = small(rng, dtype, shape, layout)
            for expr in UNIQUE_POSITIONS:
                check(fn(expr), a)


@numpy2_only
def test_unique_positions_of_nans_numbers_and_text():
    f = fn(UNIQUE_POSITIONS[0])
    for a in (np.array([np.nan, 0.0, -0.0, np.nan, 1.0, -0.0, np.inf, -np.inf]),
              np.array([np.nan, 1 + 1j, np.nan, 1 + 1j, 0j]), np.array(["b", "a", "b", ""]),
              np.array([[True, False], [True, True]]), 7, 2.5, [3, 1, 3, -2], (2.5, np.nan, 2.5)):
        check(f, a)
    check(fn("np.unique(a)"), [4, 1, 4])  # a list or tuple: as its array


def test_unique_errors():
    with pytest.raises(ruchey.TypingError, match="unsupported keyword argument 'axis'"):
        fn("np.unique(a, axis=0)")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="return_inverse must be a constant"):
        fn("np.unique(a, return_inverse=c)", "a, c")(np.zeros(3), True)
    with pytest.raises(ruchey.TypingError, match="return_counts must be a constant"):
        fn("np.unique(a, return_counts=c)", "a, c")(np.zeros(3), True)


# ---------------------------------------------------------------- histogram


@numpy2_only  # NumPy 1's histogram fails on the widest int ranges (IndexError)
def test_histogram_with_int_bins_matches_numpy():
    rng = make_rng(6)
    fs = [fn("np.histogram(a)"), fn("np.histogram(a, 7)"), fn("np.histogram(a, bins=1)"),
          fn("np.histogram(a, 5, range=(-3, 2.5))"), fn("np.histogram(a, 4, (0, 0))")]
    for dtype in NUMBERS:
        for shape in ((1,), (2,), (50,), (6, 7), (1000,)):
            for layout in ("C", "F", "strided"):
                a = array(rng, dtype, shape, layout)
                if a.dtype.kind == "f":
                    a[~np.isfinite(a)] = 0.5
                    a *= rng.choice([1e-3, 1.0, 1e3])
                for f in fs:
                    check_outcome(f, a)


@numpy2_only  # NumPy 1 rounds float32 data's bin edges otherwise (ruchey gives NumPy 2's)
def test_histogram_of_many_values_and_bins_matches_numpy():
    # values on and next to every edge, far more bins than the default, and
    # bin counts either side of where the bins are found by a multiplication
    rng = make_rng(9)
    f, auto = fn("np.histogram(a, n, (lo, hi))", "a, n, lo, hi"), fn("np.histogram(a, n)", "a, n")
    for dtype in (np.float64, np.float32):
        for n in (1, 3, 50, 997, 2**16, 2**16 + 1):
            lo, hi = sorted(float(x) for x in rng.normal(size=2) * rng.choice([1e-3, 1.0, 1e5]))  # weak, as literals
            edges = np.histogram(np.zeros(1, dtype), n, (lo, hi))[1]
            near = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
            a = np.concatenate([near, lo + (hi - lo) * rng.uniform(-0.2, 1.2, 5000)]).astype(dtype)
            rng.shuffle(a)
            check(f, a, n, lo, hi)
            check_outcome(auto, a, n)
            check_outcome(auto, a[:a.size // 4 * 4].reshape(-1, 4)[:, ::2], n)
            a[::7] = np.nan
            check(f, a, n, lo, hi)
    check(f, np.array([np.inf, -np.inf, 0.5, 1.0]), 4, 0.0, 1.0)


def test_histogram_with_edges_matches_numpy():
    rng = make_rng(7)
    f = fn("np.histogram(a, b)", "a, b")
    for dtype in NUMBERS:
        for edges in (np.array([0, 2, 4]), np.array([-1.5, 0.0, 0.0, 3.0, 10.0]), np.array([1.0]), np.linspace(-5, 5, 11)):
            a = small(rng, dtype, (40,))
            check(f, a, edges)
            check(f, a[::3], edges.astype(np.float32))


def test_histogram_empty_and_constant():
    for a in (np.zeros(0), np.full(5, 2.0), np.full(3, 7, dtype=np.int16)):
        check(fn("np.histogram(a, 3)"), a)


@numpy2_only  # NumPy 1 rounds float32 data's bin edges otherwise (ruchey gives NumPy 2's)
def test_histogram_range_none_reads_as_not_given():
    @ruchey.njit
    def hist(a, bins, range_=None):  # a default handed on, as wrappers of np.histogram do
        return np.histogram(a, bins=bins, range=range_)

    @ruchey.njit
    def literal(a):
        return np.histogram(a, 6, None)

    rng = make_rng(8)
    for dtype in (np.float64, np.float32, np.int32):
        a = (rng.normal(size=60) * 3).astype(dtype)
        check(hist, a, 5)
        check(hist, a, np.array([-2.0, 0.0, 1.5, 4.0]))
        check(hist, a, 4, (-1.0, 3.0))
        check(literal, a)


def test_histogram_errors():
    with pytest.raises(ValueError, match="autodetected range of"):
        fn("np.histogram(a)")(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="max must be larger than min in range parameter."):
        fn("np.histogram(a, 2, range=(3, 1))")(np.zeros(3))
    with pytest.raises(ValueError, match="supplied range"):
        fn("np.histogram(a, 2, range=(0, np.inf))")(np.zeros(3))
    with pytest.raises(ValueError, match="Too many bins for data range. Cannot create 10 finite-sized bins."):
        fn("np.histogram(a)")(np.array([1.0, 1.0 + 2e-16]))
    with pytest.raises(ValueError, match="`bins` must be positive, when an integer"):
        fn("np.histogram(a, n)", "a, n")(np.zeros(3), 0)
    with pytest.raises(ValueError, match="`bins` must increase monotonically, when an array"):
        fn("np.histogram(a, b)", "a, b")(np.zeros(3), np.array([3.0, 1.0]))
    with pytest.raises(ruchey.TypingError, match="bins must be an int or a 1-d array"):
        fn("np.histogram(a, 2.5)")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="bins must be an int or a 1-d array"):
        fn("np.histogram(a, None)")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="unsupported keyword argument 'density'"):
        fn("np.histogram(a, density=True)")(np.zeros(3))
