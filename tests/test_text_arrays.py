"""NumPy text arrays ('<Un' str and '|Sn' bytes arrays) given whole to
what reads their items: list(), sorted(), a for loop filling a list; their
dtype returned; numpy.str_ and numpy.bytes_ scalars as arguments. Each
compiled function against its py_func."""

import numpy
import pytest
import ruchey
from ruchey import njit, typed

from conftest import AS_NUMBA, make_rng, numba_deviation


def str_array(rng, n):
    """A '<Un' array of words: empty ones, ones filling the width, non-ASCII ones, repeats."""
    alphabet = ["a", "b", "z", "é", "ж", " "]
    words = ["", "ab", "q" * 5, "ab"] + ["".join(rng.choice(alphabet, size=int(rng.integers(0, 6)))) for _ in range(n)]
    return numpy.array(words)


def bytes_array(rng, n):
    alphabet = [b"a", b"b", b"z", b"\xff", b" "]
    words = [b"", b"ab", b"q" * 5] + [b"".join(rng.choice(alphabet, size=int(rng.integers(0, 6)))) for _ in range(n)]
    return numpy.array(words)


def items_listed(a):
    return list(a)


def items_sorted(a):
    return sorted(a), sorted(a, reverse=True)


def items_appended(a):
    out = typed.List()
    for s in a:
        out.append(s)
    return out


def items_of_a_slice(a):
    return list(a[::-2])


def dtype_of(a):
    return a.dtype


def dtype_of_a_view(a):
    x = a[1:]
    return x.dtype, a.shape


def empty_like_shape_and_dtype(a):
    e = numpy.empty_like(a)
    return e.shape, e.dtype


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("f", [items_listed, items_sorted, items_appended, items_of_a_slice])
def test_items_of_a_str_array_listed_and_sorted(f, seed):
    a = str_array(make_rng(seed), 8)
    got, want = njit(f)(a), f(a)
    if isinstance(want, tuple):
        assert [list(g) for g in got] == [list(w) for w in want]
    else:
        assert list(got) == list(want)
        assert all(type(s) is str for s in got)


def items_joined(a, sep):
    return sep.join(a), "".join(a[::-1])


@pytest.mark.parametrize("seed", range(3))
def test_items_of_a_str_array_joined(seed):
    f = njit(items_joined)
    for n in (0, 1, 8):
        a = str_array(make_rng(seed), n)[3:]
        for sep in ("", ", ", "é"):
            assert f(a, sep) == items_joined(a, sep)
    with pytest.raises(ruchey.TypingError, match="join"):
        f(bytes_array(make_rng(seed), 3), "-")
    with pytest.raises(ruchey.TypingError):
        f(str_array(make_rng(seed), 3).reshape(-1, 1), "-")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("f", [items_listed, items_of_a_slice, pytest.param(
    items_appended, marks=numba_deviation("numba's typed list of a bytes array's items holds CharSeqs"))])
def test_items_of_a_bytes_array_listed(f, seed):
    a = bytes_array(make_rng(seed), 8)
    got = njit(f)(a)
    assert list(got) == list(f(a))
    assert all(type(b) is bytes for b in got)


def bytes_sorted_in_a_list(a, extra):
    out = [extra]
    for b in a:
        out.append(b)
    out.sort()
    return out, sorted(a), sorted(a, reverse=True)


@pytest.mark.parametrize("seed", range(3))
def test_items_of_a_bytes_array_sorted_as_python(seed):
    a = bytes_array(make_rng(seed), 12)
    got, want = njit(bytes_sorted_in_a_list)(a, b"a\x00b"), bytes_sorted_in_a_list(a, b"a\x00b")
    assert [list(g) for g in got] == [list(w) for w in want]


@pytest.mark.parametrize("f", [dtype_of, dtype_of_a_view, empty_like_shape_and_dtype])
def test_dtype_of_a_text_array_returned(f):
    rng = make_rng(4)
    for a in (str_array(rng, 3), bytes_array(rng, 3), numpy.array(["x"] * 2, dtype="<U7")):
        assert njit(f)(a) == f(a)


def test_a_dtype_returned_bare_is_numpys():
    for a in (numpy.zeros(2, numpy.float32), numpy.arange(3), numpy.zeros((2, 2), numpy.complex64)):
        assert njit(dtype_of)(a) == a.dtype


def concatenated(s, t):
    return s + t, len(s), s == t


def first_and_length(b):
    return b[0], len(b), b


@pytest.mark.parametrize("seed", range(2))
def test_numpy_str_scalars_are_strs(seed):
    for s in str_array(make_rng(seed), 4):  # (each item a numpy.str_)
        assert type(s) is numpy.str_
        t = numpy.str_("ж" + s)
        assert njit(concatenated)(s, t) == concatenated(str(s), str(t))


@numba_deviation("numba types numpy.bytes_ as a CharSeq, which its unboxing refuses")
def test_numpy_bytes_scalars_are_bytes():
    for b in bytes_array(make_rng(5), 4):
        assert type(b) is numpy.bytes_
        if len(b):
            assert njit(first_and_length)(b) == first_and_length(bytes(b))


@numba_deviation("numba lists a text array's rows")
def test_arrays_of_text_of_more_dimensions_are_refused_by_list():
    a = numpy.array([["a", "b"], ["c", "d"]])
    with pytest.raises(ruchey.TypingError, match="list()"):
        njit(items_listed)(a)


def sorted_copy(a):
    return numpy.sort(a)


def sorted_in_place(a):
    b = a.copy()
    b.sort()
    return b


def distinct(a):
    return numpy.unique(a)


def distinct_counted(a):
    return numpy.unique(a, return_counts=True)


def sorted_flat(a):
    return numpy.sort(a, axis=None)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("f", [sorted_copy, sorted_in_place, distinct, *(
    pytest.param(f, marks=numba_deviation("numba's has no return_counts nor axis=None for text arrays"))
    for f in (distinct_counted, sorted_flat))])
@pytest.mark.parametrize("make", [str_array, bytes_array])
def test_text_arrays_sorted_and_made_unique_as_numpy(make, f, seed):
    rng = make_rng(seed)
    a = make(rng, int(rng.integers(0, 40)))
    for x in (a, a[::-3], a[: len(a) // 2 * 2].reshape(2, -1), a[:0]):
        got, want = njit(f)(x), f(x)
        for g, w in zip(got if isinstance(want, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert g.dtype == w.dtype and g.shape == w.shape
            numpy.testing.assert_array_equal(g, w)


def sorting_indices(a):
    return numpy.argsort(a, kind="stable"), a.argsort()


def flat_sorting_indices(a):
    return numpy.argsort(a, axis=None, kind="stable")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("make", [str_array, bytes_array])
def test_text_arrays_sorting_indices_as_numpys_stable_ones(make, seed):
    rng = make_rng(seed)
    a = make(rng, int(rng.integers(0, 40)))
    c = njit(sorting_indices)
    for x in (a, a[::-2], a[:0]):
        stable, quick = c(x)
        numpy.testing.assert_array_equal(stable, sorting_indices(x)[0])
        # the default kind's order of ties is each sort's own: its indices sort a as NumPy's
        numpy.testing.assert_array_equal(numpy.take_along_axis(x, quick, -1), numpy.sort(x))


@numba_deviation("numba's argsort of text arrays takes 1-d ones alone, and no axis=None")
def test_text_arrays_sorting_indices_by_rows_and_flat():
    a = str_array(make_rng(7), 20)[:20].reshape(4, 5)
    numpy.testing.assert_array_equal(njit(sorting_indices)(a)[0], sorting_indices(a)[0])
    numpy.testing.assert_array_equal(njit(flat_sorting_indices)(a), flat_sorting_indices(a))


def partitioned(a):
    return numpy.partition(a, 1)


def test_partition_of_a_text_array_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="partition"):
        njit(partitioned)(numpy.array(["b", "a", "c"]))


WIDE = "U6"


def made_with_text_dtypes(n, like):
    dt = "S3"
    z = numpy.zeros(n, "U5")
    z[0] = "hello world"  # cut to the width
    e = numpy.empty((n, 2), dt)
    for i in range(n):
        e[i, 0] = b"xy"
        e[i, 1] = b"wxyz"
    return z, numpy.zeros(n, dtype=WIDE), e, numpy.zeros_like(like), numpy.empty_like(like, "S4").dtype


def test_arrays_made_of_a_str_or_bytes_dtype_by_name_or_like_another():
    like = numpy.array(["ab", "c"])
    for n in (1, 3):
        got, want = njit(made_with_text_dtypes)(n, like), made_with_text_dtypes(n, like)
        for g, w in zip(got, want):
            if isinstance(w, numpy.ndarray):
                assert g.dtype == w.dtype and g.shape == w.shape
                numpy.testing.assert_array_equal(g, w)
            else:
                assert g == w


def ones_of(a):
    return numpy.ones(3, a.dtype)


def arange_of(a):
    return numpy.arange(3, dtype=a.dtype)


def full_of(n):
    return numpy.full(n, 1, "U3")


@numba_deviation("numba's messages differ")
@pytest.mark.parametrize("f, arg", [(ones_of, numpy.array(["ab"])), (arange_of, numpy.array([b"ab"])), (full_of, 2)])
def test_other_functions_of_a_str_or_bytes_dtype_are_typing_errors(f, arg):
    with pytest.raises(ruchey.TypingError, match="of a str or bytes dtype"):
        njit(f)(arg)


# ---------------------------------------------------------------- numpy.str_ and numpy.bytes_ as dtypes


def zeros_of_str(n):
    return numpy.zeros(n, numpy.str_)


def empty_of_str(n):
    return numpy.empty(n, dtype=numpy.str_)


def zeros_of_bytes(n):
    return numpy.zeros((n, 2), numpy.bytes_)


def empty_of_bytes(n):
    return numpy.empty(n, numpy.bytes_)


def zeros_like_of_str(n):
    return numpy.zeros_like(numpy.arange(n), numpy.str_)


@pytest.mark.parametrize("f, width", [(zeros_of_str, "U0"), (empty_of_str, "U0"), (zeros_of_bytes, "S0"),
                                      (empty_of_bytes, "S0"), (zeros_like_of_str, "U0")])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_arrays_of_numpy_str_and_bytes_are_widthless_and_empty(f, width, n):
    """Numba makes them '<U0' and '|S0' (NumPy itself widens them to one
    character): the same shape and items as py_func's, of no width."""
    got, want = njit(f)(n), f(n)
    assert got.dtype == numpy.dtype(width) and got.shape == want.shape
    empty = "" if width == "U0" else b""
    assert all(item == empty for item in got.ravel().tolist())  # (numpy.empty's items are garbage: not compared)


def items_of_widthless(n, i):
    a = numpy.zeros(n, numpy.str_)
    b = numpy.zeros(n, numpy.bytes_)
    return len(a), a.size, a[i] == "", len(a[i]), b[i] == b"", len(b[i]), a.shape


def test_items_of_widthless_text_arrays_are_empty():
    rng = make_rng(7)
    f = njit(items_of_widthless)
    for n in rng.integers(1, 20, size=6).tolist():
        i = int(rng.integers(-n, n))
        assert f(n, i) == items_of_widthless(n, i)


def sorted_widthless(n):
    return numpy.sort(numpy.zeros(n, numpy.bytes_))


def test_widthless_text_array_sorted():
    for n in (0, 1, 4):
        assert njit(sorted_widthless)(n).tolist() == sorted_widthless(n).tolist()


# ---------------------------------------------------------------- numpy.array of strs


def array_of_strs():
    return numpy.array(["a", "bb"])


def array_of_bytes():
    return numpy.array([b"a", b"bb"])


def array_of_str_arguments(s, t):
    return numpy.asarray([s, t])


def array_of_dtype_names():
    return numpy.array(("f8", "i4"))


@numba_deviation("numba's messages differ")
@pytest.mark.parametrize("f, args", [(array_of_strs, ()), (array_of_bytes, ()), (array_of_str_arguments, ("x", "yz")),
                                     (array_of_dtype_names, ())])
def test_numpy_array_of_strs_is_a_clear_typing_error(f, args):
    """Numba refuses numpy.array of a list of strs in compiled code too;
    the message says how compiled code makes such an array."""
    with pytest.raises(ruchey.TypingError, match="arrays of strs or bytes are not made from"):
        njit(f)(*args)


WORD = "héllo, 世界 😀"


def asarrays_of_constant_strs():
    """numpy.asarray of strs known when compiling: 0-d '<Un' arrays, as Numba's of a string literal."""
    name = "ab"
    return numpy.asarray("abc"), numpy.asarray(""), numpy.asarray(WORD), numpy.asarray(name), numpy.asarray(name)[()]


def test_numpy_asarray_of_a_constant_str_is_a_0d_text_array():
    got, want = njit(asarrays_of_constant_strs)(), asarrays_of_constant_strs()
    for g, w in zip(got[:-1], want[:-1]):
        assert g.dtype == w.dtype and g.shape == w.shape == () and g.flags.writeable and g[()] == w[()]
    assert got[-1] == want[-1]


def asarray_of_a_str_argument(s):
    return numpy.asarray(s)


def test_numpy_asarray_of_a_str_known_only_at_run_time_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="arrays of strs or bytes are not made from"):
        njit(asarray_of_a_str_argument)("abc")


def test_strs_in_a_literal_list_argument_are_not_read_as_dtype_names():
    """'a' names a (deprecated) dtype: read as one at compile time, NumPy
    warned; inside a list it is a str."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(ruchey.TypingError, match="unicode_type"):
            njit(array_of_strs)()


def filled_widthful(n):
    a = numpy.zeros(n, "U3")
    for i in range(n):
        a[i] = "ab"[: i % 3]
    return a


def test_text_array_made_and_filled_as_the_message_says():
    for n in (0, 2, 5):
        got, want = njit(filled_widthful)(n), filled_widthful(n)
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(got, want)


@njit
def compared_with(a, s):
    return a == s, a != s, a < s, a <= s, a > s, a >= s, s == a, s < a


@njit
def compared_items(a, b):
    return a == b, a != b, a < b, a >= b, (a == b) & (a != a[0]), numpy.sum(a == b), numpy.nonzero(a < b)[0]


@njit
def count_empty(a):
    n = 0
    for s in a:
        if s == "":
            n += 1
    return n


def assert_same_arrays(got, want):
    for g, w in zip(got, want):
        assert numpy.asarray(g).dtype == numpy.asarray(w).dtype and numpy.array_equal(g, w)


@numba_deviation("Numba gives a single False for an array of str == a str")
def test_text_arrays_compared_with_text_item_by_item_as_numpy():
    rng = make_rng(2718)
    for a in (numpy.zeros(4, numpy.str_), str_array(rng, 12), str_array(rng, 12)[::-2]):
        assert count_empty(a) == count_empty.py_func(a)
        for s in ("", "ab", "a", "é", "q" * 5, "q" * 9, "a\x00", "z\x00b"):  # (trailing NULs count for nothing)
            assert_same_arrays(compared_with(a, s), compared_with.py_func(a, s))
    a, b = str_array(rng, 12), str_array(rng, 12)
    for x, y in ((a, b), (a, a), (a.reshape(4, 4), b[:4]), (a[:4].reshape(4, 1), b[::-4])):
        assert_same_arrays(compared_items(x, y), compared_items.py_func(x, y))
    big = numpy.array(["x", "yy", ""] * 400_000)  # (long enough to be split among threads)
    assert_same_arrays(compared_with(big, "yy"), compared_with.py_func(big, "yy"))
    c, d = bytes_array(rng, 12), bytes_array(rng, 12)
    for s in (b"", b"ab", b"\xff", b"a\x00"):
        assert_same_arrays(compared_with(c, s), compared_with.py_func(c, s))
    assert_same_arrays(compared_items(c, d), compared_items.py_func(c, d))


@numba_deviation("Numba gives a single False for these too")
@pytest.mark.parametrize("a, s", [(numpy.array(["a"]), b"a"), (numpy.array([b"a"]), "a"), (numpy.array(["a"]), 1)])
def test_text_arrays_compared_with_another_kind_are_typing_errors(a, s):
    with pytest.raises(ruchey.TypingError, match="comparing"):
        compared_with(a, s)


@njit
def keyed_by_items(d, a, counts):
    for s in a:
        d[s] = d.get(s, 0) + 1
        counts.append(s)
    return d, counts


def test_containers_typed_by_a_text_dtype_hold_strs():
    """Dict.empty(from_dtype(a.dtype), ...) and List.empty_list(UnicodeCharSeq(n)), as Numba's test code makes
    them: they hold the items as compiled code reads them, strs."""
    a = str_array(make_rng(31), 10)
    d = typed.Dict.empty(ruchey.from_dtype(a.dtype), ruchey.types.int64)
    counts = typed.List.empty_list(ruchey.types.UnicodeCharSeq(a.dtype.itemsize // 4))
    got_d, got_l = keyed_by_items(d, a, counts)
    want_d, want_l = keyed_by_items.py_func({}, a, [])
    assert dict(got_d) == want_d and list(got_l) == want_l
    assert all(type(k) is str for k in got_d)
    if not AS_NUMBA:  # (Numba writes the keys unquoted)
        assert str(got_d) == str({str(k): v for k, v in want_d.items()})


@njit
def gathered(a, mask, idx):
    return a[mask], a[idx], a[a == a[0]], a[idx][::-1], [s for s in a[mask]]


@njit
def gathered_rows(g, i):
    return g[:, i], g[g != g[0, 0]], g[numpy.array([1, 0]), 1:]


@numba_deviation("Numba's a == a[0] of an array of str is a single False, which it cannot index by")
def test_text_arrays_indexed_by_masks_and_index_arrays_as_numpy():
    rng = make_rng(47)
    for a in (str_array(rng, 12), str_array(rng, 12)[::-2], bytes_array(rng, 12)):
        for _ in range(4):
            mask, idx = rng.random(len(a)) < 0.5, rng.integers(-len(a), len(a), size=int(rng.integers(0, 8)))
            got, want = gathered(a, mask, idx), gathered.py_func(a, mask, idx)
            for g, w in zip(got[:4], want[:4]):
                assert g.dtype == w.dtype and numpy.array_equal(g, w)
            assert got[4] == want[4]
    g = str_array(rng, 8).reshape(3, 4).T
    for got, want in zip(gathered_rows(g, 1), gathered_rows.py_func(g, 1)):
        assert got.dtype == want.dtype and numpy.array_equal(got, want)


@njit
def holds(a, s):
    return s in a, s not in a[::2]


@numba_deviation("Numba's s in an array of str is always False")
def test_in_an_array_of_text_as_numpy():
    rng = make_rng(53)
    a, b = str_array(rng, 10), bytes_array(rng, 10)
    for s in ["", "ab", "q" * 5, "zz", "ab\x00"] + list(a[:4]):
        assert holds(a, s) == holds.py_func(a, s)
        assert holds(a.reshape(2, 7).T, s) == holds.py_func(a.reshape(2, 7).T, s)
    for s in [b"", b"ab", b"zz"] + list(b[:4]):
        assert holds(b, s) == holds.py_func(b, s)
    with pytest.raises(ruchey.TypingError, match="needs a str"):
        holds(a, b"ab")


@njit
def item_stored_from(a, i, v):
    a[i] = v
    return a


@pytest.mark.parametrize("seed", range(3))
def test_an_item_stored_from_a_0d_text_array_is_its_item(seed):
    """a[i] = v of a 0-d '<Un' ('|Sn') array v stores v's str (bytes), cut
    or NUL-padded to a's width as NumPy's, as Numba's setitem takes it."""
    rng = make_rng(seed)
    words = str_array(rng, 6)
    for a in (words, words.astype("U2"), words[::-2]):
        for v in (numpy.array("xyz"), numpy.array(""), numpy.array(str(rng.choice(words))), numpy.array("éжab", "U4")):
            for i in (0, -1, len(a) // 2):
                got, want = item_stored_from(a.copy(), i, v), item_stored_from.py_func(a.copy(), i, v)
                assert got.dtype == want.dtype and got.tolist() == want.tolist()
    b = numpy.array([b"ab", b"", b"xyz"])
    got, want = item_stored_from(b.copy(), 1, numpy.array(b"qq")), item_stored_from.py_func(b.copy(), 1, numpy.array(b"qq"))
    assert got.tolist() == want.tolist()
    with pytest.raises(ruchey.TypingError, match="only a str"):
        item_stored_from(words.copy(), 0, numpy.array(b"x"))
