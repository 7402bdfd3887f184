"""NumPy's sorting in compiled code: numpy.sort, numpy.argsort,
numpy.partition and numpy.argpartition, as functions and array methods
(a.sort() and a.partition() in place), along an axis or flattened
(axis=None), with every kind.

Every call is checked against NumPy on generated inputs: every dtype
(bool, int8..uint64, float32, float64 with NaN, infinities and -0.0),
empty and one-element arrays, C, Fortran, strided and reversed layouts,
and lengths on both sides of the run-time sort's switch from merge sort
to radix sort. The stable kinds give NumPy's indices exactly; for the
default kind the sorted values are NumPy's, and argsort's indices a
permutation that sorts the array (equal elements in the order of Numba's
quicksort: test_sort_ties.py).
"""
import numpy as np
import pytest

import ruchey

from arraygen import DTYPES, array, assert_same_array, check, define
from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's sort takes no axis= and other kinds")

SHAPES = [(0,), (1,), (2,), (17,), (3, 4), (4, 1), (0, 3), (2, 3, 4)]
LAYOUTS = ("C", "F", "strided", "reversed")
STABLE_KINDS = ('"stable"', '"mergesort"')


def sort_fn(expr):
    return define(f"@ruchey.njit\ndef f(a):\n    return {expr}\n")


_fns = {}


def fn(expr):
    if expr not in _fns:
        _fns[expr] = sort_fn(expr)
    return _fns[expr]


def argument(rng, dtype, shape, layout, duplicates=False):
    a = array(rng, dtype, shape, layout)
    if duplicates and a.size and np.dtype(dtype).kind != "b":
        a[...] = array(rng, dtype, shape, "C") % 5 if np.dtype(dtype).kind != "f" else np.round(a)
    return a


def cases(ndims=(1, 2, 3)):
    for dtype in DTYPES:
        for shape in SHAPES:
            if len(shape) not in ndims:
                continue
            for layout in LAYOUTS:
                yield dtype, shape, layout


def test_sort_values_match_numpy_for_every_kind():
    rng = make_rng(1)
    for kind in ("", ', kind="quicksort"', ', kind="stable"', ', kind="mergesort"', ', kind="heapsort"'):
        for axis in ("", ", -1", ", axis=0", ", axis=None"):
            f = fn(f"np.sort(a{axis}{kind})")
            for dtype, shape, layout in cases((1, 2) if kind else (1, 2, 3)):
                check(f, argument(rng, dtype, shape, layout, duplicates=True))


def test_sort_middle_axis_and_runtime_axis():
    rng = make_rng(2)
    f = fn("np.sort(a, axis=1)")
    g = define("@ruchey.njit\ndef g(a, k):\n    return np.sort(a, k), np.argsort(a, k, kind='stable')\n", "g")
    for dtype in DTYPES:
        for layout in LAYOUTS:
            a = argument(rng, dtype, (3, 5, 4), layout, duplicates=True)
            check(f, a)
            for k in (-3, -2, -1, 0, 1, 2):
                check(g, a, k)


def test_stable_argsort_gives_numpys_indices():
    rng = make_rng(3)
    for kind in STABLE_KINDS:
        for axis in ("", ", axis=0", ", axis=None"):
            f = fn(f"np.argsort(a{axis}, kind={kind})")
            for dtype, shape, layout in cases((1, 2)):
                check(f, argument(rng, dtype, shape, layout, duplicates=True))
    check(fn("a.argsort(kind='stable')"), argument(rng, np.float64, (5, 6), "F", duplicates=True))
    check(fn("a.argsort(axis=None, kind='stable')"), argument(rng, np.int16, (5, 6), "strided", duplicates=True))


def _assert_sorts(a, idx, axis):
    expected = np.argsort(a, axis=axis, kind="stable")
    assert idx.dtype == np.int64 and idx.shape == expected.shape
    flat = a.reshape(-1) if axis is None else a
    ax = 0 if axis is None else axis
    assert_same_array(np.sort(flat, axis=ax), np.take_along_axis(flat, idx, axis=ax))
    assert_same_array(np.sort(expected, axis=ax), np.sort(idx, axis=ax))  # a permutation of each lane


def test_default_argsort_sorts_the_array():
    rng = make_rng(4)
    for axis, text in ((-1, ""), (0, ", 0"), (None, ", axis=None")):
        f, m = fn(f"np.argsort(a{text})"), fn(f"a.argsort({text[2:]})")
        for dtype, shape, layout in cases((1, 2)):
            a = argument(rng, dtype, shape, layout, duplicates=True)
            _assert_sorts(a, f(a), axis)
            _assert_sorts(a, m(a), axis)


def test_sort_method_sorts_in_place():
    rng = make_rng(5)
    for text in ("", "0", "axis=-1", 'kind="stable"'):
        f = define(f"@ruchey.njit\ndef f(a):\n    return a.sort({text})\n")
        for dtype, shape, layout in cases():
            check(f, argument(rng, dtype, shape, layout, duplicates=True))


def test_sort_of_a_view_changes_the_base():
    f = define("@ruchey.njit\ndef f(a):\n    a[::2].sort()\n    a[:, 1:].sort(axis=0)\n    return a\n")
    rng = make_rng(6)
    for dtype in DTYPES:
        check(f, argument(rng, dtype, (6, 5), "C"))


@pytest.mark.parametrize("dtype", DTYPES)
def test_long_arrays_radix_sort_matches_numpy(dtype):
    """Lengths around the switch to radix sort (1024), with few and many
    distinct values, NaN and -0.0 among floats: values and stable indices."""
    rng = make_rng(7)
    s, a_s = fn("np.sort(a)"), fn("np.argsort(a, kind='stable')")
    for n in (1023, 1024, 1025, 5000, int(rng.integers(2000, 30000))):
        for spread in (3, None):
            a = array(rng, dtype, (n,), "C")
            if spread and np.dtype(dtype).kind != "b":
                a = (a % spread).astype(dtype) if np.dtype(dtype).kind != "f" else np.round(a / 1e3)
            check(s, a)
            check(a_s, a)
            check(a_s, a[::-3])


def test_random_sizes_match_numpy():
    rng = make_rng(8)
    s, a_s, flat = fn("np.sort(a, kind='mergesort')"), fn("np.argsort(a, kind='stable')"), fn("np.sort(a, axis=None)")
    for _ in range(40):
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        n = int(rng.choice([0, 1, 2, int(rng.integers(3, 50)), int(rng.integers(50, 3000))]))
        a = argument(rng, dtype, (n,), str(rng.choice(LAYOUTS)), duplicates=bool(rng.integers(2)))
        check(s, a)
        check(a_s, a)
        check(flat, a.reshape(-1, 1) if n else a)


def test_nan_and_signed_zeros_are_ordered_as_numpy():
    a = np.array([np.nan, 1.0, -0.0, -np.inf, 0.0, np.nan, -1.0, np.inf, 0.0, -0.0])
    for dtype in (np.float32, np.float64):
        x = a.astype(dtype)
        check(fn("np.sort(a)"), x)
        check(fn("np.argsort(a, kind='stable')"), x)
        got = fn("np.sort(a)")(x)
        assert np.isnan(got[-2:]).all() and got[0] == -np.inf and got[-3] == np.inf


def test_sort_returns_a_new_array():
    f = define("@ruchey.njit\ndef f(a):\n    b = np.sort(a)\n    b[0] = 99\n    return a, b\n")
    check(f, np.array([3.0, 1.0, 2.0]))


# ---------------------------------------------------------------- errors


def test_bad_kind_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="sort kind must be one of"):
        fn('np.sort(a, kind="bubble")')(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="sort kind must be one of"):
        fn('a.argsort(kind="fast")')(np.zeros(3))


def test_bad_axis():
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):  # (when it runs)
        fn("np.sort(a, 2)")(np.zeros((2, 2)))
    with pytest.raises(ruchey.TypingError, match="axis -1 is out of bounds for array of dimension 0"):
        fn("np.sort(a)")(np.zeros(()))
    g = define("@ruchey.njit\ndef g(a, k):\n    return np.argsort(a, axis=k)\n", "g")
    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 2"):
        g(np.zeros((2, 2)), 3)
    with pytest.raises(ValueError, match="axis -3 is out of bounds"):
        g(np.zeros((2, 2)), -3)
    with pytest.raises(ruchey.TypingError, match="axis must be an integer"):
        fn("np.sort(a, 1.5)")(np.zeros(3))


def test_wrong_types_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match=r"numpy.sort\(\) needs an array"):
        fn("np.sort(a)")(3.0)
    with pytest.raises(ruchey.TypingError, match="axis must be an integer, got None"):
        define("@ruchey.njit\ndef f(a):\n    a.sort(axis=None)\n")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="unsupported keyword argument 'order'"):
        fn("np.sort(a, order=0)")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="kind must be a constant string"):
        fn("np.sort(a, kind=1)")(np.zeros(3))


def test_sort_of_a_0d_array_flattened():
    check(fn("np.sort(a, axis=None)"), np.array(3.5))
    check(fn("np.argsort(a, axis=None)"), np.array(7))


def test_kernels_cannot_sort():
    from ruchey import cuda

    @cuda.jit
    def in_place(a):
        a.sort()

    @cuda.jit
    def new_array(a):
        a[0] = np.sort(a)[0]

    with pytest.raises(ruchey.TypingError, match="kernels cannot sort arrays"):
        in_place[1, 1](np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="kernels cannot allocate arrays"):
        new_array[1, 1](np.zeros(3))


# ---------------------------------------------------------------- partition, argpartition


def _assert_partitioned(expected, got, k, axis):
    """got is a partition of the lanes along axis at k: NumPy's element at
    k, none before it larger, none after it smaller (NaN the largest)."""
    assert got.dtype == expected.dtype and got.shape == expected.shape
    e, g = np.moveaxis(expected, axis, -1), np.moveaxis(got, axis, -1)
    if g.size == 0:
        return
    assert_same_array(e[..., k], g[..., k])
    kk = k % g.shape[-1]
    sorted_g = np.sort(g, axis=-1)
    pivot = sorted_g[..., kk:kk + 1]
    before, after = g[..., :kk], g[..., kk + 1:]
    if g.dtype.kind == "f":
        assert not (np.isnan(before) & ~np.isnan(pivot)).any()
        assert ((before <= pivot) | np.isnan(before) | np.isnan(pivot)).all()
        assert ((after >= pivot) | np.isnan(after)).all()
    else:
        assert (before <= pivot).all() and (after >= pivot).all()


def test_partition_is_a_valid_partition():
    rng = make_rng(9)
    for axis, text in ((-1, ""), (0, ", axis=0"), (None, ", axis=None")):
        f = define(f"@ruchey.njit\ndef f(a, k):\n    return np.partition(a, k{text}), np.argpartition(a, k{text})\n")
        for dtype, shape, layout in cases((1, 2)):
            a = argument(rng, dtype, shape, layout, duplicates=True)
            lane = a.size if axis is None else a.shape[axis]
            for k in {0, lane - 1, lane // 2, -1} if lane else ():
                values, idx = f(a, k)
                flat = a.reshape(-1) if axis is None else a
                ax = 0 if axis is None else axis
                expected = np.partition(flat, k, axis=ax)
                _assert_partitioned(expected, values, k, ax)
                _assert_partitioned(expected, np.take_along_axis(flat, idx, axis=ax), k, ax)
                assert_same_array(np.sort(np.argsort(flat, axis=ax), axis=ax), np.sort(idx, axis=ax))


def test_sorted_copies_keep_a_fortran_arrays_order_as_numpy():
    """np.sort and np.partition copy a in its order (order='K'), then sort
    the copy: a Fortran array gives a Fortran result; argsort's and
    argpartition's indices are C arrays, as NumPy's."""
    rng = make_rng(10)
    f = define("@ruchey.njit\ndef f(a, k):\n    return np.sort(a, k), np.argsort(a, k, kind='stable'), "
               "np.sort(a, k, kind='stable'), np.partition(a, 0, k), np.argpartition(a, 0, k).flags.c_contiguous\n")
    for dtype in (np.float64, np.int32, np.bool_, np.complex128):
        for shape in ((3, 4), (2, 3, 4), (1, 5), (0, 3)):
            for layout in ("C", "F"):
                a = argument(rng, dtype, shape, layout, duplicates=dtype is not np.complex128)
                for k in range(-a.ndim, a.ndim):
                    got, expected = f(a, k), f.py_func(a, k)
                    for g, e in zip(got[:3], expected[:3]):
                        assert_same_array(e, g, flags=True)
                    assert got[3].flags.f_contiguous == expected[3].flags.f_contiguous
                    assert got[4] == expected[4]


def test_partition_method_in_place():
    rng = make_rng(10)
    f = define("@ruchey.njit\ndef f(a, k):\n    a.partition(k)\n    return a.argpartition(k, axis=0)\n")
    for dtype in DTYPES:
        a = argument(rng, dtype, (4, 5), "strided", duplicates=True)
        b = a.copy()
        idx = f(a, 2)
        b.partition(2)
        _assert_partitioned(b, a, 2, -1)
        _assert_partitioned(np.partition(a, 2, axis=0), np.take_along_axis(a, idx, axis=0), 2, 0)


def test_partition_errors():
    f = define("@ruchey.njit\ndef f(a, k):\n    return np.partition(a, k)\n")
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        f(np.zeros(5), 5)
    with pytest.raises(ValueError, match=r"kth\(=-1\) out of bounds \(5\)"):
        f(np.zeros(5), -6)
    with pytest.raises(ruchey.TypingError, match="select kind must be 'introselect'"):
        fn('np.partition(a, 1, kind="quicksort")')(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="kth must be an integer"):
        fn("np.argpartition(a, 1.0)")(np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="missing argument 'kth'"):
        fn("np.partition(a, axis=0)")(np.zeros(3))


@ruchey.njit
def lexsort_of_three(a, b, c):
    return np.lexsort((a, b, c)), np.lexsort([c[::-1], a[::-1]], axis=0)


@ruchey.njit
def lexsort_of_rows(keys, axis):
    return np.lexsort(keys, axis=axis)


def test_lexsort_is_numpys_stable_order_last_key_first():
    """Keys of different dtypes in a tuple or list, the last deciding first,
    ties kept in order; NaN after every number, -0.0 equal to 0.0."""
    rng = make_rng(3)
    for dt in (np.float64, np.float32, np.int8, np.uint16, np.int64, np.bool_):
        for n in (0, 1, 9, 40, 2000):  # both sides of the run-time sort's switch to radix sort
            a = rng.integers(0, 4, n).astype(dt)
            b, c = rng.integers(-1, 2, n).astype(np.float64), rng.integers(0, 2, n).astype(np.int32)
            if n > 2:
                b[::4], b[1] = np.nan, -0.0
                if a.dtype.kind == "f":
                    a[::3], a[2] = np.nan, -0.0
            got, want = lexsort_of_three(a, b, c), (np.lexsort((a, b, c)), np.lexsort([c[::-1], a[::-1]], axis=0))
            for g, w in zip(got, want):
                assert g.dtype == w.dtype
                np.testing.assert_array_equal(g, w)


def test_lexsort_of_an_array_sorts_along_any_axis_of_its_keys():
    rng = make_rng(4)
    keys = rng.integers(0, 3, (3, 4, 5)).astype(np.float64)
    keys[0, 1, 2] = np.nan
    for k in (keys, np.asfortranarray(keys)[:, ::-1], np.zeros((2, 0, 3)), rng.integers(0, 2, (2, 6))):
        for axis in range(-(k.ndim - 1), k.ndim - 1):
            np.testing.assert_array_equal(lexsort_of_rows(k, axis), np.lexsort(k, axis=axis))


def _complex_keys(rng, n, dt):
    c = (rng.integers(-2, 3, n) + 1j * rng.integers(-2, 3, n)).astype(dt)
    if n > 3:  # NumPy's order puts NaNs last: in the imaginary part, then the real, then both
        c[1], c[2], c[3] = complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan)
        c[4 % n] = complex(-0.0, 0.0)
    return c


def _text_keys(rng, n):
    return np.array(["".join(rng.choice(list("ab\u00e9z"), rng.integers(0, 4))) for _ in range(n)], dtype="U3")


@pytest.mark.parametrize("n", [0, 1, 7, 50, 600])
def test_lexsort_of_complex_str_and_bytes_keys_is_numpys(n):
    """Complex keys in NumPy's order (real part, then imaginary, NaNs last),
    str and bytes keys by code point, mixed with number keys, stably."""
    rng = make_rng(n + 5)
    ints = rng.integers(0, 3, n)
    for c in (_complex_keys(rng, n, np.complex128), _complex_keys(rng, n, np.complex64)):
        s = _text_keys(rng, n)
        b = np.char.encode(s, "utf-8") if n else np.zeros(0, "S2")
        for keys in ((c, ints), (ints, c), (s, ints), (ints, s), (b, c), (c, s, b), (s[::-1], c[::-1], ints[::-1])):
            got, want = lexsort_of_rows(keys, -1), np.lexsort(keys)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


def test_lexsort_of_an_array_of_complex_or_str_keys_along_any_axis():
    rng = make_rng(9)
    complexes = _complex_keys(rng, 60, np.complex128).reshape(3, 4, 5)
    words = _text_keys(rng, 60).reshape(3, 4, 5)
    for k in (complexes, np.asfortranarray(complexes)[:, ::-1], words, words[:, :, ::2], np.zeros((2, 0, 3), "U2")):
        for axis in range(-(k.ndim - 1), k.ndim - 1):
            np.testing.assert_array_equal(lexsort_of_rows(k, axis), np.lexsort(k, axis=axis))


def test_lexsort_errors_are_numpys():
    with pytest.raises(TypeError, match="need sequence of keys with len > 0"):
        lexsort_of_rows(np.zeros((0, 3)), 0)
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        lexsort_of_three(np.zeros(3), np.zeros(4), np.zeros(3))
    with pytest.raises(np.exceptions.AxisError):
        lexsort_of_rows(np.zeros((2, 3)), 1)

    def keys_of(keys):
        return np.lexsort(keys)

    for keys in ((), np.zeros(3), (np.zeros(3), np.zeros((3, 1))), (np.zeros(3, "M8[s]"),)):
        with pytest.raises(ruchey.TypingError):
            ruchey.njit(keys_of)(keys)
