"""NumPy's view and copy functions of arrays of str and bytes in compiled
code, as Numba's take them (broadcast_to, expand_dims, flip, take,
repeat...): items move as their bytes, compared with the function's own
Python on generated arrays of both text dtypes, several widths and every
layout (C, Fortran, strided, reversed, empty)."""
import numpy as np
import pytest

import ruchey
from arraygen import LAYOUTS, check, define
from conftest import make_rng

RNG = make_rng(9871)
LETTERS = np.array(list("ab yz\u00e9\u4e2d"))


def text_array(dtype, shape, layout):
    """Random words of up to the dtype's width (empty ones, spaces, trailing
    spaces among them), in the layout."""
    width = np.dtype(dtype).itemsize // (4 if np.dtype(dtype).kind == "U" else 1)
    big = tuple(2 * s for s in shape) if layout == "strided" else shape
    count = int(np.prod(big))
    words = ["".join(RNG.choice(LETTERS, size=RNG.integers(0, width + 1))) for _ in range(count)]
    if np.dtype(dtype).kind == "S":
        words = [w.encode("utf-8")[:width].decode("utf-8", "ignore").encode("utf-8") for w in words]
    a = np.array(words, dtype=dtype).reshape(big)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided":
        return a[tuple(slice(None, None, 2) for _ in shape)]
    if layout == "reversed" and a.ndim:
        return a[..., ::-1]
    return a


def text_arrays(shapes):
    for dtype in ("<U1", "<U3", "<U7", "S2", "S5"):
        for shape in shapes:
            for layout in LAYOUTS:
                yield text_array(dtype, shape, layout)


SHAPES_2D = [(2, 3), (1, 4), (3, 1), (0, 3)]
SHAPES_ANY = [(4,), (0,), (2, 3), (2, 1, 3)]

EXPRESSIONS_2D = [
    "np.broadcast_to(a[-1:], (3,) + a.shape[1:]) if a.size else a", "np.broadcast_to(a, (2,) + a.shape)",
    "np.expand_dims(a, 1)", "np.atleast_3d(a)", "np.swapaxes(a, 0, 1)", "a.swapaxes(1, 0)",
    "np.moveaxis(a, 0, -1)", "np.flip(a)", "np.flip(a, 1)", "np.fliplr(a)", "np.flipud(a)", "np.rot90(a)",
    "np.ascontiguousarray(a.T)", "np.asfortranarray(a)", "np.asarray(a)", "np.split(a, 1)", "np.array_split(a, 2)",
    "np.hsplit(a, 1)", "np.vsplit(a, 1)", "np.take(a, np.array([0, -1, 1]))", "a.take(np.array([2, 0]))",
    "np.repeat(a, 2)", "a.repeat(3)", "np.repeat(a, 2, axis=1)", "np.roll(a, 2)", "np.roll(a, -1, axis=0)",
    "np.append(a, a)", "np.append(a, a, axis=0)", "np.delete(a, 1)", "np.diag(a)", "np.diag(a, 1)",
    "np.squeeze(a[:1], 0)", "a[:, :1].squeeze(1)", "np.tile(a, 2)", "np.tile(a, (2, 1, 2))", "np.resize(a, (3, 5))",
]

# (broadcast_arrays made a tuple: NumPy 1.x returns a list, NumPy 2 a tuple)
EXPRESSIONS_ANY = [
    "tuple(np.broadcast_arrays(a, a))", "np.atleast_1d(a)", "np.atleast_2d(a)", "np.expand_dims(a, 0)", "np.flip(a)",
    "np.take(a, np.array([0, 0]))", "np.repeat(a, 0)", "np.roll(a, 1)", "np.append(a, a)", "np.squeeze(a[None], 0)",
    "np.tile(a, 3)", "np.resize(a, 7)",
]


def indices_fit(expr, a):
    if "squeeze(a[:1]" in expr:
        return a.shape[0] > 0
    return not ("take" in expr or "delete" in expr or "diag(a, 1)" in expr) or a.size > 2


@pytest.mark.parametrize("expr", EXPRESSIONS_2D)
def test_str_arrays_2d(expr):
    f = define(f"@ruchey.njit\ndef f(a):\n    return {expr}\n")
    for a in text_arrays(SHAPES_2D):
        if indices_fit(expr, a):
            check(f, a, flags="diag" not in expr)  # (a diagonal is a copy here, NumPy's a view)


@pytest.mark.parametrize("expr", EXPRESSIONS_ANY)
def test_str_arrays_any_ndim(expr):
    f = define(f"@ruchey.njit\ndef f(a):\n    return {expr}\n")
    for a in text_arrays(SHAPES_ANY):
        if indices_fit(expr, a):
            check(f, a, flags=True)


def test_str_array_broadcast_to_is_a_read_only_view():
    @ruchey.njit
    def f(a):
        return np.broadcast_to(a, (3, a.size))

    a = np.array(["x", "yz"])
    r = f(a)
    assert not r.flags.writeable and np.shares_memory(r, a)
    np.testing.assert_array_equal(r, f.py_func(a))


def test_str_array_broadcast_to_bad_shape_is_numpys_error():
    @ruchey.njit
    def f(a):
        return np.broadcast_to(a, (2, 3))

    with pytest.raises(ValueError, match="broadcast"):
        f(np.array(["ab", "c"]))


def test_str_array_take_out_of_bounds_is_an_index_error():
    @ruchey.njit
    def f(a):
        return np.take(a, np.array([5]))

    with pytest.raises(IndexError):
        f(np.array(["ab", "c"]))


JOINS = ["np.concatenate((a, b))", "np.append(a, b)", "np.append(b, a)", "np.vstack((a, b[:a.size]))", "np.hstack((b, a))",
         "np.stack((a, b[:a.size]))", "np.concatenate((a, b), axis=0)"]


@pytest.mark.parametrize("expr", JOINS)
def test_str_arrays_of_two_widths_join_padded(expr):
    f = define(f"@ruchey.njit\ndef f(a, b):\n    return {expr}\n")
    for kinds in (("<U2", "<U6"), ("<U5", "<U1"), ("S1", "S4"), ("S3", "S3")):
        for layout in LAYOUTS:
            a = text_array(kinds[0], (4,), layout)
            b = text_array(kinds[1], (5,), "C")
            check(f, a, b, flags=True)


@pytest.mark.parametrize("other", [np.array([1.5]), np.array([b"x"]), np.array([3], np.int8)])
def test_str_array_joined_with_another_kind_is_a_typing_error(other):
    @ruchey.njit
    def f(a, b):
        return np.concatenate((a, b))

    @ruchey.njit
    def g(a, b):
        return np.append(a, b)

    for h in (f, g):
        with pytest.raises(ruchey.TypingError, match="cannot join arrays"):
            h(np.array(["ab"]), other)


WORDS = ["a", "", "h\u00e9llo", "\u4e2d\u6587 x", " "]


def test_broadcast_to_of_a_str_constant_is_its_text_array():
    for word in WORDS:
        for shape in ("(2, 3)", "(n,)", "()", "(0, n)"):
            f = define(f"@ruchey.njit\ndef f(n):\n    return np.broadcast_to({word!r}, {shape})\n")
            for n in (0, 1, 4):
                got = check(f, n)
                assert not got.flags.writeable


def test_broadcast_to_of_a_str_variable_is_a_typing_error():
    @ruchey.njit
    def f(s):
        return np.broadcast_to(s, (2,))

    with pytest.raises(ruchey.TypingError, match="known when the function is compiled"):
        f("ab")
