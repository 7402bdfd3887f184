"""NumPy fixed-width bytes arrays ('|Sn', Numba's CharSeq arrays): items
read as bytes, stored cut or NUL-padded to the width, views kept."""

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, make_rng, numba_deviation


def bytes_array(rng, n, shape=None):
    """A '|Sn' array of words with empty ones, ones that fill the width and inner NULs."""
    alphabet = [b"a", b"b", b"z", b"\x00", b"\xff", b" "]
    words = [b"", b"ab", b"q" * 6, b"a\x00b"] + [b"".join(rng.choice(alphabet, size=int(rng.integers(0, 6))))
                                               for _ in range(n)]
    a = numpy.array(words)
    return a.reshape(shape) if shape else a


@njit
def bytes_items_compared(a, i, j):
    x, y = a[i], a[j]
    return x == y, x != y, x < y, x >= y, len(x), a[i] == b"ab", len(a)


@njit
def item_as_bytes(a, i):
    x = bytes(a[i])
    return x, len(bytes(x))


@njit
def bytes_of_a_number(n):
    return bytes(n)


@njit
def item_sliced(a, i):
    return a[i][1:], a[i][::-1], a[i].startswith(b"a")


@njit
def total_length(a):
    n = 0
    for x in a:
        n += len(x) * 7 + (x[0] if len(x) else 1)
    return n


@njit
def grid_item(a, i, j):
    return a[i, j], a[-1, -1], len(a[i]), a.shape, a.size, a.ndim


@njit
def store_items(a, words):
    for i in range(len(words)):
        a[i % len(a)] = words[i]
    return a


@njit
def store_from_other(a, b):
    for i in range(min(len(a), len(b))):
        a[i] = b[len(b) - 1 - i]


@njit
def tail_view(a):
    return a[1:]


@njit
def first(a):
    return a[0]


@pytest.mark.parametrize("seed", range(3))
def test_items_of_a_bytes_array_read_as_bytes(seed):
    rng = make_rng(seed)
    a = bytes_array(rng, 20)
    for arr in (a, a[::-3]):
        assert total_length(arr) == total_length.py_func(arr)
    for i, j in rng.integers(-len(a), len(a), size=(30, 2)).tolist():
        got, want = bytes_items_compared(a, i, j), bytes_items_compared.py_func(a, i, j)
        assert got == tuple(want)
        assert all(type(v) is type(w) or isinstance(w, bytes) for v, w in zip(got, want))
    assert type(first(a)) is bytes and first(a) == first.py_func(a)
    for i in range(len(a)):
        assert item_as_bytes(a, i) == item_as_bytes.py_func(a, i)
    g = bytes_array(rng, 8, (3, 4))
    for arr in (g, numpy.asfortranarray(g), g.T):
        assert grid_item(arr, 1, 2) == grid_item.py_func(arr, 1, 2)


@njit
def items_combined(a, i, j, n):
    x, y = a[i], a[j]
    z = a[i]
    z += a[j]
    return x + y, z, x * n, n * y, x.find(y), x.rfind(y), a[i].find(b"a"), a[i].rfind(b"z")


@njit
def items_cased(a, i):
    return a[i].upper(), a[i].isupper()


@pytest.mark.parametrize("seed", range(2))
def test_bytes_items_joined_repeated_and_searched(seed):
    """What Numba's CharSeq items take (+, *, find, rfind, upper, isupper), each a bytes as Python's."""
    rng = make_rng(seed)
    a = bytes_array(rng, 12)
    for i, j in rng.integers(-len(a), len(a), size=(25, 2)).tolist():
        for n in (0, 2):
            assert items_combined(a, i, j, n) == items_combined.py_func(a, i, j, n)
    words = numpy.array([b"", b"ABC", b"abc", b"aBc", b"A1", b"12 "])  # (Numba's upper goes through str: ASCII only)
    for i in range(len(words)):
        assert items_cased(words, i) == items_cased.py_func(words, i)


@numba_deviation("numba's CharSeq items have no slices nor bytes methods")
def test_items_of_a_bytes_array_are_whole_bytes_values():
    a = bytes_array(make_rng(4), 12)
    for i in range(len(a)):
        assert item_sliced(a, i) == item_sliced.py_func(a, i)


@pytest.mark.parametrize("seed", range(3))
def test_storing_into_a_bytes_array_cuts_or_pads_as_numpy(seed):
    rng = make_rng(seed)
    a = bytes_array(rng, 10)
    words = ruchey.typed.List([bytes(rng.integers(0, 256, size=int(k)).astype(numpy.uint8))
                               for k in rng.integers(0, 10, size=15)])
    got, want = store_items(a.copy(), words), store_items.py_func(a.copy(), list(words))
    assert got.dtype == want.dtype and got.tolist() == want.tolist()
    strided = a.copy()[::2]
    store_items(strided, words)
    want = a.copy()[::2]
    store_items.py_func(want, list(words))
    assert strided.tolist() == want.tolist()


@numba_deviation("numba stores no item of another bytes array")
def test_storing_an_item_of_another_bytes_array():
    a = bytes_array(make_rng(7), 10)
    for other in (numpy.array([b"xy", b"", b"zzz"]), numpy.array([b"longer than six"])):
        got, want = a.copy(), a.copy()
        store_from_other(got, other)
        store_from_other.py_func(want, other)
        assert got.tolist() == want.tolist()


def test_a_bytes_array_view_comes_back_with_its_dtype():
    a = numpy.array([b"ab", b"cd", b"e"])
    got = tail_view(a)
    assert got.dtype == a.dtype and got.tolist() == [b"cd", b"e"] and got.base is not None
    assert tail_view(a[::-1]).tolist() == tail_view.py_func(a[::-1]).tolist()


@njit
def bytes_sum_of(a):
    return a.sum()


@njit
def store_str(a):
    a[0] = "x"


@njit
def store_several(a):
    a[:1] = b"x"


@numba_deviation("numba's messages differ")
def test_bytes_arrays_errors_are_clear():
    a = numpy.array([b"ab", b"cd"])
    with pytest.raises(ruchey.TypingError, match=r"does not support arrays of str or bytes"):
        bytes_sum_of(a)
    with pytest.raises(ruchey.TypingError, match=r"cannot store unicode_type into an element.*only a bytes"):
        store_str(a)
    with pytest.raises(ruchey.TypingError, match=r"several items of an array of str or bytes"):
        store_several(a)
    with pytest.raises(ruchey.TypingError, match=r"bytes\(\) takes a bytes"):
        bytes_of_a_number(3)
    with pytest.raises(IndexError):
        njit(boundscheck=True)(bytes_items_compared.py_func)(a, 5, 0)
    ro = a.copy()
    ro.flags.writeable = False
    with pytest.raises(ruchey.TypingError, match=r"read-only"):
        store_items(ro, ruchey.typed.List([b"x"]))


@njit
def copies(a):
    return a.copy(), numpy.copy(a), numpy.empty_like(a).shape


@pytest.mark.parametrize("seed", range(2))
def test_copies_of_text_arrays_keep_their_dtype(seed):
    rng = make_rng(seed)
    g = bytes_array(rng, 8, (3, 4))
    for arr in (g, numpy.asfortranarray(g), g[:, ::-2], numpy.array(["ab", "é", ""])):
        got, want = copies(arr), copies.py_func(arr)
        for x, y in zip(got[:2], want[:2]):
            assert x.dtype == y.dtype and x.tolist() == y.tolist()
        assert got[2] == want[2]
        assert got[0].base is None or got[0].base is not arr


@njit
def item_hashed_and_found(a, i):
    return hash(a[i]), a[i] in (b"ab", b"")


def test_bytes_items_hash_as_python_and_are_found_in_tuples():
    a = bytes_array(make_rng(9), 15)
    for i in range(len(a)):
        assert item_hashed_and_found(a, i) == item_hashed_and_found.py_func(a, i)


@numba_deviation("numba finds no CharSeq in a tuple of other kinds nor hashes one in a tuple")
def test_bytes_items_found_among_other_kinds():
    @njit
    def found(a, i):
        return hash((a[i], 1)), a[i] in (b"ab", 3, "ab"), (b"zz", 1.5, a[0]).count(a[i])
    a = bytes_array(make_rng(10), 10)
    for i in range(len(a)):
        assert found(a, i) == found.py_func(a, i)


@njit
def reshaped(a):
    return a.ravel(), numpy.ravel(a), a.flatten(), a.transpose(), numpy.transpose(a), a.reshape(a.size)


@pytest.mark.parametrize("seed", range(2))
def test_text_arrays_reshaped_and_transposed_keep_their_dtype(seed):
    rng = make_rng(seed)
    g = bytes_array(rng, 8, (3, 4))
    for arr in (g, numpy.array(["ab", "é", "", "xyz"]).reshape(2, 2)):
        for x, y in zip(reshaped(arr), reshaped.py_func(arr)):
            assert x.dtype == y.dtype and x.shape == y.shape and x.tolist() == y.tolist()


@numba_deviation("numba reshapes no array that is not C-contiguous")
def test_a_strided_text_array_reshaped_is_a_copy():
    g = bytes_array(make_rng(3), 8, (3, 4))
    for arr in (g[:, ::-2], numpy.asfortranarray(g)):
        for x, y in zip(reshaped(arr), reshaped.py_func(arr)):
            assert x.dtype == y.dtype and x.tolist() == y.tolist()


@njit
def filled(a, v):
    a.fill(v)
    return a


@njit
def only_item(a):
    return a.item()


@njit
def walked(a, b):
    out = []
    for x, y in numpy.nditer((a, b)):
        out.append((x.item(), y[()]))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_text_arrays_filled_read_whole_and_walked_by_nditer(seed):
    rng = make_rng(seed)
    g = bytes_array(rng, 8, (3, 4))
    for arr, v in ((g, b"xyz"), (numpy.asfortranarray(g), b""), (g[:, ::2], b"longer than six"),
                   (numpy.array(["ab", "é"]), "éé€")):
        got, want = filled(arr.copy(), v), filled.py_func(arr.copy(), v)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    for arr in (numpy.array(b"ab"), numpy.array([["é"]]), g[1:2, 2:3]):
        assert only_item(arr) == only_item.py_func(arr)
    with pytest.raises(ValueError, match="size 1"):
        only_item(g)
    words = bytes_array(rng, 8)
    rows = numpy.array(["x", "yy", "", "é"] * 6).reshape(2, 12)
    assert walked(words, rows) == walked.py_func(words, rows)


@numba_deviation("numba broadcasts by leading dimensions only")
def test_nditer_broadcasts_text_arrays():
    words, col = bytes_array(make_rng(1), 4), numpy.array(["x", "yy", ""]).reshape(3, 1)
    assert walked(words, col) == walked.py_func(words, col)


@pytest.mark.skipif(AS_NUMBA, reason="numba's kernels need a CUDA driver; ruchey runs them on the CPU too")
@pytest.mark.parametrize("body", ["out[0] = len(a[0])", "a[0] = a[1]", "out[0] = len(a.item())", "a.fill(b'x')"])
def test_text_array_items_in_kernels_are_typing_errors(body):
    ns = {"cuda": ruchey.cuda}
    exec(f"def k(a, out):\n    {body}\n", ns)
    kernel = ruchey.cuda.jit(ns["k"])
    with pytest.raises(ruchey.TypingError, match="kernels"):
        kernel[1, 1](numpy.array([b"ab"]), numpy.zeros(1, numpy.int64))


@njit
def grown_items(a, s):
    for i in range(len(a)):
        a[i] += s
    return a


@njit
def flat_store_and_read(a, v):
    a.flat[3] = v
    return a.flat[2]


def test_text_items_updated_in_place_and_through_flat():
    rng = make_rng(12)
    words = numpy.array(["a", "bcd", "", "é€"] * 3)
    for s in ("x", "", "yyyyy"):
        got, want = grown_items(words.copy(), s), grown_items.py_func(words.copy(), s)
        assert got.tolist() == want.tolist()
    g = bytes_array(rng, 8, (3, 4))
    for arr, v in ((g.T.copy(), b"xyzw"), (g[:, ::-1], b""), (words.reshape(3, 4), "longer")):
        got, want = arr.copy(), arr.copy()
        assert flat_store_and_read(got, v) == flat_store_and_read.py_func(want, v)
        assert got.tolist() == want.tolist()


@njit
def enumerated(a, u):
    return [(i, x) for i, x in numpy.ndenumerate(a)], [(i, x, y) for i, (x, y) in enumerate(zip(a.ravel(), u))]


def test_text_arrays_enumerated_and_zipped():
    g = bytes_array(make_rng(13), 8, (3, 4))
    u = numpy.array(["x", "é", ""] * 4)
    for arr in (g, g.T, g[:, ::-1]):
        assert enumerated(arr, u) == enumerated.py_func(arr, u)
