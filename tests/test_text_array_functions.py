"""NumPy's functions given arrays of str ('<Un') and bytes ('|Sn') items:
what compares their items (argmin, argmax, and min and max as Numba's),
what reads their truth (count_nonzero, any, all, flatnonzero, extract), and
every NumPy name ruchey compiles given such arrays: a result or a clear
exception, never a crash. Each compiled function against its py_func on
generated arrays of every layout."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ruchey

import arraygen
from arraygen import DTYPES
from conftest import AS_NUMBA, NUMPY1, make_rng, numba_deviation, numpy2_only


def text_arrays(rng, kind, shape=(4, 6)):
    """str or bytes arrays of every layout: repeated items (ties), empty ones
    (false, as NumPy reads a str), prefixes of others, inner NULs,
    non-ASCII code points and bytes above 0x7f (ordered unsigned)."""
    words = ["", "a", "ab", "abc", "\x00b", "b", "z\u00e9", "\u65e5"] if kind == "U" else \
        [b"", b"a", b"ab", b"abc", b"\x00b", b"b", b"\xffz", b"\x80"]
    a = np.array(words, dtype=kind)[rng.integers(0, len(words), size=shape)]
    return [a, np.asfortranarray(a), a[::2, 1::2], a[::-1, ::-1], a[1], a[:, :1]]


def check(f, *args):
    try:
        want = f.py_func(*args)
    except Exception as e:  # noqa: BLE001 -- the same exception expected
        with pytest.raises(type(e)):
            f(*args)
        return
    got = f(*args)
    for g, w in zip(got, want):
        assert type(g) is type(w.item() if isinstance(w, np.generic) else w), (g, w)
        np.testing.assert_array_equal(g, w)
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape


@ruchey.njit
def item_orders(a):
    return np.argmax(a), np.argmin(a), a.argmax(), a.argmin()


@ruchey.njit
def item_orders_along(a, k):
    return np.argmax(a, k), np.argmin(a, axis=k), a.argmax(axis=k), a.argmin(k)


@ruchey.njit
def truths(a):
    return np.count_nonzero(a), np.any(a), np.all(a), a.any(), a.all(), np.flatnonzero(a), np.extract(a, a)


@ruchey.njit
def truths_along(a, k):
    return np.count_nonzero(a, k), np.any(a, k), np.all(a, axis=k), a.any(k), a.all(axis=k)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_argmin_argmax_of_text_arrays_compare_items_as_numpy(kind, seed):
    for a in text_arrays(make_rng(seed), kind):
        check(item_orders, a)
        for k in range(a.ndim):
            check(item_orders_along, a, k)


@pytest.mark.parametrize("kind", ["U", "S"])
def test_argmax_of_an_empty_text_array_raises_as_numpy(kind):
    a = text_arrays(make_rng(0), kind)[0][:0]
    for f in (item_orders, item_orders_along):
        with pytest.raises(ValueError, match="attempt to get arg"):
            f(a, 0) if f is item_orders_along else f(a)


@numpy2_only  # (NumPy 1.x's any and all refuse text, its truth of a str is not only whitespace)
@numba_deviation("numba's count_nonzero, any, all and extract refuse text arrays")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_truth_of_text_arrays_counted_as_numpy(kind, seed):
    for a in text_arrays(make_rng(seed), kind) + [np.zeros((0, 3), kind)]:
        check(truths, a)
        for k in range(a.ndim):
            check(truths_along, a, k)


@ruchey.njit
def least_and_greatest(a):
    return np.min(a), np.max(a), a.min(), a.max(), np.amin(a), np.amax(a)


@ruchey.njit
def least_and_greatest_along(a, k):
    return np.min(a, k), np.max(a, axis=k)


@numba_deviation("numba's max and min of text arrays take no axis")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_min_max_of_text_arrays_are_the_items_argmin_argmax_find(kind, seed):
    """NumPy's minimum and maximum refuse text; Numba's min and max return
    the least and greatest item, the one NumPy's argmin and argmax find."""
    for a in text_arrays(make_rng(seed), kind):
        flat = a.ravel()
        least, greatest = flat[np.argmin(a)].item(), flat[np.argmax(a)].item()
        assert least_and_greatest(a) == (least, greatest) * 3
        for k in range(a.ndim):
            lo, hi = least_and_greatest_along(a, k)
            want_lo = np.take_along_axis(a, np.expand_dims(np.argmin(a, k), k), k).squeeze(k)
            want_hi = np.take_along_axis(a, np.expand_dims(np.argmax(a, k), k), k).squeeze(k)
            for g, w in ((lo, want_lo), (hi, want_hi)):
                if a.ndim == 1:  # (the one axis: an item, as NumPy's reductions of 1-d arrays)
                    assert g == w.item()
                    continue
                assert g.dtype == a.dtype
                np.testing.assert_array_equal(g, w)


def test_min_of_an_empty_text_array_raises_as_an_empty_minimum():
    with pytest.raises(ValueError, match="zero-size array"):
        least_and_greatest(np.zeros(0, "U2"))


@ruchey.njit
def filled_like(a, s):
    return np.full_like(a, s), np.full_like(a, s, order="F"), np.full_like(a, s, order="C")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_full_like_of_a_text_array_holds_the_value_cut_to_its_width(kind, seed):
    rng = make_rng(seed)
    for a in text_arrays(rng, kind) + [np.zeros((0, 2), kind)]:
        for fill in text_arrays(rng, kind)[0].ravel()[:4]:
            s = fill.item() * int(rng.integers(0, 4))  # wider than the items too
            got, want = filled_like(a, s), filled_like.py_func(a, s)
            for g, w in zip(got, want):
                assert g.dtype == w.dtype and g.flags.f_contiguous == w.flags.f_contiguous
                np.testing.assert_array_equal(g, w)


def test_full_like_of_a_text_array_and_a_number_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="takes a str fill value"):
        filled_like(np.array(["a"]), 3)
    with pytest.raises(ruchey.TypingError, match="takes a bytes fill value"):
        filled_like(np.array([b"a"]), "a")


@ruchey.njit
def equal_arrays(a, b):
    return np.array_equal(a, b), np.array_equal(b, a)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_array_equal_of_text_arrays_compares_items_as_numpy(kind, seed):
    rng = make_rng(seed)
    arrays = text_arrays(rng, kind)
    for a in arrays:
        wider = a.astype(kind + "7")  # equal items of another width: NumPy pads them to compare
        changed = a.copy()
        if changed.size:
            changed.flat[int(rng.integers(0, changed.size))] = "q" if kind == "U" else b"q"
        for b in [a.copy(), np.asfortranarray(a), wider, changed, a[::-1], a[:0]] + arrays:
            assert equal_arrays(a, b) == equal_arrays.py_func(a, b)


def test_array_equal_of_a_text_array_and_numbers_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="compares an array of str"):
        equal_arrays(np.array(["a"]), np.zeros(1))
    with pytest.raises(ruchey.TypingError, match="compares an array of str"):
        equal_arrays(np.array(["a"]), np.array([b"a"]))


@ruchey.njit
def broadcast_letters(n):
    return np.broadcast_to("a", (n, 2)), np.full_like(np.zeros(n, "U3"), "a")


def test_a_str_that_is_a_deprecated_dtype_alias_compiles_without_warnings():
    """'a' was NumPy's name of a bytes dtype (deprecated in NumPy 2):
    given to a builtin as a str, compiling asks NumPy nothing that warns."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = broadcast_letters(3)
    for g, w in zip(got, broadcast_letters.py_func(3)):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


@ruchey.njit
def found_in(a, b):
    return np.isin(a, b), np.isin(a, b, invert=True), np.isin(a, test_elements=b, assume_unique=True)


@numba_deviation("numba's isin refuses text arrays")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_isin_of_text_arrays_finds_items_as_numpy(kind, seed):
    rng = make_rng(seed)
    arrays = text_arrays(rng, kind)
    tests = [arrays[0].ravel()[:5], arrays[3].ravel(), arrays[0].ravel()[:0], arrays[0].ravel().astype(kind + "5")[::-2]]
    for a in arrays + [arrays[0].ravel()[0].item(), "q" if kind == "U" else b"q"]:
        for b in tests:
            for g, w in zip(found_in(a, b), found_in.py_func(a, b)):
                assert g.dtype == w.dtype and g.shape == w.shape
                np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("a, b", [(np.array(["a"]), np.zeros(2)), (np.zeros(2), np.array(["a"])),
                                  (np.array(["a"]), np.array([b"a"])), (np.array(["a"]), "a")])
def test_isin_of_text_and_another_kind_is_a_typing_error(a, b):
    with pytest.raises(ruchey.TypingError, match="looks for str"):
        found_in(a, b)


@ruchey.njit
def inserted(a, obj, values):
    return np.insert(a, obj, values)


@ruchey.njit
def inserted_text(a, k):
    return np.insert(a, k, "xy\u00e9z"), np.insert(a, [k, 0], "")


@ruchey.njit
def inserted_bytes(a, k):
    return np.insert(a, k, b"xy\xffz"), np.insert(a, [k, 0], b"")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_insert_into_text_arrays_as_numpy(kind, seed):
    """arrays of every layout flattened; values of another width cut or
    NUL-padded to arr's; one position or many (negative, unsorted, repeated)"""
    rng = make_rng(seed)
    for a in text_arrays(rng, kind):
        size = a.size
        wide = text_arrays(rng, kind)[0].astype(kind + "6")
        wide.flat[::3] = "abcdef" if kind == "U" else b"abcdef"
        for obj in (0, size, -1, np.array([size // 2]), np.array([0, size, -1, 1, 1])):
            n = 1 if np.ndim(obj) == 0 or len(obj) == 1 else len(obj)
            for values in (wide.ravel()[:n], wide.ravel()[::-2][:n], wide.ravel()[:1], np.resize(a.ravel(), n)):
                got, want = inserted(a, obj, values), inserted.py_func(a, obj, values)
                arraygen.assert_same_array(want, got, f"insert({a.dtype}, {obj}, {values.dtype})")
        for k in (0, size, -size):
            f = inserted_text if kind == "U" else inserted_bytes
            arraygen.assert_same_result(f.py_func(a, k), f(a, k), f"insert({a.dtype}, {k}, a constant)")


@pytest.mark.parametrize("a, values", [(np.array(["a"]), 5), (np.array(["a"]), b"a"), (np.array([b"a"]), "a"),
                                       (np.arange(3), "1"), (np.array(["a"]), np.array([b"a"]))])
def test_insert_of_text_and_another_kind_is_a_typing_error(a, values):
    with pytest.raises(ruchey.TypingError, match="puts str into arrays of str"):
        inserted(a, 0, values)


def test_insert_into_a_text_array_out_of_bounds_raises_numpys_index_error():
    a = np.array(["ab", "c"])
    with pytest.raises(IndexError):
        inserted.py_func(a, 3, "x")
    with pytest.raises(IndexError, match="out of bounds"):
        inserted(a, np.array([3]), a)


TEXT_VALUE_READERS = """
@ruchey.njit
def f(a):
    b = a.copy()
    b.fill({s!r})
    return np.isin({s!r}, a), np.searchsorted(np.sort(a), {s!r}), np.full_like(a, {s!r}), b, {s!r} in [{s!r}, "x"]
"""


@pytest.mark.parametrize("s", ["f8", "a5", "U3", "bool", "int8", "M8[ns]", "zz"])
def test_a_str_naming_a_dtype_is_a_str_where_text_values_are_read(s):
    """a constant str given where a text value is read, not a dtype, is that
    str even where it names a dtype (numpy.isin("f8", a), a.fill("a5"))"""
    f = arraygen.define(TEXT_VALUE_READERS.format(s=s))
    grid = text_arrays(make_rng(len(s)), "U")[0]
    for a in (grid.ravel(), grid[1, ::-2], np.array(["f8", "a5", "U3", "bool", "int8", "M8[ns]"])):
        arraygen.check(f, a)


@ruchey.njit
def chosen(c, x, y):
    return np.where(c, x, y)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_where_chooses_between_text_arrays_as_numpy(kind, seed):
    """The result has the wider dtype and the broadcast shape; a condition of
    bools, numbers or text (true where not empty), 0-d or broadcast."""
    rng = make_rng(seed)
    a = text_arrays(rng, kind)[0]
    b = text_arrays(rng, kind, shape=(4, 6))[0].astype(kind + "5")
    conditions = [rng.random(a.shape) < 0.5, rng.integers(-1, 2, (1, 6)), True, np.float64(0.0)]
    if not NUMPY1:  # (NumPy 2's truth of a str: not empty)
        conditions += [a, b[:, 0:1]]
    for c in conditions:
        for x, y in ((a, b), (b, a), (a, a[::-1, ::-1]), (np.asfortranarray(a), b[0]), (a[:, :1], b[1::3])):
            got, want = chosen(c, x, y), chosen.py_func(c, x, y)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got, want)


@ruchey.njit
def chosen_literals(c, x):
    return np.where(c, 0, 1), np.where(c, 0.5, -2), np.where(c, True, False), np.where(c, x, 2), np.where(c, 1.5, x)


@numpy2_only  # (NumPy 2's truth of a str: not empty)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["U", "S"])
def test_where_of_a_text_condition_chooses_between_numbers_as_numpy(kind, seed):
    """numbers written in the call (weak, NumPy 2's promotion), NumPy
    numbers and arrays of every dtype and layout, broadcast against the
    condition"""
    rng = make_rng(seed)
    for c in text_arrays(rng, kind) + [np.zeros((0, 3), kind)]:
        c2 = c if c.ndim == 2 else c[None, :]
        n = c2.shape[-1]
        pairs = [(np.float32(3), np.int8(7)), (np.complex64(1j), np.float64(2))]
        for dtype in DTYPES + [np.complex128]:
            x = arraygen.array(rng, dtype, c2.shape, rng.choice(arraygen.LAYOUTS))
            y = arraygen.array(rng, dtype, (n,))
            pairs += [(x, y), (np.int8(1), x), (x[..., :1], np.real(y).astype(np.float32))]
            if dtype not in (np.uint64, np.complex128):  # (NumPy's uint64 and int64 promote to float64)
                got, want = chosen_literals(c, x), chosen_literals.py_func(c, x)
                arraygen.assert_same_result(want, got, f"where({c.dtype}, {x.dtype} and numbers)")
        for x, y in pairs:
            got, want = chosen(c, x, y), chosen.py_func(c, x, y)
            arraygen.assert_same_array(want, got, f"where({c.dtype}, {np.asarray(x).dtype}, {np.asarray(y).dtype})")


@ruchey.njit
def chosen_by_a_literal_str():
    return np.where("ab", 0, 1), np.where("", 0.5, 2), np.where(" ", 1, 2)


@numpy2_only  # (NumPy 1's where reads a str condition as int(s): ruchey reads it as NumPy 2, as text arrays above)
@pytest.mark.parametrize("seed", range(3))
def test_where_of_a_str_condition_reads_it_as_numpy_reads_a_0d_array_of_it(seed):
    """a str condition is NumPy's 0-d array of one str: true where not empty,
    the result 0-d or x's and y's broadcast"""
    rng = make_rng(seed)
    words = ["", "a", " ", "  \t", "\x00", "ab c", "\u65e5", "\x00b"] + \
        ["".join(rng.choice(list(" ab\u00e9\x00"), size=int(rng.integers(0, 6)))) for _ in range(8)]
    for c in words:
        for dtype in DTYPES:
            x = arraygen.array(rng, dtype, (3, 4), rng.choice(arraygen.LAYOUTS))
            y = arraygen.array(rng, dtype, (4,))
            for args in ((x, y), (x, np.int8(2)), (np.float32(1.5), y[:1])):
                arraygen.assert_same_array(chosen.py_func(c, *args), chosen(c, *args), f"where({c!r}, {dtype})")
            if dtype not in (np.uint64,):  # (NumPy's uint64 and int64 promote to float64)
                arraygen.assert_same_result(chosen_literals.py_func(c, x), chosen_literals(c, x), f"where({c!r})")
    arraygen.assert_same_result(chosen_by_a_literal_str.py_func(), chosen_by_a_literal_str(), "where('ab', 0, 1)")


def test_where_of_a_str_condition_is_numpy_2s_on_numpy_1_too():
    """where's text conditions, arrays and str alike, are true where not empty
    under every NumPy (NumPy 1's where parses them as ints); argwhere and
    flatnonzero keep NumPy 1's own truth there (not only whitespace)"""
    assert [v.item() for v in chosen_by_a_literal_str()] == [0, 2.0, 1]
    assert chosen("\x00", 1, 2).item() == 2 and chosen("0", 1, 2).item() == 1
    nonzero_of = ruchey.njit(lambda c: np.flatnonzero(c).size)
    assert nonzero_of(" ") == nonzero_of.py_func(" ") and nonzero_of("a") == nonzero_of.py_func("a") == 1


def test_where_of_text_and_numbers_is_a_typing_error_and_of_bad_shapes_numpys_value_error():
    u = np.array(["ab", "c"])
    with pytest.raises(ruchey.TypingError, match="chooses between two arrays of str"):
        chosen(u, u, 1)
    with pytest.raises(ruchey.TypingError, match="chooses between two arrays of str"):
        chosen(u, 1, u.astype("S2"))
    with pytest.raises(ruchey.TypingError, match="chooses between two arrays of str"):
        chosen(True, u, u.astype("S2"))
    with pytest.raises(ValueError, match="could not be broadcast"):
        chosen(u, np.zeros(3), 1)
    with pytest.raises(ValueError, match="could not be broadcast"):
        chosen(True, u, np.array(["a", "b", "c"]))


# ---------------------------------------------------------------- every NumPy name given text arrays

SWEEP = r'''
import linecache, sys, warnings
import numpy as np
import ruchey
from ruchey import _core

def names():
    out = set()
    for row in _core.builtins():
        module, path = row[1], row[2]
        if module and module.startswith("numpy") and module != "numpy.random" and path:
            out.add("np." + (module[6:] + "." if module != "numpy" else "") + path)
        if row[0].startswith("array.") and row[3] == "method" and path:
            out.add("x." + path)
    return sorted(out)

CALLS = ("{f}(x)", "{f}(x, x)", "{f}(x, 0)", "{f}(x, t)", "{f}(m, x, x)", "{f}(x, 0, 1)")
done = 0
for f in names():
    for call in CALLS:
        if f.startswith("x."):
            call = call.replace("(x, ", "(").replace("(x)", "()")
        src = f"def g(x, t, m):\n    return {call.format(f=f)}\n"
        filename = f"<text-sweep-{done}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        ns = {"np": np}
        exec(compile(src, filename, "exec"), ns)
        g = ruchey.njit(ns["g"])
        for x in (np.array([["ab", "c", ""], ["abc", "b", "x"]], "U3"), np.array([b"ab", b"", b"abc"], "S3")):
            t = "abc" if x.dtype.kind == "U" else b"abc"
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    g(x, t, x != x[..., :1])
            except Exception:  # noqa: BLE001 -- a clear exception is an answer; a crash ends the process
                pass
            done += 1
print("swept", done)
'''


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's table of builtins")
def test_every_numpy_name_given_text_arrays_answers_without_crashing():
    """Each NumPy function and array method ruchey compiles, called with a
    '<U3' and an 'S3' array in a few argument patterns: a result or an
    exception, the process alive at the end."""
    run = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True, timeout=1500)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "swept" in run.stdout
