"""divmod(a, b) in compiled code: Python's floored quotient and remainder
of ints, floats and bools (NumPy's types unified as for `//` and `%`),
ZeroDivisionError by zero; compared with the function's py_func on
generated inputs."""
import numpy as np
import pytest

from ruchey import TypingError, njit

from conftest import assert_same_value, make_rng, random_ints, seed_of


@njit
def divmod_of(a, b):
    return divmod(a, b)


@pytest.mark.parametrize("kind", ["int", "float", "mixed"])
def test_divmod_matches_python(kind):
    rng = make_rng(seed_of("divmod", kind))
    xs = random_ints(rng, 20, -1000, 1000)
    ys = [y for y in random_ints(rng, 20, -50, 50) if y]
    for x, y in zip(xs, ys):
        a, b = (x, y) if kind == "int" else (x / 7, y / 3) if kind == "float" else (x, y / 3)
        assert_same_value(divmod_of.py_func(a, b), divmod_of(a, b))


def test_divmod_of_bools_and_int32():
    assert_same_value(divmod_of.py_func(True, True), divmod_of(True, True))
    got = divmod_of(np.int32(-7), np.int32(2))
    assert got == (-4, 1)


@pytest.mark.parametrize("a, b", [(3, 0), (3.5, 0.0), (0, 0)])
def test_divmod_by_zero_raises_as_python(a, b):
    with pytest.raises(ZeroDivisionError):
        divmod_of.py_func(a, b)
    with pytest.raises(ZeroDivisionError):
        divmod_of(a, b)


def test_divmod_of_complex_is_a_typing_error():
    with pytest.raises(TypingError, match="complex"):
        divmod_of(1j, 2)


# ---------------------------------------------------------------- numpy.divmod

@njit
def np_divmod_of(a, b):
    return np.divmod(a, b)


@njit
def np_divmod_unpacked(a, w):
    r, c = np.divmod(a * 2 + 1, w)  # an expression argument, computed once
    return r, c


@njit
def np_divmod_in_expression(a, w):
    return np.divmod(a - 1, w)[1] + np.divmod(a, w + 1)[0]


@njit
def np_divmod_of_draws(n, seed):
    np.random.seed(seed)
    q, r = np.divmod(np.random.randint(0, 100, n), 7)  # drawn once: q * 7 + r is the draw
    np.random.seed(seed)
    return q, r, np.random.randint(0, 100, n)


def test_numpy_divmod_matches_numpy():
    rng = make_rng(seed_of("numpy.divmod"))
    with np.errstate(all="ignore"):
        for dtype in (np.int8, np.int32, np.int64, np.uint16, np.uint64, np.float32, np.float64):
            a = (rng.integers(-100, 100, 12) if np.dtype(dtype).kind != "u" else rng.integers(0, 200, 12)).astype(dtype)
            b = a[::-1].copy()
            b[:3] = 0  # NumPy's answers by zero: 0 for ints, nan and inf for floats
            for x, y in [(a, b), (a, 7), (a.reshape(3, 4), b[:4]), (5, b)]:
                assert_same_value(np_divmod_of.py_func(x, y), np_divmod_of(x, y))
            assert_same_value(np_divmod_unpacked.py_func(a, 5), np_divmod_unpacked(a, 5))
            assert_same_value(np_divmod_in_expression.py_func(a, 3), np_divmod_in_expression(a, 3))
        for x, y in [(7, 2), (-7, 2), (7, 0), (7.5, -2.0), (np.float32(3.5), 0.0), (True, 3)]:
            assert_same_value(np_divmod_of.py_func(x, y), np_divmod_of(x, y))
    q, r, draws = np_divmod_of_draws(9, 4)
    assert np.array_equal(q * 7 + r, draws)


@njit
def np_divmod_into(a, b, q, r):
    return np.divmod(a, b, q, r)


@njit
def np_divmod_into_keyword(a, b, q, r):
    np.divmod(a, b, out=(q, r))
    return q.sum(), r.sum()


def test_numpy_divmod_writes_into_its_two_outputs():
    rng = make_rng(seed_of("numpy.divmod out"))
    with np.errstate(all="ignore"):
        for dtype, out_dtype in [(np.int32, np.int64), (np.int64, np.int64), (np.uint8, np.float64),
                                 (np.float32, np.float32), (np.float64, np.float64)]:
            a = (rng.integers(-50, 50, (3, 4)) if np.dtype(dtype).kind != "u" else rng.integers(0, 99, (3, 4))).astype(dtype)
            for b in (a[::-1].copy(), a[0].copy(), 3, a[:0]):
                x = a[:0] if np.size(b) == 0 else a
                for f in (np_divmod_into, np_divmod_into_keyword):
                    outs = [np.zeros(np.broadcast(x, b).shape, out_dtype) for _ in range(4)]
                    outs[2:] = [np.asfortranarray(o) for o in outs[2:]]
                    expected, got = f.py_func(x, b, outs[0], outs[1]), f(x, b, outs[2], outs[3])
                    assert_same_value(expected, got)
                    assert_same_value(outs[0], outs[2]) and assert_same_value(outs[1], outs[3])
                    if f is np_divmod_into and x.size:
                        assert got[0] is outs[2] and got[1] is outs[3]


def test_numpy_divmod_outputs_errors_are_typing_errors():
    a, q = np.arange(4), np.zeros(4, np.int64)
    for src in ["np.divmod(a, 2, q)", "np.divmod(a, 2, q, out=(q, q))", "np.divmod(a, 2, out=q)",
                "np.divmod(a, 2, q, 1)", "np.divmod(a, 2.5, q, q)"]:
        f = njit(eval(f"lambda a, q: {src}"))
        with pytest.raises(TypingError):
            f(a, q)


def test_numpy_divmod_needs_variables_where_its_arguments_cannot_move():
    @njit
    def in_while(a):
        n = 0
        while np.divmod(a.sum() + n, 3)[1] != 0:
            n += 1
        return n

    @njit
    def after_a_draw(n):
        return np.random.random() + np.divmod(np.random.randint(0, 9, n), 2)[0]

    for f, arg in [(in_while, np.arange(4)), (after_a_draw, 3)]:
        with pytest.raises(TypingError, match="reads its arguments twice"):
            f(arg)
    with pytest.raises(TypingError):
        np_divmod_of(1j, 2)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32])
def test_divmod_of_small_ints_is_in_64_bits(dtype):
    info = np.iinfo(dtype)
    pairs = [(info.min, -1), (info.max, 1), (info.min, 3), (info.max, -7), (-5, 2)]
    for a, b in pairs:
        if min(a, b) < 0 and info.min == 0:
            continue
        got = divmod_of(dtype(a), dtype(b))
        assert got == divmod_of.py_func(int(a), int(b))
        assert all(type(v) is int for v in got)


@njit
def int64_min_by_minus_one(a, b):
    return divmod(a, b), a // b, a % b


@njit
def floordiv_and_mod(a, b):
    return a // b, a % b


def test_int64_min_by_minus_one_is_zero_as_numba():
    # the machine division overflows; Numba's quotient and remainder for
    # Python's operators are 0
    lo = np.iinfo(np.int64).min
    assert int64_min_by_minus_one(lo, -1) == ((0, 0), 0, 0)
    # NumPy's own functions and array operators give NumPy's answer
    a, b = np.array([lo, lo, 7]), np.array([-1, 1, -1])
    with np.errstate(over="ignore"):
        expected = floordiv_and_mod.py_func(a, b)
    for got, want in zip(floordiv_and_mod(a, b), expected):
        assert got.tolist() == want.tolist()
    for a, b in [(lo, 1), (lo, 2), (lo + 1, -1), (-7, -1), (7, -1)]:
        assert int64_min_by_minus_one(a, b) == int64_min_by_minus_one.py_func(a, b)
