"""NumPy's splitting, inserting and view-making functions in compiled code:
array_split, split, hsplit, vsplit, dsplit (a list of views), delete and
insert (flattened, as Numba's), indices, broadcast_arrays (a tuple of
views), asfortranarray, trim_zeros, setxor1d, and
numpy.lib.stride_tricks.as_strided and sliding_window_view. Each is
checked against the function's own Python original on generated arrays of
every dtype and layout (C, Fortran, strided, reversed, empty): results'
dtypes, shapes and values, which results are views of the input (writing
through one shows in the input, as in NumPy), and NumPy's errors.

Deviations: what decides a result's type is a compile-time fact, so a
split of too few dimensions (hsplit of a 0-d array, vsplit of a 1-d one)
and a window_shape of the wrong length are TypingErrors naming NumPy's
reason; delete and insert take no axis (as Numba's); trim_zeros takes 1-d
arrays and a constant trim; the splits take arrays."""
import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided, sliding_window_view

import ruchey
from arraygen import DTYPES, LAYOUTS, array, assert_same_array, check, compiled, define
from conftest import AS_NUMBA, NUMPY1, make_rng, numpy2_only, run_python_file

# Numba returns broadcast_arrays as a list, takes no writeable=, and its
# errors differ from NumPy's: the file checks ruchey against NumPy.
pytestmark = pytest.mark.skipif(AS_NUMBA, reason="checks NumPy's behaviour, which numba's differs from here")

ALL_DTYPES = DTYPES + [np.complex64, np.complex128]
fn = compiled


def arrays(rng, dtypes, shape_list, layouts=LAYOUTS):
    for dtype in dtypes:
        for shape in shape_list:
            for layout in layouts:
                yield array(rng, dtype, shape, layout)


def samples(rng, shape_list):
    """Every dtype in C order and strided; a few in every layout (the
    copying functions read their input flattened, whatever its layout)."""
    yield from arrays(rng, ALL_DTYPES, shape_list, ("C", "strided"))
    yield from arrays(rng, [np.float64, np.int8, np.complex128], shape_list, ("F", "reversed"))


def assert_same_pieces(expected, got, base, what):
    """Two lists of arrays alike, each piece of got a view of base."""
    assert isinstance(got, list) and len(got) == len(expected), f"{what}: {len(got)} pieces, expected {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        assert_same_array(e, g, f"{what}[{i}]")
        assert g.size == 0 or np.shares_memory(g, base), f"{what}[{i}] is not a view of the input"


def check_pieces(f, a, *args):
    expected, got = f.py_func(a, *args), f(a, *args)
    assert_same_pieces(expected, got, a, f"{f.py_func.__name__}{(a.dtype, a.shape) + args}")
    return got


def check_view(f, a, *args, flags=False):
    """check(), and f's result on a itself a view of a."""
    check(f, a, *args, flags=flags)
    got = f(a, *args)
    assert got.size == 0 or np.shares_memory(got, a), f"{f.py_func.__name__}: not a view of its input"
    return got


def raises_alike(f, *args, match=None):
    """f and f.py_func raise the same exception type, both messages matched."""
    with pytest.raises(Exception, match=match) as expected:
        f.py_func(*args)
    with pytest.raises(type(expected.value), match=match):
        f(*args)


# ---------------------------------------------------------------- array_split, split


def test_array_split_into_sections_matches_numpy():
    rng = make_rng(1)
    f, g = fn("np.array_split(a, n)", "a, n"), fn("np.array_split(a, n, axis=k)", "a, n, k")
    for a in arrays(rng, ALL_DTYPES, [(7,), (0,), (4, 5), (3, 0), (2, 3, 4)]):
        for n in (1, 2, 3, 5, 8):
            check_pieces(f, a, n)
            for k in range(-a.ndim, a.ndim):
                check_pieces(g, a, n, k)


def test_split_into_equal_sections_matches_numpy():
    rng = make_rng(2)
    f, g = fn("np.split(a, n)", "a, n"), fn("np.split(a, indices_or_sections=n, axis=k)", "a, n, k")
    for a in arrays(rng, [np.float64, np.int16, np.bool_, np.complex128], [(6,), (0,), (6, 4), (2, 6, 3)]):
        for n in (1, 2, 3, 6):
            if a.shape[0] % n == 0:
                check_pieces(f, a, n)
            for k in range(a.ndim):
                if a.shape[k] % n == 0:
                    check_pieces(g, a, n, k)


def test_split_errors_are_numpys():
    f, g = fn("np.split(a, n)", "a, n"), fn("np.array_split(a, n, axis=k)", "a, n, k")
    a = np.arange(7.0)
    raises_alike(f, a, 2, match="does not result in an equal division")
    raises_alike(f, a, 0, match="modulo by zero")
    raises_alike(f, np.arange(6.0), -2, match="number sections must be larger than 0")
    raises_alike(g, a, 0, 0, match="number sections must be larger than 0")
    raises_alike(g, a, -1, 0, match="number sections must be larger than 0")
    with pytest.raises(ValueError, match="axis 1 is out of bounds"):
        g(a, 2, 1)
    for cuts in ("1.5", "np.array([True])"):
        with pytest.raises(ruchey.TypingError, match="indices_or_sections must be an int"):
            fn(f"np.split(a, {cuts})")(a)
    with pytest.raises(ruchey.TypingError, match="0-d array cannot be split"):
        fn("np.array_split(a, 2)")(np.array(1.0))


def test_split_at_indices_matches_numpy():
    rng = make_rng(3)
    forms = [fn("np.split(a, (2, 5))"), fn("np.array_split(a, [1, -2, 99])"), fn("np.split(a, (4, 1))"),
             fn("np.split(a, np.array(ix))", "a, ix"), fn("np.array_split(a, ix, axis=-1)", "a, ix"), fn("np.split(a, ())")]
    for a in arrays(rng, ALL_DTYPES, [(7,), (0,), (6, 3), (3, 2, 6)]):
        for f in forms[:3] + forms[5:]:
            check_pieces(f, a)
        for ix in ([], [3], [0, 0, 2], [-1, 2], [5, 2, 9], [-10, 10]):
            if ix:  # an empty Python list has no item type to compile for
                check_pieces(forms[3], a, ix)
            check_pieces(forms[4], a, np.array(ix, dtype=np.int64))
            check_pieces(forms[4], a, np.array(ix, dtype=np.int32))


def test_split_at_a_typed_list_of_indices():
    f = define("@ruchey.njit\ndef f(a, n):\n    ix = [2]\n    ix.append(n)\n    return np.split(a, ix)\n")
    for n in (-1, 3, 10):
        check_pieces(f, np.arange(8.0), n)


def test_split_pieces_are_views_that_write_through():
    f = define("@ruchey.njit\ndef f(a):\n    p = np.array_split(a, 3)\n    p[1][0] = 99\n    return len(p)\n")
    g = define("@ruchey.njit\ndef f(a):\n    p = np.hsplit(a, 2)\n    p[1].fill(7)\n    return p[0].sum()\n")
    rng = make_rng(4)
    for layout in LAYOUTS:
        check(f, array(rng, np.float64, (7, 2), layout))
        check(g, array(rng, np.int64, (3, 4), layout))


def test_split_of_a_read_only_array_gives_read_only_pieces():
    a = np.arange(6.0)
    a.flags.writeable = False
    pieces = fn("np.split(a, 2)")(a)
    assert not any(p.flags.writeable for p in pieces)
    with pytest.raises(ruchey.TypingError, match="read-only"):
        define("@ruchey.njit\ndef f(a):\n    p = np.split(a, 2)\n    p[0][0] = 1.0\n")(a)


def test_split_pieces_unpack_into_names():
    f = define("@ruchey.njit\ndef f(a):\n    left, right = np.split(a, 2)\n    right[0] = -1\n    return left.sum(), right\n")
    check(f, np.arange(6.0))
    check(f, np.arange(8).reshape(4, 2))
    raises_alike(define("@ruchey.njit\ndef f(a):\n    x, y = np.array_split(a, 3)\n    return x\n"), np.ones(6),
                 match="too many values to unpack")


def test_typed_lists_unpack_as_python_lists_do():
    f = define("@ruchey.njit\ndef f(n):\n    xs = [i * 2 for i in range(n)]\n    a, b, c = xs\n    return a + b * c\n")
    g = define("@ruchey.njit\ndef f(s):\n    a, b = s.split(',')\n    return b + a\n")
    check(f, 3)
    check(g, "x,yz")
    raises_alike(f, 2, match="not enough values to unpack \\(expected 3, got 2\\)")
    raises_alike(f, 4, match="too many values to unpack \\(expected 3\\)")
    raises_alike(g, "a,b,c", match="too many values")


# ---------------------------------------------------------------- hsplit, vsplit, dsplit


def test_hsplit_vsplit_dsplit_match_numpy():
    rng = make_rng(5)
    h, v, d = fn("np.hsplit(a, n)", "a, n"), fn("np.vsplit(a, n)", "a, n"), fn("np.dsplit(a, n)", "a, n")
    hi, vi, di = fn("np.hsplit(a, [1, 3])"), fn("np.vsplit(a, np.array([1]))"), fn("np.dsplit(a, (0, 2))")
    for a in arrays(rng, ALL_DTYPES, [(4,), (0,), (2, 4), (4, 0), (4, 2, 4)]):
        for n in (1, 2, 4):
            if a.shape[a.ndim > 1] % n == 0:
                check_pieces(h, a, n)
            if a.ndim >= 2 and a.shape[0] % n == 0:
                check_pieces(v, a, n)
            if a.ndim >= 3 and a.shape[2] % n == 0:
                check_pieces(d, a, n)
        check_pieces(hi, a)
        if a.ndim >= 2:
            check_pieces(vi, a)
        if a.ndim >= 3:
            check_pieces(di, a)
    raises_alike(h, np.arange(6.0), 4, match="equal division")
    raises_alike(v, np.ones((3, 2)), 2, match="equal division")


def test_hsplit_vsplit_dsplit_of_too_few_dimensions_are_typing_errors():
    for expr, a in [("np.hsplit(a, 1)", np.array(1.0)), ("np.vsplit(a, 1)", np.ones(3)), ("np.dsplit(a, 1)", np.ones((2, 2)))]:
        with pytest.raises(ValueError, match="only works on arrays of"):
            fn(expr).py_func(a)
        with pytest.raises(ruchey.TypingError, match="only works on arrays of"):
            fn(expr)(a)


# ---------------------------------------------------------------- delete


def test_delete_matches_numpy():
    rng = make_rng(6)
    forms = [fn("np.delete(a, i)", "a, i"), fn("np.delete(a, [0, -1])"), fn("np.delete(a, (1, 1, 2))"), fn("np.delete(a, [])")]
    for a in samples(rng, [(5,), (1,), (3, 4), (2, 3, 2)]):
        for i in range(-a.size, a.size):
            check(forms[0], a, i)
        for f in forms[1:]:
            if a.size > 2:
                check(f, a)
        for ix in ([], [0], [a.size - 1, 0, 0], list(range(a.size)), [-1, -a.size]):
            check(forms[0], a, np.array(ix, dtype=np.int64))
            check(forms[0], a, np.array(ix, dtype=np.int8))
        check(forms[0], a, rng.random(a.size) < 0.5)


def test_delete_slice_matches_numpy():
    rng = make_rng(8)
    f, literal = fn("np.delete(a, s)", "a, s"), fn("np.delete(a, slice(1, None, 2))")
    slices = [slice(1, 3, 1), slice(10), slice(None), slice(-3, None), slice(None, None, -2), slice(8, 1, -3),
              slice(100, 200), slice(-100, 2), slice(2, 2)]
    for a in samples(rng, [(7,), (0,), (3, 4)]):
        for s in slices:
            check(f, a, s)
        check(literal, a)
    check(f, [1, 2, 3, 4], slice(1, 3, 1))


def test_delete_errors_are_numpys():
    f = fn("np.delete(a, i)", "a, i")
    a = np.arange(4.0)
    for i in (4, -5, np.array([1, 7]), np.array([-5])):
        raises_alike(f, a, i, match="out of bounds for axis 0 with size 4")
    raises_alike(f, a, np.array([True, False]), match="match the axis length of 4")
    raises_alike(f, np.array([], dtype=np.int32), 0, match="out of bounds")
    with pytest.raises(ruchey.TypingError, match="obj must be an int or an array of ints"):
        f(a, 1.5)
    raises_alike(f, a, slice(0, 3, 0), match="slice step cannot be zero")


# ---------------------------------------------------------------- insert


def test_insert_at_one_position_matches_numpy():
    rng = make_rng(7)
    f, lit, none = fn("np.insert(a, i, v)", "a, i, v"), fn("np.insert(a, i, [1, 0, 1])", "a, i"), fn("np.insert(a, (), 1)")
    for a in samples(rng, [(4,), (0,), (2, 3)]):
        for i in range(-a.size, a.size + 1):
            check(f, a, i, a.dtype.type(1))
            check(f, a, i, array(rng, a.dtype, (3,), "strided"))
            check(f, a, np.array([i]), array(rng, a.dtype, (2,)))
            check(lit, a, i)
        check(none, a)


def test_insert_at_many_positions_matches_numpy():
    rng = make_rng(8)
    f = fn("np.insert(a, ix, v)", "a, ix, v")
    for a in samples(rng, [(5,), (0,), (2, 3)]):
        n = a.size
        for ix in ([0, n], [n, 0, min(1, n)], [n // 2] * 3, [-1 if n else 0, 0, -n], []):
            ix = np.array(ix, dtype=np.int64)
            check(f, a, ix, array(rng, a.dtype, (len(ix),), "reversed"))
            check(f, a, ix, a.dtype.type(0))
            check(f, a, ix.astype(np.int16), np.ones(1, a.dtype))


def test_insert_converts_values_to_the_arrays_dtype():
    f = fn("np.insert(a, i, v)", "a, i, v")
    check(f, np.arange(4, dtype=np.int32), 2, 7.9)
    check(f, np.arange(4, dtype=np.int32), np.array([0, 2]), np.array([-2.5, 3.7]))
    check(f, np.zeros(3, np.bool_), 1, 5)
    check(f, np.arange(3.0), 1, True)


def test_insert_errors_are_numpys():
    f = fn("np.insert(a, i, v)", "a, i, v")
    a = np.arange(4.0)
    for i in (5, -5, np.array([7])):
        raises_alike(f, a, i, 1.0, match="out of bounds for axis 0 with size 4")
    raises_alike(f, a, np.array([1, 7]), 1.0, match="out of bounds")
    raises_alike(f, a, np.array([1, 2]), np.ones(3), match="shape mismatch: value array of shape \\(3,\\) could not be "
                 "broadcast to indexing result of shape \\(2,\\)")
    with pytest.raises(ruchey.TypingError, match="obj must be an int or an array of ints"):
        f(a, np.array([True, False]), 1.0)
    with pytest.raises(ruchey.TypingError, match="values must be a number or a 1-d array"):
        f(a, 1, np.ones((2, 2)))


# ---------------------------------------------------------------- indices


def test_indices_matches_numpy():
    forms = [fn("np.indices((n,))", "n"), fn("np.indices((n, m))", "n, m"), fn("np.indices((m, n, 2))", "n, m"),
             fn("np.indices((n, m), dtype=np.float32)", "n, m"), fn("np.indices((n, m), np.uint8)", "n, m"),
             fn("np.indices(())", "n")]
    for n in (0, 1, 3):
        for m in (0, 2, 5):
            check(forms[0], n, flags=True)
            for f in forms[1:5]:
                check(f, n, m, flags=True)
        check(forms[5], n)
    raises_alike(forms[1], -1, 2, match="negative dimensions")
    with pytest.raises(ruchey.TypingError, match="dimensions must be a tuple of ints"):
        fn("np.indices(n)", "n")(3)


# ---------------------------------------------------------------- broadcast_arrays


def test_broadcast_arrays_matches_numpy_as_views():
    rng = make_rng(9)
    f2, f3 = fn("np.broadcast_arrays(a, b)", "a, b"), fn("np.broadcast_arrays(a, b, c)", "a, b, c")
    pairs = [((3,), (3,)), ((4, 1), (3,)), ((1,), (2, 3)), ((), (2, 2)), ((0,), (1,)), ((2, 1, 3), (4, 1)), ((3, 0), (1, 0))]
    for dtype in (np.float64, np.int8, np.bool_, np.complex128):
        for sa, sb in pairs:
            for layout in LAYOUTS:
                a, b = array(rng, dtype, sa, layout), array(rng, np.int32, sb, layout)
                expected, got = f2.py_func(a, b), f2(a, b)
                assert isinstance(got, tuple) and len(got) == 2
                for e, g, x in zip(expected, got, (a, b)):
                    assert_same_array(e, g, f"broadcast_arrays {sa} {sb}")
                    assert g.size == 0 or np.shares_memory(g, x)
                c = array(rng, np.float32, (1,) * len(sb), layout)
                for e, g in zip(f3.py_func(a, b, c), f3(a, b, c)):
                    assert_same_array(e, g)
    assert fn("np.broadcast_arrays()", "")() == ()
    for f in (f2, fn("np.broadcast_arrays(a, [1, 2, 3], b)", "a, b")):
        for a, b in ((np.arange(3.0), 2), (1.5, np.ones((2, 3), np.int8)), (True, 1j)):
            for e, g in zip(f.py_func(a, b), f(a, b)):
                assert_same_array(e, g)


@pytest.mark.filterwarnings("ignore:Numpy has detected that you:DeprecationWarning")
def test_broadcast_arrays_write_through_where_not_stretched():
    f = define("@ruchey.njit\ndef f(a, b):\n    x, y = np.broadcast_arrays(a, b)\n    x[0, 0] = 42\n    return y.sum()\n")
    check(f, np.arange(6.0).reshape(2, 3), np.arange(3.0))
    check(f, np.arange(3.0).reshape(3, 1), np.arange(2.0))


def test_broadcast_arrays_errors():
    f = fn("np.broadcast_arrays(a, b)", "a, b")
    raises_alike(f, np.ones(4), np.ones(3), match="broadcast")
    raises_alike(f, np.ones((2, 3)), np.ones((3, 2)), match="broadcast")
    with pytest.raises(ruchey.TypingError, match="takes arrays and numbers"):
        f(np.ones(3), "x")
    five = fn("np.broadcast_arrays(a, a, a, a, b)", "a, b")
    raises_alike(five, np.ones(2), np.ones(3), match="cannot be broadcast to a single shape")


def test_broadcast_shapes_matches_numpy():
    f = fn("np.broadcast_shapes(a, b, c)", "a, b, c")
    cases = [((3, 1), (1, 4), (2, 1, 1)), ((), 5, (1,)), ((0,), (1,), ()), ((2, 1, 3), 3, (4, 1, 1, 1)), (1, 1, 1)]
    for args in cases:
        assert f(*args) == f.py_func(*args)
    assert fn("np.broadcast_shapes()", "")() == ()
    assert fn("np.broadcast_shapes((2, 1), (3,))", "")() == (2, 3)
    raises_alike(f, (3,), (4,), (), match="broadcast")
    raises_alike(f, (-1,), (1,), (), match="negative dimensions")
    with pytest.raises(ruchey.TypingError):
        f((1.5,), (1,), ())


# ---------------------------------------------------------------- asfortranarray


def test_asfortranarray_matches_numpy():
    rng = make_rng(10)
    f, g = fn("np.asfortranarray(a)"), fn("np.asfortranarray(a, dtype=np.float32)")
    for a in arrays(rng, ALL_DTYPES, [(), (5,), (3, 4), (4, 1), (0, 3), (2, 3, 4)]):
        check(f, a, flags=True)
        assert np.shares_memory(f(a), a) == np.shares_memory(f.py_func(a), a) or a.size == 0
        if a.dtype.kind != "c":
            check(g, a, flags=True)
    check(f, 2.5, flags=True)
    check(f, True, flags=True)


def test_asfortranarray_of_a_fortran_array_is_the_array():
    f = define("@ruchey.njit\ndef f(a):\n    b = np.asfortranarray(a)\n    b[0, 1] = -1\n    return b\n")
    for a in (np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)[::2, ::2]):
        check(f, a, flags=True)


# ---------------------------------------------------------------- trim_zeros


def test_trim_zeros_matches_numpy_as_a_view():
    rng = make_rng(11)
    forms = [fn("np.trim_zeros(a)"), fn("np.trim_zeros(a, 'f')"), fn("np.trim_zeros(a, trim='b')"), fn("np.trim_zeros(a, 'bF')")]
    for dtype in ALL_DTYPES:
        for layout in LAYOUTS:
            for mask in ("", "0", "1", "00100", "0110", "1001", "000", "0101000"):
                a = array(rng, dtype, (len(mask),), layout)
                a[...] = np.where(np.array([c == "1" for c in mask], dtype=bool), a, 0)
                a[a == 0] = 0
                if dtype in (np.float32, np.float64):
                    a[np.isnan(a)] = 1.5
                for f in forms:
                    check_view(f, a)
    check(forms[0], np.array([-0.0, 0.0, np.nan, 0.0]))


@numpy2_only  # (NumPy 1 trims no str)
def test_trim_zeros_of_strs_or_bytes_trims_the_empty_ones():
    forms = [fn("np.trim_zeros(a)"), fn("np.trim_zeros(a, 'f')"), fn("np.trim_zeros(a, trim='b')")]
    rng = make_rng(12)
    words = np.array(["", "a", "", "bcd", "é", ""] * 3)
    for a in (words, words[::-1], words[1:-1], np.array(["", ""]), np.array([], "U3"),
              np.array([b"", b"x", b"\x00", b"yz", b""]), rng.choice(words, 9)):
        for f in forms:
            got, want = f(a), f.py_func(a)
            assert got.dtype == want.dtype and got.tolist() == want.tolist(), (a, f.py_func)
            if got.size:
                assert np.shares_memory(got, a), "trim_zeros gives a view, as NumPy's"


def test_trim_zeros_errors():
    for trim in ("x", "", "fbf", "ff"):
        if not NUMPY1:  # NumPy 1.x ignores the characters it does not know; ruchey refuses them as NumPy 2
            with pytest.raises(ValueError, match="unexpected character"):
                fn(f"np.trim_zeros(a, '{trim}')").py_func(np.ones(3))
        with pytest.raises(ruchey.TypingError, match="unexpected character"):
            fn(f"np.trim_zeros(a, '{trim}')")(np.ones(3))
    with pytest.raises(ruchey.TypingError, match="1-d array"):
        fn("np.trim_zeros(a)")(np.ones((2, 2)))
    with pytest.raises(ruchey.TypingError, match="trim must be a str"):
        fn("np.trim_zeros(a, s)", "a, s")(np.ones(3), 1)


# ---------------------------------------------------------------- setxor1d


def test_setxor1d_matches_numpy():
    rng = make_rng(12)
    f, g = fn("np.setxor1d(a, b)", "a, b"), fn("np.setxor1d(a, b, assume_unique=True)", "a, b")
    for dtype in (np.int64, np.int8, np.uint16, np.float64, np.float32, np.bool_):
        for na, nb in ((0, 0), (0, 5), (6, 0), (8, 8), (20, 5)):
            a = rng.integers(0, 6, na).astype(dtype)
            b = rng.integers(0, 6, nb).astype(np.int32)
            check(f, a, b)
            check(f, a.reshape(2, -1) if na % 2 == 0 else a, b[::-1])
            check(g, np.unique(a), np.unique(b))
            check(g, a, b)  # not unique: NumPy's result for repeated values
    check(f, np.array([1.0, np.nan, np.nan, 2.0]), np.array([np.nan, 2.0, 3.0]))
    check(fn("np.setxor1d([1, 2, 3], (2, 5))", ""))
    with pytest.raises(ruchey.TypingError, match="assume_unique must be True or False"):
        fn("np.setxor1d(a, a, assume_unique=u)", "a, u")(np.ones(2), 0.5)


# ---------------------------------------------------------------- as_strided


def test_as_strided_matches_numpy_as_a_view():
    rng = make_rng(13)
    env = {"as_strided": as_strided}
    f, g, h = (define(f"@ruchey.njit\ndef f({params}):\n    return {e}\n", env=env)
               for e, params in [("as_strided(a, shape=(n, 3), strides=(a.strides[0], a.strides[0]))", "a, n"),
                                 ("as_strided(a, (2, 2), (a.strides[0] * 2, 0))", "a"),
                                 ("as_strided(a, strides=a.strides)", "a")])
    for a in arrays(rng, ALL_DTYPES, [(6,)]):
        for n in (0, 1, 4):
            check_view(f, a, n)
        check(g, a)
        check(h, a)
    w = define("@ruchey.njit\ndef f(a):\n    v = as_strided(a, (3, 2), (8, 8))\n    v[1, 1] = -7.0\n    return v\n", env=env)
    check(w, np.arange(6.0))


def test_as_strided_arguments_are_checked():
    env = {"as_strided": as_strided}
    for body, match in [("as_strided(a, (2,))", "strides argument cannot be None"),
                        ("as_strided(a, (2, 2), (8,))", "mismatch in length of strides and shape"),
                        ("as_strided(a, 2, (8,))", "shape must be a tuple of ints")]:
        with pytest.raises(ruchey.TypingError, match=match):
            define(f"@ruchey.njit\ndef f(a):\n    return {body}\n", env=env)(np.ones(4))
    ro = define("@ruchey.njit\ndef f(a):\n    return as_strided(a, (2,), (8,), writeable=False)\n", env=env)(np.ones(4))
    assert not ro.flags.writeable


# ---------------------------------------------------------------- sliding_window_view


SWV = {"sliding_window_view": sliding_window_view}


def test_sliding_window_view_matches_numpy_as_a_read_only_view():
    rng = make_rng(14)
    forms = [define(f"@ruchey.njit\ndef f(a, w):\n    return {e}\n", env=SWV) for e in
             ("sliding_window_view(a, w)", "sliding_window_view(a, (w,), axis=0)", "sliding_window_view(a, w, axis=-1)")]
    for a in arrays(rng, ALL_DTYPES, [(6,), (3, 5), (2, 3, 4)]):
        for w in range(0, min(a.shape) + 1):
            for f in forms[1:]:
                assert not check_view(f, a, w).flags.writeable
            if a.ndim == 1:
                check(forms[0], a, w)


def test_sliding_window_view_over_several_axes_matches_numpy():
    rng = make_rng(15)
    forms = [define(f"@ruchey.njit\ndef f(a):\n    return {e}\n", env=SWV) for e in
             ("sliding_window_view(a, (2, 3))", "sliding_window_view(a, (2, 2), axis=(1, 0))",
              "sliding_window_view(a, (2, 2), axis=(1, 1))", "sliding_window_view(a, window_shape=(1, 2), axis=(-2, -1))")]
    for a in arrays(rng, [np.float64, np.int16, np.bool_, np.complex64], [(3, 4), (4, 5)]):
        for f in forms:
            check(f, a)


def test_sliding_window_view_in_numba_code_is_writeable_as_numbas(tmp_path):
    """Numba's sliding_window_view takes no writeable= and is always
    writeable: functions decorated after install_as_numba() get a writeable
    view with NumPy's windows (writeable=False still read-only); ruchey's
    own keep NumPy's read-only default."""
    done = run_python_file("""
        import numpy as np
        import ruchey
        from numpy.lib.stride_tricks import sliding_window_view

        @ruchey.njit
        def own(a, w):
            return sliding_window_view(a, w)

        numba = ruchey.install_as_numba()

        @numba.njit
        def windows(a, w):
            return sliding_window_view(a, w, axis=0)

        @numba.njit
        def read_only(a, w):
            return sliding_window_view(a, w, writeable=False)

        @numba.njit
        def written(a):
            v = sliding_window_view(a, 2)
            v[1, 1] = 9
            return v

        rng = np.random.default_rng(3)
        for a in (rng.standard_normal(7), rng.integers(0, 9, (4, 3))[::-1], np.arange(6.0).reshape(2, 3).T):
            for w in range(1, a.shape[0] + 1):
                got, want = windows(a, w), sliding_window_view(a, w, axis=0, writeable=True)
                assert got.flags.writeable and got.shape == want.shape and (got == want).all()
                if a.ndim == 1:
                    assert not read_only(a, w).flags.writeable and not own(a, w).flags.writeable
        a = np.arange(5)
        v = written(a)
        assert v.flags.writeable and a.tolist() == [0, 1, 9, 3, 4]
        print("done")
    """, tmp_path)
    assert "done" in done.stdout, done.stderr[-3000:]


def test_sliding_window_view_writeable_writes_through():
    f = define("@ruchey.njit\ndef f(a):\n    v = sliding_window_view(a, 2, writeable=True)\n    v[1, 1] = 9\n    return v\n", env=SWV)
    check(f, np.arange(5))


def test_sliding_window_view_errors_are_numpys():
    f = define("@ruchey.njit\ndef f(a, w, k):\n    return sliding_window_view(a, w, axis=k)\n", env=SWV)
    raises_alike(f, np.ones(4), 5, 0, match="cannot be larger than input array shape")
    raises_alike(f, np.ones(4), -1, 0, match="cannot contain negative values")
    with pytest.raises(ValueError, match="axis 1 is out of bounds"):
        f(np.ones(4), 2, 1)
    for body, match in [("sliding_window_view(a, (2, 2))", "must provide window_shape for all dimensions"),
                        ("sliding_window_view(a, (2, 2), axis=0)", "Must provide matching length window_shape and axis"),
                        ("sliding_window_view(a, 2.0)", "window_shape must be an integer or tuple of integers")]:
        with pytest.raises(ruchey.TypingError, match=match):
            define(f"@ruchey.njit\ndef f(a):\n    return {body}\n", env=SWV)(np.ones(4))
    with pytest.raises(ruchey.TypingError, match="read-only"):
        define("@ruchey.njit\ndef f(a):\n    v = sliding_window_view(a, 2)\n    v[0, 0] = 1.0\n", env=SWV)(np.ones(4))


# ---------------------------------------------------------------- float16, datetime64, timedelta64


def test_views_and_moves_of_float16_and_datetimes_match_numpy():
    views = [fn("np.split(a, 2)"), fn("np.array_split(a, [1, 3])"), fn("np.broadcast_arrays(a, a[:1])"),
             define("@ruchey.njit\ndef f(a):\n    return sliding_window_view(a, 2)\n", env=SWV)]
    moves = [fn("np.delete(a, 1)"), fn("np.delete(a, np.array([0, -1]))")]
    half = np.array([0.0, 1.5, -2.25, 0.0], dtype=np.float16)
    for a in (half, np.arange(4).astype("M8[D]"), np.array([3, "NaT", 0, 1], dtype="m8[s]")):
        for f in views:
            expected, got = f.py_func(a), f(a)
            for e, g in zip(expected, got):
                assert_same_array(e, g, f.py_func.__name__)
        for f in moves:
            check(f, a)
    check(fn("np.insert(a, 1, 0.1)"), half)
    check(fn("np.trim_zeros(a)"), half)
